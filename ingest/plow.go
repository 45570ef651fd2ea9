package ingest

import (
	"bufio"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// plow (github.com/six-ddc/plow) prints a report of blocks: "Summary:"
// (Elapsed, Count, the status classes, RPS, Reads, Writes; Concurrency
// since 1.4), "Error:" (a count and a quoted message a line, only when
// some request failed), the Statistics table (Latency min, mean, stddev
// and max; the per-second RPS samples once one second passed), "Latency
// Percentile:" (P50 … P99.99, over a targeted streaming quantile
// estimate) and "Latency Histogram:". Count is every request done,
// answered or failed (a failed one is counted under its error message,
// an answered one under its status class). Times are Go durations
// truncated to the microsecond ("276µs", "1.071ms", "1m2.5s"), or, with
// --seconds, bare numbers of seconds. Each snapshot of a run is a whole
// report: on a terminal plow redraws it in place, but written to a pipe
// or (1.0) with terminal codes to a file, the snapshots follow one
// another; a snapshot is told from the final report by its histogram
// rows, which carry bars and no percentages.

func init() {
	register(&Format{Name: "plow", Priority: 40, Late: true, Detect: detectPlow,
		Read: func(in *Input, sink model.Sink) error {
			in.R = &noTerminalCodes{r: bufio.NewReader(in.R)}
			return readReports(in, sink, plowReports)
		}})
}

var plowReports = &reportFormat{
	tool:     "plow",
	first:    `"Summary:" or "Benchmarking <url> … using N connection(s)."`,
	begins:   func(t string) bool { return t == "Summary:" || plowBanner.MatchString(t) },
	read:     readPlowReport,
	settings: []string{"url", "requested_duration", "requested_requests"},
	body: func(t string) bool {
		return t == "Latency Percentile:" || t == "Latency Histogram:" || plowStatsHeader.MatchString(t)
	},
}

var (
	// plowBanner is what plow prints on stderr as a run starts:
	// "Benchmarking http://127.0.0.1:8080/ for 3s using 8 connection(s).",
	// "… with 2000 request(s) using 4 connection(s)." or, with neither
	// -d nor -n, "… using 20 connection(s)."
	plowBanner      = regexp.MustCompile(`^Benchmarking (\S+)(?: for (\S+)| with (\d+) request\(s\))? using (\d+) connection\(s\)\.$`)
	plowStatsHeader = regexp.MustCompile(`^Statistics\s+Min\s+Mean\s+StdDev\s+Max$`)
	plowPercentName = regexp.MustCompile(`^P([0-9]+(?:\.[0-9]+)?)$`)
	plowStatusClass = regexp.MustCompile(`^[1-5]xx$`)
	plowErrorRow    = regexp.MustCompile(`^(\d+)\s+"(.*)"$`)
	// plowHistogramRow is "70µs  36237  80.13%" in a final report and
	// "70µs  36237  ■■■■" in a snapshot (the bar may be empty).
	plowHistogramRow = regexp.MustCompile(`^(\S+)\s+(\d+)(\s+[0-9.]+%)?(\s+■*)?$`)
)

func detectPlow(head []byte) bool {
	head = stripTerminalCodes(head)
	summary, elapsed := false, false
	return hasLine(head, func(t string) bool {
		f := strings.Fields(t)
		switch {
		case t == "Summary:":
			summary, elapsed = true, false
		case summary && len(f) >= 2 && f[0] == "Elapsed":
			elapsed = true
		case elapsed && len(f) >= 2 && f[0] == "Count":
			return true
		default:
			summary = summary && elapsed
		}
		return false
	})
}

// plowValue is a time of a report as printed, read once the report tells
// its unit (every time with a unit, or with --seconds none).
type plowValue struct {
	line int
	what string
	text string
	dst  *model.Opt[float64]
	// label, when set, is the label the time fills instead of dst.
	label string
	pct   float64 // the percentile of a Latency Percentile value, else 0
}

// plowReport is one report being read.
type plowReport struct {
	run      *model.Run
	times    []plowValue
	count    bool // the Count line was read
	rate     bool // the summary's RPS line was read (the status rows are above it)
	stats    bool // the Statistics table was read (an Error block is above it)
	errors   int64
	codes    map[string]int64
	snapshot bool
	past     bool // a block below the Summary block was read
}

// readPlowReport reads a report from its banner or its "Summary:" line,
// and the snapshots of the same run after it: the run is the last one.
func readPlowReport(l *Lines, _ model.Sink) (*model.Run, error) {
	l.Scan()
	t := strings.TrimSpace(l.Text())
	start := l.Line()
	banner := plowBanner.FindStringSubmatch(t)
	if banner != nil {
		for l.Scan() {
			t = strings.TrimSpace(l.Text())
			if t != "" && !strings.HasPrefix(t, "@ Real-time charts is listening on ") {
				break
			}
		}
		if err := l.Err(); err != nil {
			return nil, err
		}
		if t != "Summary:" {
			return nil, Errorf(l.in.Name, l.Line(), 1, `plow report from line %d: expected "Summary:" after the banner, found %q`, start, clipQuote(t))
		}
	}
	for {
		p, err := readPlowSnapshot(l, start)
		if err != nil {
			return nil, err
		}
		if p.snapshot && plowNextIsSummary(l) {
			l.Scan() // a snapshot, redrawn from this "Summary:" line
			continue
		}
		r, err := p.finish(l.in.Name)
		if err != nil {
			return nil, err
		}
		if banner != nil {
			plowBannerLabels(r, banner)
		}
		return r, nil
	}
}

// plowNextIsSummary reports whether the next line that is not blank is
// a "Summary:" line, which it leaves unread.
func plowNextIsSummary(l *Lines) bool {
	for l.Scan() {
		if t := strings.TrimSpace(l.Text()); t != "" {
			l.Unread()
			return t == "Summary:"
		}
	}
	return false
}

// readPlowSnapshot reads one report from the line after its "Summary:"
// line (the current line) up to its last line.
func readPlowSnapshot(l *Lines, start int) (*plowReport, error) {
	p := &plowReport{run: &model.Run{Tool: "plow", Line: start}, codes: map[string]int64{}}
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		f := strings.Fields(t)
		switch {
		case t == "":
			continue
		case t == "Summary:" || plowBanner.MatchString(t):
		case p.past && (f[0] == "Elapsed" || f[0] == "Count" || f[0] == "RPS" || plowStatusClass.MatchString(f[0])):
			// A line of the Summary block below the tables (a Statistics
			// RPS row cut short): the report ended above it.
		case f[0] == "Elapsed" && len(f) >= 2:
			p.snapshot = p.snapshot || len(f) > 2
			p.times = append(p.times, plowValue{line: l.Line(), what: "Elapsed", text: f[1]})
			continue
		case f[0] == "Count" && len(f) >= 2:
			if err := p.countLine(l, f); err != nil {
				return nil, err
			}
			continue
		case !p.count:
		case plowStatusClass.MatchString(f[0]) && len(f) == 2:
			n, ok := plowCount(f[1])
			if !ok {
				return nil, l.Errorf(1, "plow %s: expected a count, found %q", f[0], clipQuote(f[1]))
			}
			p.codes[f[0]] = n
			continue
		case f[0] == "RPS" && len(f) == 2:
			x, perr := strconv.ParseFloat(f[1], 64)
			if perr != nil || x < 0 {
				return nil, l.Errorf(1, "plow RPS: expected a rate, found %q", clipQuote(f[1]))
			}
			p.run.RPS, p.rate = model.Some(x), true
			continue
		case (f[0] == "Reads" || f[0] == "Writes" || f[0] == "Concurrency") && len(f) == 2:
			runLabel(p.run, strings.ToLower(f[0]), f[1])
			continue
		case t == "Error:":
			p.past = true
			if err := p.errorBlock(l); err != nil {
				return nil, err
			}
			continue
		case plowStatsHeader.MatchString(t):
			p.past = true
			if err := p.statistics(l); err != nil {
				return nil, err
			}
			continue
		case t == "Latency Percentile:":
			p.past = true
			if err := p.percentiles(l); err != nil {
				return nil, err
			}
			continue
		case t == "Latency Histogram:":
			p.past = true
			p.histogram(l)
			continue
		}
		if !p.count {
			return nil, l.Errorf(1, `plow report from line %d: expected "Count N" in its Summary block, found %q`, start, clipQuote(t))
		}
		l.Unread()
		break
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if !p.count {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, `plow report from line %d ends before its "Count" line`, start)
	}
	return p, nil
}

