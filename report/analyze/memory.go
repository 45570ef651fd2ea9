package analyze

import (
	"fmt"
	"math"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// memory is the highest working set and private memory per server, and
// the memory growth per 1000 waiting requests with the spread of passes.
func (a *analysis) memory() (*Section, error) {
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
			cv.add(rowName(r.Server, r.Database, r.Variant), r.GroupIDs, "drift")
		}
		d.DropEmpty("database", "variant")
		cv.to(n)
		d.Notes = n.list
		sec.Tables = append(sec.Tables, d)
	}
	pts, err := a.st.MemorySeries(a.ctx)
	if err != nil {
		return nil, err
	}
	slopes, err := a.st.MemorySlopes(a.ctx)
	if err != nil {
		return nil, err
	}
	type key struct {
		server string
		pass   int64
		pooled bool
	}
	rows := map[key]model.MemorySlope{}
	for _, r := range slopes {
		rows[key{r.Server, r.Pass, r.Pooled}] = r
	}
	row := func(k key) (model.MemorySlope, error) {
		r, ok := rows[k]
		if !ok {
			return r, fmt.Errorf("memory_slopes has no row for server %q pass %d (pooled %v)", k.server, k.pass, k.pooled)
		}
		return r, nil
	}
	a.mem = map[string]stats.MemoryFit{}
	if len(pts) > 0 {
		n := &notes{}
		d := &report.Data{
			Title: "Memory growth per 1000 concurrent waiting requests (GiB per 1000)",
			Name:  "growth",
			Columns: []report.Column{
				col("server", "server", nil), col("passes", "passes", nil),
				col("pass_slope_median_gib_per_1000", "median pass slope GiB/1000", Sig), col("slope_min_gib_per_1000", "min", Sig), col("slope_max_gib_per_1000", "max", Sig),
				col("pooled_slope_gib_per_1000", "pooled fit GiB/1000", Sig), col("theil_sen_gib_per_1000", "Theil–Sen", Sig),
				col("intercept_gib", "base GiB", Sig), col("r2", "R²", Sig), col("points", "points", nil),
			},
		}
		var chart []report.MemorySeries
		i := 0
		for i < len(pts) {
			server := pts[i].Server
			start := i
			var srcs []report.Source
			var series report.MemorySeries
			series.Server = server
			kept := memoryPasses{server: server}
			for i < len(pts) && pts[i].Server == server {
				pass, from := pts[i].Pass, i
				for i < len(pts) && pts[i].Server == server && pts[i].Pass == pass {
					series.Points = append(series.Points, report.MemoryPoint{Concurrency: pts[i].Concurrency, MemoryMB: pts[i].MemoryMB})
					srcs = append(srcs, report.Source{File: pts[i].Source, Line: pts[i].Line})
					i++
				}
				r, err := row(key{server, pass, false})
				if err != nil {
					return nil, err
				}
				fit := cost.MemoryFit(r, pts[from:i])
				kept.passes = append(kept.passes, fit)
				for _, w := range fit.Warnings {
					n.add(fmt.Sprintf("%s, pass %d: %s", server, pass, w.Msg))
				}
			}
			r, err := row(key{server, -1, true})
			if err != nil {
				return nil, err
			}
			pooled := cost.MemoryFit(r, pts[start:i])
			a.mem[server] = pooled
			kept.pooled, kept.srcs = pooled, srcs
			a.memPasses = append(a.memPasses, kept)
			if r.Passes < 3 {
				n.add(fmt.Sprintf("%s: %d passes; three or more show the spread of slopes", server, r.Passes))
			}
			d.Rows = append(d.Rows, []any{server, r.Passes, num(r.PassSlopeMedianGiBPer1000), num(r.PassSlopeMinGiBPer1000), num(r.PassSlopeMaxGiBPer1000),
				num(pooled.SlopeGiBPer1000), num(pooled.TheilSenGiBPer1000), num(pooled.InterceptGiB), num(pooled.R2), int64(pooled.Points)})
			d.RowSources = append(d.RowSources, srcs)
			if !math.IsNaN(pooled.SlopeGiBPer1000) {
				series.Fit = &report.MemoryFit{SlopeMBPerRequest: pooled.SlopeGiBPer1000 * 1024 / 1000, InterceptMB: pooled.InterceptGiB * 1024}
			}
			chart = append(chart, series)
		}
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
