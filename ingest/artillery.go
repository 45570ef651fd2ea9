package ingest

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
)

// Artillery (artilleryio/artillery) writes, with `run --output
// report.json`, a JSON report: "aggregate", the statistics of the whole
// run, and "intermediate", the same for each period of the run (10 s by
// default). Two layouts:
//
//	1.x  aggregate.scenariosCreated, requestsCompleted, latency {min, max,
//	     median, p95, p99} (ms), rps {count, mean}, codes {"200": n},
//	     errors {"ETIMEDOUT": n}
//	2.x  aggregate.counters {"http.requests", "http.responses",
//	     "http.codes.200", "errors.ETIMEDOUT", "vusers.created", …},
//	     rates {"http.request_rate"}, summaries {"http.response_time":
//	     {min, max, mean, median, p50, p75, p90, p95, p99, p999}},
//	     firstCounterAt, lastCounterAt (epoch ms)
//
// In both, an error is a request that got no answer (the virtual user
// that sent it fails); 1.x counts its requests sent in rps.count, its
// answered ones in requestsCompleted.

func init() {
	register(&Format{Name: "artillery-json", Priority: 40, Detect: detectArtilleryJSON, Read: readArtilleryJSON})
}

// detectArtilleryJSON claims a JSON object whose aggregate has 1.x's
// scenariosCreated and latency or 2.x's counters and summaries.
func detectArtilleryJSON(head []byte) bool {
	keys, ok := jsonKeys(head)
	if !ok {
		return false
	}
	agg, ok := keys["aggregate"]
	if !ok {
		return false
	}
	if agg == nil { // the head ends inside it
		return hasJSONKeysIn(head, "scenariosCreated", "latency") || hasJSONKeysIn(head, "counters", "summaries")
	}
	sub, ok := jsonKeys(agg)
	if !ok {
		return false
	}
	_, a := sub["scenariosCreated"]
	_, b := sub["latency"]
	_, c := sub["counters"]
	_, d := sub["summaries"]
	return a && b || c && d
}

// hasJSONKeysIn reports whether each key appears, quoted and followed
// by a colon, in head: for a document whose head ends inside the object
// that holds them.
func hasJSONKeysIn(head []byte, keys ...string) bool {
	for _, k := range keys {
		if !strings.Contains(strings.ReplaceAll(string(head), " ", ""), `"`+k+`":`) {
			return false
		}
	}
	return true
}

// artilleryStats is the aggregate or one intermediate period, of either
// layout.
type artilleryStats struct {
	// 1.x
	Timestamp          *string             `json:"timestamp"`
	ScenariosCreated   *int64              `json:"scenariosCreated"`
	ScenariosCompleted *int64              `json:"scenariosCompleted"`
	RequestsCompleted  *int64              `json:"requestsCompleted"`
	Latency            map[string]*float64 `json:"latency"`
	RPS                *struct {
		Count *int64   `json:"count"`
		Mean  *float64 `json:"mean"`
	} `json:"rps"`
	Codes  map[string]int64 `json:"codes"`
	Errors map[string]int64 `json:"errors"`
	// 2.x
	Counters       map[string]int64               `json:"counters"`
	Rates          map[string]float64             `json:"rates"`
	Summaries      map[string]map[string]*float64 `json:"summaries"`
	FirstCounterAt *int64                         `json:"firstCounterAt"`
	LastCounterAt  *int64                         `json:"lastCounterAt"`
	Period         json.RawMessage                `json:"period"`
}

// artilleryV2 tells the 2.x layout by its summaries.
func (s *artilleryStats) v2() bool {
	return s.Summaries != nil || s.Latency == nil && s.Counters != nil
}

// artilleryFigures are what a period or the aggregate says.
type artilleryFigures struct {
	requests, errors, n2xx, non2xx int64
	hasCodes                       bool
	latency                        map[string]float64 // min, max, mean, median/p50, p75 … in ms
	rate                           model.Opt[float64]
	errorsBy                       map[string]int64
}

