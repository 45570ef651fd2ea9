package ingest

// The k6 end-of-test text summary: the compact default and
// --summary-mode=full of k6 1.x (█ THRESHOLDS, █ TOTAL RESULTS, then
// per-scenario and per-group blocks in full mode), and the legacy layout
// (--summary-mode=legacy, and k6 before 1.0) whose metric lines carry ✓/✗
// threshold marks.

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

func init() {
	register(&Format{Name: "k6-text", Priority: 23, Detect: detectK6Text, Read: readK6Text})
}

var (
	// k6MetricLine is "name.....: values", with an optional threshold
	// mark in the legacy layout; a sub-metric's name is "{ tag:value }".
	k6MetricLine = regexp.MustCompile(`^(?:([✓✗])\s+)?(\S.*?)\.{2,}:\s*(.*?)\s*$`)
	// k6ThresholdLine is "✓ 'p(95)<50' p(95)=1.39ms".
	k6ThresholdLine = regexp.MustCompile(`^([✓✗])\s+'(.*)'\s+(\S+)=(\S+)$`)
	k6RateValue     = regexp.MustCompile(`^([0-9.]+)%\s+([0-9]+) out of ([0-9]+)$`)
	k6CounterValue  = regexp.MustCompile(`^([0-9.]+)(?:\s*([kMGTP]?B))?\s+([0-9.]+)(?:\s*([kMGTP]?B))?/s$`)
	k6ScenarioLine  = regexp.MustCompile(`^\*\s+(\S+):\s+(.*)$`)
)

