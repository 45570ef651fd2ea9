package ingest

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
)

// fortio (fortio.org/fortio, Istio's load tool) runs at a fixed rate
// (-qps, split over -c connections) or at full speed (-qps 0, printed
// "max"), and records every call in a histogram (stats.Histogram): its
// count, mean, standard deviation, min and max exactly, its percentiles
// interpolated within its buckets. `fortio load` prints a report on
// stdout (periodic.go, httprunner.go) and, with -json FILE, writes the
// same results as one JSON object (periodic.RunnerResults and
// fhttp.HTTPRunnerResults). Times are in seconds.

func init() {
	register(&Format{Name: "fortio-json", Priority: 40, Detect: detectFortioJSON, Read: readFortioJSON})
	registerReports("fortio", 40, detectFortioText, fortioReports)
}

// fortioPercentMethod names fortio's percentile (stats.go CalcPercentile).
const fortioPercentMethod = "fortio histogram: linear interpolation within the bucket that holds the percentile (buckets of fixed bounds, the first starting at the min and the last ending at the max); p <= 100/count is the min, p >= 100 the max"

// detectFortioJSON claims a JSON object with fortio's RunnerResults keys.
func detectFortioJSON(head []byte) bool {
	return hasJSONKeys(head, "RunType", "DurationHistogram", "ActualQPS", "ActualDuration")
}

// fortioHistogram is stats.HistogramData: seconds (or bytes for sizes).
type fortioHistogram struct {
	Count       *int64   `json:"Count"`
	Min         *float64 `json:"Min"`
	Max         *float64 `json:"Max"`
	Sum         *float64 `json:"Sum"`
	Avg         *float64 `json:"Avg"`
	StdDev      *float64 `json:"StdDev"`
	Percentiles []struct {
		Percentile float64 `json:"Percentile"`
		Value      float64 `json:"Value"`
	} `json:"Percentiles"`
}

// fortioJSON is the -json document (the fields wra reads).
type fortioJSON struct {
	RunType           string           `json:"RunType"`
	Labels            string           `json:"Labels"`
	StartTime         *time.Time       `json:"StartTime"`
	RequestedQPS      json.RawMessage  `json:"RequestedQPS"`
	RequestedDuration string           `json:"RequestedDuration"`
	ActualQPS         *float64         `json:"ActualQPS"`
	ActualDuration    *int64           `json:"ActualDuration"` // ns
	NumThreads        *int64           `json:"NumThreads"`
	Version           string           `json:"Version"`
	DurationHistogram *fortioHistogram `json:"DurationHistogram"`
	Errors            *fortioHistogram `json:"ErrorsDurationHistogram"`
	RetCodes          map[string]int64 `json:"RetCodes"`
	URL               string           `json:"URL"`
	Destination       string           `json:"Destination"`
	Sizes             *fortioHistogram `json:"Sizes"`
	DisableFastClient bool             `json:"DisableFastClient"`
	SocketCount       *int64           `json:"SocketCount"`
	Uniform, Jitter   bool
}

