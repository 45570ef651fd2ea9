package ingest

// k6 end-of-test summaries: the legacy --summary-export JSON, the
// handleSummary data object, and the machine-readable summary of k6 1.x
// (--new-machine-readable-summary). The text summary is in k6text.go,
// the --out json and --out csv point streams in k6points.go.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

func init() {
	register(&Format{Name: "k6-summary-json", Priority: 20, Detect: detectK6SummaryJSON, Read: readK6SummaryJSON})
	register(&Format{Name: "k6-handle-summary", Priority: 21, Detect: detectK6HandleSummary, Read: readK6HandleSummary})
	register(&Format{Name: "k6-summary-export", Priority: 22, Detect: detectK6SummaryExport, Read: readK6SummaryExport})
}

// k6MaxSummaryBytes bounds a k6 summary JSON read into memory.
const k6MaxSummaryBytes = 64 << 20

// k6Metric is one metric (or sub-metric) of a k6 summary.
type k6Metric struct {
	Name string // as k6 names it, with {tag:value} for a sub-metric
	Type string // counter, gauge, rate, trend; "" when the format omits it
	// Values by k6's stat names: count, rate, avg, min, med, max,
	// p(90), ..., passes, fails, value. Text values are as printed.
	Values     map[string]float64
	Thresholds []k6Threshold
}

type k6Threshold struct {
	Expr   string // as written in the script, e.g. p(95)<50; "" when not printed
	Failed bool
}

// k6Summary is what every summary format gives, before it becomes a run.
type k6Summary struct {
	Version   string
	DurationS model.Opt[float64]
	// Executors are the scenarios' executors where the file shows them.
	Executors []string
	Metrics   []*k6Metric
	// RatesPrinted tells that counters carry k6's own rate.
	RatesPrinted bool
	// Rounded tells that values are printed rounded (text summaries).
	Rounded bool
	// P99 is the p(99) a text summary prints on a threshold line.
	P99  model.Opt[float64]
	Line int
	// Warnings name the figures a text summary printed without a
	// complete unit, which are left out.
	Warnings []string
}

