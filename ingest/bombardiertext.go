package ingest

// bombardier's plain-text report, as every version prints it: from v0.1
// (2016: "Bombarding URL with N requests using C connections", the
// progress bar, "errored - N" where later versions print "others - N" and
// an Errors block) through v1.2 ("connection(s)", "request(s)", the
// template with 95% in the Latency Distribution) to v2.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// States of a report.
const (
	bomOutside = iota // before the report's first line, and after its last
	bomHeader         // after a Bombarding line, before its Statistics table
	bomStats          // the Statistics table and its Latency Distribution
	bomCodes          // after "HTTP codes:", expecting the class counts
	bomOthers         // expecting "others - N" (or v0.1-v0.4's "errored - N")
	bomErrors         // the Errors block, up to Throughput
)

// bombardierParser reads one report (readReports): it starts at a
// "Bombarding" line, or at a Statistics table that no Bombarding line
// announced (an excerpt), and ends at its Throughput line.
type bombardierParser struct {
	l    *Lines
	sink model.Sink

	state   int
	r       *model.Run
	c       bombardierCounts
	latency bool // the Latency line was read
	errored bool // v0.1-v0.4: errored requests, no Errors block
	done    bool // the Throughput line was read
}

var bombardierReports = &reportFormat{
	tool:  "bombardier",
	first: `"Bombarding …" or the "Statistics  Avg  Stdev  Max" table`,
	begins: func(t string) bool {
		return strings.HasPrefix(t, "Bombarding ") || strings.Join(strings.Fields(t), " ") == bombardierStatsHeader
	},
	read: func(l *Lines, sink model.Sink) (*model.Run, error) {
		p := &bombardierParser{l: l, sink: sink}
		ended, err := scanReport(l, p.line, func() bool { return p.done })
		if err == nil && ended {
			err = p.cut(l.Line()+1, "the file ends")
		}
		return p.r, err
	},
	settings: []string{"url", "requests_planned"},
}

// readBombardierText reads bombardier's plain-text reports. The report
// prints no measured duration: duration_s is the -d duration of the
// "Bombarding ... for 8s" line and rps = requests / duration_s (label
// rps_basis says so); a -n run has neither unless a duration_s label is
// given (manifest or --label), and then rps is requests / that duration.
// The sampled Reqs/sec mean, stdev and max are kept as reported_rps_*.
func readBombardierText(in *Input, sink model.Sink) error {
	return readReports(in, sink, bombardierReports)
}

const bombardierStatsHeader = "Statistics Avg Stdev Max"

func (p *bombardierParser) start() {
	p.r = &model.Run{Tool: "bombardier", Line: p.l.Line()}
}

func (p *bombardierParser) line(t string) error {
	l := p.l
	f := strings.Fields(t)
	joined := strings.Join(f, " ")
	if strings.HasPrefix(strings.TrimSpace(t), "Bombarding ") {
		if p.state != bomOutside {
			return p.cut(l.Line(), "another report starts here")
		}
		p.start()
		p.state = bomHeader
		return p.header(f)
	}
	if len(f) == 0 {
		return nil
	}
	switch p.state {
	case bomOutside:
		// The first line of a report without its Bombarding line.
		p.start()
		p.state = bomStats
		return nil
	case bomHeader:
		if joined == bombardierStatsHeader {
			p.state = bomStats
			return nil
		}
		if bombardierProgressLine(t) {
			return nil
		}
		return l.Errorf(1, "bombardier report from line %d: expected the progress bar or the Statistics table, found %q", p.r.Line, clipLine(t))
	case bomStats:
		return p.stats(t, f)
	case bomCodes:
		if err := p.codes(t); err != nil {
			return err
		}
		p.state = bomOthers
	case bomOthers:
		key, n, ok := strings.Cut(strings.TrimSpace(t), " - ")
		v, err := strconv.ParseInt(n, 10, 64)
		if !ok || (key != "others" && key != "errored") || err != nil || v < 0 {
			return l.Errorf(1, `bombardier HTTP codes: expected "others - N" (or "errored - N") after the class counts, found %q`, clipLine(t))
		}
		p.c.others = v
		p.errored = key == "errored"
		p.state = bomErrors
	case bomErrors:
		if f[0] == "Throughput:" && len(f) == 2 {
			// bombardier's formatBinary: B, KB, MB … of 1024; "0.00/s"
			// without a unit when nothing was read.
			rate, ok := strings.CutSuffix(f[1], "/s")
			v, vok := sizeBytes(rate, binaryBase)
			if !vok {
				z, err := strconv.ParseFloat(rate, 64)
				vok = err == nil && z == 0
			}
			if !ok || !vok {
				return l.Errorf(strings.Index(t, f[1])+1, "bombardier Throughput: expected a rate such as 3.99MB/s, found %q", f[1])
			}
			reported(p.r, model.ReportedTransferBytesPerS, v)
			return p.finish()
		}
		if strings.TrimSpace(t) == "Errors:" && p.c.errors == nil && !p.errored {
			p.c.errors = map[string]int64{}
			return nil
		}
		if p.c.errors == nil {
			return l.Errorf(1, `bombardier report: expected "Errors:" or "Throughput:", found %q`, clipLine(t))
		}
		i := strings.LastIndex(t, " - ")
		var n int64
		var err error
		if i >= 0 {
			n, err = strconv.ParseInt(strings.TrimSpace(t[i+3:]), 10, 64)
		}
		if i < 0 || err != nil || n < 0 {
			return l.Errorf(1, `bombardier Errors: expected "description - count", found %q`, clipLine(t))
		}
		p.c.errors[strings.TrimSpace(t[:i])] += n
	}
	return nil
}

