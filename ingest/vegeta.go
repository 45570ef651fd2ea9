package ingest

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/influxdata/tdigest"
	"github.com/wra-bench/wra/model"
)

// vegeta (tsenart/vegeta, tested with v12.13.0) writes its results as a
// binary gob stream; `vegeta report` turns them into a text, JSON,
// histogram or hdrplot report, and `vegeta encode --to csv|json` into one
// row per request. Every result counts as a request; a result with code 0
// got no answer (connection refused, timeout) and is an error; any other
// code is an answer, 2xx or not (vegeta's own "Error Set" also lists the
// status text of non-2xx answers). rps is vegeta's rate: requests over the
// attack duration (first to last request sent).

func init() {
	register(&Format{Name: "vegeta-text", Priority: 40, Late: true, Detect: detectVegetaText, Read: readVegetaText})
	register(&Format{Name: "vegeta-json", Priority: 40, Detect: detectVegetaJSON, Read: readVegetaJSON})
	register(&Format{Name: "vegeta-hist", Priority: 40, Detect: detectVegetaHist, Read: readVegetaHist})
	register(&Format{Name: "vegeta-results-csv", Priority: 40, Detect: detectVegetaResultsCSV, Read: readVegetaResultsCSV})
	register(&Format{Name: "vegeta-results-json", Priority: 40, Detect: detectVegetaResultsJSON, Read: readVegetaResultsJSON})
	register(&Format{Name: "vegeta-results-gob", Priority: 40, Detect: detectVegetaResultsGob, Read: readVegetaResultsGob})
}

func detectVegetaText(head []byte) bool {
	req, lat := false, false
	hasLine(head, func(l string) bool {
		switch {
		case isVegetaRequestsLine(l) || isVegetaDurationLine(l):
			req = true
		case req && strings.HasPrefix(l, "Latencies") && strings.Contains(l, "[") && strings.Contains(l, "mean"):
			lat = true
		}
		return req && lat
	})
	return req && lat
}

// detectVegetaJSON reads `vegeta report -type=json` by its keys, whatever
// its whitespace and key order.
func detectVegetaJSON(head []byte) bool {
	return hasJSONKeys(head, "latencies", "requests", "status_codes")
}

func detectVegetaHist(head []byte) bool {
	found := false
	hasLine(head, func(l string) bool {
		if l == "" {
			return false
		}
		found = strings.Join(strings.Fields(l), " ") == "Bucket # % Histogram"
		return true
	})
	return found
}

func detectVegetaResultsJSON(head []byte) bool {
	found := false
	hasLine(head, func(l string) bool {
		if l == "" {
			return false
		}
		found = strings.HasPrefix(l, "{") && strings.Contains(l, `"timestamp":`) && strings.Contains(l, `"latency":`) &&
			strings.Contains(l, `"code":`) && strings.Contains(l, `"bytes_in":`) && strings.Contains(l, `"bytes_out":`)
		return true
	})
	return found
}

func detectVegetaResultsCSV(head []byte) bool {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	rec, err := csv.NewReader(bytes.NewReader(line)).Read()
	if err != nil || len(rec) < 7 {
		return false
	}
	ts, err1 := strconv.ParseInt(rec[0], 10, 64)
	code, err2 := strconv.ParseUint(rec[1], 10, 16)
	_, err3 := strconv.ParseInt(rec[2], 10, 64)
	return err1 == nil && err2 == nil && err3 == nil && ts > 1e17 && code < 1000
}

// vegetaCodes files the status counts into the count columns: code 0 is
// an error, 2xx an answer, anything else a non-2xx answer.
func vegetaCodes(r *model.Run, codes map[string]int64) {
	var n2xx, non2xx, nerr int64
	for c, n := range codes {
		switch code, _ := strconv.Atoi(c); {
		case code == 0:
			nerr += n
		case code >= 200 && code < 300:
			n2xx += n
		default:
			non2xx += n
		}
	}
	r.Responses2xx = model.Some(n2xx)
	r.Non2xx = model.Some(non2xx)
	r.Errors = model.Some(nerr)
	runLabel(r, "status_codes", countsJSON(codes))
}