func (s *k6Summary) metric(name string) *k6Metric {
	for _, m := range s.Metrics {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// k6IsArrivalRate reports whether an executor paces iterations by time,
// which is what makes k6's latencies free of coordinated omission.
func k6IsArrivalRate(executor string) bool {
	return executor == "constant-arrival-rate" || executor == "ramping-arrival-rate"
}

// applyExecutorLabel sets latency_corrected of a k6 run from its executor
// label (written by the reader where the file shows the executors, or
// given by the manifest or --label where it does not): true only when
// every executor is an arrival-rate one.
func applyExecutorLabel(r *model.Run) {
	if r.Tool != "k6" {
		return
	}
	v, ok := r.Label("executor")
	if !ok || v == "" {
		return
	}
	corrected := true
	for _, e := range strings.Split(v, ",") {
		if !k6IsArrivalRate(strings.TrimSpace(e)) {
			corrected = false
		}
	}
	r.LatencyCorrected = corrected
	for i := range r.Percentiles {
		r.Percentiles[i].Corrected = corrected
	}
}

// k6PercentileOf maps k6 stat names to percentiles: med and p(N) (or pN in
// the machine-readable summary), min as 0 and max as 100.
func k6PercentileOf(stat string) (float64, bool) {
	switch stat {
	case "min":
		return 0, true
	case "med":
		return 50, true
	case "max":
		return 100, true
	}
	s, ok := strings.CutPrefix(stat, "p")
	if !ok {
		return 0, false
	}
	if t, ok := strings.CutPrefix(s, "("); ok {
		s, ok = strings.CutSuffix(t, ")")
		if !ok {
			return 0, false
		}
	}
	p, err := strconv.ParseFloat(s, 64)
	if err != nil || p < 0 || p > 100 || math.IsNaN(p) {
		return 0, false
	}
	return p, true
}

// k6StatLabel names a stat in a label key: p(99.9) becomes p99.9, and
// time values carry _ms.
func k6StatLabel(stat string, time bool) string {
	s := strings.NewReplacer("(", "", ")", "").Replace(stat)
	if time && stat != "count" && stat != "rate" {
		s += "_ms"
	}
	return s
}

func k6Num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// k6IsTime tells a trend of durations in ms from other trends.
func k6IsTime(m *k6Metric, contains string) bool {
	if contains != "" {
		return contains == "time"
	}
	base, _, _ := strings.Cut(m.Name, "{")
	return strings.HasPrefix(base, "http_req_") && base != "http_req_failed" || base == "iteration_duration" ||
		strings.HasPrefix(base, "grpc_req_") || strings.HasPrefix(base, "ws_")
}

// k6Count is a count k6 printed as a number: 0 or more and within int64
// (a larger one would wrap around when converted).
func k6Count(name string, line int, what string, v float64) (int64, error) {
	if !(v >= 0 && v < 1<<63) {
		return 0, Errorf(name, line, 0, "%s %v: want a count, 0 or more", what, v)
	}
	return int64(math.Round(v)), nil
}

// k6Run builds the run row of a summary. The mapping is the same for
// every summary format: requests and rps from http_reqs, errors from
// http_req_failed (k6 counts there every request with no response or
// with a status its expected_response callback rejects, by default
// status >= 400), latencies from http_req_duration.
func k6Run(name string, s *k6Summary, contains map[string]string) (*model.Run, error) {
	reqs := s.metric("http_reqs")
	if reqs == nil {
		return nil, Errorf(name, 0, 0, "no http_reqs metric: a k6 summary of an HTTP test has one")
	}
	count, ok := reqs.Values["count"]
	if !ok {
		return nil, Errorf(name, 0, 0, "http_reqs has no count")
	}
	r := &model.Run{Tool: "k6", ToolVersion: s.Version, Line: s.Line, DurationS: s.DurationS}
	n, err := k6Count(name, s.Line, "http_reqs count", count)
	if err != nil {
		return nil, err
	}
	r.Requests = model.Some(n)
	if rate, ok := reqs.Values["rate"]; ok && s.RatesPrinted {
		r.RPS = model.Some(rate)
	} else if s.DurationS.Valid && s.DurationS.V > 0 {
		r.RPS = model.Some(count / s.DurationS.V)
	}
	if f := s.metric("http_req_failed"); f != nil {
		if v, ok := f.Values["passes"]; ok {
			n, err := k6Count(name, s.Line, "http_req_failed passes", v)
			if err != nil {
				return nil, err
			}
			r.Errors = model.Some(n)
		}
		if v, ok := f.Values["rate"]; ok {
			runLabel(r, "http_req_failed_rate", k6Num(v))
		}
	}
	if d := s.metric("http_req_duration"); d != nil {
		v := d.Values
		if x, ok := v["avg"]; ok {
			r.LatencyMeanMS = model.Some(x)
		}
		if x, ok := v["max"]; ok {
			r.LatencyMaxMS = model.Some(x)
		}
		if x, ok := v["med"]; ok {
			r.LatencyP50MS = model.Some(x)
		}
		for stat, x := range v {
			p, ok := k6PercentileOf(stat)
			if !ok {
				continue
			}
			if x < 0 {
				// k6 prints a negative duration when its clock stepped
				// back during a request: not a latency.
				runLabel(r, "reported_http_req_duration_"+k6StatLabel(stat, true), k6Num(x))
				continue
			}
			switch p {
			case 50:
				if !r.LatencyP50MS.Valid {
					r.LatencyP50MS = model.Some(x)
				}
			case 90:
				r.LatencyP90MS = model.Some(x)
			case 95:
				r.LatencyP95MS = model.Some(x)
			case 99:
				r.LatencyP99MS = model.Some(x)
			case 99.9:
				r.LatencyP999MS = model.Some(x)
			}
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: x})
		}
		if !r.LatencyP99MS.Valid && s.P99.Valid {
			r.LatencyP99MS = s.P99
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: 99, LatencyMS: s.P99.V})
		}
		sort.Slice(r.Percentiles, func(i, j int) bool { return r.Percentiles[i].Percentile < r.Percentiles[j].Percentile })
	}
	if d := s.metric("data_received"); d != nil {
		if v, ok := d.Values["count"]; ok {
			n, err := k6Count(name, s.Line, "data_received count", v)
			if err != nil {
				return nil, err
			}
			if s.Rounded {
				// the text prints it rounded ("7.5 MB"): the tool's figure
				reported(r, model.ReportedBytesRead, v)
			} else {
				r.BytesRead = model.Some(n)
			}
		}
		if v, ok := d.Values["rate"]; ok {
			reported(r, model.ReportedTransferBytesPerS, v)
		}
	}
	if d := s.metric("data_sent"); d != nil {
		if v, ok := d.Values["count"]; ok {
			if _, err := k6Count(name, s.Line, "data_sent count", v); err != nil {
				return nil, err
			}
			reported(r, model.ReportedBytesSent, v)
		}
		if v, ok := d.Values["rate"]; ok {
			reported(r, model.ReportedSentBytesPerS, v)
		}
	}
	for _, k := range []string{"dropped_iterations", "iterations"} {
		if m := s.metric(k); m != nil {
			if n, ok := m.Values["count"]; ok {
				runLabel(r, k, k6Num(n))
			}
		}
	}
	if m := s.metric("vus_max"); m != nil {
		if n, ok := m.Values["max"]; ok {
			runLabel(r, "vus_max", k6Num(n))
		}
	}
	failed, nth := 0, 0
	for _, m := range s.Metrics {
		for _, t := range m.Thresholds {
			nth++
			key := "threshold." + m.Name
			if t.Expr != "" {
				key += "." + t.Expr
			}
			v := "ok"
			if t.Failed {
				v = "failed"
				failed++
			}
			runLabel(r, key, v)
		}
		if strings.Contains(m.Name, "{") {
			time := m.Type == "trend" && k6IsTime(m, contains[m.Name])
			for stat, x := range m.Values {
				runLabel(r, "submetric."+m.Name+"."+k6StatLabel(stat, time), k6Num(x))
			}
		}
	}
	if nth > 0 {
		runLabel(r, "thresholds_failed", strconv.Itoa(failed))
	}
	if len(s.Executors) > 0 {
		runLabel(r, "executor", strings.Join(s.Executors, ","))
	}
	applyExecutorLabel(r)
	if len(s.Warnings) > 0 {
		runLabel(r, "warning", strings.Join(s.Warnings, "; "))
	}
	return r, nil
}

