package ingest

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// bombardier (codesenberg/bombardier, tested with v1.2.6) prints a text
// report (Statistics table, optional Latency Distribution, HTTP codes,
// Errors, Throughput) or, with -o json, one JSON object. Every request that
// failed has status 0 and is counted under "others"; the Errors block says
// why. The Reqs/sec line gives statistics of per-second samples, not the
// overall rate, so rps is requests / duration (see readBombardierText).

func init() {
	register(&Format{Name: "bombardier", Priority: 40, Detect: detectBombardierText, Read: readBombardierText})
	register(&Format{Name: "bombardier-json", Priority: 40, Detect: detectBombardierJSON, Read: readBombardierJSON})
}

func detectBombardierText(head []byte) bool {
	if detectBombardierJSON(head) {
		return false
	}
	stats, reqs := false, false
	hasLine(head, func(l string) bool {
		switch {
		case strings.Join(strings.Fields(l), " ") == "Statistics Avg Stdev Max":
			stats = true
		case stats && strings.HasPrefix(l, "Reqs/sec"):
			reqs = true
		}
		return stats && reqs
	})
	return stats && reqs
}

func detectBombardierJSON(head []byte) bool {
	return hasLine(head, func(l string) bool {
		return strings.HasPrefix(l, `{"spec":{`) && strings.Contains(l, `"numberOfConnections"`)
	})
}

// bombardierCounts are the status classes and errors of one report.
type bombardierCounts struct {
	c1xx, c2xx, c3xx, c4xx, c5xx, others int64
	errors                               map[string]int64
}

// fill sets the count columns: requests are every status class plus
// "others" (status 0, which holds the failed requests); errors are the
// Errors block's total; non_2xx are the answered requests outside 2xx,
// including any "others" that the Errors block does not account for.
func (c *bombardierCounts) fill(r *model.Run) {
	if c.c1xx+c.c2xx+c.c3xx+c.c4xx+c.c5xx+c.others == 0 {
		return // the callers refuse a report of no request
	}
	var nerr int64
	for _, n := range c.errors {
		nerr += n
	}
	r.Requests = model.Some(c.c1xx + c.c2xx + c.c3xx + c.c4xx + c.c5xx + c.others)
	r.Responses2xx = model.Some(c.c2xx)
	r.Non2xx = model.Some(c.c1xx + c.c3xx + c.c4xx + c.c5xx + max(c.others-nerr, 0))
	r.Errors = model.Some(nerr)
	runLabel(r, "status_1xx", strconv.FormatInt(c.c1xx, 10))
	runLabel(r, "status_3xx", strconv.FormatInt(c.c3xx, 10))
	runLabel(r, "status_4xx", strconv.FormatInt(c.c4xx, 10))
	runLabel(r, "status_5xx", strconv.FormatInt(c.c5xx, 10))
	runLabel(r, "status_others", strconv.FormatInt(c.others, 10))
	if len(c.errors) > 0 {
		runLabel(r, "errors_breakdown", countsJSON(c.errors))
	}
}