// readFortioJSON reads fortio load -json: requests the calls of
// DurationHistogram (every call, failed ones too), rps requests /
// ActualDuration (fortio's ActualQPS, label reported_rps), target_rps
// RequestedQPS where it is a rate ("max" is full speed), connections
// NumThreads (-c), the latency columns and spectrum DurationHistogram's
// (seconds to ms by a decimal shift), the status columns RetCodes for an
// HTTP run (-1: no answer), bytes_read the sum of Sizes.
func readFortioJSON(in *Input, sink model.Sink) error {
	var v fortioJSON
	_, line, err := readJSONDoc(in, &v, "fortio JSON")
	if err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return Errorf(in.Name, line, 0, "fortio JSON: "+format, args...)
	}
	h := v.DurationHistogram
	switch {
	case h == nil || h.Count == nil:
		return bad("missing DurationHistogram.Count")
	case *h.Count < 0:
		return bad("DurationHistogram.Count %d: want a count", *h.Count)
	}
	r := &model.Run{Tool: "fortio", Line: line, ToolVersion: fortioVersion(v.Version)}
	r.Requests = model.Some(*h.Count)
	if d := v.ActualDuration; d != nil && *d > 0 {
		secs := time.Duration(*d).Seconds()
		r.DurationS = model.Some(secs)
		r.RPS = model.Some(float64(*h.Count) / secs)
	}
	if v.ActualQPS != nil {
		reported(r, model.ReportedRPS, *v.ActualQPS)
	}
	if q := strings.Trim(string(v.RequestedQPS), `"`); q != "" {
		if x, err := strconv.ParseFloat(q, 64); err == nil && x > 0 {
			r.TargetRPS = model.Some(x)
		}
		runLabel(r, "requested_qps", q)
	}
	if v.NumThreads != nil && *v.NumThreads > 0 {
		r.Connections = model.Some(*v.NumThreads)
	}
	if v.StartTime != nil {
		r.StartedAt = model.Some(v.StartTime.UTC())
	}
	if *h.Count > 0 {
		if err := fortioLatency(r, h); err != nil {
			return bad("DurationHistogram: %v", err)
		}
	}
	if strings.HasPrefix(v.RunType, "HTTP") {
		if err := fortioCodes(r, v.RetCodes); err != nil {
			return bad("RetCodes: %v", err)
		}
	} else if len(v.RetCodes) > 0 {
		b, _ := json.Marshal(v.RetCodes) // sorted keys
		runLabel(r, "status_codes", string(b))
	}
	if e := v.Errors; e != nil && e.Count != nil {
		runLabel(r, "error_cases", strconv.FormatInt(*e.Count, 10))
	}
	if s := v.Sizes; s != nil && s.Sum != nil && *s.Sum >= 0 && *s.Sum == math.Trunc(*s.Sum) && *s.Sum < 1<<53 {
		r.BytesRead = model.Some(int64(*s.Sum))
		if v.DisableFastClient {
			runLabel(r, "bytes_read_basis", "response bodies (-stdclient)")
		}
	}
	for k, x := range map[string]string{"run_type": v.RunType, "url": v.URL + v.Destination, "requested_duration": v.RequestedDuration, "fortio_labels": v.Labels} {
		if x != "" {
			runLabel(r, k, x)
		}
	}
	if v.SocketCount != nil {
		runLabel(r, "sockets_used", strconv.FormatInt(*v.SocketCount, 10))
	}
	return sink.Run(r)
}

// fortioVersion is the version a report names, "" for the "X.Y.Z" of
// fortio's own documentation.
func fortioVersion(v string) string {
	v, _, _ = strings.Cut(v, " ")
	if v == "X.Y.Z" {
		return ""
	}
	return v
}

// fortioLatency files a duration histogram: avg, stddev, max in ms, min
// as a label, the percentiles as the spectrum.
func fortioLatency(r *model.Run, h *fortioHistogram) error {
	ms := func(s float64) (float64, error) {
		if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			return 0, fmt.Errorf("%v s: want a time >= 0", s)
		}
		return scaledDecimal(s, 3), nil
	}
	for _, f := range []struct {
		x   *float64
		dst *model.Opt[float64]
	}{{h.Avg, &r.LatencyMeanMS}, {h.StdDev, &r.LatencyStdevMS}, {h.Max, &r.LatencyMaxMS}} {
		if f.x == nil {
			continue
		}
		v, err := ms(*f.x)
		if err != nil {
			return err
		}
		*f.dst = model.Some(v)
	}
	if h.Min != nil {
		v, err := ms(*h.Min)
		if err != nil {
			return err
		}
		runLabel(r, "latency_min_ms", fmtLabelNum(v))
	}
	for _, p := range h.Percentiles {
		if !(p.Percentile >= 0 && p.Percentile <= 100) {
			return fmt.Errorf("percentile %v: want 0 to 100", p.Percentile)
		}
		v, err := ms(p.Value)
		if err != nil {
			return err
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p.Percentile, LatencyMS: v})
	}
	if len(r.Percentiles) > 0 {
		sortPercentiles(r.Percentiles)
		spectrumColumns(r)
		runLabel(r, "percentile_method", fortioPercentMethod)
	}
	return nil
}

// scaledDecimal moves a number by 10^exp through its shortest decimal
// text (seconds to ms without binary rounding of its own).
func scaledDecimal(x float64, exp int) float64 {
	if d, ok := parseExactDecimal(fmtLabelNum(x)); ok {
		if d, ok = d.shift(exp); ok {
			return d.float()
		}
	}
	return x * math.Pow10(exp)
}

// fortioCodes files an HTTP run's RetCodes: 200–299 responses_2xx, other
// statuses non_2xx, -1 (and any code below 100: fortio's socket errors)
// errors, every code in label status_codes.
func fortioCodes(r *model.Run, codes map[string]int64) error {
	if len(codes) == 0 {
		return nil
	}
	var ok, non, errs int64
	for k, n := range codes {
		c, err := strconv.Atoi(strings.TrimSpace(k))
		if err != nil || n < 0 {
			return fmt.Errorf("expected \"code\": count, found %q: %d", k, n)
		}
		switch {
		case c >= 200 && c < 300:
			ok += n
		case c >= 100:
			non += n
		default:
			errs += n
		}
	}
	r.Responses2xx, r.Non2xx, r.Errors = model.Some(ok), model.Some(non), model.Some(errs)
	b, _ := json.Marshal(codes) // sorted keys
	runLabel(r, "status_codes", string(b))
	return nil
}