// k6ReadJSON reads a whole summary file and decodes it into v,
// turning a JSON error into a position.
func k6ReadJSON(in *Input, v any) error {
	data, err := io.ReadAll(io.LimitReader(in.R, k6MaxSummaryBytes+1))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	if len(data) > k6MaxSummaryBytes {
		return Errorf(in.Name, 0, 0, "%v: a k6 summary larger than %d bytes", ErrTooLarge, k6MaxSummaryBytes)
	}
	return decodeJSON(in.Name, 1, data, v, "k6 summary JSON", true)
}

// k6Number reads a JSON number of a summary.
func k6Number(name string, v any, what string) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return 0, Errorf(name, 0, 0, "%s: %q is not a number", what, x)
		}
		return f, nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, Errorf(name, 0, 0, "%s: want a number, got %s", what, k6JSONKind(v))
}

func k6JSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// k6SortMetrics orders metrics by name, and their thresholds by
// expression, for deterministic output.
func k6SortMetrics(ms []*k6Metric) {
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	for _, m := range ms {
		sort.SliceStable(m.Thresholds, func(i, j int) bool { return m.Thresholds[i].Expr < m.Thresholds[j].Expr })
	}
}

// k6StoreRun builds the run of a summary and stores it.
func k6StoreRun(in *Input, sink model.Sink, s *k6Summary, contains map[string]string) error {
	k6SortMetrics(s.Metrics)
	r, err := k6Run(in.Name, s, contains)
	if err != nil {
		return err
	}
	return sink.Run(r)
}

// --- legacy --summary-export ---

func detectK6SummaryExport(head []byte) bool {
	h := bytes.TrimSpace(head)
	return bytes.HasPrefix(h, []byte("{")) && bytes.Contains(h, []byte(`"root_group"`)) &&
		bytes.Contains(h, []byte(`"metrics"`)) && !bytes.Contains(h, []byte(`"testRunDurationMs"`)) &&
		!bytes.Contains(h, []byte(`"summaryTrendStats"`)) && !bytes.Contains(h, []byte(`"k6_version"`))
}

