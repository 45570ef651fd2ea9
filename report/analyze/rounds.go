package analyze

import (
	"fmt"
	"math"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// runRow is one run of the rounds and ranking tables.
type runRow struct {
	test, tool, server  string
	connections         int64
	targetRPS           float64
	rps, mean, p50, p95 float64
	p99                 float64
	failed, requests    int64
	corrected           bool
	source              report.Source
}

// runsQuery reads runs with their file's format: one run is often kept
// twice (a k6 point stream and its summary), and a table must not count
// it as two rounds, so tables are per format.
const runsQuery = `
WITH formats AS (
    SELECT r.tool, count(DISTINCT f.format) AS n FROM runs r JOIN ingested_files f USING (source) GROUP BY 1)
SELECT coalesce(r.test, ''), r.tool || CASE WHEN t.n > 1 THEN ' (' || f.format || ')' ELSE '' END,
       coalesce(r.server, ''), coalesce(r.connections, -1), r.target_rps,
       r.rps, r.latency_mean_ms, r.latency_p50_ms, r.latency_p95_ms, r.latency_p99_ms,
       coalesce(r.errors, 0) + coalesce(r.non_2xx, 0), coalesce(r.requests, r.responses_2xx), r.latency_corrected,
       r.source, coalesce(r.source_line, 0)
FROM runs r JOIN ingested_files f USING (source) JOIN formats t ON t.tool = r.tool
WHERE r.rps IS NOT NULL AND r.round IS %s NULL
ORDER BY 1, 2, 3, 4, 5 NULLS FIRST, r.round, r.run_id`

func (a *analysis) runRows(rounds bool) ([]runRow, error) {
	not := ""
	if rounds {
		not = "NOT"
	}
	rows, err := a.query(fmt.Sprintf(runsQuery, not))
	if err != nil {
		return nil, err
	}
	out := make([]runRow, len(rows))
	for i, r := range rows {
		out[i] = runRow{test: s(r[0]), tool: s(r[1]), server: s(r[2]), connections: i64(r[3]), targetRPS: f(r[4]),
			rps: f(r[5]), mean: f(r[6]), p50: f(r[7]), p95: f(r[8]), p99: f(r[9]),
			failed: i64(r[10]), requests: i64(r[11]), corrected: r[12] == true,
			source: report.Source{File: s(r[13]), Line: int(i64(r[14]))}}
	}
	return out, nil
}

func connsText(c int64) any {
	if c < 0 {
		return nil
	}
	return c
}

// rounds is requests/s per server and connections, median of rounds with
// p99 beside it, the best of each column marked; one table per test and
// tool.
func (a *analysis) rounds() (*Section, error) {
	sec := &Section{ID: "rounds", Title: "Throughput by rounds"}
	rows, err := a.runRows(true)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		sec.Skipped = "no runs with a round label"
		return sec, nil
	}
	type group struct {
		runs []runRow
	}
	var groups []*group
	for i, r := range rows {
		if i == 0 || r.test != rows[i-1].test || r.tool != rows[i-1].tool || r.server != rows[i-1].server ||
			r.connections != rows[i-1].connections || !sameFloat(r.targetRPS, rows[i-1].targetRPS) {
			groups = append(groups, &group{})
		}
		groups[len(groups)-1].runs = append(groups[len(groups)-1].runs, r)
	}
	var d *report.Data
	var n *notes
	var bars []report.BarGroup
	var tableRows [][]float64 // rps, p99 per row of d, for marking the best
	flush := func() {
		if d == nil {
			return
		}
		markBest(d, tableRows, 4, true)
		markBest(d, tableRows, 7, false)
		dropEmpty(d, "target_rps", "connections", "p99_ms")
		d.Notes = n.list
		sec.Tables = append(sec.Tables, d)
	}
	for i, g := range groups {
		r0 := g.runs[0]
		if i == 0 || r0.test != groups[i-1].runs[0].test || r0.tool != groups[i-1].runs[0].tool {
			flush()
			n = &notes{}
			tableRows = nil
			d = &report.Data{
				Title: fmt.Sprintf("Rounds: %s, %s (median of rounds)", orDash(r0.test), r0.tool),
				Columns: []report.Column{
					col("server", "server", nil), col("connections", "connections", nil), col("target_rps", "target rps", Sig),
					col("rounds", "rounds", nil), col("rps", "requests/s", Sig), col("rps_min", "min", Sig), col("rps_max", "max", Sig),
					col("p99_ms", "p99 ms", Sig), col("failed", "failed", nil),
				},
			}
			n.add("the best value of each column is marked (* on a terminal, bold elsewhere): highest requests/s, lowest p99")
			if !r0.corrected {
				n.add(fmt.Sprintf("%s does not correct its latencies for coordinated omission: its percentiles understate waiting under load", r0.tool))
			}
		}
		var rps, p99 []float64
		var failed, requests int64
		var srcs []report.Source
		for _, r := range g.runs {
			rps = append(rps, r.rps)
			if !math.IsNaN(r.p99) {
				p99 = append(p99, r.p99)
			}
			failed += r.failed
			requests += r.requests
			srcs = append(srcs, r.source)
		}
		sum := stats.Summarize(rps)
		summaryNotes(n, "requests/s", sum)
		p99Med := math.NaN()
		if len(p99) > 0 {
			p99Med = stats.Median(p99)
		}
		if requests > 0 && float64(failed) > 0.01*float64(requests) {
			n.add(fmt.Sprintf("%s at %v connections: %d of %d requests failed (more than 1%%)", serverName(r0.server), r0.connections, failed, requests))
		}
		d.Rows = append(d.Rows, []any{r0.server, connsText(r0.connections), num(r0.targetRPS), int64(sum.N), num(sum.Median),
			num(sum.Min), num(sum.Max), num(p99Med), failed})
		d.RowSources = append(d.RowSources, srcs)
		tableRows = append(tableRows, []float64{sum.Median, p99Med})
		series := fmt.Sprintf("%v connections", r0.connections)
		if r0.connections < 0 {
			series = ""
		}
		bars = append(bars, report.BarGroup{Label: r0.server, Series: orDash(r0.test) + " " + series, Values: rps})
	}
	flush()
	sec.Figures = append(sec.Figures, Figure{Name: "throughput", Caption: "Requests/s by server: median bar, min–max whisker, each round a dot",
		Figure: &report.BarChart{Title: "Throughput by rounds", XLabel: "server", YLabel: "requests/s", Groups: bars}})
	return sec, nil
}

