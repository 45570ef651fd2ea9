package ingest

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
)

// autocannon (mcollina/autocannon, Node.js) prints with --json (-j) one
// JSON document: the run's counts (errors, timeouts, non2xx, 1xx … 5xx,
// statusCodeStats), its duration in seconds, and three HdrHistogram
// summaries: latency (ms), requests (completed requests per second
// sample, with total and sent) and throughput (bytes per second sample,
// with total). Latencies are recorded in whole milliseconds; a 2xx
// response always, other statuses unless --excludeErrorStats. An error
// event (a connection error or a timeout, counted in errors and
// timeouts) is no request of requests.total; with pipelining one error
// event stands for up to that many requests.

func init() {
	register(&Format{Name: "autocannon-json", Priority: 40, Detect: detectAutocannonJSON, Read: readAutocannonJSON})
}

func detectAutocannonJSON(head []byte) bool {
	return hasJSONKeys(head, "latency", "requests", "throughput", "errors", "timeouts", "duration")
}

// autocannonJSON is the --json document.
type autocannonJSON struct {
	Title       *string  `json:"title"`
	URL         *string  `json:"url"`
	Connections *int64   `json:"connections"`
	Pipelining  *int64   `json:"pipelining"`
	Duration    *float64 `json:"duration"`
	Start       *string  `json:"start"`
	Errors      *int64   `json:"errors"`
	Timeouts    *int64   `json:"timeouts"`
	Mismatches  *int64   `json:"mismatches"`
	Resets      *int64   `json:"resets"`
	Non2xx      *int64   `json:"non2xx"`
	N2xx        *int64   `json:"2xx"`
	StatusCodes map[string]struct {
		Count int64 `json:"count"`
	} `json:"statusCodeStats"`
	Latency    map[string]*float64 `json:"latency"`
	Requests   map[string]*float64 `json:"requests"`
	Throughput map[string]*float64 `json:"throughput"`
}

// autocannonPercentMethod names how autocannon computes its percentiles.
const autocannonPercentMethod = "HdrHistogram (hdr-histogram-js, 5 significant digits) over whole milliseconds"

// readAutocannonJSON reads autocannon --json. requests is requests.total,
// the completed requests (any status); errors the error events
// (connection errors and timeouts); responses_2xx and non_2xx the 2xx and
// non2xx counts; rps requests over duration (autocannon prints only
// statistics of its per-second samples: requests.average is the label
// reported_rps_mean); the latency columns the latency summary, its pNN
// keys the spectrum.
func readAutocannonJSON(in *Input, sink model.Sink) error {
	var v autocannonJSON
	_, line, err := readJSONDoc(in, &v, "autocannon JSON")
	if err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return Errorf(in.Name, line, 0, "autocannon JSON: "+format, args...)
	}
	total, ok := v.Requests["total"]
	switch {
	case !ok || total == nil:
		return bad("missing requests.total")
	case v.Duration == nil:
		return bad("missing duration")
	case v.Errors == nil:
		return bad("missing errors")
	case *total < 0 || *total != float64(int64(*total)) || *v.Duration < 0 || *v.Errors < 0:
		return bad("requests.total %v, duration %v and errors %d must be whole counts and seconds >= 0", *total, *v.Duration, *v.Errors)
	}
	r := &model.Run{Tool: "autocannon", Line: line}
	n := int64(*total)
	r.Requests = model.Some(n)
	r.Errors = model.Some(*v.Errors)
	r.DurationS = model.Some(*v.Duration)
	if *v.Duration > 0 {
		r.RPS = model.Some(float64(n) / *v.Duration)
	}
	if v.N2xx != nil && v.Non2xx != nil {
		if *v.N2xx < 0 || *v.Non2xx < 0 || *v.N2xx+*v.Non2xx != n {
			return bad("2xx %d and non2xx %d do not add up to requests.total %d", *v.N2xx, *v.Non2xx, n)
		}
		r.Responses2xx = model.Some(*v.N2xx)
		r.Non2xx = model.Some(*v.Non2xx)
	}
	if v.Connections != nil && *v.Connections > 0 {
		r.Connections = model.Some(*v.Connections)
	}
	if v.Start != nil {
		if ts, err := time.Parse(time.RFC3339Nano, *v.Start); err == nil {
			r.StartedAt = model.Some(ts.UTC())
		}
	}
	if x := v.Throughput["total"]; x != nil && *x >= 0 && *x == float64(int64(*x)) {
		r.BytesRead = model.Some(int64(*x))
	}
	autocannonSampled(r, model.ReportedRPSPrefix, v.Requests)
	autocannonSampled(r, model.ReportedTransferPrefix, v.Throughput)
	if x := v.Requests["sent"]; x != nil {
		runLabel(r, "requests_sent", fmtLabelNum(*x))
	}
	for _, c := range []struct {
		k string
		x *int64
	}{{"timeouts", v.Timeouts}, {"mismatches", v.Mismatches}, {"resets", v.Resets}, {"pipelining", v.Pipelining}} {
		if c.x != nil {
			runLabel(r, c.k, strconv.FormatInt(*c.x, 10))
		}
	}
	for _, c := range []struct {
		k string
		x *string
	}{{"url", v.URL}, {"title", v.Title}} {
		if c.x != nil && *c.x != "" {
			runLabel(r, c.k, *c.x)
		}
	}
	if len(v.StatusCodes) > 0 {
		codes := map[string]int64{}
		for k, c := range v.StatusCodes {
			codes[k] = c.Count
		}
		b, _ := json.Marshal(codes) // sorted keys
		runLabel(r, "status_codes", string(b))
	}
	if err := autocannonLatency(r, v.Latency, bad); err != nil {
		return err
	}
	return sink.Run(r)
}