// readK6SummaryExport reads k6's legacy --summary-export file: metrics
// flat by name, and thresholds as name: bool where true means the
// threshold FAILED (k6 writes the metric's Tainted state).
func readK6SummaryExport(in *Input, sink model.Sink) error {
	var doc struct {
		RootGroup map[string]any            `json:"root_group"`
		Metrics   map[string]map[string]any `json:"metrics"`
	}
	if err := k6ReadJSON(in, &doc); err != nil {
		return err
	}
	if doc.Metrics == nil {
		return Errorf(in.Name, 0, 0, "no metrics object: not a k6 --summary-export file")
	}
	s := &k6Summary{RatesPrinted: true, Line: 1}
	contains := map[string]string{}
	for name, fields := range doc.Metrics {
		m := &k6Metric{Name: name, Values: map[string]float64{}}
		for k, v := range fields {
			if k == "thresholds" {
				th, ok := v.(map[string]any)
				if !ok {
					return Errorf(in.Name, 0, 0, "metric %s: thresholds: want an object, got %s", name, k6JSONKind(v))
				}
				for expr, failed := range th {
					b, ok := failed.(bool)
					if !ok {
						return Errorf(in.Name, 0, 0, "metric %s: threshold %q: want true (failed) or false, got %s", name, expr, k6JSONKind(failed))
					}
					m.Thresholds = append(m.Thresholds, k6Threshold{Expr: expr, Failed: b})
				}
				continue
			}
			x, err := k6Number(in.Name, v, "metric "+name+" "+k)
			if err != nil {
				return err
			}
			m.Values[k] = x
		}
		m.Type = k6InferType(m.Values)
		s.Metrics = append(s.Metrics, m)
	}
	return k6StoreRun(in, sink, s, contains)
}

// k6InferType tells a metric's type from its stats, for the legacy export
// that does not write it.
func k6InferType(v map[string]float64) string {
	has := func(k string) bool { _, ok := v[k]; return ok }
	switch {
	case has("avg") || has("med"):
		return "trend"
	case has("passes"):
		return "rate"
	case has("count") && has("rate"):
		return "counter"
	case has("value"):
		return "gauge"
	}
	return ""
}

// --- handleSummary data ---

func detectK6HandleSummary(head []byte) bool {
	h := bytes.TrimSpace(head)
	return bytes.HasPrefix(h, []byte("{")) && bytes.Contains(h, []byte(`"testRunDurationMs"`)) &&
		bytes.Contains(h, []byte(`"metrics"`))
}

// readK6HandleSummary reads the data object k6 passes to handleSummary
// (as JSON.stringify writes it): metrics with type, contains and values,
// thresholds as {"expr": {"ok": bool}}.
func readK6HandleSummary(in *Input, sink model.Sink) error {
	var doc struct {
		State struct {
			TestRunDurationMs *json.Number `json:"testRunDurationMs"`
		} `json:"state"`
		Metrics map[string]struct {
			Type       string                      `json:"type"`
			Contains   string                      `json:"contains"`
			Values     map[string]any              `json:"values"`
			Thresholds map[string]struct{ OK any } `json:"thresholds"`
		} `json:"metrics"`
	}
	if err := k6ReadJSON(in, &doc); err != nil {
		return err
	}
	if doc.Metrics == nil {
		return Errorf(in.Name, 0, 0, "no metrics object: not a k6 handleSummary data file")
	}
	s := &k6Summary{RatesPrinted: true, Line: 1}
	if d := doc.State.TestRunDurationMs; d != nil {
		ms, err := d.Float64()
		if err != nil {
			return Errorf(in.Name, 0, 0, "state.testRunDurationMs %q is not a number", d.String())
		}
		s.DurationS = model.Some(ms / 1000)
	}
	contains := map[string]string{}
	for name, jm := range doc.Metrics {
		if jm.Values == nil {
			return Errorf(in.Name, 0, 0, "metric %s has no values object", name)
		}
		m := &k6Metric{Name: name, Type: jm.Type, Values: map[string]float64{}}
		contains[name] = jm.Contains
		for k, v := range jm.Values {
			x, err := k6Number(in.Name, v, "metric "+name+" "+k)
			if err != nil {
				return err
			}
			m.Values[k] = x
		}
		for expr, t := range jm.Thresholds {
			ok, isBool := t.OK.(bool)
			if !isBool {
				return Errorf(in.Name, 0, 0, "metric %s: threshold %q: want \"ok\": true or false", name, expr)
			}
			m.Thresholds = append(m.Thresholds, k6Threshold{Expr: expr, Failed: !ok})
		}
		s.Metrics = append(s.Metrics, m)
	}
	return k6StoreRun(in, sink, s, contains)
}

