package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// Logs of one line per request (JMeter's JTL, Gatling's simulation.log)
// are read into a run per request name, with the statistics computed
// from the requests: sampleRuns is that one computation, for every
// such log.

// sampleMethod is how a tool's own report computes the percentiles of
// its samples, which its runs follow so that wra's figures equal the
// tool's.
type sampleMethod struct {
	tool     string
	percents []float64
	pct      func(sorted []float64, percent float64) float64
	name     string // label percentile_method
	// kindLabel names the label that the second part of a run's key
	// fills (JMeter: sample_kind; Gatling: request_group, not set
	// when empty).
	kindLabel string
	// metric, when set, is the metric under which every sample goes to
	// the sink's samples, in its label's run, as it is read.
	metric string
}

// jtlMethod is JMeter's: its dashboard's percentiles (type 6).
var jtlMethod = &sampleMethod{tool: "jmeter", percents: jtlPercents, pct: stats.JMeterPercentile, name: jtlPercentMethod, kindLabel: "sample_kind",
	metric: jtlMetric}

// jtlMetric is the metric of a JTL's samples in samples: elapsed, in ms,
// under the name wra gives every tool's per-request durations.
const jtlMetric = "http_req_duration"

// jtlSample is one sample (request) of a log.
type jtlSample struct {
	label, kind string // kind: the second part of the run's key
	line        int
	ts, ms      int64 // start, epoch ms; elapsed ms
	success     bool
	message     string // Gatling's message of a failed request, "" for none
	code        string // "" when not written
	thread      string // "" when not written
	bytes       int64  // < 0 when not written
	threads     int64
}

// jtlRun gathers the samples of one label (and kind).
type jtlRun struct {
	run         *model.Run
	key         [2]string // label and kind
	elapsed     []float64
	sum         float64
	first, last int64 // earliest start and latest end, epoch ms
	// ok and failedAnswered count the samples with a response code by
	// the tool's own success flag; noAnswer those failed without one;
	// noResponse every sample whose code is no number, classes the
	// numeric codes by their hundreds (1xx … 5xx).
	ok, failedAnswered, noAnswer int64
	noResponse                   int64
	classes                      [6]int64
	failed                       int64
	bytes                        int64
	hasBytes                     bool
	maxThreads                   int64
}

// jtlLabels gathers the samples of a log by label and kind, in the
// order of each one's first sample, and, where total is set, every
// sample in a run of all of them, stored first.
type jtlLabels struct {
	method *sampleMethod
	runs   map[[2]string]*jtlRun
	order  []*jtlRun
	total  *jtlRun
	codes  bool // the log writes response codes
	// samples counts the samples added.
	samples int64
	// lone is set when a field holds a carriage return (not one before
	// a newline, which the CSV reader drops), which DuckDB's CSV scanner
	// refuses: the Go reader then streams the samples itself.
	lone bool
	// sink gets each sample where method.metric is set.
	sink model.Sink
	// timeFormat is the Go layout of a JTL whose timeStamp is formatted
	// (timestamp_format): the times have no zone, so the runs get no
	// start; "unread" for a layout wra does not read: no times at all.
	// "" for epoch milliseconds.
	timeFormat string
	tags       *json.Encoder // writes the tags of a sample to buf
	buf        bytes.Buffer
}

// newJTLLabels gathers a JTL's samples, each stored in sink's samples
// as it is read.
func newJTLLabels(sink model.Sink) *jtlLabels {
	ls := newSampleRuns(jtlMethod)
	ls.streamTo(sink)
	return ls
}

// streamTo stores each sample in sink's samples as it is added.
func (ls *jtlLabels) streamTo(sink model.Sink) {
	ls.sink = sink
	ls.tags = json.NewEncoder(&ls.buf)
	ls.tags.SetEscapeHTML(false)
}

func newSampleRuns(m *sampleMethod) *jtlLabels {
	return &jtlLabels{method: m, runs: map[[2]string]*jtlRun{}}
}

func (ls *jtlLabels) newRun(line int) *jtlRun {
	return &jtlRun{run: &model.Run{Tool: ls.method.tool, Line: line}, first: math.MaxInt64, last: math.MinInt64}
}

// withTotal adds the run of all samples, named name (label aggregated).
func (ls *jtlLabels) withTotal(name string, line int) {
	ls.total = ls.newRun(line)
	runLabel(ls.total.run, "request_name", name)
	runLabel(ls.total.run, "aggregated", "true")
}

// add counts one sample, and stores it where the method names a metric;
// the caller has checked ts + ms for overflow.
func (ls *jtlLabels) add(s *jtlSample) error {
	k := [2]string{s.label, s.kind}
	j := ls.runs[k]
	if j == nil {
		j = ls.newRun(s.line)
		j.key = k
		j.run.Index = len(ls.order) // as store numbers them
		if ls.total != nil {
			j.run.Index++
		}
		runLabel(j.run, "request_name", s.label)
		if s.kind != "" {
			runLabel(j.run, ls.method.kindLabel, s.kind)
		}
		ls.runs[k] = j
		ls.order = append(ls.order, j)
	}
	j.add(s)
	ls.samples++
	if ls.total != nil {
		ls.total.add(s)
	}
	if ls.sink == nil || ls.method.metric == "" {
		return nil
	}
	return ls.sink.Sample(j.run.Index, ls.sample(s))
}

