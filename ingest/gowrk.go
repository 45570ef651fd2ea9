package ingest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// go-wrk (github.com/tsliwowicz/go-wrk) prints "Running 10s test @ url",
// "N goroutine(s) running concurrently" and, when the run ends, "N
// requests in <time>, <size> read", Requests/sec and Transfer/sec, Avg
// Req Time, Fastest and Slowest Request and Number of Errors; since 2024
// also Overall Requests/sec and Overall Transfer/sec, Error Counts, a
// table of rows named 10% … 99.99999% and stddev. N counts the answers
// with a 2xx status, or 301 or 307; every other request, answered with
// another status or not answered, is one of the errors (Error Counts
// names an answer "received status code 500"). Requests/sec is N over
// the time a goroutine spent in its answered requests, averaged over the
// goroutines; Overall Requests/sec is N over the run's wall time. The
// rows named 10% … 99.99999% are not those percentiles: go-wrk asks its
// HdrHistogram for ValueAtPercentile(0.10) … (0.9999999), whose argument
// is a percentile from 0 to 100, so a row named 50% holds the 0.5th
// percentile. They are kept as labels only. Before 2024 go-wrk also
// printed a line of its own for every failed request.

func init() {
	registerReports("go-wrk", 40, detectGoWrk, goWrkReports)
}

var goWrkReports = &reportFormat{
	tool:     "go-wrk",
	first:    `"Running Ns test @ <url>" and "N goroutine(s) running concurrently"`,
	begins:   func(t string) bool { return goWrkRunning.MatchString(t) },
	read:     readGoWrkReport,
	settings: []string{"url", "requested_duration"},
	body: func(t string) bool {
		return goWrkResult.MatchString(t) || strings.HasPrefix(t, "Number of Errors:") || strings.HasPrefix(t, "Fastest Request:")
	},
}

var (
	goWrkRunning    = regexp.MustCompile(`^Running (\d+s) test @ (\S+)$`)
	goWrkGoroutines = regexp.MustCompile(`^(\d+) goroutine\(s\) running concurrently$`)
	goWrkResult     = regexp.MustCompile(`^(\d+) requests in (\S+), (.+) read$`)
	goWrkNoStats    = "Error: No statistics collected / no requests found"
	goWrkField      = regexp.MustCompile(`^([A-Za-z/ ]+|[0-9.]+%):\s*(.*)$`)
	goWrkErrorCount = regexp.MustCompile(`(.*?)=(\d+)(?:,|$)`)
)

func detectGoWrk(head []byte) bool {
	running := false
	return hasLine(head, func(t string) bool {
		if goWrkRunning.MatchString(t) {
			running = true
			return false
		}
		return running && goWrkGoroutines.MatchString(t)
	})
}

// goWrkTimes are the lines that hold a time, and where it goes.
var goWrkTimes = map[string]func(r *model.Run) *model.Opt[float64]{
	"Avg Req Time":    func(r *model.Run) *model.Opt[float64] { return &r.LatencyMeanMS },
	"Slowest Request": func(r *model.Run) *model.Opt[float64] { return &r.LatencyMaxMS },
	"stddev":          func(r *model.Run) *model.Opt[float64] { return &r.LatencyStdevMS },
}