// --- machine-readable summary (k6 1.x) ---

func detectK6SummaryJSON(head []byte) bool {
	h := bytes.TrimSpace(head)
	if !bytes.HasPrefix(h, []byte("{")) {
		return false
	}
	return bytes.Contains(h, []byte(`"k6_version"`)) ||
		bytes.Contains(h, []byte(`"config"`)) && bytes.Contains(h, []byte(`"execution"`)) && bytes.Contains(h, []byte(`"script"`))
}

// k6ExecutorRE finds the executors a k6 script names.
var k6ExecutorRE = regexp.MustCompile(`executor\s*:\s*['"` + "`" + `]([a-z-]+)['"` + "`" + `]`)

// k6ScriptExecutors lists the distinct executors a script names, sorted.
func k6ScriptExecutors(script string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range k6ExecutorRE.FindAllStringSubmatch(script, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}

// readK6SummaryJSON reads the machine-readable summary of k6 1.x
// (--new-machine-readable-summary with --summary-export, or as the
// handleSummary argument). Counters carry no rate there: rps is the count
// over config.duration, the test's run time. The script it embeds tells
// the executors.
func readK6SummaryJSON(in *Input, sink model.Sink) error {
	var doc struct {
		Config struct {
			Duration *json.Number `json:"duration"`
			Script   string       `json:"script"`
		} `json:"config"`
		Metadata struct {
			K6Version string `json:"k6_version"`
		} `json:"metadata"`
		Results struct {
			Checks struct {
				Metrics []k6MRMetric `json:"metrics"`
			} `json:"checks"`
			Metrics []k6MRMetric `json:"metrics"`
		} `json:"results"`
		Version string `json:"version"`
	}
	if err := k6ReadJSON(in, &doc); err != nil {
		return err
	}
	if doc.Results.Metrics == nil {
		return Errorf(in.Name, 0, 0, "no results.metrics array: not a k6 machine-readable summary")
	}
	s := &k6Summary{Version: doc.Metadata.K6Version, Line: 1, Executors: k6ScriptExecutors(doc.Config.Script)}
	if d := doc.Config.Duration; d != nil {
		sec, err := d.Float64()
		if err != nil {
			return Errorf(in.Name, 0, 0, "config.duration %q is not a number", d.String())
		}
		s.DurationS = model.Some(sec)
	}
	contains := map[string]string{}
	for _, jm := range append(doc.Results.Metrics, doc.Results.Checks.Metrics...) {
		if jm.Name == "" || jm.Values == nil {
			return Errorf(in.Name, 0, 0, "a metric without name or values: not a k6 machine-readable summary")
		}
		if s.metric(jm.Name) != nil {
			return Errorf(in.Name, 0, 0, "metric %s appears twice", jm.Name)
		}
		m := &k6Metric{Name: jm.Name, Type: jm.Type, Values: map[string]float64{}}
		contains[jm.Name] = jm.Contains
		for k, v := range jm.Values {
			x, err := k6Number(in.Name, v, "metric "+jm.Name+" "+k)
			if err != nil {
				return err
			}
			switch {
			case jm.Type == "rate" && k == "matches":
				k = "passes"
			case jm.Type == "trend" && strings.HasPrefix(k, "p") && !strings.HasPrefix(k, "p("):
				k = "p(" + k[1:] + ")"
			}
			m.Values[k] = x
		}
		if jm.Type == "rate" {
			m.Values["fails"] = m.Values["total"] - m.Values["passes"]
		}
		s.Metrics = append(s.Metrics, m)
	}
	k6SortMetrics(s.Metrics)
	r, err := k6Run(in.Name, s, contains)
	if err != nil {
		return err
	}
	if doc.Version != "" {
		runLabel(r, "summary_schema_version", doc.Version)
	}
	return sink.Run(r)
}

type k6MRMetric struct {
	Name     string         `json:"name"`
	Type     string         `json:"type"`
	Contains string         `json:"contains"`
	Values   map[string]any `json:"values"`
}