func (p *plowReport) countLine(l *Lines, f []string) error {
	n, ok := plowCount(f[1])
	if !ok {
		return l.Errorf(1, "plow Count: expected a count, found %q", clipQuote(f[1]))
	}
	p.snapshot = p.snapshot || len(f) > 2
	p.run.Requests, p.count = model.Some(n), true
	return nil
}

// errorBlock reads the rows of the Error block: a count and the quoted
// message.
func (p *plowReport) errorBlock(l *Lines) error {
	for l.Scan() {
		m := plowErrorRow.FindStringSubmatch(strings.TrimSpace(l.Text()))
		if m == nil {
			l.Unread()
			break
		}
		n, ok := plowCount(m[1])
		if !ok {
			return l.Errorf(1, "plow Error: expected a count, found %q", clipQuote(m[1]))
		}
		p.errors += n
		runLabel(p.run, "error."+m[2], m[1])
	}
	return l.Err()
}

// statistics reads the Latency row under the Statistics header, and the
// RPS row of per-second samples where printed.
func (p *plowReport) statistics(l *Lines) error {
	p.stats = true
	at := l.Line()
	if !l.Scan() {
		if err := l.Err(); err != nil {
			return err
		}
		return Errorf(l.in.Name, at+1, 0, "plow Statistics table from line %d ends before its Latency row", at)
	}
	f := strings.Fields(l.Text())
	if len(f) < 2 || f[0] != "Latency" || len(f) > 5 {
		return l.Errorf(1, `plow Statistics: expected "Latency  min  mean  stddev  max", found %q`, clipQuote(strings.TrimSpace(l.Text())))
	}
	f = append(f, "", "", "") // a row cut short leaves its last values empty
	p.times = append(p.times,
		plowValue{line: l.Line(), what: "Latency Min", text: f[1], label: "latency_min_ms"},
		plowValue{line: l.Line(), what: "Latency Mean", text: f[2], dst: &p.run.LatencyMeanMS},
		plowValue{line: l.Line(), what: "Latency StdDev", text: f[3], dst: &p.run.LatencyStdevMS},
		plowValue{line: l.Line(), what: "Latency Max", text: f[4], dst: &p.run.LatencyMaxMS})
	if l.Scan() {
		f := strings.Fields(l.Text())
		if len(f) == 5 && f[0] == "RPS" {
			// min, mean, stddev, max of plow's per-second samples
			for i, stat := range []string{"min", "mean", "stdev", "max"} {
				if v, err := strconv.ParseFloat(f[i+1], 64); err == nil {
					reported(p.run, model.ReportedRPSPrefix+stat, v)
				}
			}
		} else {
			l.Unread()
		}
	}
	return l.Err()
}