// The text report. Its lines (fortio 0.x to 1.6x; a log line of
// fortio's own, "19:10:33 I periodic.go:314> …" or {"ts":…} JSON, may
// come between them, on stderr into the same file):
//
//	Fortio 1.63.0 running at 200 queries per second, 2->2 procs, for 3s: http://…
//	Starting at 200 qps with 4 thread(s) [gomax 2] for 3s : 150 calls each (total 600)
//	Ended after 3.0009657s : 600 calls. qps=199.94
//	Sleep times : count 596 avg 0.019030586 +/- 0.0004892 min 0.014280516 max 0.019843485 sum 11.3422295
//	Aggregated Function Time : count 600 avg 0.00033174586 +/- 0.0002451 min 4.1001e-05 max 0.004949166 sum 0.199047516
//	# range, mid point, percentile, count
//	>= 4.1001e-05 <= 0.001 , 0.000520501 , 99.83, 599
//	# target 50% 0.000522110
//	Error cases : no data
//	Sockets used: 4 (for perfect keepalive, would be 4)
//	Code 200 : 600 (100.0 %)
//	Response Header Sizes : count 600 avg 75 +/- 0 min 75 max 75 sum 45000
//	Response Body/Total Sizes : count 600 avg 75 +/- 0 min 75 max 75 sum 45000
//	All done 600 calls (plus 4 warmup) 0.332 ms avg, 199.9 qps

var (
	fortioBanner   = regexp.MustCompile(`^Fortio (\S+) running at (\S+) queries per second, \d+->\d+ procs, (?:for (.+?)|until interrupted): (\S+)$`)
	fortioStarting = regexp.MustCompile(`^Starting at (\S+) qps with (\d+) thread\(s\) \[gomax \d+\] ?(.*)$`)
	fortioEnded    = regexp.MustCompile(`^Ended after (\S+) : (\d+) calls\. qps=(\S+)$`)
	fortioCounter  = regexp.MustCompile(`^(.+?) : count (\d+) avg (\S+) \+/- (\S+) min (\S+) max (\S+) sum (\S+)$`)
	fortioNoData   = regexp.MustCompile(`^(.+?) : no data$`)
	fortioTarget   = regexp.MustCompile(`^# target (\S+)% (\S+)$`)
	fortioBucket   = regexp.MustCompile(`^(>=|>) \S+ (<=|<) \S+ , \S+ , \S+, \d+$`)
	fortioCode     = regexp.MustCompile(`^Code\s+(-?\d+) : (\d+)(?: \(\S+ %\))?$`)
	fortioSockets  = regexp.MustCompile(`^Sockets used: (\d+) \(for perfect keepalive, would be \d+\)$`)
	fortioAllDone  = regexp.MustCompile(`^All done (\d+) calls \(plus (\d+) warmup\) (\S+) ms avg, (\S+) qps$`)
	fortioWarning  = regexp.MustCompile(`^WARNING (\S+)% of sleep were falling behind$`)
)

// detectFortioText claims a head with an All done line and one of the
// report's other lines.
func detectFortioText(head []byte) bool {
	done, other := false, false
	hasLine(head, func(t string) bool {
		switch {
		case fortioAllDone.MatchString(t):
			done = true
		case fortioEnded.MatchString(t), fortioCode.MatchString(t), fortioTarget.MatchString(t),
			strings.HasPrefix(t, "Aggregated Function Time : count "), fortioBanner.MatchString(t):
			other = true
		}
		return done && other
	})
	return done && other
}

var fortioReports = &reportFormat{
	tool:   "fortio",
	first:  `"Fortio … running at …", "Starting at … qps", or a line of the report up to "All done N calls"`,
	begins: fortioBegins,
	read:   readFortioReport,
	// A line only the report prints: met outside one, the report above
	// ended at a line it could not read.
	body:     func(t string) bool { return fortioAllDone.MatchString(t) },
	settings: []string{"url", "requested_duration"},
}