// figures maps either layout: requests are the requests sent (1.x
// rps.count, 2.x http.requests), errors the sum of the error counts.
func (s *artilleryStats) figures(where string) (artilleryFigures, error) {
	f := artilleryFigures{errorsBy: map[string]int64{}}
	if s.v2() {
		n, ok := s.Counters["http.requests"]
		if !ok {
			return f, fmt.Errorf("%s: counters has no \"http.requests\"", where)
		}
		f.requests = n
		for k, v := range s.Counters {
			if code, ok := strings.CutPrefix(k, "http.codes."); ok {
				f.count(code, v)
			} else if e, ok := strings.CutPrefix(k, "errors."); ok {
				f.errorsBy[e] += v
			}
		}
		f.latency = artilleryTimes(s.Summaries["http.response_time"])
		if r, ok := s.Rates["http.request_rate"]; ok {
			f.rate = model.Some(r)
		}
	} else {
		if s.RPS == nil || s.RPS.Count == nil {
			return f, fmt.Errorf("%s: no rps.count (the requests sent)", where)
		}
		f.requests = *s.RPS.Count
		for code, v := range s.Codes {
			f.count(code, v)
		}
		for e, v := range s.Errors {
			f.errorsBy[e] += v
		}
		f.latency = artilleryTimes(s.Latency)
		if s.RPS.Mean != nil {
			f.rate = model.Some(*s.RPS.Mean)
		}
	}
	for e, v := range f.errorsBy {
		if v < 0 {
			return f, fmt.Errorf("%s: a negative count %d of error %s", where, v, e)
		}
		f.errors += v
	}
	if f.requests < 0 || f.n2xx < 0 || f.non2xx < 0 {
		return f, fmt.Errorf("%s: a negative request or status count", where)
	}
	for k, v := range f.latency {
		if v < 0 || math.IsNaN(v) {
			return f, fmt.Errorf("%s: a negative response time %s %v", where, k, v)
		}
	}
	return f, nil
}

// artilleryTimes drops the figures written as null (a period with too
// few responses for a p95).
func artilleryTimes(m map[string]*float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		if v != nil {
			out[k] = *v
		}
	}
	return out
}

func (f *artilleryFigures) count(code string, n int64) {
	f.hasCodes = true
	if c, err := strconv.Atoi(code); err == nil && c >= 200 && c < 300 {
		f.n2xx += n
	} else {
		f.non2xx += n
	}
}

// artilleryPercentiles are the summary keys read as percentiles.
var artilleryPercentiles = []struct {
	key string
	p   float64
}{{"median", 50}, {"p50", 50}, {"p75", 75}, {"p90", 90}, {"p95", 95}, {"p99", 99}, {"p999", 99.9}}

// readArtilleryJSON reads an Artillery JSON report: one run, from
// "aggregate". requests are the requests sent, responses_2xx and non_2xx
// the status counts, errors the requests with no answer (the sum of the
// error counts, each kept as a label error.<code>), rps 1.x's rps.mean
// or, for 2.x, http.requests over lastCounterAt - firstCounterAt (label
// reported_rps keeps http.request_rate), the latencies those of
// latency (1.x) or summaries."http.response_time" (2.x). Each
// intermediate period is stored in samples at its time: http_reqs (its
// requests), errors, and http_req_duration_p50, _p95, _p99 where it has
// them.
func readArtilleryJSON(in *Input, sink model.Sink) error {
	var doc struct {
		Aggregate    *artilleryStats  `json:"aggregate"`
		Intermediate []artilleryStats `json:"intermediate"`
	}
	_, line, err := readJSONDoc(in, &doc, "Artillery JSON report")
	if err != nil {
		return err
	}
	if doc.Aggregate == nil {
		return Errorf(in.Name, line, 0, "Artillery JSON report: no aggregate")
	}
	a := doc.Aggregate
	f, err := a.figures("aggregate")
	if err != nil {
		return Errorf(in.Name, line, 0, "Artillery JSON report: %v", err)
	}
	r := &model.Run{Tool: "artillery", Line: line}
	r.Requests = model.Some(f.requests)
	r.Errors = model.Some(f.errors)
	if f.hasCodes {
		r.Responses2xx, r.Non2xx = model.Some(f.n2xx), model.Some(f.non2xx)
	}
	codes := make([]string, 0, len(f.errorsBy))
	for c := range f.errorsBy {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		runLabel(r, "error."+c, strconv.FormatInt(f.errorsBy[c], 10))
	}
	if a.v2() {
		runLabel(r, "artillery_layout", "2.x")
		if a.FirstCounterAt != nil && a.LastCounterAt != nil && *a.LastCounterAt > *a.FirstCounterAt {
			span := float64(*a.LastCounterAt-*a.FirstCounterAt) / 1000
			r.DurationS = model.Some(span)
			r.StartedAt = model.Some(time.UnixMilli(*a.FirstCounterAt).UTC())
			r.RPS = model.Some(float64(f.requests) / span)
		}
		if f.rate.Valid {
			runLabel(r, "reported_rps", fmtLabelNum(f.rate.V))
		}
		if b, ok := a.Counters["http.downloaded_bytes"]; ok && b >= 0 {
			r.BytesRead = model.Some(b)
		}
		for _, k := range []string{"http.responses", "vusers.created", "vusers.completed", "vusers.failed"} {
			if v, ok := a.Counters[k]; ok {
				runLabel(r, strings.ReplaceAll(k, ".", "_"), strconv.FormatInt(v, 10))
			}
		}
	} else {
		runLabel(r, "artillery_layout", "1.x")
		r.RPS = f.rate
		for _, l := range []struct {
			k string
			v *int64
		}{{"scenarios_created", a.ScenariosCreated}, {"scenarios_completed", a.ScenariosCompleted}, {"requests_completed", a.RequestsCompleted}} {
			if l.v != nil {
				runLabel(r, l.k, strconv.FormatInt(*l.v, 10))
			}
		}
	}
	if f.requests > 0 || len(f.latency) > 0 {
		artilleryLatency(r, f.latency)
	}
	var points []model.Sample
	for i := range doc.Intermediate {
		if points, err = artilleryPeriod(in, line, i, &doc.Intermediate[i], points); err != nil {
			return err
		}
	}
	if err := sink.Run(r); err != nil {
		return err
	}
	for i := range points {
		if err := sink.Sample(0, &points[i]); err != nil {
			return err
		}
	}
	return nil
}

