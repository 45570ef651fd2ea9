package ingest

import (
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
)

// Locust writes, with --csv=prefix, two more tables beside
// prefix_stats.csv (the second, counts of failures without the requests
// they are part of, is no run and is not read):
//
//	prefix_stats_history.csv  a row every second (csv_stats_interval) for
//	     the Aggregated line, and with --csv-full-history for every name:
//	     Timestamp (epoch s), User Count, Type, Name, Requests/s,
//	     Failures/s, the current response time percentiles (over the last
//	     10 s; "N/A" before any request), then the totals so far: Total
//	     Request Count, Total Failure Count, Total Median/Average/Min/Max
//	     Response Time, Total Average Content Size
//	prefix_failures.csv  Method, Name, Error, Occurrences: each distinct
//	     error of a request name and how often it happened
//
// Times are milliseconds.

func init() {
	register(&Format{Name: "locust-history-csv", Priority: 15, Detect: detectLocustHistory, Read: readLocustHistory})
}

var locustHistoryAliases = map[string]string{
	"timestamp":                   "timestamp",
	"user count":                  "users",
	"type":                        "type",
	"method":                      "type",
	"requests/s":                  "rps",
	"failures/s":                  "failures_per_s",
	"requests failed/s":           "failures_per_s",
	"total request count":         "requests",
	"# requests":                  "requests",
	"total failure count":         "failures",
	"# failures":                  "failures",
	"total median response time":  "median",
	"median response time":        "median",
	"total average response time": "mean",
	"average response time":       "mean",
	"total min response time":     "min",
	"min response time":           "min",
	"total max response time":     "max",
	"max response time":           "max",
}

// detectLocustHistory claims a header with Timestamp, Name and the
// request and failure counts.
func detectLocustHistory(head []byte) bool {
	h := headerFields(head, locustHistoryAliases)
	return h["timestamp"] && h["name"] && h["requests"] && h["failures"] && h["rps"]
}

// readLocustHistory reads a stats history: a run per request name (the
// Aggregated one, and every other with --csv-full-history), in the order
// of its first row, whose figures are the totals of its last row (the
// run's end): requests Total Request Count, errors Total Failure Count,
// latency_mean_ms / _p50_ / _max_ the Total Average / Median / Max
// Response Time (a name whose last row counts no request is left out);
// rps is not set (the history prints only the current
// rate). Every row is stored in samples at its Timestamp: users,
// rps, failures_per_s, http_reqs and http_req_failed (the totals so
// far), and http_req_duration_pNN for each percentile column (the last
// 10 s; "N/A" rows have none).
func readLocustHistory(in *Input, sink model.Sink) error {
	t, err := newCSVTable(in, locustHistoryAliases)
	if err != nil {
		return err
	}
	for _, c := range []string{"timestamp", "name", "requests", "failures"} {
		if !t.has(c) {
			return Errorf(in.Name, 1, 0, "Locust stats history CSV: the header has no %s column", c)
		}
	}
	type pct struct {
		col    string
		metric string
	}
	var pcts []pct
	for _, h := range t.header {
		if p, ok := locustPercentile(h); ok {
			pcts = append(pcts, pct{h, "http_req_duration_p" + strings.ReplaceAll(fmtLabelNum(p), ".", "_")})
		}
	}
	type name struct {
		run    *model.Run
		points []model.Sample
		rows   int
	}
	names := map[string]*name{}
	var order []*name
	err = t.each("Locust stats history CSV", func(int) error {
		nm, _ := t.str("name")
		typ, _ := t.str("type")
		k := typ + "\x00" + nm
		n := names[k]
		if n == nil {
			n = &name{run: &model.Run{Tool: "locust", Line: t.line, Index: len(order)}}
			if typ != "" && typ != "None" {
				runLabel(n.run, "request_type", typ)
			}
			runLabel(n.run, "request_name", nm)
			if nm == "Aggregated" && (typ == "" || typ == "None") {
				runLabel(n.run, "aggregated", "true")
			}
			names[k] = n
			order = append(order, n)
		}
		sec, ok, err := t.int("timestamp")
		if err != nil || !ok || sec < 0 {
			v, _ := t.str("timestamp")
			return t.errAt("timestamp", "expected epoch seconds, found %q", clipQuote(v))
		}
		ts := time.Unix(sec, 0).UTC()
		n.rows++
		r := n.run
		if !r.StartedAt.Valid {
			r.StartedAt = model.Some(ts)
		}
		put := func(metric string, v float64) {
			n.points = append(n.points, model.Sample{TS: ts, Metric: metric, Value: v})
		}
		req, ok, err := locustCount(t, "requests")
		if err != nil {
			return err
		}
		if !ok {
			return t.errAt("requests", "empty: expected the request count")
		}
		fail, ok, err := locustCount(t, "failures")
		if err != nil {
			return err
		}
		if !ok {
			return t.errAt("failures", "empty: expected the failure count")
		}
		if r.Requests.Valid && req < r.Requests.V {
			return t.errAt("requests", "%d is below the %d of an earlier row: the totals never go down", req, r.Requests.V)
		}
		r.Requests, r.Errors = model.Some(req), model.Some(fail)
		put("http_reqs", float64(req))
		put("http_req_failed", float64(fail))
		for _, c := range []struct{ col, metric string }{{"users", "users"}, {"rps", "rps"}, {"failures_per_s", "failures_per_s"}} {
			x, ok, err := locustNum(t, c.col)
			if err != nil {
				return err
			}
			if ok {
				put(c.metric, x)
			}
		}
		for _, p := range pcts {
			if v, _ := t.str(p.col); v == "N/A" {
				continue
			}
			x, ok, err := locustNum(t, p.col)
			if err != nil {
				return err
			}
			if ok {
				put(p.metric, x)
			}
		}
		r.LatencyMeanMS, r.LatencyP50MS, r.LatencyMaxMS = model.Opt[float64]{}, model.Opt[float64]{}, model.Opt[float64]{}
		if req > 0 {
			for _, c := range []struct {
				col string
				dst *model.Opt[float64]
			}{{"mean", &r.LatencyMeanMS}, {"median", &r.LatencyP50MS}, {"max", &r.LatencyMaxMS}} {
				x, ok, err := locustNum(t, c.col)
				if err != nil {
					return err
				}
				if ok {
					*c.dst = model.Some(x)
				}
			}
		}
		r.DurationS = model.Some(ts.Sub(r.StartedAt.V).Seconds())
		return nil
	})
	if err != nil {
		return err
	}
	// A name whose last row counts no request holds no figure (the rows
	// Locust writes before the first request): it is no run.
	kept := order[:0]
	for _, n := range order {
		if n.run.Requests.V > 0 {
			n.run.Index = len(kept)
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return Errorf(in.Name, t.line, 0, "Locust stats history counts no request up to its last row: expected a Total Request Count above 0")
	}
	for _, n := range kept {
		runLabel(n.run, "history_rows", strconv.Itoa(n.rows))
		if err := sink.Run(n.run); err != nil {
			return err
		}
		for i := range n.points {
			if err := sink.Sample(n.run.Index, &n.points[i]); err != nil {
				return err
			}
		}
	}
	return nil
}