// vegetaTextParser reads one text report (readReports): it starts at its
// "Requests [total, rate…]" line and ends at the blank line after its
// Status Codes or its Error Set, at the fence that closes the code block
// it was pasted in, or before the next report. Lines outside
// the reports are ignored: a command line, a heading, or the histogram
// `vegeta report -type=hist` prints of the same results (it would count
// them twice).
type vegetaTextParser struct {
	l *Lines

	r        *model.Run
	codes    map[string]int64
	errSet   []string
	inErrors bool
	seen     map[string]bool
	done     bool
}

var vegetaTextReports = &reportFormat{
	tool:   "vegeta",
	first:  `"Requests [total, rate, …]"`,
	begins: func(t string) bool { return isVegetaRequestsLine(t) || isVegetaDurationLine(t) },
	read: func(l *Lines, _ model.Sink) (*model.Run, error) {
		p := &vegetaTextParser{l: l}
		ended, err := scanReport(l, p.line, func() bool { return p.done })
		if err == nil && ended {
			err = p.finish(l.Line() + 1)
		}
		return p.r, err
	},
	settings: []string{"url"},
}

// readVegetaText reads `vegeta report` (text). Each line is "Name [keys]
// values", so older versions with fewer columns (v5: "Requests [total,
// rate]", "Latencies [mean, 50, 95, 99, max]", no Duration line when
// several inputs are merged) read too. rps is the printed rate; the
// printed throughput (successful requests over attack plus wait) is kept
// as reported_throughput.
func readVegetaText(in *Input, sink model.Sink) error {
	return readReports(in, sink, vegetaTextReports)
}

// isVegetaRequestsLine reports whether a line is the first of a text
// report: "Requests [total, rate, throughput]", or before 2015 "Requests
// [total, rate]" and "Requests [total]".
func isVegetaRequestsLine(t string) bool {
	return strings.HasPrefix(t, "Requests") && strings.Contains(t, "[total")
}

// isVegetaDurationLine reports whether a line is a text report's
// "Duration [total, attack, wait]": the first line of a report whose
// Requests line was left out (a log that lost it).
func isVegetaDurationLine(t string) bool {
	return strings.HasPrefix(t, "Duration") && strings.Contains(t, "[total, attack")
}

func (p *vegetaTextParser) line(t string) error {
	l := p.l
	if isVegetaRequestsLine(t) || isVegetaDurationLine(t) && (p.r == nil || p.seen["Duration"]) {
		if p.r != nil {
			// The next report: this one ends before it.
			l.Unread()
			return p.finish(l.Line())
		}
		p.r = &model.Run{Tool: "vegeta", Line: l.Line()}
		p.seen = map[string]bool{}
	}
	if isFence(strings.TrimSpace(t)) {
		// The fence that closes a report pasted into a Markdown code
		// block, right after its Status Codes or Error Set: the report
		// ends before it, as at a blank line (before its Status Codes,
		// the report is cut short there).
		l.Unread()
		return p.finish(l.Line())
	}
	if p.inErrors {
		if strings.TrimSpace(t) == "" || strings.Join(strings.Fields(t), " ") == "Bucket # % Histogram" {
			return p.finish(l.Line())
		}
		p.errSet = append(p.errSet, t)
		return nil
	}
	if strings.TrimSpace(t) == "" {
		if p.codes != nil {
			// A blank line after the Status Codes: the report printed no
			// Error Set (or its author left it out).
			return p.finish(l.Line())
		}
		return nil
	}
	if strings.TrimSpace(t) == "Error Set:" {
		if p.codes == nil {
			return l.Errorf(1, "vegeta report from line %d: Error Set before Status Codes", p.r.Line)
		}
		p.inErrors = true
		return nil
	}
	open, close := strings.IndexByte(t, '['), strings.IndexByte(t, ']')
	if open < 0 || close < open {
		return l.Errorf(1, "vegeta report from line %d: expected \"Name [keys] values\" or \"Error Set:\", found %q", p.r.Line, clipLine(t))
	}
	name := strings.TrimSpace(t[:open])
	keys := strings.Split(t[open+1:close], ", ")
	rest := strings.TrimSpace(t[close+1:])
	if p.seen[name] {
		return l.Errorf(1, "vegeta report from line %d: a second %s line", p.r.Line, name)
	}
	p.seen[name] = true
	if name == "Status Codes" {
		p.codes = map[string]int64{}
		for _, kv := range strings.Fields(rest) {
			c, n, ok := strings.Cut(kv, ":")
			v, err := strconv.ParseInt(n, 10, 64)
			if _, cerr := strconv.Atoi(c); !ok || err != nil || cerr != nil || v < 0 {
				return l.Errorf(strings.Index(t, kv)+1, "vegeta Status Codes: expected code:count, found %q", kv)
			}
			p.codes[c] += v
		}
		return nil
	}
	vals := strings.Split(rest, ", ")
	if len(vals) != len(keys) {
		return l.Errorf(close+2, "vegeta %s: expected %d values for [%s], found %q", name, len(keys), t[open+1:close], clipLine(rest))
	}
	for i, k := range keys {
		if err := vegetaTextValue(p.r, name, k, vals[i]); err != nil {
			return l.Errorf(strings.Index(t[close:], vals[i])+close+1, "vegeta %s %s: %v", name, k, err)
		}
	}
	return nil
}

