package ingest

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// siege appends, with --log (or logging = true in .siegerc), a row per
// run to siege.log, under the header it writes when it creates the file:
//
//	      Date & Time,  Trans,  Elap Time,  Data Trans,  Resp Time,  Trans Rate,  Throughput,  Concurrent,    OKAY,   Failed
//	2014-02-25 14:49:55,  91090,      27.46,           2,       0.03,     3317.19,        0.07,       95.78,   91090,    1047
//
// The figures of the summary (siege.go) without their units: Trans the
// transactions (responses), Elap Time seconds, Data Trans MB, Resp Time
// the mean response time (seconds, or ms from siege 4.1.2, as the
// summary prints it: the log does not say), Trans Rate per second,
// Throughput MB/s, Concurrent the mean number of open transactions,
// OKAY those with a status below 400, Failed the requests that got no
// answer. A run that got no answer writes "inf" or "nan" as Resp Time.

func init() {
	register(&Format{Name: "siege-log", Priority: 15, Detect: detectSiegeLog, Read: readSiegeLog})
}

// siegeLogColumns are the columns of the header, in order.
var siegeLogColumns = []string{"Date & Time", "Trans", "Elap Time", "Data Trans", "Resp Time", "Trans Rate", "Throughput", "Concurrent", "OKAY", "Failed"}

// siegeLogHeader reports whether a trimmed line is the header.
func siegeLogHeader(t string) bool {
	f := strings.Split(t, ",")
	if len(f) != len(siegeLogColumns) {
		return false
	}
	for i, c := range siegeLogColumns {
		if strings.TrimSpace(f[i]) != c {
			return false
		}
	}
	return true
}

// detectSiegeLog claims a head whose first line is the header.
func detectSiegeLog(head []byte) bool {
	line, _, _ := strings.Cut(string(head), "\n")
	return siegeLogHeader(strings.TrimSpace(line))
}

