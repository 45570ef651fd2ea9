package ingest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// siege (JoeDog/siege) prints on stderr, when a run ends, a summary of
// "Key:<tabs> value unit" lines from "Transactions:" to "Shortest
// transaction:" (main.c). Transactions counts the responses, whatever
// their status; Successful transactions those with a status below 400
// (and 401, 407); Failed transactions the requests that got no answer
// (socket failures, timeouts). The times are in seconds up to 4.1.1
// ("Response time: 0.03 secs", "Longest transaction: 0.13" without a
// unit) and in milliseconds since ("Response time: 516.77 ms",
// "Longest transaction: 13130.00 ms"): every layout prints its unit or
// none, and none is seconds.

func init() {
	registerReports("siege", 40, detectSiege, siegeReports)
}

var siegeReports = &reportFormat{
	tool:   "siege",
	first:  `"Transactions: N hits"`,
	begins: func(t string) bool { return siegeKey(t) == "Transactions" },
	read:   readSiegeReport,
	body:   func(t string) bool { _, ok := siegeLines[siegeKey(t)]; return ok },
}

// detectSiege claims a head with siege's Transactions and Failed
// transactions lines.
func detectSiege(head []byte) bool {
	var tr, failed bool
	hasLine(head, func(t string) bool {
		switch siegeKey(t) {
		case "Transactions":
			_, err := siegeTransactions(strings.TrimSpace(t[len("Transactions:"):]))
			tr = err == nil
		case "Failed transactions":
			failed = tr
		}
		return tr && failed
	})
	return tr && failed
}

// siegeKey is the key of a summary line, "" for any other line.
func siegeKey(t string) string {
	k, _, ok := strings.Cut(t, ":")
	if !ok {
		return ""
	}
	if _, known := siegeLines[k]; !known {
		return ""
	}
	return k
}

// siegeReport gathers one summary.
type siegeReport struct {
	run                       *model.Run
	transactions, failed      model.Opt[int64]
	successful                model.Opt[int64]
	rate                      model.Opt[float64]
	elapsed                   model.Opt[float64]
	responseUnit, longestUnit string
}

// siegeLines reads each line's value: v is the text after the colon,
// trimmed.
var siegeLines = map[string]func(s *siegeReport, v string) error{
	"Transactions": func(s *siegeReport, v string) error {
		n, err := siegeTransactions(v)
		s.transactions = model.Some(n)
		return err
	},
	"Availability": func(s *siegeReport, v string) error {
		return siegeLabel(s, model.ReportedSuccessPct, v, "%", 1)
	},
	"Elapsed time": func(s *siegeReport, v string) error {
		x, err := siegeNumber(v, "secs")
		s.elapsed = model.Some(x)
		s.run.DurationS = s.elapsed
		return err
	},
	"Data transferred": func(s *siegeReport, v string) error {
		return siegeLabel(s, model.ReportedBytesRead, v, "MB", siegeMB)
	},
	"Response time": func(s *siegeReport, v string) error {
		ms, unit, err := siegeTime(v, true)
		s.run.LatencyMeanMS, s.responseUnit = model.Some(ms), unit
		return err
	},
	"Transaction rate": func(s *siegeReport, v string) error {
		x, err := siegeNumber(v, "trans/sec")
		s.rate = model.Some(x)
		return err
	},
	"Throughput": func(s *siegeReport, v string) error {
		return siegeLabel(s, model.ReportedTransferBytesPerS, v, "MB/sec", siegeMB)
	},
	"Concurrency": func(s *siegeReport, v string) error {
		return siegeLabel(s, "concurrency", v, "", 1)
	},
	"Successful transactions": func(s *siegeReport, v string) error {
		n, err := siegeCount(v)
		s.successful = model.Some(n)
		return err
	},
	"HTTP OK received": func(s *siegeReport, v string) error {
		n, err := siegeCount(v)
		runLabel(s.run, "http_ok_received", strconv.FormatInt(n, 10))
		return err
	},
	"Failed transactions": func(s *siegeReport, v string) error {
		n, err := siegeCount(v)
		s.failed = model.Some(n)
		return err
	},
	"Longest transaction": func(s *siegeReport, v string) error {
		ms, unit, err := siegeTime(v, false)
		s.run.LatencyMaxMS, s.longestUnit = model.Some(ms), unit
		return err
	},
	"Shortest transaction": func(s *siegeReport, v string) error {
		ms, _, err := siegeTime(v, false)
		runLabel(s.run, "latency_min_ms", fmtLabelNum(ms))
		return err
	},
}

