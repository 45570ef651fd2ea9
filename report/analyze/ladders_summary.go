package analyze

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// summaryLadders reads held-rate ladders from k6 summaries that kept
// per-step sub-metrics (http_req_duration{step:N}) where the point stream
// was not kept: servers in skip already have a ladder from their samples.
// A summary has no per-step error count, so the error rule is applied to
// the run's overall error rate, and a footnote says so.
func (a *analysis) summaryLadders(rule stats.LadderRule, skip map[string]bool) (*report.Data, error) {
	rows, err := a.query(`
SELECT coalesce(server, ''), run_id, k, labels->>k, coalesce(requests, 0), coalesce(errors, 0)
FROM (SELECT server, run_id, labels, requests, errors, unnest(json_keys(labels)) AS k FROM runs WHERE tool = 'k6' AND labels IS NOT NULL)
WHERE k LIKE 'submetric.http_req_duration{step:%}.p95_ms'
ORDER BY 1, 2, 3`)
	if err != nil {
		return nil, err
	}
	type run struct {
		server, id string
		steps      []stats.LadderStep
	}
	var runs []*run
	for i, r := range rows {
		server := s(r[0])
		if skip[server] {
			continue
		}
		key := s(r[2])
		step := key[strings.Index(key, "{step:")+len("{step:") : strings.Index(key, "}")]
		target, err1 := strconv.ParseFloat(step, 64)
		p95, err2 := strconv.ParseFloat(s(r[3]), 64)
		if err1 != nil || err2 != nil {
			continue
		}
		if i == 0 || len(runs) == 0 || runs[len(runs)-1].id != s(r[1]) {
			runs = append(runs, &run{server: server, id: s(r[1])})
		}
		req, failed := i64(r[4]), i64(r[5])
		rate := 0.0
		if req > 0 {
			rate = float64(failed) / float64(req)
		}
		cur := runs[len(runs)-1]
		cur.steps = append(cur.steps, stats.LadderStep{Step: step, TargetRPS: target, P95MS: p95, ErrorRate: rate, Requests: req, Failed: failed})
	}
	if len(runs) == 0 {
		return nil, nil
	}
	d := &report.Data{
		Title: "Held-rate ladders from k6 summaries: highest step held (requests/s)",
		Columns: []report.Column{col("server", "server", nil), col("runs", "runs", nil),
			col("highest_held_rps", "highest held", nil), col("still_holding", "still holding", nil),
			col("each_run", "each run", nil), col("step_rps", "step", Sig), col("rule", "rule", nil)},
	}
	n := &notes{}
	ruleText := fmt.Sprintf("p95 < %g ms and errors < %g%%", rule.P95MS, rule.MaxErrorRate*100)
	for i := 0; i < len(runs); {
		j := i
		var results []stats.LadderResult
		var srcs []report.Source
		for ; j < len(runs) && runs[j].server == runs[i].server; j++ {
			results = append(results, stats.EvaluateLadder(runs[j].steps, rule))
			srcs = append(srcs, report.Source{File: runs[j].id})
		}
		sum := stats.MedianLadder(results)
		for _, w := range sum.Warnings {
			n.add(serverName(runs[i].server) + ": " + w.Msg)
		}
		var ids []string
		for _, s := range srcs {
			ids = append(ids, s.File)
		}
		a.keepLadder(runs[i].server, "the k6 ladder (from its summaries)", results, ids, nil)
		var each []string
		for _, r := range results {
			each = append(each, r.String())
		}
		d.Rows = append(d.Rows, []any{runs[i].server, int64(len(results)), sum.String(), sum.StillHolding, strings.Join(each, ", "), num(sum.StepRPS), ruleText})
		d.RowSources = append(d.RowSources, srcs)
		i = j
	}
	n.add("from the per-step p95 a k6 summary keeps (http_req_duration{step:N}); a summary has no per-step error count, so the error rule is applied to each run's overall error rate")
	d.Notes = n.list
	return d, nil
}
