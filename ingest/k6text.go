package ingest

// The k6 end-of-test text summary: the compact default and
// --summary-mode=full of k6 1.x (█ THRESHOLDS, █ TOTAL RESULTS, then
// per-scenario and per-group blocks in full mode), the legacy layout
// (--summary-mode=legacy, and k6 before 1.0) whose metric lines carry ✓/✗
// threshold marks, rates "p% ✓ n ✗ m" and "█ group" blocks of checks
// before the totals, and the layout before 0.17 ("  ✓ http_reqs: 17538",
// no dots, no rates).

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

func init() {
	register(&Format{Name: "k6-text", Priority: 23, Late: true, Detect: detectK6Text, Read: readK6Text})
}

var (
	// k6MetricLine is "name.....: values", with an optional threshold
	// mark in the legacy layout; a sub-metric's name is "{ tag:value }".
	k6MetricLine = regexp.MustCompile(`^(?:([✓✗])\s+)?(\S.*?)\.{2,}:\s*(.*?)\s*$`)
	// k6ThresholdLine is "✓ 'p(95)<50' p(95)=1.39ms".
	k6ThresholdLine = regexp.MustCompile(`^([✓✗])\s+'(.*)'\s+(\S+)=(\S+)$`)
	// k6ThresholdSubmetric heads the thresholds of a sub-metric in full.
	k6ThresholdSubmetric = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\{[^{}\s][^{}]*\}$`)
	k6RateValue          = regexp.MustCompile(`^([0-9.]+)%\s+([0-9]+) out of ([0-9]+)$`)
	k6RateMarks          = regexp.MustCompile(`^([0-9.]+)%\s+✓\s*([0-9]+)\s+✗\s*([0-9]+)$`)
	k6CounterValue       = regexp.MustCompile(`^([0-9.]+)(?:\s*([kMGTP]?B))?\s+\(?([0-9.]+)(?:\s*([kMGTP]?B))?/s\)?$`)
	k6DoneLine           = regexp.MustCompile(`^done \[[=>\- ]*\]\s+(\S+)\s*/\s*\S+$`)
	// k6DotlessLine is the metric line of k6 before 0.17: "✓ name: value".
	k6DotlessLine  = regexp.MustCompile(`^(?:([✓✗])\s+)?([a-z_][a-z0-9_]*(?:\{[^}]*\})?):\s+(\S.*?)\s*$`)
	k6ScenarioLine = regexp.MustCompile(`^\*\s+(\S+):\s+(.*)$`)
)

func detectK6Text(head []byte) bool {
	return hasLine(head, func(t string) bool {
		if strings.HasPrefix(t, "█ TOTAL RESULTS") || strings.HasPrefix(t, "█ THRESHOLDS") ||
			strings.HasPrefix(t, "execution: local") || strings.HasPrefix(t, "execution: cloud") {
			return true
		}
		m := k6MetricLine.FindStringSubmatch(t)
		if m == nil {
			m = k6DotlessLine.FindStringSubmatch(t)
		}
		return m != nil && m[2] == "http_reqs"
	})
}

// k6ExecutorOf tells the executor from the description k6 prints for a
// scenario in its banner (lib/executor/*.go GetDescription).
func k6ExecutorOf(desc string) string {
	switch {
	case strings.Contains(desc, "iterations/"):
		if strings.HasPrefix(desc, "Up to ") {
			return "ramping-arrival-rate"
		}
		return "constant-arrival-rate"
	case strings.Contains(desc, "iterations for each of"):
		return "per-vu-iterations"
	case strings.Contains(desc, "iterations shared among"):
		return "shared-iterations"
	case strings.Contains(desc, "looping VUs") && strings.Contains(desc, " stages"):
		return "ramping-vus"
	case strings.HasPrefix(desc, "Up to ") && strings.Contains(desc, "looping VUs"):
		return "externally-controlled"
	case strings.Contains(desc, "looping VUs"):
		return "constant-vus"
	}
	return ""
}

// k6SIValue reads a counter's value: a plain number (unit ""), or bytes
// as k6 prints data, in SI multiples ("7.5 MB" is 7.5 × 10^6 bytes).
func k6SIValue(num, unit string) (float64, bool) {
	if unit == "" {
		x, err := strconv.ParseFloat(num, 64)
		return x, err == nil
	}
	return sizeBytes(num+unit, decimalBase)
}

// k6TextParser reads the text summaries of one file. A summary starts at
// k6's banner ("execution: local"), at a "█ THRESHOLDS" or "█ TOTAL
// RESULTS" heading, or at its first metric line; it ends where the next
// one starts, which a metric printed a second time also tells (a log of
// several runs without their banners). Lines that are not part of the
// summary (check results, console output, progress lines) are skipped.
type k6TextParser struct {
	l   *Lines
	out []*k6Summary

	s         *k6Summary
	byName    map[string]*k6Metric
	thrValues map[string]map[string]float64
	// section is "", "thresholds", "total", or "other" for the
	// per-scenario and per-group blocks of k6 1.x after TOTAL RESULTS.
	section            string
	seenTotal, seenThr bool
	thrBase, thrMetric string
	lastBase           string
	reqLine            int
	// executors the banner announced before the summary's first metric.
	executors []string
	banner    int
	// done is the run's length from the progress line of k6 before 0.17
	// ("done [====] 10s / 10s"), which printed no rates.
	done model.Opt[float64]
}

// readK6Text reads end-of-test text summaries. Values are as printed
// (rounded); p(99) of http_req_duration comes from its threshold line
// where the trend line does not print it.
func readK6Text(in *Input, sink model.Sink) error {
	p := &k6TextParser{l: NewLines(in)}
	for p.l.Scan() {
		if err := p.line(strings.TrimSpace(p.l.Text())); err != nil {
			return err
		}
	}
	if err := p.l.Err(); err != nil {
		return err
	}
	if err := p.finish(p.l.Line() + 1); err != nil {
		return err
	}
	if len(p.out) == 0 && p.banner > 0 {
		return Errorf(in.Name, p.l.Line()+1, 0, "k6 printed no end-of-test summary after its banner at line %d: no metric line (name....: values) follows; cut short, or replaced by handleSummary", p.banner)
	}
	if len(p.out) == 0 {
		return Errorf(in.Name, p.l.Line()+1, 0, "no k6 end-of-test summary: no metric line (name....: values) at all; k6 printed none (cut short, or replaced by handleSummary)")
	}
	var runs []*model.Run
	for i, s := range p.out {
		k6SortMetrics(s.Metrics)
		r, err := k6Run(in.Name, s, nil)
		if err != nil {
			return err
		}
		r.Index = i
		runs = append(runs, r)
	}
	if len(runs) > 1 {
		numberRounds(runs, []string{"executor"}, sink)
	}
	for _, r := range runs {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// begin starts a new summary at the current line.
func (p *k6TextParser) begin() {
	line := p.l.Line()
	if p.banner > 0 {
		line = p.banner
	}
	p.s = &k6Summary{RatesPrinted: true, Rounded: true, Line: line, Executors: p.executors, DurationS: p.done}
	p.byName = map[string]*k6Metric{}
	p.thrValues = map[string]map[string]float64{}
	p.section, p.seenTotal, p.seenThr = "", false, false
	p.thrBase, p.thrMetric, p.lastBase, p.reqLine = "", "", "", 0
	p.executors, p.banner, p.done = nil, 0, model.Opt[float64]{}
}

func (p *k6TextParser) get(name string) *k6Metric {
	m := p.byName[name]
	if m == nil {
		m = &k6Metric{Name: name, Values: map[string]float64{}}
		p.byName[name] = m
		p.s.Metrics = append(p.s.Metrics, m)
	}
	return m
}

func (p *k6TextParser) line(t string) error {
	l := p.l
	if t == "" {
		return nil
	}
	switch {
	case strings.HasPrefix(t, "execution: local") || strings.HasPrefix(t, "execution: cloud"):
		// The banner of the next run.
		if err := p.finish(l.Line()); err != nil {
			return err
		}
		p.banner = l.Line()
		return nil
	case strings.HasPrefix(t, "█ THRESHOLDS"), strings.HasPrefix(t, "█ TOTAL RESULTS"):
		if p.s != nil && (p.seenTotal || strings.HasPrefix(t, "█ THRESHOLDS") && p.seenThr) {
			if err := p.finish(l.Line()); err != nil {
				return err
			}
		}
		if p.s == nil {
			p.begin()
		}
		if strings.HasPrefix(t, "█ THRESHOLDS") {
			p.seenThr, p.section = true, "thresholds"
		} else {
			p.seenTotal, p.section = true, "total"
		}
		return nil
	case k6DoneLine.MatchString(t) && p.s == nil:
		if ms, err := durationMS(k6DoneLine.FindStringSubmatch(t)[1]); err == nil {
			p.done = model.Some(ms / 1000)
		}
		return nil
	case strings.HasPrefix(t, "█ "):
		// k6 1.x prints per-scenario and per-group blocks after TOTAL
		// RESULTS; before 1.0 "█ name" heads a group's checks, and the
		// totals follow.
		if p.seenTotal {
			p.section = "other"
		}
		return nil
	}
	if p.s == nil || p.reqLine == 0 && len(p.s.Metrics) == 0 {
		if m := k6ScenarioLine.FindStringSubmatch(t); m != nil {
			if e := k6ExecutorOf(m[2]); e != "" {
				if p.s != nil {
					p.s.Executors = k6AppendUnique(p.s.Executors, e)
				} else {
					p.executors = k6AppendUnique(p.executors, e)
				}
			}
			return nil
		}
	}
	switch p.section {
	case "other":
		return nil
	case "thresholds":
		return p.threshold(t)
	}
	m := k6MetricLine.FindStringSubmatch(t)
	dotless := false
	if m == nil {
		// k6 before 0.17 printed "  ✓ name: value", without the dots.
		if m = k6DotlessLine.FindStringSubmatch(t); m == nil {
			return nil // check results, group names, progress lines
		}
		dotless = true
	}
	name := m[2]
	met := &k6Metric{Name: name, Values: map[string]float64{}}
	cut, err := parseK6TextValues(met, m[3])
	if err != nil {
		if dotless {
			return nil // "name: value" that is not a metric (a banner or a log line)
		}
		return l.Errorf(0, "k6 metric line %s: %v", name, err)
	}
	if strings.HasPrefix(name, "{") {
		if p.s == nil || p.lastBase == "" {
			return l.Errorf(0, "k6 sub-metric %s before any metric", name)
		}
		inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(name, "{"), "}"))
		name = p.lastBase + "{" + inner + "}"
	} else {
		if p.s != nil {
			if old, dup := p.byName[name]; dup && len(old.Values) > 0 {
				// The same metric again: the next run's summary.
				if err := p.finish(l.Line()); err != nil {
					return err
				}
			}
		}
		if p.s == nil {
			p.begin()
		}
		p.lastBase = name
	}
	if name == "http_reqs" {
		p.reqLine = l.Line()
	}
	got := p.get(name)
	got.Type, got.Values = met.Type, met.Values
	for _, f := range cut {
		p.s.Warnings = append(p.s.Warnings, cutValueWarning(l.Line(), name, f))
	}
	if m[1] != "" {
		got.Thresholds = append(got.Thresholds, k6Threshold{Failed: m[1] == "✗"})
	}
	return nil
}

// threshold reads a line of the THRESHOLDS block of k6 1.x.
func (p *k6TextParser) threshold(t string) error {
	switch {
	case strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}"):
		p.thrMetric = p.thrBase + t
	case strings.HasPrefix(t, "✓") || strings.HasPrefix(t, "✗"):
		m := k6ThresholdLine.FindStringSubmatch(t)
		if m == nil || p.thrMetric == "" {
			return p.l.Errorf(0, "k6 threshold line %q: want ✓ or ✗ 'expression' stat=value under a metric name", t)
		}
		met := p.get(p.thrMetric)
		met.Thresholds = append(met.Thresholds, k6Threshold{Expr: m[2], Failed: m[1] == "✗"})
		if ms, u := k6TextValue(m[4]); u == k6UnitTime {
			if p.thrValues[p.thrMetric] == nil {
				p.thrValues[p.thrMetric] = map[string]float64{}
			}
			p.thrValues[p.thrMetric][m[3]] = ms
		}
	case !strings.ContainsAny(t, " .:"):
		p.thrBase, p.thrMetric = t, t
	case k6ThresholdSubmetric.MatchString(t):
		// A threshold on a sub-metric whose metric has none of its own:
		// k6 names the sub-metric in full, "http_reqs{step:120}".
		base, tags, _ := strings.Cut(t, "{")
		p.thrBase, p.thrMetric = base, base+"{"+strings.TrimSpace(strings.TrimSuffix(tags, "}"))+"}"
	default:
		return p.l.Errorf(0, "k6 thresholds block: unexpected line %q", t)
	}
	return nil
}

// finish completes the summary being read, before line end.
func (p *k6TextParser) finish(end int) error {
	s := p.s
	if s == nil {
		return nil
	}
	p.s = nil
	if len(s.Metrics) == 0 {
		return Errorf(p.l.in.Name, end, 0, "k6 printed no end-of-test summary after line %d: no metric line (name....: values) follows; cut short, or replaced by handleSummary", s.Line)
	}
	if p.reqLine == 0 {
		names := make([]string, 0, len(s.Metrics))
		for _, m := range s.Metrics {
			names = append(names, m.Name)
		}
		return Errorf(p.l.in.Name, end, 0, "the k6 summary from line %d ends here without an http_reqs line (it has %s): a test that made no HTTP request, or a summary cut short", s.Line, clipLine(strings.Join(names, ", ")))
	}
	for name, vals := range p.thrValues {
		met := p.byName[name]
		if met.Type != "trend" {
			continue
		}
		for k, v := range vals {
			if _, ok := met.Values[k]; !ok {
				met.Values[k] = v
			}
		}
	}
	p.out = append(p.out, s)
	return nil
}

func k6AppendUnique(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

type k6ValueError string

func (e k6ValueError) Error() string { return string(e) }

// k6BuiltinTypes are the types of k6's own metrics, for the layouts that
// print a bare value (k6 before 0.17: "http_reqs: 17538").
var k6BuiltinTypes = map[string]string{
	"http_reqs": "counter", "iterations": "counter", "data_received": "counter", "data_sent": "counter",
	"dropped_iterations": "counter", "vus": "gauge", "vus_max": "gauge", "checks": "rate", "http_req_failed": "rate",
}

// parseK6TextValues reads the values of a metric line, in the layouts of
// every k6 version: a trend's "avg=.. min=.." (durations; before 0.17
// comma-separated), a gauge's "value min=.. max=..", a rate's "p% n out
// of m" (1.x) or "p% ✓ n ✗ m" (0.2x-0.5x), a counter's "count rate/s"
// (0.2x on; data in SI bytes) or "count (rate/s)" (0.1x), and a bare value
// (before 0.17), whose type is its metric's.
//
// A trend value without a complete unit is left out and returned in cut
// (as "stat=value"): see k6TextValue.
func parseK6TextValues(m *k6Metric, v string) (cut []string, err error) {
	if r := k6RateValue.FindStringSubmatch(v); r != nil {
		return nil, k6Rate(m, r[1], r[2], r[3], true)
	}
	if r := k6RateMarks.FindStringSubmatch(v); r != nil {
		return nil, k6Rate(m, r[1], r[2], r[3], false)
	}
	if c := k6CounterValue.FindStringSubmatch(v); c != nil {
		m.Type = "counter"
		count, ok1 := k6SIValue(c[1], c[2])
		rate, ok2 := k6SIValue(c[3], c[4])
		if !ok1 || !ok2 {
			return nil, k6ValueError("want a count and a rate per second, got " + strconv.Quote(v))
		}
		m.Values["count"] = count
		m.Values["rate"] = rate
		return nil, nil
	}
	fields := strings.Fields(strings.ReplaceAll(v, ",", " "))
	if len(fields) == 0 {
		return nil, k6ValueError("no value after the colon")
	}
	if !strings.Contains(fields[0], "=") {
		if len(fields) == 1 && strings.HasSuffix(fields[0], "%") {
			pct, err := strconv.ParseFloat(strings.TrimSuffix(fields[0], "%"), 64)
			if err != nil {
				return nil, k6ValueError(strconv.Quote(v) + " is no layout k6 prints: expected a percentage")
			}
			m.Type = "rate"
			m.Values["rate"] = pct / 100
			return nil, nil
		}
		x, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return nil, k6ValueError(strconv.Quote(v) + " is no layout k6 prints for a metric: expected \"count rate/s\", \"p% n out of m\", \"p% ✓ n ✗ m\", \"value min=… max=…\" or \"stat=value …\"")
		}
		m.Type = "gauge"
		if k6BuiltinTypes[m.Name] == "counter" && len(fields) == 1 {
			m.Type = "counter"
			m.Values["count"] = x
			return nil, nil
		}
		m.Values["value"] = x
		fields = fields[1:]
	} else {
		m.Type = "trend"
	}
	var bare []string // the trend's "stat=value" fields without a unit
	timed := false
	for i, f := range fields {
		k, val, ok := strings.Cut(f, "=")
		if !ok && i == len(fields)-1 && (m.Type == "trend" || m.Type == "gauge" && i > 0) {
			cut = append(cut, f) // "p(9": the line ends inside a name
			continue
		}
		if !ok || k == "" {
			return nil, k6ValueError("want stat=value, got " + strconv.Quote(f))
		}
		if m.Type == "gauge" {
			x, err := strconv.ParseFloat(val, 64)
			if val == "" && i == len(fields)-1 {
				cut = append(cut, f) // "min=": the terminal cut the line after the name
				continue
			}
			if err != nil || math.IsNaN(x) {
				return nil, k6ValueError(k + "=" + strconv.Quote(val) + " is not a number")
			}
			m.Values[k] = x
			continue
		}
		x, u := k6TextValue(val)
		switch u {
		case k6UnitBad:
			return nil, k6ValueError(k + "=" + strconv.Quote(val) + " is neither a duration nor a number")
		case k6UnitCut:
			cut = append(cut, f)
			continue
		case k6UnitTime:
			timed = true
		case k6UnitNone:
			if k != "count" { // --summary-trend-stats count is a number
				bare = append(bare, f)
			}
		}
		m.Values[k] = x
	}
	if timed {
		// A bare number beside durations lost its unit to the cut.
		for _, f := range bare {
			k, _, _ := strings.Cut(f, "=")
			cut = append(cut, f)
			delete(m.Values, k)
		}
	}
	return cut, nil
}

// How a trend value of a text summary is printed (k6TextValue).
const (
	k6UnitTime = iota // a duration with its unit
	k6UnitNone        // a number: a trend that is not of time
	k6UnitCut         // the start of a duration, cut before its unit ended
	k6UnitBad         // neither
)

// k6TextValue reads a trend value of a text summary. k6 prints every
// duration ending in ns, µs, ms or s, minutes and hours only inside a
// compound such as 1m2s (Go's Duration.String, and k6's own humanize
// since 0.2x). So a value ending in a bare "m" or "h", such as 21.44m, is
// a line cut inside "21.44ms", never 21.44 minutes; so is "1m2" or an
// empty value: such a value is k6UnitCut and gives no number.
func k6TextValue(val string) (float64, int) {
	if strings.HasSuffix(val, "s") || val == "0" {
		ms, err := k6TextDurationMS(val)
		if err != nil {
			return 0, k6UnitBad
		}
		return ms, k6UnitTime
	}
	if x, err := strconv.ParseFloat(val, 64); err == nil && !math.IsNaN(x) && !strings.ContainsAny(val, "infINF") {
		return x, k6UnitNone
	}
	if _, err := k6TextDurationMS(val + "s"); val == "" || strings.HasSuffix(val, "h") || err == nil {
		return 0, k6UnitCut
	}
	return 0, k6UnitBad
}

// k6Rate files a rate: pct% of total, with passes the requests (or
// checks) that counted as true. outOf tells the 1.x layout "n out of
// total"; else the two counts are passes and fails.
func k6Rate(m *k6Metric, pct, a, b string, outOf bool) error {
	p, err1 := strconv.ParseFloat(pct, 64)
	x, err2 := strconv.ParseFloat(a, 64)
	y, err3 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return k6ValueError("want a percentage and two counts")
	}
	m.Type = "rate"
	m.Values["rate"] = p / 100
	m.Values["passes"] = x
	if outOf {
		m.Values["fails"] = y - x
	} else {
		m.Values["fails"] = y
	}
	return nil
}

// k6TextDurationMS reads a duration as k6 prints it, negative ones too
// (k6 can print a negative http_req_receiving when a clock steps back).
func k6TextDurationMS(s string) (float64, error) {
	if rest, neg := strings.CutPrefix(s, "-"); neg {
		ms, err := durationMS(rest)
		return -ms, err
	}
	return durationMS(s)
}
