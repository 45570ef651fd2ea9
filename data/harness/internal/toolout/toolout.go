// Package toolout reads the few numbers the harness needs from the reports
// of the load generators it drives (wrk2 and ab), to fill its records and
// memory series rows. The reports themselves are kept byte for byte; wra's
// own readers load them in full.
package toolout

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Wrk2 is the summary of one wrk2 report.
type Wrk2 struct {
	Requests    int64   // "N requests in": responses received
	DurationS   float64 // the run's duration as printed
	RPS         float64 // "Requests/sec:"
	P50MS       float64 // corrected (Recorded Latency) percentiles
	P99MS       float64
	Non2xx      int64 // "Non-2xx or 3xx responses:" (status > 399)
	Connect     int64 // "Socket errors:" breakdown
	Read        int64
	Write       int64
	Timeout     int64
	HasSpectrum bool // a Recorded Latency distribution was printed
}

// SocketErrors is the sum of the socket error counts.
func (w Wrk2) SocketErrors() int64 { return w.Connect + w.Read + w.Write + w.Timeout }

// ParseError locates a problem in a report.
type ParseError struct {
	Line int // 1-based; 0 when the problem is a missing line
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// ParseWrk2 reads a wrk2 report (its standard output). It requires the
// "requests in" and "Requests/sec" lines and, when latency reporting was on,
// the 50% and 99% lines of the Recorded Latency distribution.
func ParseWrk2(b []byte) (Wrk2, error) {
	var w Wrk2
	var haveReq, haveRPS, have50, have99 bool
	inRecorded := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		bad := func(format string, a ...any) error {
			return &ParseError{Line: n, Msg: fmt.Sprintf(format, a...)}
		}
		switch {
		case strings.HasPrefix(line, "Latency Distribution (HdrHistogram - "):
			inRecorded = strings.HasPrefix(line, "Latency Distribution (HdrHistogram - Recorded Latency)")
			w.HasSpectrum = w.HasSpectrum || inRecorded
		case strings.HasPrefix(line, "Detailed Percentile spectrum"):
			inRecorded = false
		case inRecorded && (strings.HasPrefix(line, "50.000%") || strings.HasPrefix(line, "99.000%")):
			f := strings.Fields(line)
			if len(f) != 2 {
				return w, bad("want \"P%% VALUE\", got %q", line)
			}
			ms, err := durationMS(f[1])
			if err != nil {
				return w, bad("%v", err)
			}
			if f[0] == "50.000%" {
				w.P50MS, have50 = ms, true
			} else {
				w.P99MS, have99 = ms, true
			}
		case strings.Contains(line, " requests in "):
			// "29997 requests in 15.00s, 3.29MB read"
			f := strings.Fields(line)
			if len(f) < 4 || f[1] != "requests" || f[2] != "in" {
				return w, bad("want \"N requests in D, B read\", got %q", line)
			}
			v, err := count(f[0])
			if err != nil {
				return w, bad("requests: %v", err)
			}
			ms, err := durationMS(strings.TrimSuffix(f[3], ","))
			if err != nil {
				return w, bad("duration: %v", err)
			}
			w.Requests, w.DurationS, haveReq = v, ms/1000, true
		case strings.HasPrefix(line, "Requests/sec:"):
			v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(line, "Requests/sec:")), 64)
			if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return w, bad("Requests/sec: want a rate, got %q", strings.TrimSpace(strings.TrimPrefix(line, "Requests/sec:")))
			}
			w.RPS, haveRPS = v, true
		case strings.HasPrefix(line, "Non-2xx or 3xx responses:"):
			v, err := count(strings.TrimSpace(strings.TrimPrefix(line, "Non-2xx or 3xx responses:")))
			if err != nil {
				return w, bad("Non-2xx or 3xx responses: %v", err)
			}
			w.Non2xx = v
		case strings.HasPrefix(line, "Socket errors:"):
			// "Socket errors: connect 0, read 9, write 109695, timeout 24"
			if _, err := fmt.Sscanf(line, "Socket errors: connect %d, read %d, write %d, timeout %d",
				&w.Connect, &w.Read, &w.Write, &w.Timeout); err != nil {
				return w, bad("Socket errors: %v", err)
			}
			if w.Connect < 0 || w.Read < 0 || w.Write < 0 || w.Timeout < 0 {
				return w, bad("Socket errors: negative count in %q", line)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return w, err
	}
	switch {
	case !haveReq:
		return w, &ParseError{Msg: "no \"N requests in\" line: not a complete wrk2 report"}
	case !haveRPS:
		return w, &ParseError{Msg: "no \"Requests/sec:\" line: not a complete wrk2 report"}
	case w.HasSpectrum && !(have50 && have99):
		return w, &ParseError{Msg: "Recorded Latency distribution without its 50.000% and 99.000% lines"}
	}
	return w, nil
}

// count parses a non-negative integer count.
func count(s string) (int64, error) {
	v, err := strconv.ParseUint(s, 10, 63)
	if err != nil {
		return 0, fmt.Errorf("want a count, got %q", s)
	}
	return int64(v), nil
}

// durationMS converts wrk's time strings (us, ms, s, m, h suffixes) to ms.
func durationMS(s string) (float64, error) {
	units := []struct {
		suffix string
		ms     float64
	}{{"us", 1e-3}, {"ms", 1}, {"s", 1e3}, {"m", 60e3}, {"h", 3600e3}}
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		// "ms" also ends in "s", "us" in "s": take the first suffix that leaves a number.
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		return v * u.ms, nil
	}
	return 0, fmt.Errorf("want a duration like 1.23ms, got %q", s)
}

// AB is the summary of one ApacheBench report.
type AB struct {
	Complete int64 // "Complete requests:"
	Failed   int64 // "Failed requests:"
	Non2xx   int64 // "Non-2xx responses:" (absent when zero)
}

// ParseAB reads an ab report (its standard output).
func ParseAB(b []byte) (AB, error) {
	var a AB
	var haveComplete, haveFailed bool
	sc := bufio.NewScanner(bytes.NewReader(b))
	n := 0
	for sc.Scan() {
		n++
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *int64
		switch key {
		case "Complete requests":
			dst, haveComplete = &a.Complete, true
		case "Failed requests":
			dst, haveFailed = &a.Failed, true
		case "Non-2xx responses":
			dst = &a.Non2xx
		default:
			continue
		}
		v, err := count(strings.TrimSpace(val))
		if err != nil {
			return a, &ParseError{Line: n, Msg: fmt.Sprintf("%s: %v", key, err)}
		}
		*dst = v
	}
	if err := sc.Err(); err != nil {
		return a, err
	}
	if !haveComplete || !haveFailed {
		return a, &ParseError{Msg: "no \"Complete requests:\" and \"Failed requests:\" lines: not a complete ab report"}
	}
	return a, nil
}