// stats reads a line of the Statistics table or of its Latency
// Distribution.
func (p *bombardierParser) stats(t string, f []string) error {
	l, r := p.l, p.r
	switch {
	case f[0] == "Reqs/sec" && len(f) == 4:
		for i, k := range []string{"mean", "stdev", "max"} {
			v, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil {
				return l.Errorf(strings.Index(t, f[i+1])+1, "Reqs/sec: expected a number, found %q", f[i+1])
			}
			reported(r, model.ReportedRPSPrefix+k, v)
		}
	case f[0] == "Latency" && len(f) == 4:
		for i, dst := range []*model.Opt[float64]{&r.LatencyMeanMS, &r.LatencyStdevMS, &r.LatencyMaxMS} {
			v, err := durationMS(f[i+1])
			if err != nil {
				return l.Errorf(strings.Index(t, f[i+1])+1, "Latency: %v", err)
			}
			*dst = model.Some(v)
		}
		p.latency = true
	case strings.HasPrefix(strings.TrimSpace(t), "There wasn't enough data"), strings.Join(f, " ") == "Latency Distribution":
	case len(f) == 2 && strings.HasSuffix(f[0], "%"):
		pc, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
		if err != nil || pc < 0 || pc > 100 {
			return l.Errorf(strings.Index(t, f[0])+1, "Latency Distribution: expected a percentage, found %q", f[0])
		}
		v, err := durationMS(f[1])
		if err != nil {
			return l.Errorf(strings.LastIndex(t, f[1])+1, "Latency Distribution: %v", err)
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: pc, LatencyMS: v})
	case strings.TrimSpace(t) == "HTTP codes:":
		if !p.latency && len(r.Percentiles) > 0 {
			return l.Errorf(1, "bombardier report from line %d: a Latency Distribution without its Latency line", r.Line)
		}
		p.state = bomCodes
	default:
		return l.Errorf(1, "bombardier report from line %d: unexpected line %q in the Statistics table", r.Line, clipLine(t))
	}
	return nil
}

// header reads "Bombarding URL for 8s using 50 connection(s)" or "Bombarding
// URL with 20000 request(s) using 10 connection(s)"; before v1.2 the words
// are "requests" and "connections".
func (p *bombardierParser) header(f []string) error {
	r := p.r
	bad := func() error {
		return p.l.Errorf(1, `bombardier report: expected "Bombarding URL for D|with N request(s) using C connection(s)", found %q`, clipLine(strings.Join(f, " ")))
	}
	n := len(f)
	if n < 7 || (f[n-1] != "connection(s)" && f[n-1] != "connections" && f[n-1] != "connection") || f[n-3] != "using" {
		return bad()
	}
	conns, err := strconv.ParseInt(f[n-2], 10, 64)
	if err != nil || conns < 1 {
		return bad()
	}
	r.Connections = model.Some(conns)
	runLabel(r, "url", f[1])
	switch {
	case f[2] == "for" && n == 7:
		d, ok := durationExactMS(f[3])
		if !ok {
			return bad()
		}
		if d, ok = d.shift(-3); !ok {
			return bad()
		}
		r.DurationS = model.Some(d.float())
	case f[2] == "with" && n == 8 && (f[4] == "request(s)" || f[4] == "requests" || f[4] == "request"):
		if _, err := strconv.ParseInt(f[3], 10, 64); err != nil {
			return bad()
		}
		runLabel(r, "requests_planned", f[3])
	default:
		return bad()
	}
	return nil
}