// bulkRuns are the runs of the samples by label and kind, for the
// store's scanner.
func (ls *jtlLabels) bulkRuns() []model.BulkRun {
	out := make([]model.BulkRun, len(ls.order))
	for i, j := range ls.order {
		out[i] = model.BulkRun{Label: j.key[0], Kind: j.key[1], Index: j.run.Index}
	}
	return out
}

// sample is s as a row of samples: ts its start, value its elapsed ms,
// status its response code where that is a number, tags its label,
// responseCode, success and threadName (those written), the second
// part of its key under the method's kindLabel (a JTL's sample_kind
// where it is not a sampler's, Gatling's request_group where it has
// one), and Gatling's message of a failed request.
func (ls *jtlLabels) sample(s *jtlSample) *model.Sample {
	b := &ls.buf
	b.Reset()
	b.WriteByte('{')
	add := func(k, v string) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + k + `":`)
		ls.tags.Encode(v)       // a string always encodes
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	add("label", s.label)
	if s.code != "" {
		add("responseCode", s.code)
	}
	add("success", strconv.FormatBool(s.success))
	if s.thread != "" {
		add("threadName", s.thread)
	}
	if s.kind != "sampler" && s.kind != "" {
		add(ls.method.kindLabel, s.kind)
	}
	if s.message != "" {
		add("message", s.message)
	}
	b.WriteByte('}')
	out := &model.Sample{TS: time.UnixMilli(s.ts).UTC(), Metric: ls.method.metric, Value: float64(s.ms), Tags: b.String()}
	if n, err := strconv.ParseInt(s.code, 10, 32); err == nil {
		out.Status = model.Some(n)
	}
	return out
}

func (j *jtlRun) add(s *jtlSample) {
	if !s.success {
		j.failed++
	}
	j.first, j.last = min(j.first, s.ts), max(j.last, s.ts+s.ms)
	j.elapsed = append(j.elapsed, float64(s.ms))
	j.sum += float64(s.ms)
	if s.code != "" && s.kind != "transaction" {
		n, err := strconv.Atoi(s.code)
		switch {
		case err != nil && !s.success:
			// "Non HTTP response code: java.net.ConnectException": no answer
			j.noResponse++
			j.noAnswer++
		case err != nil:
			j.noResponse++
			j.ok++
		case !s.success:
			j.failedAnswered++
		default:
			j.ok++
		}
		if err == nil && n >= 100 && n < 600 {
			j.classes[n/100]++
		}
	}
	if s.bytes >= 0 {
		j.bytes += s.bytes
		j.hasBytes = true
	}
	j.maxThreads = max(j.maxThreads, s.threads)
}

// store computes and stores the runs, in the order of their first sample
// (the run of all samples first).
func (ls *jtlLabels) store(sink model.Sink) error {
	order := ls.order
	if ls.total != nil {
		order = append([]*jtlRun{ls.total}, order...)
	}
	for i, j := range order {
		j.run.Index = i
		if err := sink.Run(j.finish(ls.method, ls.codes, ls.timeFormat)); err != nil {
			return err
		}
	}
	return nil
}

// finish computes a label's run from its samples.
func (j *jtlRun) finish(m *sampleMethod, codes bool, timeFormat string) *model.Run {
	r := j.run
	n := int64(len(j.elapsed))
	r.Requests = model.Some(n)
	r.Errors = model.Some(j.failed)
	if codes && r.Labels["sample_kind"] != "transaction" {
		// A sample fails once, by the tool's own success flag: errors the
		// failed ones that got no answer, non_2xx the failed ones that
		// got one (a 4xx or 5xx, or an assertion that failed on any
		// status), responses_2xx the successful ones (a redirect JMeter
		// followed or accepted among them). So errors + non_2xx, wra's
		// failed, is JMeter's own count of failures. The status classes
		// as answered stay labels.
		r.Errors = model.Some(j.noAnswer)
		r.Responses2xx = model.Some(j.ok)
		r.Non2xx = model.Some(j.failedAnswered)
		runLabel(r, "no_response", strconv.FormatInt(j.noResponse, 10))
		for c := 1; c <= 5; c++ {
			runLabel(r, fmt.Sprintf("status_%dxx", c), strconv.FormatInt(j.classes[c], 10))
		}
	}
	span := j.last - j.first
	if timeFormat == "" {
		r.StartedAt = model.Some(time.UnixMilli(j.first).UTC())
	}
	if timeFormat != "unread" {
		r.DurationS = model.Some(float64(span) / 1000)
		if span > 0 {
			r.RPS = model.Some(float64(n) * 1000 / float64(span))
		}
	}
	slices.Sort(j.elapsed)
	r.LatencyMeanMS = model.Some(j.sum / float64(n))
	r.LatencyMaxMS = model.Some(j.elapsed[n-1])
	runLabel(r, "latency_min_ms", fmtLabelNum(j.elapsed[0]))
	for _, p := range m.percents {
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: m.pct(j.elapsed, p)})
	}
	spectrumColumns(r)
	runLabel(r, "percentile_method", m.name)
	if j.hasBytes {
		r.BytesRead = model.Some(j.bytes)
	}
	if j.maxThreads > 0 {
		runLabel(r, "max_threads", strconv.FormatInt(j.maxThreads, 10))
	}
	return r
}
