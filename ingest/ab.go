package ingest

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// Readers of ApacheBench 2.3 (Apache httpd's support/ab.c): its text
// report, the -e percentile CSV and the -g per-request TSV.
//
// The report is read line by line with runs of spaces collapsed, so that an
// excerpt pasted from a web page (spacing collapsed, the banner and server
// lines cut off, starting at "Concurrency Level") reads like the original.

func init() {
	register(&Format{Name: "ab", Priority: 12, Late: true, Detect: detectAB, Read: func(in *Input, sink model.Sink) error { return readReports(in, sink, abReports) }})
	register(&Format{Name: "ab-percentiles-csv", Priority: 10, Detect: detectABPercentiles, Read: readABPercentiles})
	register(&Format{Name: "ab-gnuplot-tsv", Priority: 10, Detect: detectABGnuplot, Read: readABGnuplot})
}

const (
	abBanner          = "This is ApacheBench, Version "
	abPercentilesHead = "Percentage served,Time in ms"
	abGnuplotHead     = "starttime\tseconds\tctime\tdtime\tttime\twait"
)

// abExcerptStarts are the lines an excerpt of the results may start with:
// the first lines of ab's results, where a page or a log may cut it.
var abExcerptStarts = []string{"Server Software:", "Server Hostname:", "Server Port:", "Document Path:", "Document Length:",
	"Concurrency Level:", "Time taken for tests:", "Complete requests:"}

// abBegins reports whether a trimmed line may be the first line of an ab
// report: its banner, or the first line kept of an excerpt.
func abBegins(t string) bool {
	if strings.HasPrefix(t, abBanner) {
		return true
	}
	for _, s := range abExcerptStarts {
		if strings.HasPrefix(t, s) {
			return true
		}
	}
	return false
}

// abBody reports whether a trimmed line is one that only ab's results
// print (after the lines an excerpt may start with).
func abBody(t string) bool {
	for _, s := range []string{"Failed requests:", "Write errors:", "Non-2xx responses:", "Total transferred:", "HTML transferred:",
		"Requests per second:", "Time per request:", "Transfer rate:", "Connection Times (ms)", "Percentage of the requests served"} {
		if strings.HasPrefix(t, s) {
			return true
		}
	}
	return false
}

// detectAB claims a file that holds ab's banner or an excerpt of its
// results (a line it may start with, "Complete requests:" and "Time taken
// for tests:"), wherever in the file.
func detectAB(head []byte) bool {
	if hasLine(head, func(l string) bool { return strings.HasPrefix(l, abBanner) }) {
		return true
	}
	return hasLine(head, func(l string) bool { return strings.HasPrefix(l, "Complete requests:") }) &&
		hasLine(head, func(l string) bool { return strings.HasPrefix(l, "Time taken for tests:") })
}

// abReports reads the ab reports of a file (readReports). Settings: the
// host, port and path, with the concurrency.
var abReports = &reportFormat{
	tool:   "ab",
	first:  `ab's banner "This is ApacheBench, Version …" or the first line of its results`,
	begins: abBegins,
	read: func(l *Lines, _ model.Sink) (*model.Run, error) {
		p := &abParser{l: l, run: &model.Run{Tool: "ab"}, seen: map[string]int{}, times: map[string][]float64{}, lastStart: -1}
		if err := p.parse(); err != nil {
			return nil, err
		}
		return p.run, nil
	},
	settings: []string{"ab_server_hostname", "ab_server_port", "ab_document_path"},
	body:     abBody,
}

func detectABPercentiles(head []byte) bool {
	return strings.TrimRight(firstRawLine(head), "\r") == abPercentilesHead
}

func detectABGnuplot(head []byte) bool {
	return strings.TrimRight(firstRawLine(head), "\r") == abGnuplotHead
}