// readGoWrkReport reads a report from its Running line to its last line.
func readGoWrkReport(l *Lines, _ model.Sink) (*model.Run, error) {
	l.Scan()
	r := &model.Run{Tool: "go-wrk", Line: l.Line()}
	m := goWrkRunning.FindStringSubmatch(strings.TrimSpace(l.Text()))
	runLabel(r, "url", m[2])
	runLabel(r, "requested_duration", m[1])
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" {
			continue
		}
		c := goWrkGoroutines.FindStringSubmatch(t)
		if c == nil {
			return nil, l.Errorf(1, `go-wrk report from line %d: expected "N goroutine(s) running concurrently", found %q`, r.Line, clipQuote(t))
		}
		n, _ := strconv.ParseInt(c[1], 10, 64)
		r.Connections = model.Some(n)
		break
	}
	var (
		answered, errs       model.Opt[int64]
		rate, overall        string
		counts               string
		result, noStats, any bool
		warnings             []string
	)
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if goWrkRunning.MatchString(t) {
			l.Unread()
			break
		}
		if c := goWrkResult.FindStringSubmatch(t); c != nil && !any {
			n, err := strconv.ParseInt(c[1], 10, 64)
			if err != nil {
				return nil, l.Errorf(1, "go-wrk: expected a count of requests, found %q", clipQuote(c[1]))
			}
			answered, result, any = model.Some(n), true, true
			runLabel(r, "thread_time", c[2])
			if b, ok := sizeBytes(c[3], binaryBase); ok { // go-wrk's ByteSize: powers of 1024
				reported(r, model.ReportedBytesRead, b)
			}
			continue
		}
		if t == goWrkNoStats && !any {
			answered, noStats, any = model.Some(int64(0)), true, true
			continue
		}
		f := goWrkField.FindStringSubmatch(t)
		if !any || f == nil {
			if any {
				l.Unread() // the report ended
				break
			}
			continue // before the result: go-wrk's lines of each failed request, "stopping..."
		}
		key, v := f[1], strings.TrimSpace(f[2])
		switch {
		case key == "Requests/sec":
			rate = v
		case key == "Overall Requests/sec":
			overall = v
		case key == "Overall Transfer/sec":
			if b, ok := sizeBytes(v, binaryBase); ok {
				reported(r, model.ReportedTransferBytesPerS, b)
			}
		case key == "Transfer/sec":
			// over the mean time a goroutine spent in its requests, as
			// Requests/sec: kept as printed
			runLabel(r, "transfer/sec", v)
		case key == "Number of Errors":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return nil, l.Errorf(1, "go-wrk Number of Errors: expected a count, found %q", clipQuote(v))
			}
			errs = model.Some(n)
		case key == "Error Counts":
			counts = v
		case key == "Fastest Request" || goWrkTimes[key] != nil:
			ms, kind := k6TextValue(v)
			switch {
			case kind == k6UnitTime && ms >= 0:
				if dst := goWrkTimes[key]; dst != nil {
					*dst(r) = model.Some(ms)
				} else {
					runLabel(r, "latency_min_ms", fmtLabelNum(ms))
				}
			case kind == k6UnitBad || ms < 0:
				return nil, l.Errorf(1, "go-wrk %s: expected a time such as 338µs or 113.279ms, found %q", key, clipQuote(v))
			default:
				warnings = append(warnings, cutValueWarning(l.Line(), "go-wrk "+key, v))
			}
		case strings.HasSuffix(key, "%"):
			// Not the percentile its name says (see above): a label.
			if ms, kind := k6TextValue(v); kind == k6UnitTime && ms >= 0 {
				runLabel(r, "row_"+key+"_ms", fmtLabelNum(ms))
			}
		default:
			l.Unread() // not a line of the report: it ended above
			key = "stddev"
		}
		if key == "stddev" {
			break // the last line
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if !result && !noStats {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, `go-wrk report from line %d ends before its "N requests in" line`, r.Line)
	}
	if noStats && !errs.Valid {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, `go-wrk report from line %d: no request answered, and no "Number of Errors" line (go-wrk before 2024 prints none then)`, r.Line)
	}
	if !errs.Valid {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, `go-wrk report from line %d ends before its "Number of Errors" line`, r.Line)
	}
	if err := goWrkCounts(r, answered, errs, counts, rate, overall); err != nil {
		return nil, Errorf(l.in.Name, r.Line, 0, "go-wrk report from line %d: %v", r.Line, err)
	}
	if noStats {
		warnings = append(warnings, "go-wrk got no answer it counts (every request failed): no latency")
	}
	if len(warnings) > 0 {
		runLabel(r, "warning", strings.Join(warnings, "; "))
	}
	return r, nil
}

// goWrkCounts files the counts and the rate. requests are the answers
// counted plus the errors; Error Counts tells the answers with another
// status ("received status code 500=N") from the requests not answered;
// without it (before 2024, or an excerpt) errors and non_2xx are NULL
// unless there were none.
func goWrkCounts(r *model.Run, answered, errs model.Opt[int64], counts, rate, overall string) error {
	r.Responses2xx = answered
	if !errs.Valid {
		return nil
	}
	r.Requests = model.Some(answered.V + errs.V)
	var non2xx int64
	switch {
	case errs.V == 0:
		r.Non2xx, r.Errors = model.Some(int64(0)), model.Some(int64(0))
	case counts != "" && !strings.HasPrefix(counts, "map["):
		var sum int64
		for _, m := range goWrkErrorCount.FindAllStringSubmatch(counts, -1) {
			n, _ := strconv.ParseInt(m[2], 10, 64)
			runLabel(r, "error."+m[1], m[2])
			sum += n
			if strings.HasPrefix(m[1], "received status code ") {
				non2xx += n
			}
		}
		if sum != errs.V {
			return fmt.Errorf("Error Counts add up to %d, not Number of Errors %d", sum, errs.V)
		}
		r.Non2xx, r.Errors = model.Some(non2xx), model.Some(errs.V-non2xx)
	default:
		// "map[k:n …]" (June 2024) cannot be split where a message holds
		// a colon or a space: kept whole.
		runLabel(r, "errors_and_non_2xx", strconv.FormatInt(errs.V, 10))
		if counts != "" {
			runLabel(r, "error_counts", counts)
		}
	}
	parse := func(s string) (float64, bool) {
		x, err := strconv.ParseFloat(s, 64)
		return x, err == nil && x >= 0
	}
	if x, ok := parse(rate); ok {
		reported(r, model.ReportedRPSOverThreadTime, x)
	}
	if x, ok := parse(overall); ok {
		reported(r, model.ReportedRPS, x)
	}
	switch x, ok := parse(overall); {
	case ok && errs.V == 0:
		r.RPS = model.Some(x)
	case ok && answered.V > 0:
		// Overall is the answers over the wall time: scaled to every request.
		r.RPS = model.Some(float64(r.Requests.V) * x / float64(answered.V))
	case overall == "" && errs.V == 0:
		if x, ok := parse(rate); ok {
			r.RPS = model.Some(x)
			runLabel(r, "rps_basis", "Requests/sec: requests over the mean time a goroutine spent in them (go-wrk before 2024 prints no overall rate)")
		}
	}
	return nil
}
