package analysis

import (
	"fmt"
	"math"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// memoryPasses is a server's memory series on one database (none where
// the series names none): the fit of each pass and of all its passes
// pooled (memory_slopes' rows through cost.MemoryFit, the one form wra
// analyze and wra cost take), memory_slopes' row over all passes, and the
// points.
type memoryPasses struct {
	server   string
	database string
	passes   []stats.MemoryFit
	passNums []int64
	pooled   stats.MemoryFit
	row      model.MemorySlope
	srcs     []model.Source
	points   []MemoryPoint
}

// memoryName names the series in notes and findings: the server, with
// its database where the series names one.
func (a *analysis) memoryName(m *memoryPasses) string {
	if m.database == "" {
		return a.serverName(m.server)
	}
	return a.rowName(m.server, m.database, "")
}

// name names the series by its values, for its plot (the plot shows the
// servers' display names).
func (m *memoryPasses) name() string {
	if m.database == "" {
		return m.server
	}
	return rowName(m.server, m.database, "")
}

// memoryFits reads every memory series, one per server and database, and
// its fits.
func (a *analysis) memoryFits() ([]memoryPasses, error) {
	pts, err := a.st.MemorySeries(a.ctx)
	if err != nil {
		return nil, err
	}
	slopes, err := a.st.MemorySlopes(a.ctx)
	if err != nil {
		return nil, err
	}
	type key struct {
		server, database string
		pass             int64
		pooled           bool
	}
	rows := map[key]model.MemorySlope{}
	for _, r := range slopes {
		rows[key{r.Server, r.Database, r.Pass, r.Pooled}] = r
	}
	row := func(k key) (model.MemorySlope, error) {
		r, ok := rows[k]
		if !ok {
			return r, fmt.Errorf("memory_slopes has no row for server %q database %q pass %d (pooled %v)", k.server, k.database, k.pass, k.pooled)
		}
		return r, nil
	}
	var out []memoryPasses
	for i := 0; i < len(pts); {
		m := memoryPasses{server: pts[i].Server, database: pts[i].Database}
		same := func(p model.MemorySeriesPoint) bool { return p.Server == m.server && p.Database == m.database }
		start := i
		for i < len(pts) && same(pts[i]) {
			pass, from := pts[i].Pass, i
			for i < len(pts) && same(pts[i]) && pts[i].Pass == pass {
				m.points = append(m.points, MemoryPoint{Concurrency: pts[i].Concurrency, MemoryMB: pts[i].MemoryMB})
				m.srcs = append(m.srcs, model.Source{File: pts[i].Source, Line: pts[i].Line})
				i++
			}
			r, err := row(key{m.server, m.database, pass, false})
			if err != nil {
				return nil, err
			}
			m.passes = append(m.passes, cost.MemoryFit(r, pts[from:i]))
			m.passNums = append(m.passNums, pass)
		}
		r, err := row(key{m.server, m.database, -1, true})
		if err != nil {
			return nil, err
		}
		m.row, m.pooled = r, cost.MemoryFit(r, pts[start:i])
		out = append(out, m)
	}
	return out, nil
}

// MemorySection is the highest memory per server, database and variant,
// and each memory series' growth per 1000 waiting requests with the
// spread of its passes, and the series for the plot.
type MemorySection struct {
	Skipped string
	Highest *MemoryHighest // nil where no run has memory figures
	Growth  *MemoryGrowth  // nil where there are no memory series
}

// MemoryHighest is the highest working set and private memory of each
// server, database and variant over its runs, MiB.
type MemoryHighest struct {
	Rows  []model.PeakMemory
	Notes []string
}

// MemoryGrowth is the growth per 1000 waiting requests of each series.
type MemoryGrowth struct {
	Rows   []MemoryRow
	Series []MemorySeries
	Notes  []string
}

// MemoryRow is one series' passes: the median pass slope with its range,
// the pooled fit (least squares and Theil–Sen) with its base and R², and
// its points.
type MemoryRow struct {
	Server, Database           string
	Passes                     int64
	SlopeMedian, SlopeMin      float64 // GiB per 1000
	SlopeMax                   float64
	PooledSlope, TheilSenSlope float64 // GiB per 1000
	InterceptGiB, R2           float64
	Points                     int64
	Sources                    []model.Source
}

// MemorySeries is one series of the memory plot: its points and, where
// it has one, the pooled fit.
type MemorySeries struct {
	Server, Label string
	Points        []MemoryPoint
	// SlopeMBPerRequest and InterceptMB are the pooled fit; NaN where
	// there is none.
	SlopeMBPerRequest, InterceptMB float64
}

// MemoryPoint is the memory at one concurrency of waiting requests.
type MemoryPoint struct {
	Concurrency, MemoryMB float64
}

// memory is the highest working set and private memory per server, and
// the memory growth per 1000 waiting requests with the spread of passes.
func (a *analysis) memory(mem []memoryPasses) (MemorySection, error) {
	var sec MemorySection
	peak, err := a.st.PeakMemory(a.ctx)
	if err != nil {
		return sec, err
	}
	if len(peak) > 0 {
		n := &notes{list: []string{"working set is the resident set (RSS) of all the server's processes, private the pages only they use (Private_Clean + Private_Dirty), each the highest seen after a run of the row's groups (the two may come from different runs of it)"}}
		cv := a.newCaveats()
		for _, r := range peak {
			cv.add(a.rowName(r.Server, r.Database, r.Variant), r.GroupIDs, "drift")
		}
		cv.to(n)
		sec.Highest = &MemoryHighest{Rows: byManifest(peak, a.disp, func(r model.PeakMemory) string { return r.Server }), Notes: n.list}
	}
	if len(mem) > 0 {
		n := &notes{}
		g := &MemoryGrowth{}
		for _, m := range mem {
			for i, fit := range m.passes {
				for _, w := range fit.Warnings {
					n.add(fmt.Sprintf("%s, pass %d: %s", a.memoryName(&m), m.passNums[i], w.Msg))
				}
			}
			r, pooled := m.row, m.pooled
			if r.Passes < 3 {
				n.add(fmt.Sprintf("%s: %d passes; three or more show the spread of slopes", a.memoryName(&m), r.Passes))
			}
			g.Rows = append(g.Rows, MemoryRow{Server: m.server, Database: m.database, Passes: r.Passes,
				SlopeMedian: r.PassSlopeMedianGiBPer1000, SlopeMin: r.PassSlopeMinGiBPer1000, SlopeMax: r.PassSlopeMaxGiBPer1000,
				PooledSlope: pooled.SlopeGiBPer1000, TheilSenSlope: pooled.TheilSenGiBPer1000, InterceptGiB: pooled.InterceptGiB, R2: pooled.R2,
				Points: int64(pooled.Points), Sources: m.srcs})
			series := MemorySeries{Server: m.server, Label: m.name(), Points: m.points, SlopeMBPerRequest: math.NaN(), InterceptMB: math.NaN()}
			if !math.IsNaN(pooled.SlopeGiBPer1000) {
				series.SlopeMBPerRequest, series.InterceptMB = pooled.SlopeGiBPer1000*1024/1000, pooled.InterceptGiB*1024
			}
			g.Series = append(g.Series, series)
		}
		g.Rows = byKey(a, g.Rows, n, func(r MemoryRow) float64 { return r.SlopeMedian }, nil, false, nil, "median pass slope")
		g.Rows = byManifest(g.Rows, a.disp, func(r MemoryRow) string { return r.Server })
		n.add("median pass slope: the median of the passes' least-squares slopes (min and max beside it), the figure to publish; pooled fit: the least-squares slope of all passes' points together, the figure the cost model prices memory with (memory from \"pooled fit\"); Theil–Sen, base and R² are of all passes pooled; 1 GiB = 1024 MiB")
		g.Notes = n.list
		sec.Growth = g
	}
	if sec.Highest == nil && sec.Growth == nil {
		sec.Skipped = "no memory figures in runs and no memory series"
	}
	return sec, nil
}