// firstRawLine returns the first line of head as it is.
func firstRawLine(head []byte) string {
	s := string(head[:min(len(head), 256)])
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// abKeys are the "Key: value" lines of ab's results, mapped to how they
// are kept. Lines of ab built from httpd trunk are included.
var abLabelKeys = map[string]string{
	"Server Software":      "ab_server_software",
	"Server Hostname":      "ab_server_hostname",
	"Server Port":          "ab_server_port",
	"SSL/TLS Protocol":     "ab_ssl_protocol",
	"Server Temp Key":      "ab_server_temp_key",
	"TLS Server Name":      "ab_tls_server_name",
	"Document Path":        "ab_document_path",
	"Document Length":      "ab_document_length",
	"Number of workers":    "ab_workers",
	"Concurrency achieved": "ab_concurrency_achieved",
	"Rampup delay":         "ab_rampup_delay",
	"Number of requests":   "ab_number_of_requests",
	"Keep-Alive aborts":    "ab_keepalive_aborts",
}

// abParser reads one ab report.
type abParser struct {
	l      *Lines
	run    *model.Run
	seen   map[string]int // key -> line
	banner int            // line of the banner, 0 in an excerpt
	last   int            // last line of the banner part
	result bool           // the results have started

	failed, write, non2xx             int64
	conn, recv, length, except        int64
	breakdown                         bool
	times                             map[string][]float64 // Connect, Processing, Waiting, Total
	timesCols                         int                  // 5 (min mean sd median max) or 3 (ab -S: min avg max)
	percentTable, percentDone         bool
	lastStart                         int // index in abExcerptStarts of the last start line read
	reached                           int // the furthest abOrder of a line read
	sanity                            []string
	pendingSanity                     bool
	percentiles                       []model.Percentile
	bodySent                          bool
	transferLines                     int
	requestsV                         int64
	durationZero                      bool
	timePerRequest, timePerRequestAll bool
}

// valueCol is the 1-based column of a value in the current line.
func (p *abParser) valueCol(v string) int {
	if i := strings.Index(p.l.Text(), v); i >= 0 && v != "" {
		return i + 1
	}
	return 0
}

// abOrder is the order of ab's result lines from "Failed requests:" on,
// for the counts ab prints only when they are not zero: such a count is
// zero where the report goes on past its place, and unknown where an
// excerpt or a cut file ends before it.
var abOrder = map[string]int{"Failed requests": 1, "Write errors": 3, "Non-2xx responses": 4, "Keep-Alive requests": 5,
	"Total transferred": 6, "Total body sent": 7, "HTML transferred": 8, "Requests per second": 9, "Time per request": 10,
	"Transfer rate": 11, "Connection Times": 12}

// reach notes that the report has a line of the given key.
func (p *abParser) reach(key string) { p.reached = max(p.reached, abOrder[key]) }

// errForeign is what line returns for a line that is not ab's.
var errForeign = errors.New("not a line of an ab report")

// parse reads one report from its first line (the banner, or the first
// line kept of an excerpt) up to its last: it stops before a line that
// begins another report, and before a line that is not ab's once the
// report has its "Complete requests:" line and no table is left open.
func (p *abParser) parse() error {
	l := p.l
	for l.Scan() {
		norm := strings.Join(strings.Fields(l.Text()), " ")
		if norm == "" {
			continue
		}
		if strings.HasPrefix(norm, abBanner) {
			if p.banner != 0 || p.result {
				if err := p.endsBefore(); err != nil {
					return err
				}
				l.Unread()
				break
			}
			p.banner, p.last = l.Line(), l.Line()
			p.run.Line = l.Line()
			v, _, _ := strings.Cut(strings.TrimPrefix(norm, abBanner), " ")
			p.run.ToolVersion = v
			continue
		}
		start := abStartIndex(norm)
		if start >= 0 && start <= p.lastStart {
			// "Concurrency Level:" again, or "Server Software:" after
			// it: the next report's excerpt.
			if err := p.endsBefore(); err != nil {
				return err
			}
			l.Unread()
			break
		}
		if !p.result {
			key, _, _ := strings.Cut(norm, ":")
			if _, known := abLabelKeys[key]; !known && start < 0 {
				// ab's own log between the banner and the results:
				// "Benchmarking host (be patient)", progress lines when
				// stderr was kept with stdout, -v messages.
				if n, ok := abStopped(norm); ok {
					return l.Errorf(1, "ab stopped after %d requests without printing its results (its standard error says why)", n)
				}
				p.last = l.Line()
				continue
			}
			p.result = true
			if p.run.Line == 0 {
				p.run.Line = l.Line()
			}
		}
		if start >= 0 {
			p.lastStart = start
		}
		err := p.line(norm)
		if err == errForeign {
			if p.complete() {
				l.Unread()
				break
			}
			return l.Errorf(1, "unexpected line in an ab report: %q", clipQuote(norm))
		}
		if err != nil {
			return err
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	if !p.result {
		return Errorf(l.in.Name, p.last, 0, "ab printed no results (connection refused?)")
	}
	return p.finish()
}

// abStartIndex is the place of a line among abExcerptStarts, or -1.
func abStartIndex(norm string) int {
	for i, s := range abExcerptStarts {
		if strings.HasPrefix(norm, s) {
			return i
		}
	}
	return -1
}

// complete reports whether the report has the lines it needs: "Complete
// requests:", and every table it opened in full.
func (p *abParser) complete() bool { return p.seen["Complete requests"] != 0 && p.openTable() == "" }

// openTable names what an opened table still lacks, or "".
func (p *abParser) openTable() string {
	if p.seen["Connection Times"] != 0 {
		for _, k := range []string{"Connect", "Processing", "Waiting", "Total"} {
			if _, ok := p.times[k]; !ok {
				return fmt.Sprintf("the %s: row of the Connection Times table", k)
			}
		}
	}
	if p.percentTable && !p.percentDone {
		return "the rows of the percentage table up to 100%"
	}
	return ""
}

// endsBefore is the error for a report that another one follows before
// it is complete, or nil.
func (p *abParser) endsBefore() error {
	if p.complete() {
		return nil
	}
	what := `"Complete requests:"`
	if p.seen["Complete requests"] != 0 {
		what = p.openTable()
	}
	if !p.result {
		return p.l.Errorf(1, "ab printed no results (connection refused?) before the next report starts here")
	}
	return p.l.Errorf(1, "ab report ends early: expected %s, found the start of another report", what)
}

// abStopped reads "Total of 2345 requests completed", which ab prints when
// it gives up part-way.
func abStopped(norm string) (int64, bool) {
	rest, ok := strings.CutPrefix(norm, "Total of ")
	if !ok {
		return 0, false
	}
	num, ok := strings.CutSuffix(rest, " requests completed")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(num, 10, 64)
	return n, err == nil
}

// line handles one line of the results, spaces collapsed.
func (p *abParser) line(norm string) error {
	l := p.l
	if p.pendingSanity {
		// Second line of a WARNING/ERROR of ab's sanity check.
		p.pendingSanity = false
		if strings.HasSuffix(norm, "reliable.") {
			return nil
		}
	}
	switch {
	case strings.HasPrefix(norm, "WARNING: The median and mean for ") || strings.HasPrefix(norm, "ERROR: The median and mean for "):
		level, rest, _ := strings.Cut(norm, ": The median and mean for ")
		what, _, _ := strings.Cut(rest, " are ")
		what = strings.TrimPrefix(what, "the ")
		p.sanity = append(p.sanity, strings.ToLower(level)+": "+what)
		p.pendingSanity = true
		return nil
	case norm == "Connection Times (ms)" || norm == "Connnection Times (ms)": // ab 1.3 spelt it so
		if p.seen["Connection Times"] != 0 {
			return l.Errorf(1, "a second Connection Times table in one report")
		}
		p.reach("Connection Times")
		p.seen["Connection Times"] = l.Line()
		return nil
	case norm == "min mean[+/-sd] median max" || norm == "min avg max":
		if p.timesCols != 0 || len(p.times) > 0 {
			return l.Errorf(1, "unexpected Connection Times header")
		}
		if p.seen["Connection Times"] == 0 { // an excerpt without the table's title
			p.seen["Connection Times"] = l.Line()
			p.reach("Connection Times")
		}
		p.timesCols = 5
		if norm == "min avg max" {
			p.timesCols = 3
		}
		return nil
	case norm == "Percentage of the requests served within a certain time (ms)":
		if p.percentTable {
			return l.Errorf(1, "a second percentage table in one report")
		}
		p.percentTable = true
		p.reach("Connection Times")
		return nil
	case strings.HasPrefix(norm, "(Connect:"):
		return p.failedBreakdown(norm)
	case strings.HasSuffix(norm, " kb/s sent") || strings.HasSuffix(norm, " kb/s total"):
		num, unit, _ := strings.Cut(norm, " ")
		v, ok := sizeBytes(num+"KB", binaryBase) // ab divides by 1024
		if !ok || p.seen["Transfer rate"] == 0 {
			return errForeign
		}
		if strings.HasSuffix(unit, "sent") {
			reported(p.run, model.ReportedSentBytesPerS, v)
		} else {
			reported(p.run, model.ReportedTotalBytesPerS, v)
		}
		return nil
	}
	if pct, ok := strings.CutSuffix(strings.Fields(norm)[0], "%"); ok {
		if !p.percentTable && len(strings.Fields(norm)) == 2 && len(p.percentiles) == 0 {
			if _, err := strconv.ParseUint(pct, 10, 8); err == nil {
				// An excerpt without the table's title.
				p.percentTable = true
				p.reach("Connection Times")
			}
		}
		if p.percentTable {
			return p.percentRow(pct, norm)
		}
	}
	key, value, ok := strings.Cut(norm, ":")
	if !ok {
		return errForeign
	}
	if key == "Broken pipe errors" { // ab 1.3's name of Write errors
		key = "Write errors"
	}
	value = strings.TrimSpace(value)
	if key == "Connect" || key == "Processing" || key == "Waiting" || key == "Total" {
		return p.timesRow(key, value)
	}
	if prev := p.seen[key]; prev != 0 && key != "Time per request" {
		return l.Errorf(1, "%q appears a second time in one report (first at line %d)", key, prev)
	}
	p.seen[key] = l.Line()
	p.reach(key)
	if label, ok := abLabelKeys[key]; ok {
		if value != "" { // "Server Software:" is empty when the server sends none
			runLabel(p.run, label, value)
		}
		return nil
	}
	switch key {
	case "Concurrency Level":
		n, err := p.count(value)
		if err != nil {
			return err
		}
		p.run.Connections = model.Some(n)
	case "Time taken for tests":
		num, ok := strings.CutSuffix(value, " seconds")
		v, err := strconv.ParseFloat(num, 64)
		if !ok || err != nil || v < 0 || math.IsInf(v, 0) {
			return l.Errorf(p.valueCol(value), "expected \"<s> seconds\", found %q", clipQuote(value))
		}
		p.run.DurationS = model.Some(v)
		p.durationZero = v == 0
	case "Complete requests":
		n, err := p.count(value)
		if err != nil {
			return err
		}
		p.run.Requests = model.Some(n)
		p.requestsV = n
	case "Failed requests":
		n, err := p.count(value)
		if err != nil {
			return err
		}
		p.failed = n
	case "Write errors":
		n, err := p.count(value)
		if err != nil {
			return err
		}
		p.write = n
	case "Non-2xx responses":
		n, err := p.count(value)
		if err != nil {
			return err
		}
		p.non2xx = n
	case "Keep-Alive requests":
		if _, err := p.count(value); err != nil {
			return err
		}
		runLabel(p.run, "ab_keepalive_requests", value)
	case "Total transferred", "HTML transferred":
		num, ok := strings.CutSuffix(value, " bytes")
		n, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || n < 0 {
			return l.Errorf(p.valueCol(value), "expected \"<n> bytes\", found %q", clipQuote(value))
		}
		if key == "Total transferred" {
			p.run.BytesRead = model.Some(n)
		} else {
			runLabel(p.run, "ab_html_transferred_bytes", num)
		}
	case "Total body sent":
		if _, err := p.count(value); err != nil {
			return err
		}
		runLabel(p.run, "ab_body_sent_bytes", value)
	case "Requests per second":
		num, ok := strings.CutSuffix(value, " [#/sec] (mean)")
		v, err := strconv.ParseFloat(num, 64)
		if !ok || err != nil || v < 0 || math.IsInf(v, 0) {
			return l.Errorf(p.valueCol(value), "expected \"<rate> [#/sec] (mean)\", found %q", clipQuote(value))
		}
		p.run.RPS = model.Some(v)
	case "Time per request":
		if num, ok := strings.CutSuffix(value, " [ms] (mean)"); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil || v < 0 || p.timePerRequest || math.IsInf(v, 0) {
				return l.Errorf(p.valueCol(value), "expected one \"<ms> [ms] (mean)\", found %q", clipQuote(value))
			}
			p.timePerRequest = true
			p.run.LatencyMeanMS = model.Some(v)
			runLabel(p.run, "ab_time_per_request_ms", num)
		} else if num, ok := strings.CutSuffix(value, " [ms] (mean, across all concurrent requests)"); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil || v < 0 || p.timePerRequestAll || math.IsInf(v, 0) {
				return l.Errorf(p.valueCol(value), "expected one \"<ms> [ms] (mean, across all concurrent requests)\", found %q", clipQuote(value))
			}
			p.timePerRequestAll = true
			runLabel(p.run, "ab_time_per_request_across_ms", num)
		} else {
			return l.Errorf(p.valueCol(value), "expected \"<ms> [ms] (mean)\" or \"<ms> [ms] (mean, across all concurrent requests)\", found %q", clipQuote(value))
		}
	case "Transfer rate":
		num, ok := strings.CutSuffix(value, " [Kbytes/sec] received")
		v, vok := sizeBytes(num+"KB", binaryBase) // ab divides by 1024
		if !ok || !vok {
			return l.Errorf(p.valueCol(value), "expected \"<rate> [Kbytes/sec] received\", found %q", clipQuote(value))
		}
		reported(p.run, model.ReportedTransferBytesPerS, v)
	default:
		return errForeign
	}
	return nil
}

// count reads a whole number >= 0.
func (p *abParser) count(value string) (int64, error) {
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < 0 {
		return 0, p.l.Errorf(p.valueCol(value), "expected a count, found %q", clipQuote(value))
	}
	return n, nil
}

// failedBreakdown reads "(Connect: 0, Receive: 0, Length: 195, Exceptions: 0)".
func (p *abParser) failedBreakdown(norm string) error {
	l := p.l
	if p.seen["Failed requests"] == 0 || p.breakdown {
		return l.Errorf(1, "unexpected failed-requests breakdown")
	}
	p.breakdown = true
	inner := strings.TrimSuffix(strings.TrimPrefix(norm, "("), ")")
	parts := strings.Split(inner, ",")
	names := []string{"Connect", "Receive", "Length", "Exceptions"}
	dst := []*int64{&p.conn, &p.recv, &p.length, &p.except}
	if len(parts) == 3 {
		// ab before 2.2 counted no receive failures:
		// "(Connect: 0, Length: 5, Exceptions: 0)".
		names = []string{"Connect", "Length", "Exceptions"}
		dst = []*int64{&p.conn, &p.length, &p.except}
	}
	if len(parts) != len(names) || !strings.HasSuffix(norm, ")") {
		return l.Errorf(1, "expected \"(Connect: <n>, Receive: <n>, Length: <n>, Exceptions: <n>)\", found %q", clipQuote(norm))
	}
	for i, part := range parts {
		k, v, _ := strings.Cut(strings.TrimSpace(part), ": ")
		if k != names[i] {
			return l.Errorf(1, "expected \"%s: <n>\" in the failed-requests breakdown, found %q", names[i], clipQuote(part))
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return l.Errorf(1, "expected a count of %s failures, found %q", names[i], clipQuote(v))
		}
		*dst[i] = n
	}
	return nil
}

// timesRow reads a row of the Connection Times table: min mean sd median
// max, or min avg max (ab -S).
func (p *abParser) timesRow(key, value string) error {
	l := p.l
	if p.timesCols == 0 {
		// An excerpt without the table's header (or its title too): the
		// columns are min mean [+/-sd] median max, or min avg max (ab -S),
		// by their count.
		n := len(strings.Fields(value))
		if (n != 5 && n != 3) || len(p.times) > 0 {
			return l.Errorf(1, "unexpected %s: row outside the Connection Times table", key)
		}
		p.timesCols = n
		if p.seen["Connection Times"] == 0 {
			p.seen["Connection Times"] = l.Line()
			p.reach("Connection Times")
		}
	}
	if _, dup := p.times[key]; dup {
		return l.Errorf(1, "a second %s: row in the Connection Times table", key)
	}
	f := strings.Fields(value)
	if len(f) != p.timesCols {
		what := "min, mean, [+/-sd], median and max"
		if p.timesCols == 3 {
			what = "min, avg and max"
		}
		return l.Errorf(1, "expected %s in the %s: row, found %q", what, key, clipQuote(value))
	}
	vals := make([]float64, len(f))
	for i, s := range f {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return l.Errorf(p.valueCol(s), "expected a time in ms in the %s: row, found %q", key, s)
		}
		vals[i] = v
	}
	p.times[key] = vals
	return nil
}