// markBest marks, within each connections value, the highest (or lowest)
// value of column c of d, whose numbers are vals[row][which].
func markBest(d *report.Data, vals [][]float64, c int, highest bool) {
	which := 0
	if !highest {
		which = 1
	}
	best := map[any]int{}
	for i, row := range d.Rows {
		v := vals[i][which]
		if math.IsNaN(v) {
			continue
		}
		k := fmt.Sprint(row[1], "/", row[2])
		j, ok := best[k]
		if !ok || (highest && v > vals[j][which]) || (!highest && v < vals[j][which]) {
			best[k] = i
		}
	}
	count := map[any]int{}
	for _, row := range d.Rows {
		count[fmt.Sprint(row[1], "/", row[2])]++
	}
	for k, i := range best {
		if count[k] > 1 {
			d.Rows[i][c] = report.Cell{Value: d.Rows[i][c], Best: true}
		}
	}
}

func sameFloat(x, y float64) bool {
	return x == y || (math.IsNaN(x) && math.IsNaN(y))
}

// ranking ranks single runs (no round label) by requests/s, per test.
func (a *analysis) ranking() (*Section, error) {
	sec := &Section{ID: "ranking", Title: "Single-run ranking"}
	rows, err := a.runRows(false)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		sec.Skipped = "no single runs (runs without a round label)"
		return sec, nil
	}
	var d *report.Data
	var n *notes
	var cur []runRow
	flush := func() {
		if d == nil {
			return
		}
		order := make([]int, len(cur))
		for i := range order {
			order[i] = i
		}
		sortByRPS(order, cur)
		for rank, i := range order {
			r := cur[i]
			d.Rows = append(d.Rows, []any{int64(rank + 1), r.server, r.tool, connsText(r.connections), num(r.targetRPS),
				num(r.rps), num(r.mean), num(r.p50), num(r.p95), num(r.p99), r.failed, r.corrected})
			d.RowSources = append(d.RowSources, []report.Source{r.source})
			if !r.corrected {
				n.add(fmt.Sprintf("%s does not correct its latencies for coordinated omission", r.tool))
			}
			if r.requests > 0 && float64(r.failed) > 0.01*float64(r.requests) {
				n.add(fmt.Sprintf("%s (%s): %d of %d requests failed (more than 1%%)", serverName(r.server), r.tool, r.failed, r.requests))
			}
		}
		dropEmpty(d, "target_rps", "connections", "mean_ms", "p50_ms", "p95_ms", "p99_ms")
		d.Notes = n.list
		sec.Tables = append(sec.Tables, d)
	}
	for i, r := range rows {
		if i == 0 || r.test != rows[i-1].test {
			flush()
			n = &notes{}
			cur = nil
			d = &report.Data{
				Title: fmt.Sprintf("Single runs: %s, ranked by requests/s", orDash(r.test)),
				Columns: []report.Column{
					col("rank", "rank", nil), col("server", "server", nil), col("tool", "tool", nil), col("connections", "connections", nil),
					col("target_rps", "target rps", Sig), col("rps", "requests/s", Sig), col("mean_ms", "mean ms", Sig),
					col("p50_ms", "p50 ms", Sig), col("p95_ms", "p95 ms", Sig), col("p99_ms", "p99 ms", Sig),
					col("failed", "failed", nil), col("latency_corrected", "corrected", nil),
				},
			}
		}
		cur = append(cur, r)
	}
	flush()
	return sec, nil
}

func sortByRPS(order []int, rows []runRow) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && cmpNaNLast(-rows[order[j]].rps, -rows[order[j-1]].rps) < 0; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// serverName names a server in a footnote.
func serverName(s string) string {
	if s == "" {
		return "(no server label)"
	}
	return s
}