// finish completes the report, before line end.
func (p *vegetaTextParser) finish(end int) error {
	r := p.r
	p.done = true
	name := p.l.in.Name
	switch {
	case !p.seen["Latencies"]:
		return Errorf(name, end, 0, "vegeta report from line %d ends before its Latencies line", r.Line)
	case p.codes == nil:
		return Errorf(name, end, 0, "vegeta report from line %d ends before its Status Codes", r.Line)
	}
	var sum int64
	for _, n := range p.codes {
		sum += n
	}
	if !p.seen["Requests"] {
		// The report lost its Requests line: every result has a status
		// code (0 for no answer), so the Status Codes count the requests;
		// the rate and throughput printed there are gone.
		r.Requests = model.Some(sum)
		runLabel(r, "requests_basis", "the Status Codes: the report has no Requests line")
		runLabel(r, "warning", fmt.Sprintf("line %d: the vegeta report has no Requests line: requests are its Status Codes, its rate is not printed (rps NULL)", r.Line))
	}
	if r.Requests.V == 0 {
		return Errorf(name, r.Line, 0, "vegeta report of no request")
	}
	if sum != r.Requests.V {
		return Errorf(name, r.Line, 0, "vegeta report: Status Codes add up to %d, Requests total is %d", sum, r.Requests.V)
	}
	vegetaCodes(r, p.codes)
	if len(p.errSet) > 0 {
		b, _ := json.Marshal(p.errSet) // a slice of strings always encodes
		runLabel(r, "error_set", string(b))
	}
	runLabel(r, "percentile_method", "vegeta t-digest (compression 100)")
	sortPercentiles(r.Percentiles)
	spectrumColumns(r)
	return nil
}

// vegetaTextValue files one value of the text report.
func vegetaTextValue(r *model.Run, name, key, v string) error {
	dur := func() (float64, error) { return durationMS(v) }
	count := func() (int64, error) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, errors.New("expected a count")
		}
		return n, nil
	}
	switch name + "/" + key {
	case "Requests/total":
		n, err := count()
		r.Requests = model.Some(n)
		return err
	case "Requests/rate":
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("expected a rate")
		}
		r.RPS = model.Some(x)
	case "Requests/throughput":
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 {
			return errors.New("expected a rate")
		}
		reported(r, model.ReportedSuccessRPS, x)
	case "Duration/total":
		if _, err := dur(); err != nil {
			return err
		}
	case "Duration/attack":
		d, ok := durationExactMS(v)
		if ok {
			d, ok = d.shift(-3)
		}
		if !ok {
			return fmt.Errorf("expected a duration with its unit, found %q", v)
		}
		r.DurationS = model.Some(d.float())
	case "Duration/wait":
		ms, err := dur()
		runLabel(r, "wait_s", fmtLabelNum(ms/1000))
		return err
	case "Latencies/min":
		ms, err := dur()
		runLabel(r, "latency_min_ms", fmtLabelNum(ms))
		return err
	case "Latencies/mean":
		ms, err := dur()
		r.LatencyMeanMS = model.Some(ms)
		return err
	case "Latencies/max":
		ms, err := dur()
		r.LatencyMaxMS = model.Some(ms)
		return err
	case "Bytes In/total":
		n, err := count()
		r.BytesRead = model.Some(n)
		return err
	case "Bytes Out/total":
		n, err := count()
		reported(r, model.ReportedBytesSent, float64(n))
		return err
	case "Bytes In/mean", "Bytes Out/mean":
	case "Success/ratio":
		pct, ok := percentValue(v)
		if !ok {
			return errors.New("expected a percentage")
		}
		reported(r, model.ReportedSuccessPct, pct)
	default:
		p, err := strconv.ParseFloat(key, 64)
		if name != "Latencies" || err != nil || p < 0 || p > 100 {
			return errors.New("unknown field")
		}
		ms, err := dur()
		if err != nil {
			return err
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: ms})
	}
	return nil
}