// percentRow reads "50%      1" or "100%      9 (longest request)".
func (p *abParser) percentRow(pct, norm string) error {
	l := p.l
	f := strings.Fields(norm)
	if len(f) >= 2 && f[1] == "<0>" {
		return nil // " 0%  <0> (never)"
	}
	if len(f) != 2 && !(len(f) == 4 && f[2] == "(longest" && f[3] == "request)") {
		return l.Errorf(1, "expected \"<p>%% <ms>\" in the percentage table, found %q", clipQuote(norm))
	}
	pv, err := strconv.ParseFloat(pct, 64)
	if err != nil || pv < 0 || pv > 100 {
		return l.Errorf(p.valueCol(f[0]), "expected a percentage, found %q", f[0])
	}
	ms, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || ms < 0 {
		return l.Errorf(p.valueCol(f[1]), "expected a whole number of ms, found %q", f[1])
	}
	if n := len(p.percentiles); n > 0 && (pv <= p.percentiles[n-1].Percentile || float64(ms) < p.percentiles[n-1].LatencyMS) {
		return l.Errorf(1, "percentage table rows out of order at %q", clipQuote(norm))
	}
	p.percentiles = append(p.percentiles, model.Percentile{Percentile: pv, LatencyMS: float64(ms)})
	p.percentDone = pv == 100
	return nil
}