// readBombardierText reads bombardier's plain-text report. The report
// prints no measured duration: duration_s is the -d duration of the
// "Bombarding ... for 8s" line and rps = requests / duration_s (label
// rps_basis says so); a -n run has neither unless a duration_s label is
// given (manifest or --label), and then rps is requests / that duration.
// The sampled Reqs/sec mean, stdev and max are kept as reported_rps_*.
func readBombardierText(in *Input, sink model.Sink) error {
	l := NewLines(in)
	r := &model.Run{Tool: "bombardier"}
	var c bombardierCounts
	const (
		preamble = iota
		stats
		distribution
		codes
		others
		errs
		done
	)
	state := preamble
	seenLatency, seenThroughput := false, false
	for l.Scan() {
		t := l.Text()
		f := strings.Fields(t)
		switch {
		case strings.HasPrefix(t, "Bombarding "):
			if state != preamble || r.Line != 0 {
				return l.Errorf(1, "a second bombardier report starts here: a file holds one report")
			}
			r.Line = l.Line()
			if err := bombardierHeader(l, r, f); err != nil {
				return err
			}
			continue
		case len(f) == 0:
			continue
		}
		switch state {
		case preamble:
			if strings.Join(f, " ") == "Statistics Avg Stdev Max" {
				if r.Line == 0 {
					r.Line = l.Line()
				}
				state = stats
				continue
			}
			if t == "Done!" || strings.ContainsRune(t, '\r') || bombardierProgress(f) {
				continue
			}
			return l.Errorf(1, "bombardier report: expected the Statistics table, found %q", clipLine(t))
		case stats, distribution:
			switch {
			case f[0] == "Reqs/sec" && len(f) == 4:
				for i, k := range []string{"reported_rps_mean", "reported_rps_stdev", "reported_rps_max"} {
					if _, err := strconv.ParseFloat(f[i+1], 64); err != nil {
						return l.Errorf(strings.Index(t, f[i+1])+1, "Reqs/sec: expected a number, found %q", f[i+1])
					}
					runLabel(r, k, f[i+1])
				}
				continue
			case f[0] == "Latency" && len(f) == 4:
				for i, dst := range []*model.Opt[float64]{&r.LatencyMeanMS, &r.LatencyStdevMS, &r.LatencyMaxMS} {
					v, err := durationMS(f[i+1])
					if err != nil {
						return l.Errorf(strings.Index(t, f[i+1])+1, "Latency: %v", err)
					}
					*dst = model.Some(v)
				}
				seenLatency = true
				continue
			case strings.HasPrefix(t, "  There wasn't enough data"):
				continue
			case t == "  Latency Distribution":
				state = distribution
				continue
			case state == distribution && len(f) == 2 && strings.HasSuffix(f[0], "%"):
				p, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
				if err != nil || p < 0 || p > 100 {
					return l.Errorf(strings.Index(t, f[0])+1, "Latency Distribution: expected a percentage, found %q", f[0])
				}
				v, err := durationMS(f[1])
				if err != nil {
					return l.Errorf(strings.LastIndex(t, f[1])+1, "Latency Distribution: %v", err)
				}
				r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: v})
				continue
			case t == "  HTTP codes:":
				state = codes
				continue
			}
			return l.Errorf(1, "bombardier report: unexpected line %q in the Statistics table", clipLine(t))
		case codes:
			if err := bombardierCodes(l, t, &c); err != nil {
				return err
			}
			state = others
		case others:
			n, ok := strings.CutPrefix(strings.TrimSpace(t), "others - ")
			v, err := strconv.ParseInt(n, 10, 64)
			if !ok || err != nil || v < 0 {
				return l.Errorf(1, `bombardier report: expected "others - N" after the HTTP codes, found %q`, clipLine(t))
			}
			c.others = v
			state = errs
		case errs:
			if t == "  Errors:" && c.errors == nil {
				c.errors = map[string]int64{}
				continue
			}
			if f[0] == "Throughput:" && len(f) == 2 {
				runLabel(r, "reported_throughput", f[1])
				seenThroughput = true
				state = done
				continue
			}
			if c.errors != nil {
				i := strings.LastIndex(t, " - ")
				var n int64
				var err error
				if i >= 0 {
					n, err = strconv.ParseInt(t[i+3:], 10, 64)
				}
				if i < 0 || err != nil || n < 0 {
					return l.Errorf(1, `bombardier Errors: expected "description - count", found %q`, clipLine(t))
				}
				c.errors[strings.TrimSpace(t[:i])] += n
				continue
			}
			return l.Errorf(1, "bombardier report: expected Errors or Throughput, found %q", clipLine(t))
		case done:
			if strings.Join(f, " ") == "Statistics Avg Stdev Max" {
				return l.Errorf(1, "a second bombardier report starts here: a file holds one report")
			}
			return l.Errorf(1, "bombardier report: unexpected line %q after Throughput", clipLine(t))
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	switch {
	case state == preamble:
		return Errorf(in.Name, l.Line()+1, 0, "truncated bombardier report: expected the Statistics table")
	case state < others:
		return Errorf(in.Name, l.Line()+1, 0, `truncated bombardier report: expected "HTTP codes:" and its counts`)
	case state == others:
		return Errorf(in.Name, l.Line()+1, 0, `truncated bombardier report: expected "others - N"`)
	case !seenThroughput:
		return Errorf(in.Name, l.Line()+1, 0, `truncated bombardier report: expected "Throughput:"`)
	case !seenLatency && len(r.Percentiles) > 0:
		return Errorf(in.Name, l.Line()+1, 0, "bombardier report: a Latency Distribution without its Latency line")
	}
	c.fill(r)
	if !r.Requests.Valid {
		return Errorf(in.Name, r.Line, 0, "bombardier report counts no request")
	}
	d, ok := sinkLabel(sink, "duration_s")
	if ok {
		if v, err := strconv.ParseFloat(d, 64); err == nil && v > 0 {
			r.DurationS = model.Some(v)
			runLabel(r, "rps_basis", "requests / duration_s label")
		}
	} else if r.DurationS.Valid {
		runLabel(r, "rps_basis", "requests / -d duration (the text report prints no measured duration)")
	}
	if r.DurationS.Valid && r.DurationS.V > 0 {
		r.RPS = model.Some(float64(r.Requests.V) / r.DurationS.V)
	}
	spectrumColumns(r)
	return sink.Run(r)
}