// vegetaReport is `vegeta report -type=json`: durations in nanoseconds.
type vegetaReport struct {
	Latencies *struct {
		Total int64  `json:"total"`
		Mean  int64  `json:"mean"`
		P50   *int64 `json:"50th"`
		P90   *int64 `json:"90th"`
		P95   *int64 `json:"95th"`
		P99   *int64 `json:"99th"`
		Max   int64  `json:"max"`
		Min   *int64 `json:"min"`
	} `json:"latencies"`
	BytesIn *struct {
		Total int64 `json:"total"`
	} `json:"bytes_in"`
	BytesOut *struct {
		Total int64 `json:"total"`
	} `json:"bytes_out"`
	Earliest    time.Time        `json:"earliest"`
	Duration    *int64           `json:"duration"`
	Wait        *int64           `json:"wait"`
	Requests    *int64           `json:"requests"`
	Rate        *float64         `json:"rate"`
	Throughput  *float64         `json:"throughput"`
	Success     *float64         `json:"success"`
	StatusCodes map[string]int64 `json:"status_codes"`
	Errors      []string         `json:"errors"`
	Buckets     json.RawMessage  `json:"buckets"`
}

// readVegetaJSON reads `vegeta report -type=json`. rps = requests /
// duration (the attack duration), which is vegeta's rate; the printed rate
// is kept as reported_rps.
func readVegetaJSON(in *Input, sink model.Sink) error {
	doc, err := io.ReadAll(io.LimitReader(in.R, MaxLineBytes+1))
	if err != nil {
		return err
	}
	if len(doc) > MaxLineBytes {
		return Errorf(in.Name, 1, 0, "vegeta JSON report longer than %d bytes", MaxLineBytes)
	}
	var v vegetaReport
	if err := decodeJSON(in.Name, 1, doc, &v, "JSON", false); err != nil {
		return err
	}
	missing := func(what string) error { return Errorf(in.Name, 1, 0, "vegeta JSON report: missing %s", what) }
	switch {
	case v.Latencies == nil:
		return missing("latencies")
	case v.Requests == nil:
		return missing("requests")
	case v.StatusCodes == nil:
		return missing("status_codes")
	case *v.Requests == 0:
		return Errorf(in.Name, 1, 0, "vegeta JSON report of no request")
	case *v.Requests < 0 || v.Duration != nil && *v.Duration < 0:
		return Errorf(in.Name, 1, 0, "vegeta JSON report: negative requests or duration")
	}
	r := &model.Run{Tool: "vegeta", Line: 1, Requests: model.Some(*v.Requests)}
	var sum int64
	for c, n := range v.StatusCodes {
		if _, err := strconv.Atoi(c); err != nil || n < 0 {
			return Errorf(in.Name, 1, 0, "vegeta JSON report: status_codes: bad entry %q: %d", c, n)
		}
		sum += n
	}
	if sum != *v.Requests {
		return Errorf(in.Name, 1, 0, "vegeta JSON report: status_codes add up to %d, requests is %d", sum, *v.Requests)
	}
	vegetaCodes(r, v.StatusCodes)
	if v.Duration == nil {
		// vegeta before 2014 printed no duration: no rate either.
	} else if d := time.Duration(*v.Duration); d > 0 {
		r.DurationS = model.Some(d.Seconds())
		r.RPS = model.Some(float64(*v.Requests) / d.Seconds()) // as vegeta's Metrics.Close
	}
	if v.Rate != nil {
		runLabel(r, "reported_rps", fmtLabelNum(*v.Rate))
	}
	if v.Throughput != nil {
		reported(r, model.ReportedSuccessRPS, *v.Throughput)
	}
	if v.Success != nil {
		if pct, ok := ratioPct(*v.Success); ok {
			reported(r, model.ReportedSuccessPct, pct)
		}
	}
	if v.Wait != nil {
		runLabel(r, "wait_s", fmtLabelNum(float64(*v.Wait)/1e9))
	}
	if !v.Earliest.IsZero() {
		r.StartedAt = model.Some(v.Earliest.UTC())
	}
	if v.BytesIn != nil {
		r.BytesRead = model.Some(v.BytesIn.Total)
	}
	if v.BytesOut != nil {
		reported(r, model.ReportedBytesSent, float64(v.BytesOut.Total))
	}
	if len(v.Errors) > 0 {
		b, _ := json.Marshal(v.Errors) // a slice of strings always encodes
		runLabel(r, "error_set", string(b))
	}
	if len(v.Buckets) > 0 {
		runLabel(r, "buckets", string(v.Buckets))
	}
	if *v.Requests > 0 {
		lt := v.Latencies
		r.LatencyMeanMS = model.Some(float64(lt.Mean) / 1e6)
		r.LatencyMaxMS = model.Some(float64(lt.Max) / 1e6)
		if lt.Min != nil {
			runLabel(r, "latency_min_ms", fmtLabelNum(float64(*lt.Min)/1e6))
		}
		for _, p := range []struct {
			p float64
			v *int64
		}{{50, lt.P50}, {90, lt.P90}, {95, lt.P95}, {99, lt.P99}} {
			if p.v != nil {
				r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p.p, LatencyMS: float64(*p.v) / 1e6})
			}
		}
	}
	runLabel(r, "percentile_method", "vegeta t-digest (compression 100)")
	spectrumColumns(r)
	return sink.Run(r)
}

