package ingest

import (
	"math"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// Gatling 3.0 to 3.12 logs a simulation to simulation.log, one
// tab-separated record per line (from 3.13 the file is binary:
// gatlingbin.go):
//
//	RUN      simulation class, id, start (epoch ms), description, version
//	USER     scenario, START or END, time          (3.0-3.3: scenario, user id, START/END, start, end)
//	REQUEST  group path, name, start, end, OK or KO, message   (3.0-3.3: user id first)
//	GROUP    group path, start, end, cumulated response time, OK or KO
//	ERROR    message, time
//
// A request's response time is end - start in ms; KO is a request that
// failed (no answer, or a check such as the expected status failed).

func init() {
	register(&Format{Name: "gatling-simulation-log", Priority: 40, Detect: detectGatlingLog, Read: readGatlingLog, Bulk: true})
}

// gatlingMethod computes the percentiles of the response times by type
// 7. Gatling's report estimates them with a t-digest (gatling-charts'
// GeneralStatsBuffer: AVLTreeDigest, compression 100) and prints them
// rounded to whole ms: on small logs the two agree once rounded, not
// always (Gatling's known_stats log: p99 368 by its digest, 366.24 by
// type 7).
var gatlingMethod = &sampleMethod{
	tool:      "gatling",
	percents:  []float64{50, 75, 90, 95, 99, 99.9},
	pct:       func(sorted []float64, p float64) float64 { return stats.Quantile(sorted, p/100) },
	name:      "Hyndman-Fan type 7 over every request of the name (Gatling's report estimates them with a t-digest, rounded to whole ms, and can differ)",
	kindLabel: "request_group",
	metric:    jtlMetric,
}

// detectGatlingLog claims a head whose first record other than an
// ASSERTION is a RUN record with a start time in epoch milliseconds.
// Gatling 3.x (before its binary log) writes the assertions of the
// simulation as ASSERTION records, which can come before the RUN record.
func detectGatlingLog(head []byte) bool {
	for rest := string(head); rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		f := strings.Split(strings.TrimRight(line, "\r"), "\t")
		if f[0] == "ASSERTION" {
			continue
		}
		if len(f) < 5 || f[0] != "RUN" {
			return false
		}
		_, err := strconv.ParseInt(f[3], 10, 64)
		return err == nil
	}
	return false
}

// readGatlingLog reads a simulation.log: a run per request name (and
// group path, label request_group), in the order of its first request,
// and before them the run of all requests, request_name "Global
// Information" (aggregated=true), as the report's tables. requests are
// the REQUEST records, errors the KO ones, rps the requests over the
// time from the earliest start to the latest end, latency mean, max and
// percentiles (type 7, gatlingMethod) of end - start. Label users counts
// the USER START records; tool_version is the RUN record's. Each request
// is a row of samples (sampleRuns.sample).
func readGatlingLog(in *Input, sink model.Sink) error {
	l := NewLines(in)
	ls := newSampleRuns(gatlingMethod)
	ls.streamTo(sink)
	var version string
	users := 0
	for l.Scan() {
		text := strings.TrimRight(l.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "\t")
		if ls.total == nil && f[0] != "ASSERTION" {
			if len(f) < 5 || f[0] != "RUN" {
				return l.Errorf(1, "Gatling simulation.log: expected the RUN record first (after any ASSERTION records), found %q", clipQuote(text))
			}
			version = strings.TrimSpace(f[len(f)-1])
			ls.withTotal("Global Information", l.Line())
			continue
		}
		switch f[0] {
		case "REQUEST":
			s, err := gatlingRequest(l, f, text)
			if err != nil {
				return err
			}
			if err := ls.add(s); err != nil {
				return err
			}
		case "USER":
			if len(f) >= 4 && (f[2] == "START" || len(f) >= 5 && f[3] == "START") {
				users++
			}
		case "GROUP", "ERROR", "ASSERTION":
		default:
			return l.Errorf(1, "Gatling simulation.log: expected a RUN, USER, REQUEST, GROUP or ERROR record, found %q", clipQuote(text))
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	if ls.total == nil {
		return Errorf(in.Name, 1, 0, "Gatling simulation.log is empty: expected the RUN record")
	}
	if len(ls.order) == 0 {
		return Errorf(in.Name, l.Line()+1, 0, "Gatling simulation.log holds no REQUEST record")
	}
	ls.total.run.Line = ls.order[0].run.Line
	for _, j := range append([]*jtlRun{ls.total}, ls.order...) {
		j.run.ToolVersion = version
		runLabel(j.run, "users", strconv.Itoa(users))
	}
	return ls.store(sink)
}

// gatlingRequest reads a REQUEST record of either layout: the status is
// the 6th field (3.4 on) or the 7th (3.0-3.3, with the user id).
func gatlingRequest(l *Lines, f []string, text string) (*jtlSample, error) {
	var off int
	switch {
	case len(f) >= 6 && (f[5] == "OK" || f[5] == "KO"):
	case len(f) >= 7 && (f[6] == "OK" || f[6] == "KO"):
		off = 1
	default:
		return nil, l.Errorf(1, "Gatling REQUEST record: expected group, name, start, end and OK or KO, found %q", clipQuote(text))
	}
	col := func(i int) int { return len(strings.Join(f[:i], "\t")) + 2 }
	s := &jtlSample{label: f[2+off], kind: f[1+off], line: l.Line(), success: f[5+off] == "OK", bytes: -1}
	if len(f) > 6+off {
		s.message = strings.TrimSpace(f[6+off])
	}
	var t [2]int64
	for i := range t {
		n, err := strconv.ParseInt(f[3+off+i], 10, 64)
		if err != nil || n < 0 {
			return nil, l.Errorf(col(3+off+i), "Gatling REQUEST record: expected a time in epoch milliseconds, found %q", clipQuote(f[3+off+i]))
		}
		t[i] = n
	}
	if t[1] < t[0] || t[1]-t[0] > math.MaxInt64/2 {
		return nil, l.Errorf(col(4+off), "Gatling REQUEST record: ends at %d, before its start %d", t[1], t[0])
	}
	s.ts, s.ms = t[0], t[1]-t[0]
	return s, nil
}