// readSiegeReport reads one summary from its Transactions line to its
// last line. requests is Transactions + Failed transactions, errors
// Failed transactions, rps the Transaction rate (Transactions / Elapsed
// time) where nothing failed, else requests / Elapsed time (label
// reported_rps keeps siege's rate).
func readSiegeReport(l *Lines, _ model.Sink) (*model.Run, error) {
	s := &siegeReport{run: &model.Run{Tool: "siege"}}
	seen := map[string]bool{}
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		k := siegeKey(t)
		if k == "" || seen[k] {
			// The first line that is not the summary's (or a second
			// summary's first line) ends it.
			if s.run.Line != 0 {
				l.Unread()
				break
			}
			continue
		}
		if s.run.Line == 0 {
			s.run.Line = l.Line()
		}
		seen[k] = true
		v := strings.TrimSpace(t[len(k)+1:])
		if err := siegeLines[k](s, v); err != nil {
			col := strings.Index(l.Text(), v) + 1
			return nil, l.Errorf(col, "siege %s: %v", k, err)
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if s.responseUnit == "ms" && seen["Longest transaction"] && s.longestUnit == "" {
		// Only the layouts that print seconds print a bare number.
		return nil, Errorf(l.in.Name, s.run.Line, 0, "siege summary from line %d: a Longest transaction without a unit beside a Response time in ms: no siege prints that, and the unit is not guessed", s.run.Line)
	}
	if !s.failed.Valid {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, "siege summary from line %d ends before its \"Failed transactions:\" line", s.run.Line)
	}
	return s.finish(), nil
}

func (s *siegeReport) finish() *model.Run {
	r := s.run
	n := s.transactions.V + s.failed.V
	r.Requests = model.Some(n)
	r.Errors = s.failed
	if s.successful.Valid {
		runLabel(r, "successful_transactions", strconv.FormatInt(s.successful.V, 10))
	}
	runLabel(r, "transactions", strconv.FormatInt(s.transactions.V, 10))
	r.RPS = siegeRPS(r, s.transactions.V, s.failed.V, s.rate, s.elapsed)
	siegeNoAnswer(r, s.transactions.V)
	return r
}

// siegeNoAnswer sets both status columns to 0 for a run in which
// nothing was answered (Transactions 0, which siege counts whatever the
// status): the one case where siege's counts tell them. The times siege
// prints for such a run (0.00) are then no latency (guard.go).
func siegeNoAnswer(r *model.Run, transactions int64) {
	if transactions == 0 {
		r.Responses2xx, r.Non2xx = model.Some(int64(0)), model.Some(int64(0))
	}
}

// siegeRPS is the rate of a summary or a siege.log row: siege's
// Transaction rate (Transactions / Elapsed time) where nothing failed,
// and where nothing was answered (siege prints 0.00: the failures are
// socket failures, at the speed a refused connection comes back, no
// rate of requests served); else requests / Elapsed time, with siege's
// rate in label reported_rps.
func siegeRPS(r *model.Run, transactions, failed int64, rate, elapsed model.Opt[float64]) model.Opt[float64] {
	switch {
	case (failed == 0 || transactions == 0) && rate.Valid:
		if failed > 0 {
			runLabel(r, "rps_basis", "siege's Transaction rate: every transaction failed")
		}
		return rate
	case elapsed.Valid && elapsed.V > 0:
		if rate.Valid {
			reported(r, model.ReportedRPS, rate.V)
		}
		return model.Some(float64(transactions+failed) / elapsed.V)
	}
	return model.Opt[float64]{}
}

// siegeTransactions reads "2000 hits" (and 4.1's "2610    hits").
func siegeTransactions(v string) (int64, error) {
	f := strings.Fields(v)
	if len(f) != 2 || f[1] != "hits" {
		return 0, fmt.Errorf(`expected "N hits", found %q`, clipQuote(v))
	}
	return siegeCount(f[0])
}

func siegeCount(v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("expected a count, found %q", clipQuote(v))
	}
	return n, nil
}

// siegeNumber reads "6.37 secs": a number >= 0 and the unit expected
// ("" for none).
func siegeNumber(v, unit string) (float64, error) {
	num, u, _ := strings.Cut(v, " ")
	if strings.TrimSpace(u) != unit {
		return 0, fmt.Errorf("expected %q, found %q", strings.TrimSpace("N "+unit), clipQuote(v))
	}
	x, err := decimalMS(num, 0)
	if err != nil {
		return 0, fmt.Errorf("expected a number, found %q", clipQuote(num))
	}
	return x, nil
}

// siegeTime reads a time in ms: "0.03 secs" or "516.77 ms", and for the
// Longest and Shortest lines a bare number of seconds ("0.13", siege up
// to 4.1.1). It returns the unit as printed.
func siegeTime(v string, needUnit bool) (float64, string, error) {
	num, u, _ := strings.Cut(v, " ")
	u = strings.TrimSpace(u)
	exp := map[string]int{"secs": 3, "ms": 0}
	if !needUnit {
		exp[""] = 3
	}
	e, ok := exp[u]
	if !ok {
		return 0, "", fmt.Errorf(`expected "N secs" or "N ms", found %q`, clipQuote(v))
	}
	ms, err := decimalMS(num, e)
	if err != nil {
		return 0, "", fmt.Errorf("expected a number, found %q", clipQuote(num))
	}
	return ms, u, nil
}

// siegeLabel keeps a value with its unit checked.
func siegeLabel(s *siegeReport, key, v, unit string, scale uint64) error {
	x, err := siegeNumber(v, unit)
	if err == nil {
		reported(s.run, key, scaledExact(x, scale))
	}
	return err
}

// siegeMB is siege's MB: data.c divides bytes by 1024 × 1024.
const siegeMB = 1 << 20