// finish fills the run from the report's lines. A report needs only its
// "Complete requests:" line and every table it opened in full: an excerpt
// may leave out any other line, and the columns of what it left out stay
// NULL.
func (p *abParser) finish() error {
	l := p.l
	r := p.run
	end := l.Line() + 1
	if p.seen["Complete requests"] == 0 {
		return Errorf(l.in.Name, end, 0, "ab report ends early: expected %q", "Complete requests:")
	}
	if t := p.openTable(); t != "" {
		return Errorf(l.in.Name, end, 0, "ab report ends early: expected %s", t)
	}
	done := p.requestsV

	// Counts (ab.c): Failed requests adds up failure events, not
	// requests. A connect failure or an exception (POLLERR) makes ab
	// reconnect and send the request again: it is not a request of its
	// own and not in Complete requests. A receive failure (or a write
	// failure) closes the connection and the request is counted complete
	// without its answer (and, its body length being off, also as a Length
	// failure). A reset seen while reading counts as Receive, Length and
	// Exceptions at once: 80 resets of 2000 requests print "Failed
	// requests: 240 (Connect: 0, Receive: 80, Length: 80, Exceptions: 80)".
	// So the requests without an answer are the Receive and write
	// failures; Length failures are answered requests whose body length
	// differs from the first response's; Non-2xx responses are not among
	// the failed at all.
	//
	// ab prints the breakdown, "Write errors:" and "Non-2xx responses:"
	// only when they are not zero (abOrder): a count is known where its
	// line is read, or where the report goes on past its place.
	recvKnown := p.breakdown || (p.seen["Failed requests"] != 0 && p.failed == 0)
	writeKnown := p.seen["Write errors"] != 0 || p.reached > abOrder["Write errors"]
	nonKnown := p.seen["Non-2xx responses"] != 0 || p.reached > abOrder["Non-2xx responses"]
	if nonKnown {
		r.Non2xx = model.Some(p.non2xx)
	}
	if recvKnown && writeKnown {
		r.Errors = model.Some(p.recv + p.write)
		if ok2xx := done - p.non2xx - p.recv - p.write; ok2xx >= 0 && nonKnown {
			r.Responses2xx = model.Some(ok2xx)
		}
	}
	if p.seen["Failed requests"] != 0 {
		runLabel(p.run, "ab_failed", strconv.FormatInt(p.failed, 10))
	}
	if recvKnown {
		for k, v := range map[string]int64{"ab_failed_connect": p.conn, "ab_failed_receive": p.recv, "ab_failed_length": p.length, "ab_failed_exceptions": p.except} {
			runLabel(p.run, k, strconv.FormatInt(v, 10))
		}
	}
	if writeKnown {
		runLabel(p.run, "ab_write_errors", strconv.FormatInt(p.write, 10))
	}

	// Latency: "Time per request (mean)" is the mean (concurrency x time
	// taken / complete requests, in µs precision); the Connection Times
	// Total row gives the spread and the longest request in whole ms.
	names := []string{"min", "mean", "sd", "median", "max"}
	if p.timesCols == 3 {
		names = []string{"min", "mean", "max"}
	}
	for _, k := range []string{"Connect", "Processing", "Waiting", "Total"} {
		for i, v := range p.times[k] {
			runLabel(p.run, "ab_"+strings.ToLower(k)+"_"+names[i]+"_ms", fmtLabelNum(v))
		}
	}
	if t := p.times["Total"]; len(t) == 5 {
		r.LatencyStdevMS = model.Some(t[2])
		r.LatencyMaxMS = model.Some(t[4])
	} else if len(t) == 3 {
		r.LatencyMaxMS = model.Some(t[2])
	}
	if len(p.sanity) > 0 {
		runLabel(p.run, "ab_sanity", strings.Join(p.sanity, "; "))
	}
	r.Percentiles = p.percentiles
	setABPercentileColumns(r)
	return nil
}