// readVegetaHist reads `vegeta report -type=hist[...]`: bucket counts.
// requests is their sum. The spectrum holds, for each bucket with a finite
// upper bound, the share of requests below that bound (vegeta's buckets
// are [lo, hi)), with its count; p50 … p99 are not known from buckets and
// stay NULL.
func readVegetaHist(in *Input, sink model.Sink) error {
	l := NewLines(in)
	r := &model.Run{Tool: "vegeta"}
	type bucket struct {
		hiMS  float64
		inf   bool
		count int64
	}
	var bs []bucket
	var total int64
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" {
			continue
		}
		if r.Line == 0 {
			if strings.Join(strings.Fields(t), " ") != "Bucket # % Histogram" {
				return l.Errorf(1, `vegeta histogram: expected the "Bucket # %% Histogram" header, found %q`, clipLine(t))
			}
			r.Line = l.Line()
			continue
		}
		if strings.Join(strings.Fields(t), " ") == "Bucket # % Histogram" {
			return l.Errorf(1, "a second vegeta histogram starts here: a file holds one report")
		}
		close := strings.IndexByte(t, ']')
		if !strings.HasPrefix(t, "[") || close < 0 {
			return l.Errorf(1, `vegeta histogram: expected "[lo, hi] count pct%%", found %q`, clipLine(t))
		}
		lo, hi, ok := strings.Cut(t[1:close], ",")
		lo, hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
		f := strings.Fields(t[close+1:])
		if !ok || len(f) < 2 || !strings.HasSuffix(f[1], "%") {
			return l.Errorf(1, `vegeta histogram: expected "[lo, hi] count pct%%", found %q`, clipLine(t))
		}
		loMS, err := durationMS(lo)
		if err != nil {
			return l.Errorf(2, "vegeta histogram: bucket start: %v", err)
		}
		b := bucket{inf: hi == "+Inf"}
		if !b.inf {
			if b.hiMS, err = durationMS(hi); err != nil || b.hiMS <= loMS {
				return l.Errorf(strings.Index(l.Text(), hi)+1, "vegeta histogram: bucket end: expected a duration above %s, found %q", lo, hi)
			}
		}
		if n := len(bs); n > 0 && (bs[n-1].inf || bs[n-1].hiMS != loMS) {
			return l.Errorf(2, "vegeta histogram: bucket starts at %s, not where the previous one ends", lo)
		}
		if b.count, err = strconv.ParseInt(f[0], 10, 64); err != nil || b.count < 0 {
			return l.Errorf(strings.Index(l.Text(), f[0])+1, "vegeta histogram: expected a count, found %q", f[0])
		}
		total += b.count
		bs = append(bs, b)
	}
	if err := l.Err(); err != nil {
		return err
	}
	switch {
	case r.Line == 0:
		return Errorf(in.Name, l.Line()+1, 0, "empty vegeta histogram: expected its header")
	case len(bs) == 0:
		return Errorf(in.Name, l.Line()+1, 0, "truncated vegeta histogram: header without buckets")
	case !bs[len(bs)-1].inf:
		return Errorf(in.Name, l.Line()+1, 0, "truncated vegeta histogram: expected a last bucket ending at +Inf")
	case total == 0:
		return Errorf(in.Name, r.Line, 0, "vegeta histogram holds no requests")
	}
	r.Requests = model.Some(total)
	var cum int64
	for _, b := range bs {
		cum += b.count
		if !b.inf {
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: float64(cum) / float64(total) * 100, LatencyMS: b.hiMS, Count: model.Some(cum)})
		}
	}
	runLabel(r, "percentile_method", "vegeta histogram: share of requests below each bucket's upper bound")
	return sink.Run(r)
}

