package ingest

import (
	"encoding/json"
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
	register(&Format{Name: "bombardier", Priority: 40, Late: true, Detect: detectBombardierText, Read: readBombardierText})
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

// detectBombardierJSON reads the document by its keys, whatever its
// whitespace: -o json prints one line, jq or a person many.
func detectBombardierJSON(head []byte) bool {
	keys, ok := jsonKeys(head)
	if !ok || keys["result"] == nil {
		return false
	}
	return hasJSONKeys(keys["spec"], "numberOfConnections")
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
// rps = requests / timeTakenSeconds. Without -p r the document follows the
// "Bombarding" header and progress lines, which are skipped. The document
// may be re-indented over many lines; a log of several runs holds one
// document per run.
func readBombardierJSON(in *Input, sink model.Sink) error {
	l := NewLines(in)
	var runs []*model.Run
	var doc []byte
	var depth jsonDepth
	line := 0
	for l.Scan() {
		t := l.Text()
		if line == 0 {
			tt := strings.TrimSpace(t)
			switch {
			case tt == "":
				continue
			case strings.HasPrefix(tt, "{"):
				line = l.Line()
			case strings.HasPrefix(tt, "Bombarding ") || bombardierProgressLine(t):
				continue
			default:
				return l.Errorf(1, "bombardier JSON: expected the JSON document, found %q", clipLine(t))
			}
		}
		doc = append(append(doc, t...), '\n')
		if !depth.scan(t) {
			continue
		}
		r, err := bombardierJSONRun(in.Name, line, doc, len(runs))
		if err != nil {
			return err
		}
		runs = append(runs, r)
		doc, line, depth = nil, 0, jsonDepth{}
	}
	if err := l.Err(); err != nil {
		return err
	}
	if line != 0 {
		_, err := bombardierJSONRun(in.Name, line, doc[:len(doc)-1], len(runs))
		return err // the document does not close: a truncated one
	}
	if len(runs) == 0 {
		return Errorf(in.Name, l.Line()+1, 0, "truncated bombardier JSON: no JSON document")
	}
	for _, r := range runs {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// jsonDepth follows the nesting of a JSON document line by line.
type jsonDepth struct {
	depth          int
	inString, escp bool
	started        bool
}

// scan reads one more line and reports whether the outermost value closed
// on it.
func (d *jsonDepth) scan(t string) bool {
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case d.escp:
			d.escp = false
		case d.inString && c == '\\':
			d.escp = true
		case c == '"':
			d.inString = !d.inString
		case d.inString:
		case c == '{' || c == '[':
			d.depth++
			d.started = true
		case c == '}' || c == ']':
			d.depth--
			if d.started && d.depth == 0 {
				return true
			}
		}
	}
	return false
}

// bombardierJSONRun reads one -o json document that starts at a line of
// the file.
func bombardierJSONRun(name string, line int, doc []byte, index int) (*model.Run, error) {
	var b bombardierJSON
	if err := decodeJSON(name, line, doc, &b, "JSON", false); err != nil {
		return nil, err
	}
	res := b.Result
	missing := func(what string) (*model.Run, error) {
		return nil, Errorf(name, line, 0, "bombardier JSON: missing %s", what)
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
	r := &model.Run{Tool: "bombardier", Line: line, Index: index}
	c := bombardierCounts{c1xx: *res.Req1xx, c2xx: *res.Req2xx, c3xx: *res.Req3xx, c4xx: *res.Req4xx, c5xx: *res.Req5xx, others: *res.Others}
	for _, e := range res.Errors {
		if c.errors == nil {
			c.errors = map[string]int64{}
		}
		c.errors[e.Description] += e.Count
	}
	for _, v := range []int64{c.c1xx, c.c2xx, c.c3xx, c.c4xx, c.c5xx, c.others} {
		if v < 0 {
			return nil, Errorf(name, line, 0, "bombardier JSON: negative request count %d", v)
		}
	}
	c.fill(r)
	if !r.Requests.Valid {
		return nil, Errorf(name, line, 0, "bombardier JSON counts no request")
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
				return nil, Errorf(name, line, 0, "bombardier JSON: latency %s: %v", c.name, err)
			}
			*c.dst = model.Some(ms)
		}
		for k, v := range lat.Percentiles {
			p, err := strconv.ParseFloat(strings.TrimSpace(k), 64)
			if err != nil || p < 0 || p > 100 {
				return nil, Errorf(name, line, 0, "bombardier JSON: latency percentile %q is not a percentage", k)
			}
			ms, err := jsonNumberMS(v, -3)
			if err != nil {
				return nil, Errorf(name, line, 0, "bombardier JSON: latency percentile %s: %v", k, err)
			}
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: ms})
		}
		sortPercentiles(r.Percentiles)
	}
	if rps := res.RPS; rps != nil {
		reported(r, model.ReportedRPSPrefix+"mean", rps.Mean)
		reported(r, model.ReportedRPSPrefix+"stdev", rps.Stddev)
		reported(r, model.ReportedRPSPrefix+"max", rps.Max)
		for k, v := range rps.Percentiles {
			if p, err := strconv.ParseFloat(strings.TrimSpace(k), 64); err == nil && p >= 0 && p <= 100 {
				reported(r, model.ReportedRPSPrefix+percentName(p), v)
			}
		}
	}
	spectrumColumns(r)
	return r, nil
}

// jsonCounts renders a map of counts as a JSON object with sorted keys.
func countsJSON(m map[string]int64) string {
	b, _ := json.Marshal(m) // map keys are sorted; a map of strings to ints always encodes
	return string(b)
}