// autocannonSampled keeps the statistics of autocannon's per-second
// samples of requests or bytes (average or mean, stddev, min, max, pNN:
// p2_5 is 2.5) under the names that prefix starts.
func autocannonSampled(r *model.Run, prefix string, m map[string]*float64) {
	for k, x := range m {
		if x == nil {
			continue
		}
		switch k {
		case "average", "mean":
			reported(r, prefix+"mean", *x)
		case "stddev":
			reported(r, prefix+"stdev", *x)
		case "min", "max":
			reported(r, prefix+k, *x)
		default:
			if p, err := strconv.ParseFloat(strings.Replace(strings.TrimPrefix(k, "p"), "_", ".", 1), 64); strings.HasPrefix(k, "p") && err == nil && p >= 0 && p <= 100 {
				reported(r, prefix+percentName(p), *x)
			}
		}
	}
}

// autocannonLatency files the latency summary: average (or mean),
// stddev, max, min as a label, and every pNN key (p2_5 is 2.5) as the
// spectrum. A run with no latency recorded (totalCount 0) keeps none.
func autocannonLatency(r *model.Run, lat map[string]*float64, bad func(string, ...any) error) error {
	if c := lat["totalCount"]; c != nil && *c == 0 {
		return nil
	}
	for k, x := range lat {
		if x != nil && *x < 0 {
			return bad("latency.%s is %v: a latency is >= 0", k, *x)
		}
	}
	mean := lat["mean"]
	if mean == nil {
		mean = lat["average"]
	}
	for _, f := range []struct {
		x   *float64
		dst *model.Opt[float64]
	}{{mean, &r.LatencyMeanMS}, {lat["stddev"], &r.LatencyStdevMS}, {lat["max"], &r.LatencyMaxMS}} {
		if f.x != nil {
			*f.dst = model.Some(*f.x)
		}
	}
	if x := lat["min"]; x != nil {
		runLabel(r, "latency_min_ms", fmtLabelNum(*x))
	}
	keys := make([]string, 0, len(lat))
	for k := range lat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := lat[k]
		if !strings.HasPrefix(k, "p") || x == nil {
			continue
		}
		p, err := strconv.ParseFloat(strings.Replace(k[1:], "_", ".", 1), 64)
		if err != nil || !(p > 0 && p <= 100) {
			continue // not a percentile key
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: *x})
	}
	sortPercentiles(r.Percentiles)
	spectrumColumns(r)
	if len(r.Percentiles) > 0 {
		runLabel(r, "percentile_method", autocannonPercentMethod)
	}
	return nil
}