// vegetaResult is one result of `vegeta encode --to json`.
type vegetaResult struct {
	Attack    string    `json:"attack"`
	Seq       uint64    `json:"seq"`
	Code      *uint16   `json:"code"`
	Timestamp time.Time `json:"timestamp"`
	Latency   *int64    `json:"latency"`
	BytesOut  uint64    `json:"bytes_out"`
	BytesIn   uint64    `json:"bytes_in"`
	Error     string    `json:"error"`
	Method    string    `json:"method"`
	URL       string    `json:"url"`
}

// vegetaMetrics recomputes vegeta's report from its results, as vegeta's
// lib/metrics.go does: latencies go, in file order, into a t-digest of
// compression 100 (github.com/influxdata/tdigest, the estimator vegeta
// uses), so that p50, p90, p95 and p99 are the numbers `vegeta report`
// prints for the same results; the mean is the total over the count
// truncated to whole nanoseconds; rate = requests / (last - first
// timestamp).
type vegetaMetrics struct {
	n, success, bytesIn   int64
	total, min, max       int64
	earliest, latest, end time.Time
	codes                 map[string]int64
	td                    *tdigest.TDigest
	tags                  map[string]string
	tagKey                [4]string
	tagJSON               string
}

func (m *vegetaMetrics) add(sink model.Sink, ts time.Time, code uint16, lat int64, bytesIn uint64, errText, attack, method, url string) error {
	if m.td == nil {
		m.td = tdigest.NewWithCompression(100)
		m.codes = map[string]int64{}
		m.tags = map[string]string{}
	}
	m.n++
	m.codes[strconv.Itoa(int(code))]++
	m.bytesIn += int64(bytesIn)
	m.total += lat
	m.td.Add(float64(lat), 1)
	if m.n == 1 || lat < m.min {
		m.min = lat
	}
	m.max = max(m.max, lat)
	if m.earliest.IsZero() || m.earliest.After(ts) {
		m.earliest = ts
	}
	if ts.After(m.latest) {
		m.latest = ts
	}
	if e := ts.Add(time.Duration(lat)); e.After(m.end) {
		m.end = e
	}
	if code >= 200 && code < 400 {
		m.success++
	}
	// Most results repeat the tags of the one before: encode them once.
	if key := [4]string{errText, attack, method, url}; m.n == 1 || key != m.tagKey {
		m.tagKey = key
		clear(m.tags)
		for i, k := range []string{"error", "attack", "method", "url"} {
			if key[i] != "" {
				m.tags[k] = key[i]
			}
		}
		m.tagJSON = ""
		if len(m.tags) > 0 {
			b, _ := json.Marshal(m.tags) // a map of strings always encodes
			m.tagJSON = string(b)
		}
	}
	s := model.Sample{TS: ts.UTC(), Metric: "http_req_duration", Value: float64(lat) / 1e6, Tags: m.tagJSON}
	if code != 0 {
		s.Status = model.Some(int64(code))
	}
	return sink.Sample(0, &s)
}