// artilleryLatency sets the latency columns from a summary (ms).
func artilleryLatency(r *model.Run, lat map[string]float64) {
	if v, ok := lat["max"]; ok {
		r.LatencyMaxMS = model.Some(v)
	}
	if v, ok := lat["mean"]; ok {
		r.LatencyMeanMS = model.Some(v)
	}
	if v, ok := lat["min"]; ok {
		runLabel(r, "latency_min_ms", fmtLabelNum(v))
	}
	for _, p := range artilleryPercentiles {
		v, ok := lat[p.key]
		if !ok || len(r.Percentiles) > 0 && r.Percentiles[len(r.Percentiles)-1].Percentile == p.p {
			continue // median and p50 are one figure
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p.p, LatencyMS: v})
	}
	spectrumColumns(r)
}

// artilleryPeriod appends one intermediate period's samples.
func artilleryPeriod(in *Input, line, i int, p *artilleryStats, out []model.Sample) ([]model.Sample, error) {
	where := fmt.Sprintf("intermediate[%d]", i)
	f, err := p.figures(where)
	if err != nil {
		return nil, Errorf(in.Name, line, 0, "Artillery JSON report: %v", err)
	}
	var ts time.Time
	switch {
	case p.Timestamp != nil:
		if ts, err = time.Parse(time.RFC3339Nano, *p.Timestamp); err != nil {
			return nil, Errorf(in.Name, line, 0, "Artillery JSON report: %s: timestamp %q is not an RFC 3339 time", where, clipQuote(*p.Timestamp))
		}
	case len(p.Period) > 0:
		ms, err := strconv.ParseInt(strings.Trim(string(p.Period), `"`), 10, 64)
		if err != nil {
			return nil, Errorf(in.Name, line, 0, "Artillery JSON report: %s: period %s is not epoch milliseconds", where, clipQuote(string(p.Period)))
		}
		ts = time.UnixMilli(ms)
	default:
		return nil, Errorf(in.Name, line, 0, "Artillery JSON report: %s has no timestamp or period", where)
	}
	ts = ts.UTC()
	put := func(metric string, v float64) { out = append(out, model.Sample{TS: ts, Metric: metric, Value: v}) }
	put("http_reqs", float64(f.requests))
	put("errors", float64(f.errors))
	for _, q := range []struct{ key, metric string }{{"median", "http_req_duration_p50"}, {"p95", "http_req_duration_p95"}, {"p99", "http_req_duration_p99"}} {
		if v, ok := f.latency[q.key]; ok {
			put(q.metric, v)
		}
	}
	return out, nil
}
