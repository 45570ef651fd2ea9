package analyze

import (
	"fmt"
	"math"
	"strings"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// ladders gives the highest step held per server: the median of its runs
// with every run listed, "+" where the last step still held.
func (a *analysis) ladders() (*Section, error) {
	sec := &Section{ID: "ladders", Title: "Held-rate ladders"}
	rows, err := a.query(`
SELECT coalesce(server, ''), run, step, target_rps, achieved_rps, p95_ms, error_rate, requests, failed
FROM ladder_steps ORDER BY 1, 2, 4, 3`)
	if err != nil {
		return nil, err
	}
	rule := stats.LadderRule{P95MS: a.opts.P95MS, MaxErrorRate: a.opts.MaxErrorRate}
	fixed, fixedChart, err := a.fixedRateLadders(rule)
	if err != nil {
		return nil, err
	}
	samplesServers := map[string]bool{}
	for _, r := range rows {
		samplesServers[s(r[0])] = true
	}
	fromSummaries, err := a.summaryLadders(rule, samplesServers)
	if err != nil {
		return nil, err
	}
	defer func() {
		if fromSummaries != nil {
			sec.Tables = append(sec.Tables, fromSummaries)
			sec.Skipped = ""
		}
		if fixed == nil {
			return
		}
		sec.Tables = append(sec.Tables, fixed)
		sec.Skipped = ""
		sec.Figures = append(sec.Figures, Figure{Name: "ladders-fixed-rate", Caption: "Fixed-rate runs as ladders: p95 latency against the target rate, held and failed rates marked",
			Figure: &report.LadderChart{Title: "Held-rate ladders from fixed-rate runs", Series: fixedChart, ThresholdP95MS: rule.P95MS}})
	}()
	if len(rows) == 0 {
		sec.Skipped = "no k6 samples tagged with their step (a ramping-arrival-rate ladder with tags: {step: …}) and no fixed-rate runs at several rates"
		return sec, nil
	}
	n := &notes{}
	d := &report.Data{
		Title: "Held-rate ladders: highest step held (requests/s)",
		Columns: []report.Column{col("server", "server", nil), col("runs", "runs", nil),
			col("highest_held_rps", "highest held", nil), col("still_holding", "still holding", nil),
			col("each_run", "each run", nil), col("step_rps", "step", Sig), col("rule", "rule", nil)},
	}
	var chart []report.LadderSeries
	ruleText := fmt.Sprintf("p95 < %g ms and errors < %g%%", rule.P95MS, rule.MaxErrorRate*100)
	i := 0
	for i < len(rows) {
		server := s(rows[i][0])
		var results []stats.LadderResult
		var runNames []string
		for i < len(rows) && s(rows[i][0]) == server {
			run := s(rows[i][1])
			var steps []stats.LadderStep
			for i < len(rows) && s(rows[i][0]) == server && s(rows[i][1]) == run {
				r := rows[i]
				steps = append(steps, stats.LadderStep{Step: s(r[2]), TargetRPS: f(r[3]), AchievedRPS: f(r[4]),
					P95MS: f(r[5]), ErrorRate: f(r[6]), Requests: i64(r[7]), Failed: i64(r[8])})
				i++
			}
			res := stats.EvaluateLadder(steps, rule)
			for _, w := range res.Warnings {
				n.add(fmt.Sprintf("%s, %s: %s", server, run, w.Msg))
			}
			results = append(results, res)
			runNames = append(runNames, run)
			ser := report.LadderSeries{Server: server, Run: run}
			for _, st := range res.Steps {
				ser.Steps = append(ser.Steps, report.LadderStep{TargetRPS: st.TargetRPS, P95MS: st.P95MS, Held: st.Held})
			}
			chart = append(chart, ser)
		}
		sum := stats.MedianLadder(results)
		for _, w := range sum.Warnings {
			n.add(server + ": " + w.Msg)
		}
		a.keepLadder(server, "the k6 ladder", results, runNames, nil)
		var each []string
		for _, r := range results {
			each = append(each, r.String())
		}
		d.Rows = append(d.Rows, []any{server, int64(len(results)), sum.String(), sum.StillHolding,
			strings.Join(each, ", "), num(sum.StepRPS), ruleText})
		var srcs []report.Source
		for _, r := range runNames {
			srcs = append(srcs, report.Source{File: r})
		}
		d.RowSources = append(d.RowSources, srcs)
	}
	n.add("a step is held when its p95 latency and its error rate are under the rule; a run's result is the highest step held before the first step that failed, + when its last step still held (the limit is higher); the median is no more precise than the step")
	d.Notes = n.list
	sec.Tables = append(sec.Tables, d)
	threshold := rule.P95MS
	if math.IsNaN(threshold) {
		threshold = 0
	}
	sec.Figures = append(sec.Figures, Figure{Name: "ladders", Caption: "Ladder steps: p95 latency against the target rate, held and failed steps marked",
		Figure: &report.LadderChart{Title: "Held-rate ladders", Series: chart, ThresholdP95MS: threshold}})
	return sec, nil
}
