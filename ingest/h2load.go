package ingest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// h2load (nghttp2) prints, when a run ends, "finished in …", the request
// counts, the status classes, the traffic and (since 2015) a table of
// min, max, mean, sd and +/- sd of the request, connect and first-byte
// times and of the clients' rates. The counts (h2load(1), OUTPUT): total
// the requests asked for, done those that reached completion, succeeded
// those answered 2xx or 3xx, failed all others (non-2xx/3xx answers and
// errored), errored the subset of failed that got no answer (network
// errors, RST_STREAM, and the requests never sent because their
// connection failed), timeout a subset of errored. Times are printed with
// the units us, ms or s (util::format_duration), and the first layout
// (2014) printed "finished in 0 sec, 385 millisec and 851 microsec" with
// an integer rate of total requests over that time.

func init() {
	registerReports("h2load", 40, detectH2load, h2loadReports)
}

var h2loadReports = &reportFormat{
	tool:   "h2load",
	first:  `"finished in …, N req/s, …"`,
	begins: func(t string) bool { return h2loadFinished.MatchString(t) },
	read:   readH2loadReport,
	body: func(t string) bool {
		return h2loadRequests.MatchString(t) || strings.HasPrefix(t, "status codes: ") || strings.HasPrefix(t, "time for request:")
	},
}

var (
	// h2loadFinished is "finished in 7.08s, 141164.80 req/s, 555.33MB/s"
	// or, in 2014, "finished in 0 sec, 385 millisec and 851 microsec,
	// 2591 req/s, 1689 kbytes/s".
	h2loadFinished = regexp.MustCompile(`^finished in (\S+|(\d+) sec, (\d+) millisec and (\d+) microsec), ([0-9.]+) req/s, `)
	h2loadRequests = regexp.MustCompile(`^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored(?:, (\d+) timeout)?$`)
	h2loadStatus   = regexp.MustCompile(`^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx$`)
	// h2loadTraffic is "traffic: 4125025824 bytes total, …" or, since
	// 2016, "traffic: 3.18MB (3335400) total, …".
	h2loadTraffic = regexp.MustCompile(`^traffic: (?:(\d+) bytes|\S+ \((\d+)\)) total, `)
	h2loadTimes   = regexp.MustCompile(`^(time for request|time for connect|time to 1st byte|req/s(?: \(client\))?)\s*:\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)%$`)
)

func detectH2load(head []byte) bool {
	finished := false
	return hasLine(head, func(t string) bool {
		if h2loadFinished.MatchString(t) {
			finished = true
		}
		return finished && h2loadRequests.MatchString(t)
	})
}

