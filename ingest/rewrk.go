package ingest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// rewrk (github.com/lnx-search/rewrk) prints "Benchmarking C connections
// @ url for <duration>", then Latencies (Avg, Stdev, Min, Max in ms),
// Requests (Total, Req/Sec), Transfer and, with --pct, a table whose
// rows 99.9% … 50% are not percentiles: each is the mean latency of the
// slowest 0.1% … 50% of the requests (it sorts the times from the
// slowest and averages the first n × 0.001 … n × 0.5 of them). Then a
// line "N Errors: message" for each kind of error. Total counts every
// request made, answered (any status: rewrk reads no status) or failed;
// Req/Sec is Total over the mean time of the workers. --rounds N prints
// "Beginning round i..." before each report. (--json prints one object
// of the same figures; no real one has been seen, so it is not read.)

func init() {
	register(&Format{Name: "rewrk", Priority: 40, Late: true, Detect: detectRewrk,
		Read: func(in *Input, sink model.Sink) error {
			in.R = &noTerminalCodes{r: in.R}
			return readReports(in, sink, rewrkReports)
		}})
}

var rewrkReports = &reportFormat{
	tool:     "rewrk",
	first:    `"Benchmarking N connections @ <url> for <duration>"`,
	begins:   func(t string) bool { return rewrkBanner.MatchString(t) },
	read:     readRewrkReport,
	settings: []string{"url", "requested_duration"},
	body: func(t string) bool {
		return t == "Latencies:" || rewrkRequests.MatchString(t) || rewrkPctRow.MatchString(t)
	},
}

var (
	rewrkBanner   = regexp.MustCompile(`^Benchmarking (\d+) connections @ (\S+) for (.+)$`)
	rewrkRequests = regexp.MustCompile(`^Total:\s+(\S+)\s+Req/Sec:\s+(\S+)$`)
	rewrkPctRow   = regexp.MustCompile(`^\|\s*([0-9.]+)%\s*\|\s*(\S*)\s*\|$`)
	rewrkError    = regexp.MustCompile(`^(\d+) Errors: (.*)$`)
)

func detectRewrk(head []byte) bool {
	head = stripTerminalCodes(head)
	banner := false
	return hasLine(head, func(t string) bool {
		banner = banner || rewrkBanner.MatchString(t)
		return banner && t == "Latencies:"
	})
}

// readRewrkReport reads a report from its Benchmarking line to its last
// error line.
func readRewrkReport(l *Lines, _ model.Sink) (*model.Run, error) {
	l.Scan()
	r := &model.Run{Tool: "rewrk", Line: l.Line()}
	m := rewrkBanner.FindStringSubmatch(strings.TrimSpace(l.Text()))
	n, _ := strconv.ParseInt(m[1], 10, 64)
	r.Connections = model.Some(n)
	runLabel(r, "url", m[2])
	runLabel(r, "requested_duration", m[3])
	var warnings []string
	ms := func(line int, what, v string, dst *model.Opt[float64], label string) {
		num, ok := strings.CutSuffix(v, "ms")
		x, err := strconv.ParseFloat(num, 64)
		if !ok || err != nil || x < 0 {
			warnings = append(warnings, cutValueWarning(line, "rewrk "+what, v))
			return
		}
		if dst != nil {
			*dst = model.Some(x)
		} else {
			runLabel(r, label, num)
		}
	}
	var errs int64
	requests, table := false, false
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		switch {
		case t == "" || t == "Latencies:" || t == "Requests:" || t == "Transfer:":
			continue
		case t == "No requests completed successfully" && !requests:
			r.Requests = model.Some(int64(0))
			warnings = append(warnings, "rewrk completed no request: no latency")
			requests = true
			continue
		case strings.Fields(t)[0] == "Avg" && !requests:
			// The header of the latencies; the next line holds them.
			if !l.Scan() {
				return nil, Errorf(l.in.Name, l.Line()+1, 0, "rewrk report from line %d ends before its latencies", r.Line)
			}
			f := append(strings.Fields(l.Text()), "", "", "", "")
			ms(l.Line(), "Avg", f[0], &r.LatencyMeanMS, "")
			ms(l.Line(), "Stdev", f[1], &r.LatencyStdevMS, "")
			ms(l.Line(), "Min", f[2], nil, "latency_min_ms")
			ms(l.Line(), "Max", f[3], &r.LatencyMaxMS, "")
			continue
		case rewrkRequests.MatchString(t) && !requests:
			q := rewrkRequests.FindStringSubmatch(t)
			total, err := strconv.ParseInt(q[1], 10, 64)
			if err != nil || total < 0 {
				return nil, l.Errorf(1, "rewrk Requests: expected a count, found %q", clipQuote(q[1]))
			}
			rate, err := strconv.ParseFloat(q[2], 64)
			if err != nil || rate < 0 {
				return nil, l.Errorf(1, "rewrk Req/Sec: expected a rate, found %q", clipQuote(q[2]))
			}
			r.Requests, r.RPS, requests = model.Some(total), model.Some(rate), true
			continue
		case requests && strings.HasPrefix(t, "Total:") && strings.Contains(t, "Transfer Rate:"):
			runLabel(r, "transfer", t)
			continue
		case requests && (strings.HasPrefix(t, "+ ---") || isFence(t)):
			continue // the table's rules; a table pasted in a code block of its own
		case requests && strings.HasPrefix(t, "|") && strings.Contains(t, "Percentile") && strings.Contains(t, "Avg Latency"):
			table = true
			continue
		case table && rewrkPctRow.MatchString(t):
			p := rewrkPctRow.FindStringSubmatch(t)
			slowest, ok := rewrkSlowest[p[1]]
			if !ok {
				return nil, l.Errorf(1, "rewrk --pct table: expected a row 99.9%%, 99%%, 95%%, 90%%, 75%% or 50%%, found %q", clipQuote(t))
			}
			// Not the percentile: the mean of the slowest requests.
			ms(l.Line(), p[1]+"% row", p[2], nil, "mean_of_slowest_"+slowest+"%_ms")
			continue
		case requests && rewrkError.MatchString(t):
			e := rewrkError.FindStringSubmatch(t)
			c, _ := strconv.ParseInt(e[1], 10, 64)
			errs += c
			runLabel(r, "error."+e[2], e[1])
			continue
		}
		if !requests {
			return nil, l.Errorf(1, `rewrk report from line %d: expected its Latencies and "Total: N Req/Sec: R", found %q`, r.Line, clipQuote(t))
		}
		l.Unread()
		break
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if !requests {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, `rewrk report from line %d ends before its "Total: N Req/Sec: R" line`, r.Line)
	}
	r.Errors = model.Some(errs)
	if len(warnings) > 0 {
		runLabel(r, "warning", strings.Join(warnings, "; "))
	}
	return r, nil
}

// rewrkSlowest names the share of slowest requests each row of the
// --pct table averages.
var rewrkSlowest = map[string]string{"99.9": "0.1", "99": "1", "95": "5", "90": "10", "75": "25", "50": "50"}