// setABPercentileColumns fills the percentile columns from the spectrum.
func setABPercentileColumns(r *model.Run) {
	for _, q := range r.Percentiles {
		switch q.Percentile {
		case 50:
			r.LatencyP50MS = model.Some(q.LatencyMS)
		case 90:
			r.LatencyP90MS = model.Some(q.LatencyMS)
		case 95:
			r.LatencyP95MS = model.Some(q.LatencyMS)
		case 99:
			r.LatencyP99MS = model.Some(q.LatencyMS)
		case 100:
			r.LatencyMaxMS = model.Some(q.LatencyMS)
		}
	}
}

// readABPercentiles reads ab -e: "Percentage served,Time in ms" and the
// rows 0 to 100. ab writes row i as the time of request
// floor(0.5 + count*i/100) of the requests sorted by time (0: the
// shortest, 100: the longest), in ms with three decimals. ab before
// 2.4.17 (2015) wrote the rows 0 to 99 only: such a file loads with no
// maximum.
func readABPercentiles(in *Input, sink model.Sink) error {
	l := NewLines(in)
	if !l.Scan() {
		if err := l.Err(); err != nil {
			return err
		}
		return Errorf(in.Name, 1, 0, "empty file: expected %q", abPercentilesHead)
	}
	if l.Text() != abPercentilesHead {
		return l.Errorf(1, "expected the header %q, found %q", abPercentilesHead, clipQuote(l.Text()))
	}
	r := &model.Run{Tool: "ab", Line: 1}
	var last string // the time of the last row, as written
	for l.Scan() {
		t := l.Text()
		if strings.TrimSpace(t) == "" {
			continue
		}
		want := len(r.Percentiles)
		if want > 100 {
			return l.Errorf(1, "unexpected line after the 100%% row: %q", clipQuote(t))
		}
		a, b, ok := strings.Cut(t, ",")
		if !ok {
			return l.Errorf(1, "expected \"<percentage>,<ms>\", found %q", clipQuote(t))
		}
		if a != strconv.Itoa(want) {
			return l.Errorf(1, "expected the %d%% row, found %q", want, clipQuote(a))
		}
		ms, err := strconv.ParseFloat(b, 64)
		if err != nil || ms < 0 || math.IsInf(ms, 0) || math.IsNaN(ms) {
			return l.Errorf(len(a)+2, "expected a time in ms, found %q", clipQuote(b))
		}
		if want > 0 && ms < r.Percentiles[want-1].LatencyMS {
			return l.Errorf(len(a)+2, "time %s is below the row above", b)
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: float64(want), LatencyMS: ms})
		last = b
	}
	if err := l.Err(); err != nil {
		return err
	}
	if n := len(r.Percentiles); n < 100 {
		return Errorf(in.Name, l.Line()+1, 0, "ab percentile CSV ends early: expected the %d%% row (rows 0 to 99, and 100 since ab 2.4.17)", n)
	}
	if _, frac, _ := strings.Cut(last, "."); len(r.Percentiles) == 100 && len(frac) != 3 {
		// A file that ends at the 99% row is whole only if that row is:
		// ab prints every time with three decimals.
		return Errorf(in.Name, l.Line(), 0, "ab percentile CSV ends early: the 99%% row's time %q is cut (ab prints three decimals), and no 100%% row follows", last)
	}
	setABPercentileColumns(r)
	return sink.Run(r)
}