// bombardierHeader reads "Bombarding URL for 8s using 50 connection(s)" or
// "Bombarding URL with 20000 request(s) using 10 connection(s)".
func bombardierHeader(l *Lines, r *model.Run, f []string) error {
	bad := func() error {
		return l.Errorf(1, `bombardier report: expected "Bombarding URL for D|with N request(s) using C connection(s)"`)
	}
	n := len(f)
	if n < 7 || f[n-1] != "connection(s)" || f[n-3] != "using" || (f[2] == "for") != (n == 7) || (f[2] == "with") != (n == 8 && f[4] == "request(s)") {
		return bad()
	}
	conns, err := strconv.ParseInt(f[n-2], 10, 64)
	if err != nil || conns < 1 {
		return bad()
	}
	r.Connections = model.Some(conns)
	runLabel(r, "url", f[1])
	switch f[2] {
	case "for":
		ms, err := durationMS(f[3])
		if err != nil {
			return bad()
		}
		r.DurationS = model.Some(ms / 1000)
	case "with":
		if _, err := strconv.ParseInt(f[3], 10, 64); err != nil {
			return bad()
		}
		runLabel(r, "requests_planned", f[3])
	default:
		return bad()
	}
	return nil
}

// bombardierProgress reports whether a line is made of the progress bar
// that bombardier prints without a terminal: "00m07s" or "n / N pct% r/s"
// tokens.
func bombardierProgress(f []string) bool {
	for _, w := range f {
		if w == "/" {
			continue
		}
		w = strings.TrimSuffix(strings.TrimSuffix(w, "/s"), "%")
		if _, err := strconv.ParseFloat(w, 64); err == nil {
			continue
		}
		if _, err := durationMS(w); err == nil {
			continue
		}
		if len(w) == 6 && w[2] == 'm' && w[5] == 's' {
			continue
		}
		return false
	}
	return true
}

func bombardierCodes(l *Lines, t string, c *bombardierCounts) error {
	parts := strings.Split(strings.TrimSpace(t), ", ")
	dst := []*int64{&c.c1xx, &c.c2xx, &c.c3xx, &c.c4xx, &c.c5xx}
	if len(parts) != len(dst) {
		return l.Errorf(1, `bombardier HTTP codes: expected "1xx - N, 2xx - N, 3xx - N, 4xx - N, 5xx - N", found %q`, clipLine(t))
	}
	for i, p := range parts {
		want := fmt.Sprintf("%dxx - ", i+1)
		n, ok := strings.CutPrefix(p, want)
		v, err := strconv.ParseInt(n, 10, 64)
		if !ok || err != nil || v < 0 {
			return l.Errorf(strings.Index(t, p)+1, "bombardier HTTP codes: expected %q and a count, found %q", strings.TrimSpace(want), p)
		}
		*dst[i] = v
	}
	return nil
}