func (p *bombardierParser) codes(t string) error {
	c := &p.c
	parts := strings.Split(strings.TrimSpace(t), ", ")
	dst := []*int64{&c.c1xx, &c.c2xx, &c.c3xx, &c.c4xx, &c.c5xx}
	if len(parts) != len(dst) {
		return p.l.Errorf(1, `bombardier HTTP codes: expected "1xx - N, 2xx - N, 3xx - N, 4xx - N, 5xx - N", found %q`, clipLine(t))
	}
	for i, part := range parts {
		want := fmt.Sprintf("%dxx - ", i+1)
		n, ok := strings.CutPrefix(part, want)
		v, err := strconv.ParseInt(n, 10, 64)
		if !ok || err != nil || v < 0 {
			return p.l.Errorf(strings.Index(t, part)+1, "bombardier HTTP codes: expected %q and a count, found %q", strings.TrimSpace(want), part)
		}
		*dst[i] = v
	}
	return nil
}

// cut is the error for a report that stops before its Throughput line.
func (p *bombardierParser) cut(line int, why string) error {
	expected := map[int]string{
		bomHeader: "the Statistics table",
		bomStats:  `"HTTP codes:" and its counts`,
		bomCodes:  `"1xx - N, 2xx - N, 3xx - N, 4xx - N, 5xx - N"`,
		bomOthers: `"others - N"`,
		bomErrors: `"Throughput:"`,
	}[p.state]
	return Errorf(p.l.in.Name, line, 0, "bombardier report from line %d is cut short (%s): expected %s", p.r.Line, why, expected)
}

// finish completes the report at its Throughput line.
func (p *bombardierParser) finish() error {
	r, c := p.r, &p.c
	p.state, p.done = bomOutside, true
	if p.errored {
		// Before v0.5 the requests that got no answer were "errored",
		// with no Errors block: each is an error.
		c.errors = map[string]int64{}
		if c.others > 0 {
			c.errors["errored"] = c.others
		}
	}
	c.fill(r)
	if !r.Requests.Valid {
		return Errorf(p.l.in.Name, r.Line, 0, "bombardier report counts no request")
	}
	if d, ok := sinkLabel(p.sink, "duration_s"); ok {
		if v, err := strconv.ParseFloat(d, 64); err == nil && v > 0 {
			r.DurationS = model.Some(v)
			runLabel(r, "rps_basis", "requests / duration_s label")
		}
	} else if r.DurationS.Valid {
		runLabel(r, "rps_basis", "requests / -d duration (the text report prints no measured duration)")
	}
	if r.DurationS.Valid && r.DurationS.V > 0 {
		r.RPS = model.Some(float64(r.Requests.V) / r.DurationS.V)
	}
	spectrumColumns(r)
	return nil
}

// bombardierBar is the progress bar bombardier draws (cheggaaa/pb), as a
// terminal capture or a paste keeps its last state: " 10000000 / 10000000
// [=====…] 100.00% 37s Done!" for -n, "[=====…] 10s Done!" for -d
// (before v1.0 "100.00 %" and "[=====…]10s Done!"; on Windows with the
// rate: "7000 / 7000 [====…] 100.00% 409/s 17s").
var bombardierBar = regexp.MustCompile(`^(\d+ / \d+ )?\[[=>_\-. ]*\] ?(\d+(\.\d+)? ?% )?(\S+/s )?(\S+)?( Done!)?$`)

// bombardierProgressLine reports whether a line is bombardier's progress
// output: the bar, "Done!", a line that carries the terminal's carriage
// returns, or the counters it prints without a terminal ("00m07s" or "n /
// N pct% r/s").
func bombardierProgressLine(t string) bool {
	tt := strings.Join(strings.Fields(t), " ")
	if tt == "Done!" || strings.ContainsRune(t, '\r') || bombardierBar.MatchString(tt) {
		return true
	}
	for _, w := range strings.Fields(t) {
		if w == "/" {
			continue
		}
		w = strings.TrimSuffix(strings.TrimSuffix(w, "/s"), "%")
		if _, err := strconv.ParseFloat(w, 64); err == nil {
			continue
		}
		if _, err := durationMS(w); err == nil {
			continue
		}
		if len(w) == 6 && w[2] == 'm' && w[5] == 's' {
			continue
		}
		return false
	}
	return true
}

// scanReport hands the lines of one report to line until done tells that
// the report is complete; ended tells that the input ended first.
func scanReport(l *Lines, line func(string) error, done func() bool) (ended bool, err error) {
	for !done() {
		if !l.Scan() {
			return true, l.Err()
		}
		if err := line(l.Text()); err != nil {
			return false, err
		}
	}
	return false, nil
}