// readABGnuplot reads ab -g: one row per completed request, sorted by its
// total time (not by start), with the start in epoch seconds and the
// connect, processing (dtime), total and waiting times in whole ms. Each
// row becomes a sample; the run row's percentiles are recomputed with
// ab's own definition (ab.c output_results: the requests sorted by time,
// p% is the one at index floor(count*p/100), 100% the longest), so that
// they equal the percentage table ab printed for the same run.
func readABGnuplot(in *Input, sink model.Sink) error {
	l := NewLines(in)
	if !l.Scan() {
		if err := l.Err(); err != nil {
			return err
		}
		return Errorf(in.Name, 1, 0, "empty file: expected the header %q", abGnuplotHead)
	}
	if l.Text() != abGnuplotHead {
		return l.Errorf(1, "expected the header %q, found %q", strings.ReplaceAll(abGnuplotHead, "\t", " "), clipQuote(l.Text()))
	}
	var totals []float64 // whole milliseconds, exact in a float64
	var first int64 = math.MaxInt64
	var sum float64
	var tags []byte
	for l.Scan() {
		t := l.Text()
		if t == "" {
			continue
		}
		if n := strings.Count(t, "\t"); n != 5 {
			return l.Errorf(1, "expected 6 tab-separated fields (starttime, seconds, ctime, dtime, ttime, wait), found %d", n+1)
		}
		var f [6]string
		rest := t
		for i := range f {
			f[i], rest, _ = strings.Cut(rest, "\t")
		}
		if f[0] == "starttime" {
			return l.Errorf(1, "a second header: a file holds one run")
		}
		var v [5]int64
		col := len(f[0]) + 2
		for i, s := range f[1:] {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 || (i == 0 && n > 1<<40) {
				return l.Errorf(col, "expected a whole number >= 0, found %q", clipQuote(s))
			}
			v[i] = n
			col += len(s) + 1
		}
		secs, ctime, dtime, ttime, wait := v[0], v[1], v[2], v[3], v[4]
		first = min(first, secs)
		totals = append(totals, float64(ttime))
		sum += float64(ttime)
		tags = append(tags[:0], `{"ctime_ms":"`...)
		tags = strconv.AppendInt(tags, ctime, 10)
		tags = append(tags, `","dtime_ms":"`...)
		tags = strconv.AppendInt(tags, dtime, 10)
		tags = append(tags, `","wait_ms":"`...)
		tags = strconv.AppendInt(tags, wait, 10)
		tags = append(tags, `"}`...)
		s := &model.Sample{
			TS:     time.Unix(secs, 0).UTC(),
			Metric: "http_req_duration",
			Value:  float64(ttime),
			Tags:   string(tags),
		}
		if err := sink.Sample(0, s); err != nil {
			return err
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	n := int64(len(totals))
	if n == 0 {
		return Errorf(in.Name, 2, 0, "ab gnuplot TSV has a header but no rows")
	}
	slices.Sort(totals) // ab writes them sorted already; sorting again costs little
	r := &model.Run{Tool: "ab", Line: 1, Requests: model.Some(n), StartedAt: model.Some(time.Unix(first, 0).UTC())}
	for _, pct := range stats.ABPercents {
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: float64(pct), LatencyMS: stats.ABPercentile(totals, pct)})
	}
	setABPercentileColumns(r)
	mean := sum / float64(n)
	r.LatencyMeanMS = model.Some(mean)
	if n > 1 {
		// ab's [+/-sd]: the sample standard deviation (n-1).
		var ss float64
		for _, x := range totals {
			d := x - mean
			ss += d * d
		}
		r.LatencyStdevMS = model.Some(math.Sqrt(ss / float64(n-1)))
	}
	return sink.Run(r)
}
