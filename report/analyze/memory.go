package analyze

import (
	"fmt"
	"math"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
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
	srcs     []report.Source
	points   []report.MemoryPoint
}

// name names the series in notes and findings: the server, with its
// database where the series names one.
func (a *analysis) memoryName(m *memoryPasses) string {
	if m.database == "" {
		return a.serverName(m.server)
	}
	return a.rowName(m.server, m.database, "")
}

// name names the series by its values, for its plot (display names the
// plot's servers after).
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
				m.points = append(m.points, report.MemoryPoint{Concurrency: pts[i].Concurrency, MemoryMB: pts[i].MemoryMB})
				m.srcs = append(m.srcs, report.Source{File: pts[i].Source, Line: pts[i].Line})
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

// memory is the highest working set and private memory per server, and
// the memory growth per 1000 waiting requests with the spread of passes.
func (a *analysis) memory(mem []memoryPasses) (*Section, error) {
	sec := &Section{ID: "memory", Title: "Memory"}
	peak, err := a.st.PeakMemory(a.ctx)
	if err != nil {
		return nil, err
	}
	if len(peak) > 0 {
		d := &report.Data{
			Title: "Highest memory per server, database and variant over its runs at every test and load (MiB)",
			Name:  "highest",
			Columns: []report.Column{col("server", "server", nil), col("database", "database", nil), col("variant", "variant", nil),
				col("working_set_mb", "working set MiB", Sig), col("private_mb", "private MiB", Sig), col("runs", "runs", nil)},
		}
		n := &notes{list: []string{"working set is the resident set (RSS) of all the server's processes, private the pages only they use (Private_Clean + Private_Dirty), each the highest seen after a run of the row's groups (the two may come from different runs of it)"}}
		cv := a.newCaveats()
		for _, r := range peak {
			d.Rows = append(d.Rows, []any{r.Server, nullIfEmpty(r.Database), nullIfEmpty(r.Variant), num(r.WorkingSetMB), num(r.PrivateMB), r.Runs})
			cv.add(a.rowName(r.Server, r.Database, r.Variant), r.GroupIDs, "drift")
		}
		d.DropEmpty("database", "variant")
		cv.to(n)
		d.Notes = n.list
		sec.Tables = append(sec.Tables, d)
	}
	if len(mem) > 0 {
		n := &notes{}
		d := &report.Data{
			Title: "Memory growth per 1000 concurrent waiting requests (GiB per 1000)",
			Name:  "growth",
			Columns: []report.Column{
				col("server", "server", nil), col("database", "database", nil), col("passes", "passes", nil),
				col("pass_slope_median_gib_per_1000", "median pass slope GiB/1000", Sig), col("slope_min_gib_per_1000", "min", Sig), col("slope_max_gib_per_1000", "max", Sig),
				col("pooled_slope_gib_per_1000", "pooled fit GiB/1000", Sig), col("theil_sen_gib_per_1000", "Theil–Sen", Sig),
				col("intercept_gib", "base GiB", Sig), col("r2", "R²", Sig), col("points", "points", nil),
			},
		}
		var chart []report.MemorySeries
		var keys []float64
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
			d.Rows = append(d.Rows, []any{m.server, nullIfEmpty(m.database), r.Passes, rounded(r.PassSlopeMedianGiBPer1000, r.PassSlopeMinGiBPer1000, r.PassSlopeMaxGiBPer1000),
				rounded(r.PassSlopeMinGiBPer1000, r.PassSlopeMinGiBPer1000, r.PassSlopeMaxGiBPer1000), rounded(r.PassSlopeMaxGiBPer1000, r.PassSlopeMinGiBPer1000, r.PassSlopeMaxGiBPer1000),
				num(pooled.SlopeGiBPer1000), num(pooled.TheilSenGiBPer1000), num(pooled.InterceptGiB), num(pooled.R2), int64(pooled.Points)})
			d.RowSources = append(d.RowSources, m.srcs)
			keys = append(keys, r.PassSlopeMedianGiBPer1000)
			series := report.MemorySeries{Server: m.server, Label: m.name(), Points: m.points}
			if !math.IsNaN(pooled.SlopeGiBPer1000) {
				series.Fit = &report.MemoryFit{SlopeMBPerRequest: pooled.SlopeGiBPer1000 * 1024 / 1000, InterceptMB: pooled.InterceptGiB * 1024}
			}
			chart = append(chart, series)
		}
		d.DropEmpty("database")
		a.orderByKey(d, n, keys, nil, false, "", "median pass slope")
		n.add("median pass slope: the median of the passes' least-squares slopes (min and max beside it), the figure to publish; pooled fit: the least-squares slope of all passes' points together, the figure the cost model prices memory with (memory from \"pooled fit\"); Theil–Sen, base and R² are of all passes pooled; 1 GiB = 1024 MiB")
		d.Notes = n.list
		sec.Tables = append(sec.Tables, d)
		sec.Figures = append(sec.Figures, Figure{Name: "memory", Caption: "Memory against concurrent waiting requests, with the fitted line per server",
			Figure: &report.MemoryChart{Title: "Memory per waiting request", Series: chart}})
	}
	if len(sec.Tables) == 0 {
		sec.Skipped = "no memory figures in runs and no memory series"
	}
	return sec, nil
}