// readSiegeLog reads a siege.log: a run per row, in file order, mapped as
// the summary is: requests Trans + Failed, errors Failed, rps Trans Rate
// where nothing failed, else requests / Elap Time (label reported_rps
// keeps the Trans Rate), duration_s Elap Time. latency_mean_ms is Resp
// Time in the unit the row itself shows: by Little's law Concurrent =
// Trans Rate × Resp Time (in seconds), so a Resp Time within a factor 3
// of Concurrent / Trans Rate is seconds, one within a factor 3 of 1000
// times it is ms; a row that shows neither (too few transactions for the
// two decimals, no answer: inf, nan) leaves it NULL, its text kept in
// label reported_response_time. Labels logged_at (Date & Time, the
// machine's local time, with no zone), transactions, successful_transactions
// (OKAY), concurrency, reported_data_transferred_mb,
// reported_throughput_mb_per_s.
func readSiegeLog(in *Input, sink model.Sink) error {
	l := NewLines(in)
	var runs []*model.Run
	mark := ""
	for l.Scan() {
		text := strings.TrimRight(l.Text(), "\r")
		t := strings.TrimSpace(text)
		if t == "" || siegeLogHeader(t) {
			continue
		}
		if m, ok := siegeLogMark(t); ok {
			// siege's mark_log_file: "-m text" before a run, or its
			// word after a run it aborted.
			if m == siegeAbortedMark {
				if len(runs) > 0 {
					runLabel(runs[len(runs)-1], "aborted", "excessive socket failure")
				}
				continue
			}
			mark = m
			continue
		}
		f := strings.Split(text, ",")
		if len(f) != len(siegeLogColumns) {
			return l.Errorf(1, "siege.log: expected the %d fields of the header, found %d in %q", len(siegeLogColumns), len(f), clipQuote(t))
		}
		col := func(i int) int {
			start := len(strings.Join(f[:i], ","))
			if i > 0 {
				start++
			}
			return start + len(f[i]) - len(strings.TrimLeft(f[i], " ")) + 1
		}
		v := func(i int) string { return strings.TrimSpace(f[i]) }
		r := &model.Run{Tool: "siege", Line: l.Line(), Index: len(runs)}
		runLabel(r, "logged_at", v(0))
		if mark != "" {
			runLabel(r, "mark", mark)
		}
		var n [3]int64 // Trans, OKAY, Failed
		for k, i := range []int{1, 8, 9} {
			x, err := siegeCount(v(i))
			if err != nil {
				return l.Errorf(col(i), "siege.log %s: %v", siegeLogColumns[i], err)
			}
			n[k] = x
		}
		var x [6]float64 // Elap Time, Data Trans, Resp Time, Trans Rate, Throughput, Concurrent
		resp := true
		for k, i := range []int{2, 3, 4, 5, 6, 7} {
			if i == 4 && (v(i) == "inf" || v(i) == "nan" || v(i) == "-nan") {
				resp = false
				continue
			}
			y, err := decimalMS(v(i), 0)
			if err != nil {
				return l.Errorf(col(i), "siege.log %s: expected a number >= 0 without a unit, found %q", siegeLogColumns[i], clipQuote(v(i)))
			}
			x[k] = y
		}
		requests := n[0] + n[2]
		r.Requests, r.Errors = model.Some(requests), model.Some(n[2])
		r.DurationS = model.Some(x[0])
		r.RPS = siegeRPS(r, n[0], n[2], model.Some(x[3]), model.Some(x[0]))
		siegeNoAnswer(r, n[0])
		runLabel(r, "transactions", strconv.FormatInt(n[0], 10))
		runLabel(r, "successful_transactions", strconv.FormatInt(n[1], 10))
		reported(r, model.ReportedBytesRead, scaledExact(x[1], siegeMB))
		reported(r, model.ReportedTransferBytesPerS, scaledExact(x[4], siegeMB))
		runLabel(r, "concurrency", fmtLabelNum(x[5]))
		runLabel(r, "reported_response_time", v(4))
		if ms, ok := siegeLogResponseMS(x[2], x[3], x[5]); resp && n[0] > 0 && ok {
			r.LatencyMeanMS = model.Some(ms)
		} else if n[0] > 0 {
			runLabel(r, "warning", fmt.Sprintf("line %d: siege.log prints Resp Time %s without a unit, and Concurrent %s / Trans Rate %s does not tell seconds from ms: the mean is not stored", r.Line, v(4), v(7), v(5)))
		}
		runs = append(runs, r)
	}
	if err := l.Err(); err != nil {
		return err
	}
	if len(runs) == 0 {
		return Errorf(in.Name, l.Line()+1, 0, "siege.log holds a header but no row")
	}
	for _, r := range runs {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// siegeAbortedMark is the mark siege writes after a run it stopped for
// its failures (main.c, my.failures).
const siegeAbortedMark = "siege aborted due to excessive socket failure."

// siegeLogMark reads a mark line, "**** text ****", as siege's
// mark_log_file writes it for -m/--mark and after an aborted run.
func siegeLogMark(t string) (string, bool) {
	m, ok := strings.CutPrefix(t, "**** ")
	if !ok {
		return "", false
	}
	m, ok = strings.CutSuffix(m, " ****")
	return strings.TrimSpace(m), ok
}

// siegeLogResponseMS reads Resp Time in ms, in the unit Little's law
// shows: Concurrent / Trans Rate is the response time in seconds.
func siegeLogResponseMS(resp, rate, conc float64) (float64, bool) {
	if resp <= 0 || rate <= 0 || conc <= 0 {
		return 0, false
	}
	secs := conc / rate
	within := func(a, b float64) bool { return a > 0 && math.Abs(math.Log(a/b)) <= math.Log(3) }
	switch {
	case within(resp, secs):
		return resp * 1000, true
	case within(resp, secs*1000):
		return resp, true
	}
	return 0, false
}