func (m *vegetaMetrics) run(r *model.Run) {
	r.Tool = "vegeta"
	r.Requests = model.Some(m.n)
	vegetaCodes(r, m.codes)
	r.BytesRead = model.Some(m.bytesIn)
	r.StartedAt = model.Some(m.earliest.UTC())
	d := m.latest.Sub(m.earliest)
	r.DurationS = model.Some(d.Seconds())
	if d > 0 {
		r.RPS = model.Some(float64(m.n) / d.Seconds())
		runLabel(r, "throughput", fmtLabelNum(float64(m.success)/(d+m.end.Sub(m.latest)).Seconds()))
	}
	runLabel(r, "success_ratio", fmtLabelNum(float64(m.success)/float64(m.n)))
	r.LatencyMeanMS = model.Some(float64(time.Duration(float64(m.total)/float64(m.n))) / 1e6)
	r.LatencyMaxMS = model.Some(float64(m.max) / 1e6)
	runLabel(r, "latency_min_ms", fmtLabelNum(float64(m.min)/1e6))
	for _, q := range []float64{0.5, 0.9, 0.95, 0.99} {
		ns := time.Duration(m.td.Quantile(q))
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: q * 100, LatencyMS: float64(ns) / 1e6})
	}
	runLabel(r, "percentile_method", "vegeta t-digest (compression 100), recomputed from the results in file order")
	spectrumColumns(r)
}

// readVegetaResultsCSV reads `vegeta encode --to csv`: timestamp (Unix
// ns), code, latency (ns), bytes out, bytes in, error, base64 body, and
// since v12.8 attack, seq, method, url and base64 headers.
func readVegetaResultsCSV(in *Input, sink model.Sink) error {
	cr := csv.NewReader(in.R)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	var m vegetaMetrics
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return csvError(in.Name, err, 0) // FieldsPerRecord -1: never a field count error
		}
		if len(rec) != 7 && len(rec) != 12 {
			ln, _ := cr.FieldPos(0)
			return Errorf(in.Name, ln, 0, "vegeta results CSV: expected 7 or 12 fields, found %d", len(rec))
		}
		bad := func(i int, what string) error {
			ln, col := cr.FieldPos(i)
			return Errorf(in.Name, ln, col, "vegeta results CSV: expected %s, found %q", what, rec[i])
		}
		ts, err := strconv.ParseInt(rec[0], 10, 64)
		if err != nil || ts <= 0 {
			return bad(0, "a Unix timestamp in nanoseconds")
		}
		code, err := strconv.ParseUint(rec[1], 10, 16)
		if err != nil {
			return bad(1, "a status code")
		}
		lat, err := strconv.ParseInt(rec[2], 10, 64)
		if err != nil || lat < 0 {
			return bad(2, "a latency in nanoseconds")
		}
		if _, err := strconv.ParseUint(rec[3], 10, 64); err != nil {
			return bad(3, "a byte count")
		}
		bin, err := strconv.ParseUint(rec[4], 10, 63)
		if err != nil {
			return bad(4, "a byte count")
		}
		var attack, method, url string
		if len(rec) == 12 {
			attack, method, url = rec[7], rec[9], rec[10]
		}
		if err := m.add(sink, time.Unix(0, ts), uint16(code), lat, bin, rec[5], attack, method, url); err != nil {
			return err
		}
	}
	if m.n == 0 {
		return Errorf(in.Name, 1, 0, "empty vegeta results CSV")
	}
	r := &model.Run{Line: 1}
	m.run(r)
	return sink.Run(r)
}

