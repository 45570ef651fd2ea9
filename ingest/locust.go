package ingest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Locust (locustio/locust) writes, with --csv=prefix, the table of its
// Statistics tab to prefix_stats.csv (prefix_requests.csv before 0.13.3):
// a row per request type and name, then the row of all requests, named
// "Aggregated" (0.13 on) or "Total" (before), with an empty type (or
// "None" in the quoted files of 0.x and 1.0-1.3). The columns, by
// version:
//
//	0.8-0.13.2  "Method","Name","# requests","# failures","Median response time",
//	            "Average response time","Min response time","Max response time",
//	            "Average Content Size","Requests/s"
//	0.13.3-0.14 "Type", …, "Requests Failed/s", "50%" … "99.99%","99.999","100%"
//	1.0 on      Type,Name,Request Count,Failure Count,Median Response Time, …,
//	            Requests/s,Failures/s,50%,66%, … ,100% (the percentiles are
//	            --csv-percentiles or PERCENTILES_TO_REPORT: any set)
//
// Times are milliseconds. Locust counts a failed request in its request
// count since 0.10 (January 2019); before, the count was of the
// successful ones. A file of the "Total" layout (0.8 to 0.12) does not say
// which, so where it counts failures its request count is not stored
// (see readLocustStats).

func init() {
	register(&Format{Name: "locust-stats-csv", Priority: 15, Detect: detectLocustStats, Read: readLocustStats})
}

var locustAliases = map[string]string{
	"type":                  "type",
	"method":                "type",
	"request count":         "requests",
	"# requests":            "requests",
	"failure count":         "failures",
	"# failures":            "failures",
	"median response time":  "median",
	"average response time": "mean",
	"min response time":     "min",
	"max response time":     "max",
	"average content size":  "content_size",
	"requests/s":            "rps",
	"failures/s":            "failures_per_s",
	"requests failed/s":     "failures_per_s",
}

// locustPercentMethod names how Locust computes its percentiles.
const locustPercentMethod = "locust: over response times rounded to 2 significant digits (exact below 100 ms), the largest time t such that at most the fraction 1-p of the requests took longer than t"

// detectLocustStats claims a header with the columns every version of
// Locust writes; the _stats_history.csv file, whose header starts with
// Timestamp, is another table.
func detectLocustStats(head []byte) bool {
	h := headerFields(head, locustAliases)
	for _, c := range []string{"name", "type", "requests", "failures", "rps", "mean", "median", "min", "max"} {
		if !h[c] {
			return false
		}
	}
	return !h["timestamp"]
}

// locustPercentile reads a percentile column's name: "95%", "99.9%", and
// the "99.999" of 0.13.3 to 0.14, which lacks its "%".
func locustPercentile(h string) (float64, bool) {
	p, err := strconv.ParseFloat(strings.TrimSuffix(h, "%"), 64)
	if err != nil || !(p > 0 && p <= 100) || strings.ContainsAny(h, "eE+-") {
		return 0, false
	}
	return p, true
}