// percentiles reads the two rows under "Latency Percentile:": the names
// (P50 … P99.99) and their times.
func (p *plowReport) percentiles(l *Lines) error {
	at := l.Line()
	var rows [2][]string
	for i := range rows {
		if !l.Scan() {
			if err := l.Err(); err != nil {
				return err
			}
			return Errorf(l.in.Name, l.Line()+1, 0, "plow Latency Percentile table from line %d ends before its two rows", at)
		}
		rows[i] = strings.Fields(l.Text())
	}
	if len(rows[0]) == 0 || len(rows[1]) > len(rows[0]) {
		return Errorf(l.in.Name, at+1, 1, "plow Latency Percentile: expected a row of names P50 … and a row of as many times")
	}
	for i, name := range rows[0] {
		m := plowPercentName.FindStringSubmatch(name)
		pct, err := strconv.ParseFloat(firstGroup(m), 64)
		if m == nil || err != nil || pct <= 0 || pct > 100 {
			return Errorf(l.in.Name, at+1, 1, "plow Latency Percentile: expected names such as P50 or P99.9, found %q", clipQuote(name))
		}
		text := "" // the row was cut short
		if i < len(rows[1]) {
			text = rows[1][i]
		}
		p.times = append(p.times, plowValue{line: l.Line(), what: name, text: text, pct: pct})
	}
	return nil
}

// firstGroup is a submatch's first group, or "" where nothing matched.
func firstGroup(m []string) string {
	if m == nil {
		return ""
	}
	return m[1]
}

// histogram reads over the rows of the Latency Histogram; rows without a
// percentage make the report a snapshot.
func (p *plowReport) histogram(l *Lines) {
	for l.Scan() {
		m := plowHistogramRow.FindStringSubmatch(strings.TrimSpace(l.Text()))
		if m == nil {
			l.Unread()
			return
		}
		if m[3] == "" {
			p.snapshot = true
		}
	}
}

// plowCount reads a count.
func plowCount(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0
}