// readVegetaResultsJSON reads `vegeta encode --to json`: one JSON result
// per line.
func readVegetaResultsJSON(in *Input, sink model.Sink) error {
	l := NewLines(in)
	var m vegetaMetrics
	for l.Scan() {
		t := l.Text()
		if strings.TrimSpace(t) == "" {
			continue
		}
		var v vegetaResult
		if err := decodeJSON(in.Name, l.Line(), []byte(t), &v, "JSON", false); err != nil {
			return err
		}
		switch {
		case v.Code == nil || v.Latency == nil || v.Timestamp.IsZero():
			return l.Errorf(1, "vegeta result: expected code, timestamp and latency")
		case *v.Latency < 0:
			return l.Errorf(1, "vegeta result: negative latency %d", *v.Latency)
		}
		if err := m.add(sink, v.Timestamp, *v.Code, *v.Latency, min(v.BytesIn, math.MaxInt64), v.Error, v.Attack, v.Method, v.URL); err != nil {
			return err
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	if m.n == 0 {
		return Errorf(in.Name, 1, 0, "empty vegeta results JSON")
	}
	r := &model.Run{Line: 1}
	m.run(r)
	return sink.Run(r)
}

// detectVegetaResultsGob recognises the gob stream of `vegeta attack`: it
// opens with the type definition of vegeta's Result and its field names.
func detectVegetaResultsGob(head []byte) bool {
	h := head[:min(len(head), 512)]
	// Attack and Seq came with v8.0.0 (2018): a stream of an older
	// vegeta declares the other fields only, and gob decodes it into
	// today's Result as well (fields matched by name).
	for _, name := range []string{"\x06Result", "\x04Code", "\x09Timestamp", "\x07Latency", "\x07BytesIn"} {
		if !bytes.Contains(h, []byte(name)) {
			return false
		}
	}
	return true
}

// vegetaGobResult holds the fields of vegeta's Result that wra keeps; gob
// matches fields by name and skips the body and headers.
type vegetaGobResult struct {
	Attack    string
	Code      uint16
	Timestamp time.Time
	Latency   time.Duration
	BytesIn   uint64
	Error     string
	Method    string
	URL       string
}

// maxGobMessage bounds one gob message (one result with its body): gob
// itself allocates a message's declared size before reading it.
const maxGobMessage = 64 << 20

// gobFrames passes a gob stream through and fails on a message that
// declares more than maxGobMessage bytes, before gob allocates it.
type gobFrames struct {
	r       *bufio.Reader
	left    int64  // bytes of the current message still to pass
	pending []byte // length prefix bytes not yet passed
	msgs    int
	name    string
}

func (g *gobFrames) Read(p []byte) (int, error) {
	if len(g.pending) > 0 {
		n := copy(p, g.pending)
		g.pending = g.pending[n:]
		return n, nil
	}
	if g.left == 0 {
		// A message starts with its length as a gob uint: one byte below
		// 128, or the negated count of big-endian bytes that follow.
		b, err := g.r.ReadByte()
		if err != nil {
			return 0, err
		}
		n := uint64(b)
		hdr := []byte{b}
		if b >= 128 {
			k := int(-int8(b))
			if k < 1 || k > 8 {
				return 0, fmt.Errorf("bad message length prefix %#x", b)
			}
			n = 0
			for range k {
				c, err := g.r.ReadByte()
				if err != nil {
					return 0, io.ErrUnexpectedEOF
				}
				hdr = append(hdr, c)
				n = n<<8 | uint64(c)
			}
		}
		if n > maxGobMessage {
			return 0, fmt.Errorf("message %d declares %d bytes, more than %d", g.msgs+1, n, maxGobMessage)
		}
		g.msgs++
		g.left = int64(n)
		n = uint64(copy(p, hdr))
		g.pending = hdr[n:]
		return int(n), nil
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	n, err := g.r.Read(p)
	g.left -= int64(n)
	if err == io.EOF && g.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// readVegetaResultsGob reads the binary results of `vegeta attack`
// (encoding/gob of vegeta's Result), as `vegeta report` does: one sample
// per result and the run recomputed as for the CSV and JSON encodings.
func readVegetaResultsGob(in *Input, sink model.Sink) error {
	dec := gob.NewDecoder(&gobFrames{r: bufio.NewReader(in.R), name: in.Name})
	var m vegetaMetrics
	for i := 1; ; i++ {
		var v vegetaGobResult
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			if err == io.ErrUnexpectedEOF {
				return Errorf(in.Name, 0, 0, "vegeta results (gob): result %d is truncated", i)
			}
			if i == 1 {
				return Errorf(in.Name, 0, 0, "vegeta results (gob): not a gob stream of vegeta results: %v", err)
			}
			return Errorf(in.Name, 0, 0, "vegeta results (gob): result %d: %v", i, err)
		}
		if v.Latency < 0 || v.Timestamp.IsZero() {
			return Errorf(in.Name, 0, 0, "vegeta results (gob): result %d: expected a timestamp and a latency >= 0", i)
		}
		if err := m.add(sink, v.Timestamp, v.Code, int64(v.Latency), min(v.BytesIn, math.MaxInt64), v.Error, v.Attack, v.Method, v.URL); err != nil {
			return err
		}
	}
	if m.n == 0 {
		return Errorf(in.Name, 0, 0, "vegeta results (gob): no results")
	}
	r := &model.Run{Line: 1}
	m.run(r)
	return sink.Run(r)
}
