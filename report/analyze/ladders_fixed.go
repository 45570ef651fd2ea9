package analyze

import (
	"fmt"
	"strings"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// fixedRateLadders reads held-rate ladders from series of fixed-rate runs
// (wrk2 -R at several rates, or a CSV of steps with a target rate, a p95
// and the failed requests): each (server, test, tool, round) whose runs
// cover two or more target rates is one ladder run, its runs the steps.
func (a *analysis) fixedRateLadders(rule stats.LadderRule) (*report.Data, []report.LadderSeries, error) {
	rows, err := a.query(`
SELECT coalesce(server, ''), coalesce(test, ''), tool, coalesce(round, -1), target_rps, rps, latency_p95_ms,
       coalesce(requests, responses_2xx + coalesce(non_2xx, 0)), coalesce(errors, 0) + coalesce(non_2xx, 0),
       source, coalesce(source_line, 0)
FROM runs
WHERE target_rps IS NOT NULL AND latency_p95_ms IS NOT NULL AND coalesce(requests, responses_2xx) > 0
ORDER BY 2, 1, 3, 4, 5, run_id`)
	if err != nil {
		return nil, nil, err
	}
	type series struct {
		server, test, tool string
		round              int64
		steps              []stats.LadderStep
		srcs               []report.Source
	}
	var all []*series
	for i, r := range rows {
		if i == 0 || s(r[0]) != s(rows[i-1][0]) || s(r[1]) != s(rows[i-1][1]) || s(r[2]) != s(rows[i-1][2]) || i64(r[3]) != i64(rows[i-1][3]) {
			all = append(all, &series{server: s(r[0]), test: s(r[1]), tool: s(r[2]), round: i64(r[3])})
		}
		cur := all[len(all)-1]
		req, failed := i64(r[7]), i64(r[8])
		cur.steps = append(cur.steps, stats.LadderStep{Step: Sig(f(r[4])), TargetRPS: f(r[4]), AchievedRPS: f(r[5]),
			P95MS: f(r[6]), ErrorRate: float64(failed) / float64(req), Requests: req, Failed: failed})
		cur.srcs = append(cur.srcs, report.Source{File: s(r[9]), Line: int(i64(r[10]))})
	}
	d := &report.Data{
		Title: "Held-rate ladders from fixed-rate runs: highest rate held (requests/s)",
		Columns: []report.Column{col("server", "server", nil), col("test", "test", nil), col("tool", "tool", nil),
			col("runs", "runs", nil), col("highest_held_rps", "highest held", nil), col("still_holding", "still holding", nil),
			col("each_run", "each run", nil), col("step_rps", "step", Sig), col("rule", "rule", nil)},
	}
	n := &notes{}
	var chart []report.LadderSeries
	ruleText := fmt.Sprintf("p95 < %g ms and errors < %g%%", rule.P95MS, rule.MaxErrorRate*100)
	for i := 0; i < len(all); {
		j := i
		var results []stats.LadderResult
		var srcs []report.Source
		var runNames []string
		var runSrcs [][]report.Source
		for ; j < len(all) && all[j].server == all[i].server && all[j].test == all[i].test && all[j].tool == all[i].tool; j++ {
			if distinctTargets(all[j].steps) < 2 {
				continue
			}
			res := stats.EvaluateLadder(all[j].steps, rule)
			results = append(results, res)
			srcs = append(srcs, all[j].srcs...)
			runNames = append(runNames, fmt.Sprintf("round %d", all[j].round))
			runSrcs = append(runSrcs, all[j].srcs)
			ser := report.LadderSeries{Server: all[j].server, Run: fmt.Sprintf("%s %s round %d", all[j].test, all[j].tool, all[j].round)}
			for _, st := range res.Steps {
				ser.Steps = append(ser.Steps, report.LadderStep{TargetRPS: st.TargetRPS, P95MS: st.P95MS, Held: st.Held})
			}
			chart = append(chart, ser)
		}
		if len(results) > 0 {
			a.keepLadder(all[i].server, fmt.Sprintf("the fixed-rate ladder of %s (%s)", orDash(all[i].test), all[i].tool), results, runNames, runSrcs)
			sum := stats.MedianLadder(results)
			for _, w := range sum.Warnings {
				n.add(fmt.Sprintf("%s, %s: %s", serverName(all[i].server), orDash(all[i].test), w.Msg))
			}
			var each []string
			for _, r := range results {
				each = append(each, r.String())
			}
			d.Rows = append(d.Rows, []any{all[i].server, nullIfEmpty(all[i].test), all[i].tool, int64(len(results)), sum.String(),
				sum.StillHolding, strings.Join(each, ", "), num(sum.StepRPS), ruleText})
			d.RowSources = append(d.RowSources, srcs)
		}
		i = j
	}
	if len(d.Rows) == 0 {
		return nil, nil, nil
	}
	n.add("each round of fixed-rate runs at two or more target rates is one ladder run, its rates the steps; p95 is the tool's own, the error rate failed / requests")
	d.Notes = n.list
	return d, chart, nil
}

func distinctTargets(steps []stats.LadderStep) int {
	seen := map[float64]bool{}
	for _, s := range steps {
		seen[s.TargetRPS] = true
	}
	return len(seen)
}