func detectK6Text(head []byte) bool {
	return hasLine(head, func(t string) bool {
		if strings.HasPrefix(t, "█ TOTAL RESULTS") || strings.HasPrefix(t, "█ THRESHOLDS") ||
			strings.HasPrefix(t, "execution: local") || strings.HasPrefix(t, "execution: cloud") {
			return true
		}
		m := k6MetricLine.FindStringSubmatch(t)
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

var k6SIBytes = map[string]float64{"": 1, "B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15}

// readK6Text reads an end-of-test text summary. Values are as printed
// (rounded); p(99) of http_req_duration comes from its threshold line
// where the trend line does not print it.
func readK6Text(in *Input, sink model.Sink) error {
	l := NewLines(in)
	s := &k6Summary{RatesPrinted: true, Rounded: true}
	byName := map[string]*k6Metric{}
	get := func(name string) *k6Metric {
		m := byName[name]
		if m == nil {
			m = &k6Metric{Name: name, Values: map[string]float64{}}
			byName[name] = m
			s.Metrics = append(s.Metrics, m)
		}
		return m
	}
	thrValues := map[string]map[string]float64{}
	section := "" // "", thresholds, total, other (scenario and group blocks)
	started, seenTotal, seenThresholds := false, false, false
	var thrBase, thrMetric, lastBase string
	reqLine := 0
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" {
			continue
		}
		start := func() {
			if !started {
				started = true
				s.Line = l.Line()
			}
		}
		switch {
		case strings.HasPrefix(t, "█ THRESHOLDS"):
			if seenThresholds || seenTotal {
				return l.Errorf(0, "a second k6 summary: a file holds one run")
			}
			start()
			seenThresholds = true
			section = "thresholds"
			continue
		case strings.HasPrefix(t, "█ TOTAL RESULTS"):
			if seenTotal {
				return l.Errorf(0, "a second k6 summary: a file holds one run")
			}
			start()
			seenTotal = true
			section = "total"
			continue
		case strings.HasPrefix(t, "█ "):
			section = "other"
			continue
		}
		if !started {
			if m := k6ScenarioLine.FindStringSubmatch(t); m != nil {
				if e := k6ExecutorOf(m[2]); e != "" {
					s.Executors = k6AppendUnique(s.Executors, e)
				}
				continue
			}
		}
		switch section {
		case "other":
			continue
		case "thresholds":
			switch {
			case strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}"):
				thrMetric = thrBase + t
			case strings.HasPrefix(t, "✓") || strings.HasPrefix(t, "✗"):
				m := k6ThresholdLine.FindStringSubmatch(t)
				if m == nil || thrMetric == "" {
					return l.Errorf(0, "k6 threshold line %q: want ✓ or ✗ 'expression' stat=value under a metric name", t)
				}
				get(thrMetric).Thresholds = append(get(thrMetric).Thresholds, k6Threshold{Expr: m[2], Failed: m[1] == "✗"})
				if ms, err := durationMS(m[4]); err == nil {
					if thrValues[thrMetric] == nil {
						thrValues[thrMetric] = map[string]float64{}
					}
					thrValues[thrMetric][m[3]] = ms
				}
			case !strings.ContainsAny(t, " .:"):
				thrBase, thrMetric = t, t
			default:
				return l.Errorf(0, "k6 thresholds block: unexpected line %q", t)
			}
			continue
		}
		m := k6MetricLine.FindStringSubmatch(t)
		if m == nil {
			continue // check results, group names, progress lines
		}
		start()
		name := m[2]
		if strings.HasPrefix(name, "{") {
			if lastBase == "" {
				return l.Errorf(0, "k6 sub-metric %s before any metric", name)
			}
			inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(name, "{"), "}"))
			name = lastBase + "{" + inner + "}"
		} else {
			lastBase = name
		}
		if name == "http_reqs" {
			if reqLine > 0 {
				return l.Errorf(0, "a second http_reqs line (first at line %d): a file holds one run", reqLine)
			}
			reqLine = l.Line()
		}
		if _, dup := byName[name]; dup && len(byName[name].Values) > 0 {
			return l.Errorf(0, "metric %s printed twice: a file holds one run", name)
		}
		met := get(name)
		if m[1] != "" {
			met.Thresholds = append(met.Thresholds, k6Threshold{Failed: m[1] == "✗"})
		}
		if err := parseK6TextValues(met, m[3]); err != nil {
			return l.Errorf(0, "metric %s: %v", name, err)
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	if reqLine == 0 {
		return Errorf(in.Name, l.Line(), 0, "no http_reqs line: k6 printed no end-of-test summary (cut short, or replaced by handleSummary), or the test made no HTTP request")
	}
	for name, vals := range thrValues {
		met := byName[name]
		if met.Type != "trend" {
			continue
		}
		for k, v := range vals {
			if _, ok := met.Values[k]; !ok {
				met.Values[k] = v
			}
		}
	}
	return k6StoreRun(in, sink, s, nil)
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

// parseK6TextValues reads the values of a metric line: a trend's
// avg=.. min=.. (durations), a gauge's "value min=.. max=..", a rate's
// "p% n out of m", a counter's "count rate/s" (data in SI bytes).
func parseK6TextValues(m *k6Metric, v string) error {
	if r := k6RateValue.FindStringSubmatch(v); r != nil {
		m.Type = "rate"
		pct, _ := strconv.ParseFloat(r[1], 64)
		pass, _ := strconv.ParseFloat(r[2], 64)
		total, _ := strconv.ParseFloat(r[3], 64)
		m.Values["rate"] = pct / 100
		m.Values["passes"] = pass
		m.Values["fails"] = total - pass
		return nil
	}
	if c := k6CounterValue.FindStringSubmatch(v); c != nil {
		m.Type = "counter"
		count, err1 := strconv.ParseFloat(c[1], 64)
		rate, err2 := strconv.ParseFloat(c[3], 64)
		if err1 != nil || err2 != nil {
			return k6ValueError("want a count and a rate per second, got " + strconv.Quote(v))
		}
		m.Values["count"] = count * k6SIBytes[c[2]]
		m.Values["rate"] = rate * k6SIBytes[c[4]]
		return nil
	}
	fields := strings.Fields(v)
	if len(fields) == 0 {
		return k6ValueError("no values")
	}
	if !strings.Contains(fields[0], "=") {
		m.Type = "gauge"
		x, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return k6ValueError("gauge value " + strconv.Quote(fields[0]) + " is not a number")
		}
		m.Values["value"] = x
		fields = fields[1:]
	} else {
		m.Type = "trend"
	}
	for _, f := range fields {
		k, val, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return k6ValueError("want stat=value, got " + strconv.Quote(f))
		}
		x, err := durationMS(val)
		if m.Type == "gauge" || err != nil {
			var err error
			x, err = strconv.ParseFloat(val, 64)
			if err != nil || math.IsNaN(x) {
				return k6ValueError(k + "=" + strconv.Quote(val) + " is neither a duration nor a number")
			}
		}
		m.Values[k] = x
	}
	return nil
}