// readLocustStats reads a Locust statistics CSV: each row is a run, in
// file order, labelled request_type and request_name; the row of all
// requests has request_name Aggregated (or Total) and the label
// aggregated=true. requests is the request count, errors the failure
// count (Locust's failures: an error status, or no answer), rps its
// Requests/s (the count over the time from the first request to the
// last), the latencies its average, median, max and percentile columns.
// In a file of the "Total" layout (Locust 0.8 to 0.12), a row that counts
// failures keeps its count and rate as labels only, with a warning: those
// versions differ on whether the count includes the failures; unless the
// failures outnumber the count, which only a version before 0.10 can
// write: its requests are then the count plus the failures.
func readLocustStats(in *Input, sink model.Sink) error {
	t, err := newCSVTable(in, locustAliases)
	if err != nil {
		return err
	}
	for _, c := range []string{"name", "requests", "failures", "rps", "mean", "median", "min", "max"} {
		if !t.has(c) {
			return Errorf(in.Name, 1, 0, "Locust stats CSV: the header has no %s column", c)
		}
	}
	type pct struct {
		col string
		p   float64
	}
	var pcts []pct
	for _, h := range t.header {
		if p, ok := locustPercentile(h); ok {
			pcts = append(pcts, pct{h, p})
		}
	}
	var runs []*model.Run
	total := false // the aggregate row is "Total": Locust before 0.13
	err = t.each("Locust stats CSV", func(i int) error {
		name, ok := t.str("name")
		if !ok {
			return t.errAt("name", "empty request name")
		}
		typ, _ := t.str("type")
		r := &model.Run{Tool: "locust", Line: t.line, Index: i}
		if typ != "" && typ != "None" {
			runLabel(r, "request_type", typ)
		}
		runLabel(r, "request_name", name)
		if (name == "Aggregated" || name == "Total") && (typ == "" || typ == "None") {
			runLabel(r, "aggregated", "true")
			total = name == "Total"
		}
		n, ok, err := locustCount(t, "requests")
		if err != nil {
			return err
		}
		if !ok {
			return t.errAt("requests", "empty: expected the request count")
		}
		r.Requests = model.Some(n)
		f, ok, err := locustCount(t, "failures")
		if err != nil {
			return err
		}
		if !ok {
			return t.errAt("failures", "empty: expected the failure count")
		}
		r.Errors = model.Some(f)
		for _, c := range []struct {
			col string
			dst *model.Opt[float64]
		}{{"rps", &r.RPS}, {"mean", &r.LatencyMeanMS}, {"median", &r.LatencyP50MS}, {"max", &r.LatencyMaxMS}} {
			x, ok, err := locustNum(t, c.col)
			if err != nil {
				return err
			}
			if !ok {
				return t.errAt(c.col, "empty: Locust writes a number here")
			}
			if c.col == "rps" || n > 0 {
				*c.dst = model.Some(x) // Locust prints 0 for a name with no request
			}
		}
		for _, c := range []struct{ col, label string }{
			{"min", "latency_min_ms"}, {"failures_per_s", "failures_per_s"}, {"content_size", "average_content_size_bytes"},
		} {
			x, ok, err := locustNum(t, c.col)
			if err != nil {
				return err
			}
			if ok && (c.col != "min" || n > 0) {
				runLabel(r, c.label, fmtLabelNum(x))
			}
		}
		for _, p := range pcts {
			if v, _ := t.str(p.col); v == "N/A" {
				continue // no request
			}
			x, ok, err := locustNum(t, p.col)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			for _, q := range r.Percentiles {
				if q.Percentile < p.p && q.LatencyMS > x || q.Percentile > p.p && q.LatencyMS < x {
					// Locust's percentiles never go down: a cut row.
					return t.errAt(p.col, "%s is out of order with the %s%% column (%s): a cut row?", fmtLabelNum(x), fmtLabelNum(q.Percentile), fmtLabelNum(q.LatencyMS))
				}
			}
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p.p, LatencyMS: x})
		}
		if len(r.Percentiles) > 0 {
			sortPercentiles(r.Percentiles)
			spectrumColumns(r)
			runLabel(r, "percentile_method", locustPercentMethod)
		}
		runs = append(runs, r)
		return nil
	})
	if err != nil {
		return err
	}
	if last := runs[len(runs)-1]; last.Labels["aggregated"] != "true" {
		// Locust writes the row of all requests last: a file without
		// it is cut short.
		return Errorf(in.Name, last.Line+1, 0, "Locust stats CSV ends early: expected the Aggregated (or Total) row after line %d", last.Line)
	}
	addLocustFailures(in, runs)
	for _, r := range runs {
		if total && r.Errors.V > r.Requests.V {
			// More failures than requests: Locust before 0.10, whose
			// count was of the successful requests only.
			runLabel(r, "reported_requests", strconv.FormatInt(r.Requests.V, 10))
			runLabel(r, "reported_rps", fmtLabelNum(r.RPS.V))
			runLabel(r, "requests_basis", "# requests + # failures: Locust before 0.10 counted the successful requests only")
			r.Requests, r.RPS = model.Some(r.Requests.V+r.Errors.V), model.Opt[float64]{}
		} else if total && r.Errors.V > 0 {
			runLabel(r, "reported_requests", strconv.FormatInt(r.Requests.V, 10))
			runLabel(r, "reported_rps", fmtLabelNum(r.RPS.V))
			runLabel(r, "warning", fmt.Sprintf("line %d: Locust before 0.13 (a \"Total\" row) counted failed requests in \"# requests\" from 0.10 on and not before: with %d failures the request count and rate are ambiguous and not stored", r.Line, r.Errors.V))
			r.Requests, r.RPS = model.Opt[int64]{}, model.Opt[float64]{}
		}
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// locustCount reads a count column: a whole number >= 0.
func locustCount(t *csvTable, col string) (int64, bool, error) {
	n, ok, err := t.int(col)
	if err == nil && n < 0 {
		return 0, false, t.errAt(col, "expected a count >= 0, found %d", n)
	}
	return n, ok, err
}

// locustNum reads a time, rate or size column: a number >= 0.
func locustNum(t *csvTable, col string) (float64, bool, error) {
	x, ok, err := t.float(col)
	if err == nil && x < 0 {
		v, _ := t.str(col)
		return 0, false, t.errAt(col, "expected a number >= 0, found %q", v)
	}
	return x, ok, err
}