// bombardierJSON is the -o json document; pointers tell absent from zero.
type bombardierJSON struct {
	Spec *struct {
		NumberOfConnections *int64   `json:"numberOfConnections"`
		TestType            string   `json:"testType"`
		TestDurationSeconds *float64 `json:"testDurationSeconds"`
		NumberOfRequests    *int64   `json:"numberOfRequests"`
		Method              string   `json:"method"`
		URL                 string   `json:"url"`
		TimeoutSeconds      *float64 `json:"timeoutSeconds"`
		Client              string   `json:"client"`
		Rate                *float64 `json:"rate"`
	} `json:"spec"`
	Result *struct {
		BytesRead        *int64   `json:"bytesRead"`
		BytesWritten     *int64   `json:"bytesWritten"`
		TimeTakenSeconds *float64 `json:"timeTakenSeconds"`
		Req1xx           *int64   `json:"req1xx"`
		Req2xx           *int64   `json:"req2xx"`
		Req3xx           *int64   `json:"req3xx"`
		Req4xx           *int64   `json:"req4xx"`
		Req5xx           *int64   `json:"req5xx"`
		Others           *int64   `json:"others"`
		Errors           []struct {
			Description string `json:"description"`
			Count       int64  `json:"count"`
		} `json:"errors"`
		Latency *struct {
			Mean        json.Number            `json:"mean"`
			Stddev      json.Number            `json:"stddev"`
			Max         json.Number            `json:"max"`
			Percentiles map[string]json.Number `json:"percentiles"`
		} `json:"latency"`
		RPS *struct {
			Mean        float64            `json:"mean"`
			Stddev      float64            `json:"stddev"`
			Max         float64            `json:"max"`
			Percentiles map[string]float64 `json:"percentiles"`
		} `json:"rps"`
	} `json:"result"`
}