// fortioBegins recognises the first line of a report: the banner, the
// Starting line, or where an excerpt begins (Ended after, a histogram's
// line, a target, a code, All done).
func fortioBegins(t string) bool {
	return fortioBanner.MatchString(t) || fortioStarting.MatchString(t) || fortioEnded.MatchString(t) ||
		fortioCounter.MatchString(t) || fortioTarget.MatchString(t) || fortioCode.MatchString(t) ||
		fortioSockets.MatchString(t) || fortioAllDone.MatchString(t)
}

// fortioReport gathers one text report.
type fortioReport struct {
	r        *model.Run
	section  string // the histogram the # target lines below belong to
	started  bool   // the banner or Starting line was read
	ended    bool   // Ended after was read
	codes    map[string]int64
	loose    []model.Percentile // targets before any histogram's line
	sections bool               // the report names a histogram other than the latency's
}

// readFortioReport reads one report up to its All done line. Lines of
// fortio's own log between its lines, and the histograms' bucket lines,
// are read over.
func readFortioReport(l *Lines, _ model.Sink) (*model.Run, error) {
	p := &fortioReport{r: &model.Run{Tool: "fortio"}}
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if p.r.Line == 0 {
			p.r.Line = l.Line()
		}
		if (fortioBanner.MatchString(t) || fortioStarting.MatchString(t) && !strings.HasPrefix(p.section, "banner")) && p.hasBody() {
			// The next report: this one has no All done line.
			l.Unread()
			return nil, l.Errorf(1, "fortio report from line %d ends early: expected its \"All done N calls\" line, found the start of another report", p.r.Line)
		}
		done, err := p.line(l, t)
		if err != nil {
			return nil, err
		}
		if done {
			return p.finish(), nil
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	return nil, Errorf(l.in.Name, l.Line()+1, 0, "fortio report from line %d ends before its \"All done N calls\" line", p.r.Line)
}

// hasBody reports whether the report has read a line after its banner.
func (p *fortioReport) hasBody() bool { return p.ended || p.r.LatencyMeanMS.Valid || p.codes != nil }

// line reads one line; done is true at All done.
func (p *fortioReport) line(l *Lines, t string) (done bool, err error) {
	r := p.r
	num := func(s, what string) (float64, error) {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, l.Errorf(1, "fortio %s: expected a number >= 0, found %q", what, clipQuote(s))
		}
		return x, nil
	}
	switch {
	case fortioBanner.MatchString(t):
		m := fortioBanner.FindStringSubmatch(t)
		r.ToolVersion = fortioVersion(m[1])
		if q, err := strconv.ParseFloat(m[2], 64); err == nil && q > 0 {
			r.TargetRPS = model.Some(q) // 0 is full speed
		}
		runLabel(r, "url", m[4])
		if m[3] != "" {
			runLabel(r, "requested_duration", m[3])
		}
		p.section = "banner"
	case fortioStarting.MatchString(t):
		m := fortioStarting.FindStringSubmatch(t)
		if m[1] != "max" {
			q, err := num(m[1], "Starting at … qps")
			if err != nil {
				return false, err
			}
			if q > 0 {
				r.TargetRPS = model.Some(q)
			}
		}
		runLabel(r, "requested_qps", m[1])
		n, _ := strconv.ParseInt(m[2], 10, 64)
		r.Connections = model.Some(n)
		p.section = ""
	case fortioEnded.MatchString(t):
		m := fortioEnded.FindStringSubmatch(t)
		d, err := time.ParseDuration(m[1])
		if err != nil || d < 0 {
			return false, l.Errorf(1, "fortio Ended after: expected a Go duration, found %q", m[1])
		}
		n, _ := strconv.ParseInt(m[2], 10, 64)
		r.Requests = model.Some(n)
		r.DurationS = model.Some(d.Seconds())
		if d > 0 {
			r.RPS = model.Some(float64(n) / d.Seconds())
		}
		q, err := num(m[3], "qps")
		if err != nil {
			return false, err
		}
		reported(r, model.ReportedRPS, q)
		p.ended = true
	case fortioCounter.MatchString(t):
		m := fortioCounter.FindStringSubmatch(t)
		p.section = m[1]
		var v [5]float64
		for i := range v {
			// A sleep behind schedule is negative: only the calls' and
			// sizes' figures are held to be times and sizes >= 0.
			if m[1] == "Aggregated Function Time" || strings.HasPrefix(m[1], "Response ") {
				x, err := num(m[i+3], m[1])
				if err != nil {
					return false, err
				}
				v[i] = x
				continue
			}
			x, err := strconv.ParseFloat(m[i+3], 64)
			if err != nil {
				return false, l.Errorf(1, "fortio %s: expected a number, found %q", m[1], clipQuote(m[i+3]))
			}
			v[i] = x
		}
		n, _ := strconv.ParseInt(m[2], 10, 64)
		switch {
		case m[1] == "Aggregated Function Time":
			if !r.Requests.Valid {
				r.Requests = model.Some(n)
			}
			if n > 0 {
				r.LatencyMeanMS = model.Some(scaledDecimal(v[0], 3))
				r.LatencyStdevMS = model.Some(scaledDecimal(v[1], 3))
				r.LatencyMaxMS = model.Some(scaledDecimal(v[3], 3))
				runLabel(r, "latency_min_ms", fmtLabelNum(scaledDecimal(v[2], 3)))
			}
		case m[1] == "Response Body/Total Sizes" || m[1] == "Response Body/Total Sizes Histogram":
			// %.9g: a sum of 10^9 bytes or more is printed rounded.
			if strings.ContainsAny(m[7], "e.") {
				reported(r, model.ReportedBytesRead, v[4])
			} else {
				r.BytesRead = model.Some(int64(v[4]))
			}
		case m[1] == "Error cases":
			runLabel(r, "error_cases", m[2])
			p.sections = true
		case strings.HasPrefix(m[1], "Connection time") || strings.HasPrefix(m[1], "[") || strings.Contains(m[1], "Sleep"):
			p.sections = true
		}
	case fortioNoData.MatchString(t):
		p.section = fortioNoData.FindStringSubmatch(t)[1]
		if p.section == "Error cases" {
			runLabel(r, "error_cases", "0")
		}
		p.sections = true
	case fortioTarget.MatchString(t):
		m := fortioTarget.FindStringSubmatch(t)
		pc, err := num(m[1], "# target")
		if err != nil || pc > 100 {
			return false, l.Errorf(1, "fortio # target: expected a percentile, found %q", clipQuote(m[1]))
		}
		s, err := num(m[2], "# target "+m[1]+"%")
		if err != nil {
			return false, err
		}
		pt := model.Percentile{Percentile: pc, LatencyMS: scaledDecimal(s, 3)}
		switch p.section {
		case "Aggregated Function Time":
			r.Percentiles = append(r.Percentiles, pt)
		case "", "banner":
			p.loose = append(p.loose, pt)
		}
	case fortioBucket.MatchString(t), t == "# range, mid point, percentile, count":
	case fortioCode.MatchString(t):
		m := fortioCode.FindStringSubmatch(t)
		n, _ := strconv.ParseInt(m[2], 10, 64)
		if p.codes == nil {
			p.codes = map[string]int64{}
		}
		p.codes[m[1]] += n
	case fortioSockets.MatchString(t):
		runLabel(r, "sockets_used", fortioSockets.FindStringSubmatch(t)[1])
		p.section = "sockets"
	case fortioWarning.MatchString(t):
		runLabel(r, "sleep_falling_behind_pct", fortioWarning.FindStringSubmatch(t)[1])
	case fortioAllDone.MatchString(t):
		m := fortioAllDone.FindStringSubmatch(t)
		n, _ := strconv.ParseInt(m[1], 10, 64)
		if !r.Requests.Valid {
			r.Requests = model.Some(n)
		}
		runLabel(r, "warmup_calls", m[2])
		if !r.LatencyMeanMS.Valid && n > 0 {
			ms, err := num(m[3], "All done … ms avg")
			if err != nil {
				return false, err
			}
			r.LatencyMeanMS = model.Some(ms)
		}
		if !r.RPS.Valid {
			q, err := num(m[4], "All done … qps")
			if err != nil {
				return false, err
			}
			r.RPS = model.Some(q)
			runLabel(r, "rps_basis", "fortio's All done qps, to one decimal: the report prints no Ended after line")
		}
		return true, nil
	}
	return false, nil
}

// finish sets what the report's lines give together.
func (p *fortioReport) finish() *model.Run {
	r := p.r
	if len(r.Percentiles) == 0 && len(p.loose) > 0 {
		if p.sections {
			runLabel(r, "warning", fmt.Sprintf("line %d: # target lines that follow no histogram's line, in a report of several histograms: not read", r.Line))
		} else {
			// An excerpt of a layout whose only targets are the latency's
			// (before 1.3x printed connection and error histograms).
			r.Percentiles = p.loose
		}
	}
	if len(r.Percentiles) > 0 {
		sortPercentiles(r.Percentiles)
		spectrumColumns(r)
		runLabel(r, "percentile_method", fortioPercentMethod)
	}
	if p.codes != nil {
		fortioCodes(r, p.codes) // the codes were read as numbers
	}
	return r
}