// finish reads the report's times and files its counts. The times of a
// report are Go durations, or with --seconds bare numbers of seconds:
// the report prints no unit for any latency then. A bare number beside
// times with their unit, or a time cut inside its unit ("1.07m", "276µ",
// never minutes: Go prints minutes only with seconds after them), lost
// its unit to a cut line, and is left NULL with a warning naming its line.
func (p *plowReport) finish(name string) (*model.Run, error) {
	r := p.run
	seconds := true
	for _, v := range p.times {
		if _, kind := k6TextValue(v.text); v.what != "Elapsed" && kind == k6UnitTime {
			seconds = false
		}
	}
	var warnings []string
	for _, v := range p.times {
		ms, kind := k6TextValue(v.text)
		switch {
		case kind == k6UnitBad || ms < 0:
			return nil, Errorf(name, v.line, 0, "plow %s: expected a time such as 276µs, 1.071ms or 1m2.5s, found %q", v.what, clipQuote(v.text))
		case kind == k6UnitNone && seconds && v.what != "Elapsed":
			x, err := decimalMS(v.text, 3)
			if err != nil {
				return nil, Errorf(name, v.line, 0, "plow %s: expected a number of seconds, found %q", v.what, clipQuote(v.text))
			}
			ms = x
		case kind != k6UnitTime:
			warnings = append(warnings, cutValueWarning(v.line, "plow "+v.what, v.text))
			continue
		}
		switch {
		case v.what == "Elapsed":
			runLabel(r, "reported_elapsed", v.text)
		case v.label != "":
			runLabel(r, v.label, fmtLabelNum(ms))
		case v.pct > 0:
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: v.pct, LatencyMS: ms})
		default:
			*v.dst = model.Some(ms)
		}
	}
	spectrumColumns(r)
	if seconds && len(p.times) > 1 {
		runLabel(r, "time_unit", "s")
	}
	if p.stats {
		r.Errors = model.Some(p.errors) // the Error block stands above the table
	}
	if p.rate {
		if w := plowStatusColumns(r, p.codes, r.Errors.Valid); w != "" {
			warnings = append(warnings, w)
		}
	}
	if r.RPS.Valid && r.RPS.V > 0 {
		// Elapsed is printed truncated to 0.1 s (1 ms in 1.0): RPS,
		// Count over the time plow measured, gives the time.
		r.DurationS = model.Some(float64(r.Requests.V) / r.RPS.V)
	}
	if len(warnings) > 0 {
		runLabel(r, "warning", strings.Join(warnings, "; "))
	}
	return r, nil
}

// plowStatusColumns files the status classes. plow counts a failed
// request under its error message, and, since 1.1, also under the status
// class of an earlier answer (a record taken back from its pool keeps
// its old status): where the classes add up to more than the requests
// answered (Count - errors), the one class printed is that many, and with
// two or more classes the columns are NULL with a warning; each class
// keeps its printed count in a status_<class> label. whole tells that
// the Error block is known (a report cut before it keeps the classes as
// printed).
func plowStatusColumns(r *model.Run, codes map[string]int64, whole bool) string {
	var sum, non2xx int64
	for k, n := range codes {
		runLabel(r, "status_"+k, strconv.FormatInt(n, 10))
		sum += n
		if k != "2xx" {
			non2xx += n
		}
	}
	if !whole {
		// The Error block, and so the answered count, is cut off.
		r.Responses2xx, r.Non2xx = model.Some(sum-non2xx), model.Some(non2xx)
		return ""
	}
	answered := r.Requests.V - r.Errors.V
	switch {
	case sum == answered:
		r.Responses2xx, r.Non2xx = model.Some(sum-non2xx), model.Some(non2xx)
	case len(codes) == 1 && answered >= 0:
		if codes["2xx"] > 0 {
			r.Responses2xx, r.Non2xx = model.Some(answered), model.Some(int64(0))
		} else {
			r.Responses2xx, r.Non2xx = model.Some(int64(0)), model.Some(answered)
		}
	default:
		return fmt.Sprintf("line %d: the status classes add up to %d, not Count - errors = %d (plow counted failed requests under an earlier status): responses_2xx and non_2xx not stored", r.Line, sum, answered)
	}
	return ""
}

// plowBannerLabels files what the banner tells: the URL, the duration or
// number of requests asked for, and the connections.
func plowBannerLabels(r *model.Run, banner []string) {
	runLabel(r, "url", banner[1])
	if banner[2] != "" {
		runLabel(r, "requested_duration", banner[2])
	}
	if banner[3] != "" {
		runLabel(r, "requested_requests", banner[3])
	}
	n, _ := strconv.ParseInt(banner[4], 10, 64)
	r.Connections = model.Some(n)
}