// readBombardierJSON reads bombardier -o json: latencies in microseconds,
// rps = requests / timeTakenSeconds. Without -p r the JSON line follows the
// "Bombarding" header and progress lines, which are skipped.
func readBombardierJSON(in *Input, sink model.Sink) error {
	l := NewLines(in)
	var doc []byte
	line := 0
	for l.Scan() {
		t := l.Text()
		if strings.TrimSpace(t) == "" {
			continue
		}
		if line != 0 {
			if strings.HasPrefix(t, "Bombarding ") || strings.HasPrefix(t, "{") {
				return l.Errorf(1, "a second bombardier report starts here: a file holds one report")
			}
			return l.Errorf(1, "bombardier JSON: unexpected text after the JSON document")
		}
		if strings.HasPrefix(t, "{") {
			line = l.Line()
			doc = []byte(t)
			continue
		}
		if strings.HasPrefix(t, "Bombarding ") || t == "Done!" || strings.ContainsRune(t, '\r') || bombardierProgress(strings.Fields(t)) {
			continue
		}
		return l.Errorf(1, "bombardier JSON: expected the JSON document, found %q", clipLine(t))
	}
	if err := l.Err(); err != nil {
		return err
	}
	if line == 0 {
		return Errorf(in.Name, l.Line()+1, 0, "truncated bombardier JSON: no JSON document")
	}
	var b bombardierJSON
	if err := decodeJSON(in.Name, line, doc, &b, "JSON", false); err != nil {
		return err
	}
	res := b.Result
	missing := func(what string) error {
		return Errorf(in.Name, line, 0, "bombardier JSON: missing %s", what)
	}
	switch {
	case b.Spec == nil:
		return missing("spec")
	case res == nil:
		return missing("result")
	case res.TimeTakenSeconds == nil:
		return missing("result.timeTakenSeconds")
	case res.Req1xx == nil || res.Req2xx == nil || res.Req3xx == nil || res.Req4xx == nil || res.Req5xx == nil || res.Others == nil:
		return missing("result.req1xx..req5xx and others")
	}
	r := &model.Run{Tool: "bombardier", Line: line}
	c := bombardierCounts{c1xx: *res.Req1xx, c2xx: *res.Req2xx, c3xx: *res.Req3xx, c4xx: *res.Req4xx, c5xx: *res.Req5xx, others: *res.Others}
	for _, e := range res.Errors {
		if c.errors == nil {
			c.errors = map[string]int64{}
		}
		c.errors[e.Description] += e.Count
	}
	for _, v := range []int64{c.c1xx, c.c2xx, c.c3xx, c.c4xx, c.c5xx, c.others} {
		if v < 0 {
			return Errorf(in.Name, line, 0, "bombardier JSON: negative request count %d", v)
		}
	}
	c.fill(r)
	if !r.Requests.Valid {
		return Errorf(in.Name, line, 0, "bombardier JSON counts no request")
	}
	if t := *res.TimeTakenSeconds; t > 0 && !math.IsInf(t, 0) {
		r.DurationS = model.Some(t)
		r.RPS = model.Some(float64(r.Requests.V) / t)
	}
	if s := b.Spec; s != nil {
		if s.NumberOfConnections != nil {
			r.Connections = model.Some(*s.NumberOfConnections)
		}
		if s.Rate != nil {
			r.TargetRPS = model.Some(*s.Rate)
		}
		if s.TestDurationSeconds != nil {
			runLabel(r, "duration_planned_s", fmtLabelNum(*s.TestDurationSeconds))
		}
		if s.NumberOfRequests != nil {
			runLabel(r, "requests_planned", strconv.FormatInt(*s.NumberOfRequests, 10))
		}
		runLabel(r, "url", s.URL)
		runLabel(r, "method", s.Method)
		runLabel(r, "client", s.Client)
	}
	if res.BytesRead != nil {
		r.BytesRead = model.Some(*res.BytesRead)
	}
	if lat := res.Latency; lat != nil {
		for _, c := range []struct {
			name string
			v    json.Number
			dst  *model.Opt[float64]
		}{{"mean", lat.Mean, &r.LatencyMeanMS}, {"stddev", lat.Stddev, &r.LatencyStdevMS}, {"max", lat.Max, &r.LatencyMaxMS}} {
			ms, err := jsonNumberMS(c.v, -3)
			if err != nil {
				return Errorf(in.Name, line, 0, "bombardier JSON: latency %s: %v", c.name, err)
			}
			*c.dst = model.Some(ms)
		}
		for k, v := range lat.Percentiles {
			p, err := strconv.ParseFloat(strings.TrimSpace(k), 64)
			if err != nil || p < 0 || p > 100 {
				return Errorf(in.Name, line, 0, "bombardier JSON: latency percentile %q is not a percentage", k)
			}
			ms, err := jsonNumberMS(v, -3)
			if err != nil {
				return Errorf(in.Name, line, 0, "bombardier JSON: latency percentile %s: %v", k, err)
			}
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: ms})
		}
		sortPercentiles(r.Percentiles)
	}
	if rps := res.RPS; rps != nil {
		runLabel(r, "reported_rps_mean", fmtLabelNum(rps.Mean))
		runLabel(r, "reported_rps_stdev", fmtLabelNum(rps.Stddev))
		runLabel(r, "reported_rps_max", fmtLabelNum(rps.Max))
	}
	spectrumColumns(r)
	return sink.Run(r)
}

// jsonCounts renders a map of counts as a JSON object with sorted keys.
func countsJSON(m map[string]int64) string {
	b, _ := json.Marshal(m) // map keys are sorted; a map of strings to ints always encodes
	return string(b)
}