// readH2loadReport reads one report from its "finished in" line.
// requests is succeeded + failed (every request h2load accounted for),
// errors errored, responses_2xx and non_2xx the status classes, rps
// h2load's rate where nothing errored (its answered requests over the
// run's time), else requests over the printed time (label reported_rps);
// the latency columns the "time for request" row (over h2load's sample
// of request times).
func readH2loadReport(l *Lines, _ model.Sink) (*model.Run, error) {
	l.Scan()
	r := &model.Run{Tool: "h2load", Line: l.Line()}
	m := h2loadFinished.FindStringSubmatch(strings.TrimSpace(l.Text()))
	var secs float64
	if m[2] != "" {
		// 2014: the time in parts, the rate an integer of total / time.
		s, _ := strconv.ParseInt(m[2], 10, 64)
		ms, _ := strconv.ParseInt(m[3], 10, 64)
		us, _ := strconv.ParseInt(m[4], 10, 64)
		secs = float64(s) + float64(ms)/1e3 + float64(us)/1e6
	} else {
		var err error
		if secs, err = h2loadTime(m[1], -3); err != nil {
			return nil, l.Errorf(len("finished in ")+1, "h2load finished in: %v", err)
		}
	}
	r.DurationS = model.Some(secs)
	rate, err := strconv.ParseFloat(m[5], 64)
	if err != nil {
		return nil, l.Errorf(0, "h2load finished in: expected a rate, found %q", m[5])
	}
	oldLayout := m[2] != ""
	// The transfer rate after it: "555.33MB/s" (nghttp2's utos_funit,
	// powers of 1024), in 2014 "1689 kbytes/s" (bytes / 1024 / s).
	rest := strings.TrimSpace(strings.TrimSpace(l.Text())[len(m[0]):])
	if k, ok := strings.CutSuffix(rest, " kbytes/s"); ok {
		rest = k + "KB/s"
	}
	if v, ok := sizeBytes(strings.TrimSuffix(rest, "/s"), binaryBase); ok && strings.HasSuffix(rest, "/s") {
		reported(r, model.ReportedTransferBytesPerS, v)
	}
	var counts []int64
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		switch {
		case t == "":
			if counts == nil {
				continue
			}
		case counts == nil:
			c := h2loadRequests.FindStringSubmatch(t)
			if c == nil {
				return nil, l.Errorf(1, `h2load report from line %d: expected "requests: N total, N started, N done, N succeeded, N failed, N errored", found %q`, r.Line, clipQuote(t))
			}
			for _, s := range c[1:] {
				n, _ := strconv.ParseInt(s, 10, 64) // "" (no timeout) is 0 and not labelled
				counts = append(counts, n)
			}
			if c[7] != "" {
				runLabel(r, "timeout", c[7])
			}
			continue
		case h2loadStatus.MatchString(t):
			s := h2loadStatus.FindStringSubmatch(t)
			var n [4]int64
			for i := range n {
				n[i], _ = strconv.ParseInt(s[i+1], 10, 64)
			}
			r.Responses2xx = model.Some(n[0])
			r.Non2xx = model.Some(n[1] + n[2] + n[3])
			continue
		case h2loadTraffic.MatchString(t):
			s := h2loadTraffic.FindStringSubmatch(t)
			b, _ := strconv.ParseInt(s[1]+s[2], 10, 64)
			r.BytesRead = model.Some(b)
			continue
		case strings.HasPrefix(t, "min") && strings.Fields(t)[0] == "min":
			continue // the table's header
		case h2loadTimes.MatchString(t):
			if err := h2loadTimeRow(r, h2loadTimes.FindStringSubmatch(t)); err != nil {
				return nil, l.Errorf(1, "h2load %v", err)
			}
			continue
		}
		l.Unread()
		break
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if counts == nil {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, `h2load report from line %d ends before its "requests:" line`, r.Line)
	}
	total, started, done, succeeded, failed, errored := counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
	for k, v := range map[string]int64{"requests_total": total, "requests_started": started, "requests_done": done,
		"succeeded": succeeded, "failed": failed} {
		runLabel(r, k, strconv.FormatInt(v, 10))
	}
	n := succeeded + failed
	r.Requests = model.Some(n)
	r.Errors = model.Some(errored)
	switch {
	case errored == 0 && !oldLayout:
		r.RPS = model.Some(rate)
	case secs > 0:
		r.RPS = model.Some(float64(n) / secs)
		runLabel(r, "reported_rps", m[5])
	}
	return r, nil
}

// h2loadTimeRow files a row of the times table: "time for request"
// gives the latency columns, the others labels.
func h2loadTimeRow(r *model.Run, m []string) error {
	name := m[1]
	if strings.HasPrefix(name, "req/s") {
		// min, max, mean, sd over the clients, then the share within
		// one sd of the mean.
		for i, stat := range []string{"min", "max", "mean", "stdev", "within_stdev_pct"} {
			v, err := strconv.ParseFloat(m[i+2], 64)
			if err != nil {
				return fmt.Errorf("%s: expected a rate, found %q", name, m[i+2])
			}
			reported(r, "client_rps_"+stat, v)
		}
		return nil
	}
	var v [4]float64
	for i := range v {
		x, err := h2loadTime(m[i+2], 0)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		v[i] = x
	}
	switch name {
	case "time for request":
		r.LatencyMaxMS = model.Some(v[1])
		r.LatencyMeanMS = model.Some(v[2])
		r.LatencyStdevMS = model.Some(v[3])
		runLabel(r, "latency_min_ms", fmtLabelNum(v[0]))
	case "time for connect":
		runLabel(r, "connect_mean_ms", fmtLabelNum(v[2]))
	case "time to 1st byte":
		runLabel(r, "ttfb_mean_ms", fmtLabelNum(v[2]))
	}
	return nil
}

// h2loadTime reads a time as util::format_duration prints it: "134us",
// "24.82ms", "1.12s", in ms shifted by 10^shift (-3: seconds). No other
// unit is read: a time cut inside its unit ("24.82m") is an error, never
// minutes.
func h2loadTime(s string, shift int) (float64, error) {
	num, unit := splitUnit(s)
	e, err := unitExpMS(unit)
	if err != nil || unit == "ns" {
		return 0, fmt.Errorf("expected a time in us, ms or s, found %q", clipQuote(s))
	}
	ms, err := decimalMS(num, e+shift)
	if err != nil {
		return 0, fmt.Errorf("expected a time in us, ms or s, found %q", clipQuote(s))
	}
	return ms, nil
}
