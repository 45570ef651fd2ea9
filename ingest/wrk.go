package ingest

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Readers of wrk 4.x (wg/wrk) and wrk2 (giltene/wrk2) text reports. Both
// print the same frame:
//
//	Running 15s test @ http://127.0.0.1:8082/ping
//	  2 threads and 20 connections
//	  Thread Stats   Avg      Stdev     Max   +/- Stdev
//	    Latency     1.24ms    1.11ms  20.05ms   96.28%
//	    Req/Sec     1.06k   195.10     2.33k    81.15%
//	  29943 requests in 15.00s, 3.40MB read
//	  Socket errors: connect 0, read 9, write 109695, timeout 24
//	  Non-2xx or 3xx responses: 708
//	Requests/sec:   1996.06
//	Transfer/sec:    231.96KB
//
// wrk adds a four-line "Latency Distribution" (50/75/90/99%) with
// --latency; wrk2 adds "Thread calibration" lines and, with --latency or
// -U, HdrHistogram blocks: eight summary percentiles, the detailed
// percentile spectrum and its #[Mean …] #[Max …, Total count …] footers.
// Units are those of wrk's units.c: times in us, ms, s, m, h (switching at
// 0.85 of the next unit), counts with k, M, G, T, P (powers of 1000) and
// bytes with K, M, G, T, P (powers of 1024) before the B.

func init() {
	register(&Format{Name: "wrk2", Priority: 10, Late: true, Detect: detectWrk2, Read: readWrk2})
	register(&Format{Name: "wrk", Priority: 11, Late: true, Detect: detectWrk, Read: readWrk})
}

const (
	wrkUsagePrefix  = "Usage: wrk <options> <url>"
	wrkRunningStart = "Running "
)

// firstTextLine returns the first non-blank line of head, trimmed.
func firstTextLine(head []byte) string {
	found := ""
	hasLine(head, func(line string) bool {
		if line == "" {
			return false
		}
		found = line
		return true
	})
	return found
}

// isWrkRunning reports whether a line is wrk's "Running 15s test @ url".
func isWrkRunning(line string) bool {
	return strings.HasPrefix(line, wrkRunningStart) && strings.Contains(line, " test @ ") || isWrkMaking(line)
}

// isWrkMaking reports whether a line is wrk 1.x's first line, "Making
// 10000000 requests to url", its form of the Running line.
func isWrkMaking(line string) bool {
	f := strings.Fields(line)
	return len(f) == 5 && f[0] == "Making" && f[2] == "requests" && f[3] == "to"
}

// isWrk2Line reports whether a trimmed line only appears in wrk2's output.
func isWrk2Line(line string) bool {
	if strings.HasPrefix(line, "Thread calibration:") ||
		strings.HasPrefix(line, "Latency Distribution (HdrHistogram") ||
		strings.HasPrefix(line, "-R, --rate") {
		return true
	}
	// wrk2 samples the request rate only after its calibration, so a run
	// shorter than that prints "-nan" statistics of no samples; wrk 4.x
	// samples every 100 ms.
	f := strings.Fields(line)
	return len(f) >= 2 && f[0] == "Req/Sec" && f[1] == "-nan"
}

// detectWrkFamily reports whether head is a wrk or wrk2 report (or usage
// text) and whether it shows a line only wrk2 prints. A report is found
// wherever it starts, by its "Running" line followed by its threads line,
// so that a log of many runs with other lines around them is read too.
func detectWrkFamily(head []byte) (isWrk, isWrk2 bool) {
	if !strings.HasPrefix(firstTextLine(head), wrkUsagePrefix) {
		running, found, stats, rate := false, false, false, false
		hasLine(head, func(line string) bool {
			if line == "" {
				return false
			}
			found = running && isWrkThreads(line)
			running = isWrkRunning(line)
			// An excerpt from the Thread Stats table on.
			stats = stats || isWrkStatsHeader(line)
			rate = rate || stats && strings.HasPrefix(line, "Requests/sec:")
			return found || rate
		})
		if !found && !rate {
			return false, false
		}
	}
	return true, hasLine(head, isWrk2Line)
}

func detectWrk2(head []byte) bool {
	ok, wrk2 := detectWrkFamily(head)
	return ok && wrk2
}

func detectWrk(head []byte) bool {
	ok, wrk2 := detectWrkFamily(head)
	return ok && !wrk2
}

// wrkReports and wrk2Reports read the reports of a file (readReports):
// a report starts at its "Running" line (or at wrk's usage text, which is
// refused) and ends after its Requests/sec and Transfer/sec lines.
var wrkReports, wrk2Reports = wrkFormat("wrk"), wrkFormat("wrk2")

func wrkFormat(tool string) *reportFormat {
	return &reportFormat{
		tool:  tool,
		first: `"Running <duration> test @ <url>"`,
		begins: func(t string) bool {
			return isWrkRunning(t) || strings.HasPrefix(t, wrkUsagePrefix) || isWrkThreads(t) || isWrkStatsHeader(t)
		},
		read: func(l *Lines, _ model.Sink) (*model.Run, error) {
			p := &wrkParser{l: l, tool: tool, run: &model.Run{Tool: tool}}
			if err := p.parse(); err != nil {
				return nil, err
			}
			return p.run, nil
		},
		settings: []string{"url", "requested_duration", "requested_requests"},
	}
}

func readWrk(in *Input, sink model.Sink) error  { return readReports(in, sink, wrkReports) }
func readWrk2(in *Input, sink model.Sink) error { return readReports(in, sink, wrk2Reports) }

// wrkParser reads one wrk or wrk2 report.
type wrkParser struct {
	l    *Lines
	tool string
	run  *model.Run

	latency       [4]string // Thread Stats Latency: avg, stdev, max, +/- stdev
	latencyLine   int
	recorded      *hdrBlock
	uncorrected   *hdrBlock
	wrkPercentile bool
	calibMean     []string
	calibInterval []string
	requests      bool
	rps           bool
	transfer      bool
	stats         bool
	socket        bool
	non2xx        bool
	reqLine       int
	nonLine, nonC int
}

// hdrBlock is one of wrk2's HdrHistogram blocks.
type hdrBlock struct {
	summary  map[string]float64 // "50.000", "99.900", … -> ms
	spectrum []model.Percentile
	mean     float64
	stdev    float64
	max      float64
	total    int64
	// usec tells that the spectrum and its footers were printed in
	// microseconds, as wrk2 did before giltene/wrk2 commit 1425f37.
	usec bool
}

// next returns the next line, or false at the end of the input.
func (p *wrkParser) next() (string, bool) {
	if !p.l.Scan() {
		return "", false
	}
	return p.l.Text(), true
}

// eof returns the error for a report that ends before what is expected.
func (p *wrkParser) eof(expected string) error {
	if err := p.l.Err(); err != nil {
		return err
	}
	return Errorf(p.l.in.Name, p.l.Line()+1, 0, "%s report ends early: expected %s", p.tool, expected)
}

func (p *wrkParser) parse() error {
	l := p.l
	// The first line: "Running 15s test @ url".
	line, _ := p.next()
	trimmed := strings.TrimSpace(line)
	if strings.HasPrefix(trimmed, wrkUsagePrefix) {
		return l.Errorf(0, "%s printed its usage text, not a report (a command-line option was rejected)", p.tool)
	}
	p.run.Line = l.Line()
	if isWrkStatsHeader(trimmed) {
		// An excerpt that leaves out the Running and threads lines.
		p.stats = true
		return p.body()
	}
	if !isWrkThreads(trimmed) {
		if f := strings.Fields(trimmed); isWrkMaking(trimmed) {
			runLabel(p.run, "requested_requests", f[1])
			runLabel(p.run, "url", f[4])
		} else {
			rest := strings.TrimPrefix(trimmed, wrkRunningStart)
			dur, url, _ := strings.Cut(rest, " test @ ")
			runLabel(p.run, "requested_duration", dur)
			runLabel(p.run, "url", url)
		}
		// "  2 threads and 20 connections"
		var ok bool
		if line, ok = p.next(); !ok {
			return p.eof(`"<N> threads and <M> connections"`)
		}
	}
	// An excerpt may start here, leaving out the Running line.
	f := posFields(line)
	if !isWrkThreads(strings.TrimSpace(line)) {
		return l.Errorf(1, "expected \"<N> threads and <M> connections\", found %q", clipQuote(strings.TrimSpace(line)))
	}
	for _, c := range []struct {
		f   posField
		dst *model.Opt[int64]
	}{{f[0], &p.run.Threads}, {f[3], &p.run.Connections}} {
		n, err := strconv.ParseInt(c.f.text, 10, 64)
		if err != nil || n < 0 {
			return l.Errorf(c.f.col, "expected a whole number, found %q", c.f.text)
		}
		*c.dst = model.Some(n)
	}
	return p.body()
}

// body reads the report's lines after its first ones, up to its last.
func (p *wrkParser) body() error {
	l := p.l
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if p.rps && !(strings.HasPrefix(t, "Transfer/sec:") && !p.transfer) {
			// The report has its last line: what follows (a wrk Lua
			// script's done() output, a script's own lines, the next
			// report) is not part of it.
			l.Unread()
			break
		}
		if isWrkRunning(t) || strings.HasPrefix(t, wrkUsagePrefix) {
			return l.Errorf(1, "%s report ends early: expected %s, found the start of another report", p.tool, p.missing())
		}
		if err := p.line(line, t); err != nil {
			return err
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	if m := p.missing(); m != "" {
		return p.eof(m)
	}
	return p.finish()
}

// missing names the first line the report still needs, or "" when it has
// every line whose numbers it stores (Transfer/sec, a label only, may be
// cut off).
func (p *wrkParser) missing() string {
	switch {
	case !p.stats:
		return `the "Thread Stats" table`
	case !p.requests:
		return `"<N> requests in <duration>, <size> read"`
	case !p.rps:
		return `"Requests/sec: <rate>"`
	}
	return ""
}

// isWrkStatsHeader reports whether a trimmed line is the header of the
// Thread Stats table.
func isWrkStatsHeader(t string) bool {
	return strings.Join(strings.Fields(t), " ") == "Thread Stats Avg Stdev Max +/- Stdev"
}

// isWrkThreads reports whether a trimmed line is "2 threads and 20 connections".
func isWrkThreads(t string) bool {
	f := strings.Fields(t)
	return len(f) == 5 && f[1] == "threads" && f[2] == "and" && f[4] == "connections"
}

// line handles one line of the report body.
func (p *wrkParser) line(line, t string) error {
	l := p.l
	f := posFields(line)
	switch {
	case t == "":
		return nil
	case strings.HasPrefix(t, "Thread calibration:"):
		if p.tool != "wrk2" {
			return l.Errorf(1, "wrk2's calibration line in a wrk report")
		}
		return p.calibration(t)
	case strings.HasPrefix(t, "Thread Stats"):
		if p.stats {
			return l.Errorf(1, "a second \"Thread Stats\" table in one report")
		}
		p.stats = true
		return nil
	case f[0].text == "Latency" && len(f) == 5:
		if p.latencyLine != 0 || p.requests {
			return l.Errorf(1, "unexpected Latency line outside the \"Thread Stats\" table")
		}
		// The table's header holds no number: a report filtered by a
		// script (an egrep that keeps the lines with numbers) may leave
		// it out, and its Latency line opens the table.
		p.stats = true
		p.latencyLine = l.Line()
		for i := range 4 {
			p.latency[i] = f[i+1].text
			if !isPrintedNaN(f[i+1].text) {
				var ok bool
				if i == 3 {
					_, ok = percentValue(f[i+1].text)
				} else {
					_, err := durationMS(f[i+1].text)
					ok = err == nil
				}
				if !ok {
					return l.Errorf(f[i+1].col, "expected a time such as 1.24ms or a percentage, found %q", f[i+1].text)
				}
			}
		}
		return nil
	case f[0].text == "Req/Sec" && len(f) == 5:
		if !p.stats && p.requests {
			return l.Errorf(1, "unexpected Req/Sec line outside the \"Thread Stats\" table")
		}
		p.stats = true
		if isPrintedNaN(f[1].text) {
			// No rate samples (wrk2 before its calibration): the zeros
			// printed beside the NaN are no measurement.
			return nil
		}
		names := []string{"thread_rps_mean", "thread_rps_stdev", "thread_rps_max", "thread_rps_within_stdev_pct"}
		for i := range 4 {
			s := f[i+1].text
			if isPrintedNaN(s) {
				continue
			}
			var v float64
			var ok bool
			if i == 3 {
				v, ok = percentValue(s)
			} else {
				v, ok = countValue(s)
			}
			if !ok {
				return l.Errorf(f[i+1].col, "expected a rate such as 2.64k or a percentage, found %q", s)
			}
			runLabel(p.run, names[i], fmtLabelNum(v))
		}
		return nil
	case t == "Latency Distribution":
		if p.tool != "wrk" {
			return l.Errorf(1, "wrk 4.x's latency distribution in a wrk2 report")
		}
		return p.wrkDistribution()
	case strings.HasPrefix(t, "Latency Distribution (HdrHistogram - "):
		if p.tool != "wrk2" {
			return l.Errorf(1, "wrk2's HdrHistogram block in a wrk report")
		}
		kind := strings.TrimPrefix(t, "Latency Distribution (HdrHistogram - ")
		var dst **hdrBlock
		corrected := false
		switch {
		case kind == "Recorded Latency)":
			dst, corrected = &p.recorded, true
		case strings.HasPrefix(kind, "Uncorrected Latency"):
			dst = &p.uncorrected
		default:
			return l.Errorf(40, "expected Recorded Latency or Uncorrected Latency, found %q", clipQuote(kind))
		}
		if *dst != nil {
			return l.Errorf(1, "a second %q block in one report", clipQuote(t))
		}
		b, err := p.hdrBlock(corrected)
		if err != nil {
			return err
		}
		*dst = b
		return nil
	case len(f) >= 5 && f[1].text == "requests" && f[2].text == "in":
		return p.requestsLine(f)
	case strings.HasPrefix(t, "Socket errors:"):
		return p.socketErrors(line)
	case strings.HasPrefix(t, "Non-2xx or 3xx responses:"):
		if !p.requests || p.non2xx {
			return l.Errorf(1, "unexpected %q line", "Non-2xx or 3xx responses")
		}
		v := f[len(f)-1]
		n, err := strconv.ParseInt(v.text, 10, 64)
		if err != nil || n < 0 || len(f) != 5 {
			return l.Errorf(v.col, "expected a count of responses, found %q", v.text)
		}
		p.non2xx = true
		p.run.Non2xx = model.Some(n)
		p.nonLine, p.nonC = l.Line(), v.col
		return nil
	case f[0].text == "Requests/sec:":
		if !p.requests || p.rps || len(f) != 2 {
			return l.Errorf(1, "unexpected %q line", "Requests/sec")
		}
		v, err := strconv.ParseFloat(f[1].text, 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return l.Errorf(f[1].col, "expected a rate, found %q", f[1].text)
		}
		p.rps = true
		p.run.RPS = model.Some(v)
		return nil
	case f[0].text == "Transfer/sec:":
		if !p.rps || len(f) != 2 {
			return l.Errorf(1, "unexpected %q line", "Transfer/sec")
		}
		v, ok := sizeBytes(f[1].text, binaryBase)
		if !ok {
			return l.Errorf(f[1].col, "expected a size such as 231.96KB, found %q", f[1].text)
		}
		p.transfer = true
		reported(p.run, model.ReportedTransferBytesPerS, v)
		return nil
	}
	return l.Errorf(1, "unexpected line in a %s report: %q", p.tool, clipQuote(t))
}

// calibration reads wrk2's "Thread calibration" line, in either of the
// forms wrk2 has printed:
//
//	Thread calibration: mean lat.: 6.594ms, rate sampling interval: 14ms
//	Thread calibration: mean lat.: 6594 usec, rate sampling interval: 14 msec
func (p *wrkParser) calibration(t string) error {
	l := p.l
	col := strings.Index(l.Text(), "Thread calibration:") + 1
	rest := strings.TrimPrefix(t, "Thread calibration:")
	mean, interval, ok := strings.Cut(rest, ",")
	mean = strings.TrimSpace(mean)
	interval = strings.TrimSpace(interval)
	if !ok || !strings.HasPrefix(mean, "mean lat.:") || !strings.HasPrefix(interval, "rate sampling interval:") {
		return l.Errorf(col, "expected \"Thread calibration: mean lat.: <time>, rate sampling interval: <time>\"")
	}
	parse := func(s string) (float64, bool) {
		s = strings.TrimSpace(s)
		num, unit, _ := strings.Cut(s, " ")
		switch unit {
		case "usec":
			s = num + "us"
		case "msec":
			s = num + "ms"
		case "":
		default:
			return 0, false
		}
		ms, err := durationMS(s)
		return ms, err == nil
	}
	m, ok1 := parse(strings.TrimPrefix(mean, "mean lat.:"))
	iv, ok2 := parse(strings.TrimPrefix(interval, "rate sampling interval:"))
	if !ok1 || !ok2 {
		return l.Errorf(col, "expected times such as 6.594ms or 6594 usec in the calibration line")
	}
	p.calibMean = append(p.calibMean, fmtLabelNum(m))
	p.calibInterval = append(p.calibInterval, fmtLabelNum(iv))
	return nil
}

// wrkDistribution reads wrk 4.x's four --latency lines ("50%  617.00us").
func (p *wrkParser) wrkDistribution() error {
	l := p.l
	if p.wrkPercentile {
		return l.Errorf(1, "a second latency distribution in one report")
	}
	p.wrkPercentile = true
	want := []string{"50%", "75%", "90%", "99%"}
	for _, w := range want {
		line, ok := p.next()
		if !ok {
			return p.eof(fmt.Sprintf("the %s latency line", w))
		}
		f := posFields(line)
		if len(f) != 2 || f[0].text != w {
			return l.Errorf(1, "expected the %s latency line, found %q", w, clipQuote(strings.TrimSpace(line)))
		}
		ms, err := durationMS(f[1].text)
		if err != nil {
			return l.Errorf(f[1].col, "expected a time such as 4.24ms, found %q", f[1].text)
		}
		pct, _ := strconv.ParseFloat(strings.TrimSuffix(w, "%"), 64)
		p.run.Percentiles = append(p.run.Percentiles, model.Percentile{Percentile: pct, LatencyMS: ms})
	}
	return nil
}

// hdrSummary are the percentiles of wrk2's eight summary lines.
var hdrSummary = []string{"50.000%", "75.000%", "90.000%", "99.000%", "99.900%", "99.990%", "99.999%", "100.000%"}

// hdrBlock reads one wrk2 HdrHistogram block after its title line, up to
// its dashed closing line.
func (p *wrkParser) hdrBlock(corrected bool) (*hdrBlock, error) {
	l := p.l
	b := &hdrBlock{summary: map[string]float64{}}
	for _, w := range hdrSummary {
		line, ok := p.next()
		if !ok {
			return nil, p.eof(fmt.Sprintf("the %s latency line", w))
		}
		f := posFields(line)
		if len(f) != 2 || f[0].text != w {
			return nil, l.Errorf(1, "expected the %s latency line, found %q", w, clipQuote(strings.TrimSpace(line)))
		}
		ms, err := durationMS(f[1].text)
		if err != nil {
			return nil, l.Errorf(f[1].col, "expected a time such as 6.33ms, found %q", f[1].text)
		}
		b.summary[strings.TrimSuffix(w, "%")] = ms
	}
	expect := func(what string, pred func(string) bool) error {
		for {
			line, ok := p.next()
			if !ok {
				return p.eof(what)
			}
			t := strings.TrimSpace(line)
			if t == "" {
				continue
			}
			if !pred(t) {
				return l.Errorf(1, "expected %s, found %q", what, clipQuote(t))
			}
			return nil
		}
	}
	// The spectrum, unless the footers follow the summary lines at once:
	// a report filtered by a script (an egrep that keeps the lines with
	// a % or a #) leaves its rows out, and its run has no spectrum.
	spectrum := true
	for {
		line, ok := p.next()
		if !ok {
			return nil, p.eof(`"Detailed Percentile spectrum:"`)
		}
		if t := strings.TrimSpace(line); t != "" {
			spectrum = !strings.HasPrefix(t, "#[Mean")
			l.Unread()
			break
		}
	}
	if spectrum {
		if err := expect(`"Detailed Percentile spectrum:"`, func(t string) bool { return t == "Detailed Percentile spectrum:" }); err != nil {
			return nil, err
		}
		if err := expect("the spectrum header \"Value Percentile TotalCount 1/(1-Percentile)\"", func(t string) bool {
			return strings.Join(strings.Fields(t), " ") == "Value Percentile TotalCount 1/(1-Percentile)"
		}); err != nil {
			return nil, err
		}
	}
	// Rows up to the #[Mean …] footer.
	rows := hdrRows{}
	var mean, stdev []hdrKV
	meanLine := 0
	for {
		line, ok := p.next()
		if !ok {
			return nil, p.eof("a spectrum row or the #[Mean = …] footer")
		}
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#[Mean") {
			kvs, err := p.footer("Mean", "StdDeviation")
			if err != nil {
				return nil, err
			}
			mean, stdev, meanLine = kvs[:1], kvs[1:], l.Line()
			break
		}
		if err := rows.add(l, posFields(line)); err != nil {
			return nil, err
		}
	}
	line, ok := p.next()
	if !ok {
		return nil, p.eof("the #[Max = …, Total count = …] footer")
	}
	if !strings.HasPrefix(strings.TrimSpace(line), "#[Max") {
		return nil, l.Errorf(1, "expected the #[Max = …, Total count = …] footer, found %q", clipQuote(strings.TrimSpace(line)))
	}
	kvs, err := p.footer("Max", "Total count")
	if err != nil {
		return nil, err
	}
	var footers [4]exactDecimal // mean, stdev, max, total count
	var nan [4]bool
	for i, kv := range []hdrKV{mean[0], stdev[0], kvs[0], kvs[1]} {
		if footers[i], nan[i], err = hdrFooterNumber(l, kv); err != nil {
			return nil, err
		}
	}
	if footers[3].scale != 0 || nan[3] || nan[2] {
		return nil, l.Errorf(kvs[1].col, "expected a whole Total count and a Max, found %q and %q", kvs[1].value, kvs[0].value)
	}
	b.total = int64(footers[3].mant)
	switch {
	case b.total == 0:
		// An empty histogram (wrk2 recorded no latency: its calibration
		// outlasted the run): a NaN mean and deviation, no rows, or rows
		// of count 0.
		if n := len(rows.rows); n > 0 && rows.rows[n-1].count != 0 {
			return nil, l.Errorf(1, "Total count 0 differs from the last spectrum row's count %d", rows.rows[n-1].count)
		}
		b.spectrum = nil
		return p.hdrClose(b)
	case spectrum && len(rows.rows) == 0:
		return nil, l.Errorf(1, "the percentile spectrum has no rows")
	case nan[0] || nan[1]:
		return nil, Errorf(l.in.Name, meanLine, mean[0].col, "a mean and deviation of NaN for a Total count of %d", b.total)
	case spectrum && !rows.done:
		return nil, l.Errorf(1, "the spectrum ends before its last row (the row whose 1/(1-Percentile) is inf)")
	}
	// The summary lines carry their unit; the spectrum does not. Its
	// largest value is the 100% summary value in the same unit (ms), or
	// a thousand times it (us, early wrk2).
	if top := b.summary["100.000"]; top > 0 && footers[2].float()/top > 31.6 {
		b.usec = true
	}
	conv := func(d exactDecimal) float64 {
		if b.usec {
			d, _ = d.shift(-3)
		}
		return d.float()
	}
	for _, r := range rows.rows {
		b.spectrum = append(b.spectrum, model.Percentile{Percentile: r.pct, LatencyMS: conv(r.value), Count: model.Some(r.count), Corrected: corrected})
	}
	b.mean, b.stdev, b.max = conv(footers[0]), conv(footers[1]), conv(footers[2])
	if !spectrum {
		return p.hdrClose(b)
	}
	if last := b.spectrum[len(b.spectrum)-1].Count.V; last != b.total {
		return nil, l.Errorf(1, "Total count %d differs from the last spectrum row's count %d", b.total, last)
	}
	return p.hdrClose(b)
}

// hdrClose reads the end of an HdrHistogram block: an optional #[Buckets
// footer and the dashed line.
func (p *wrkParser) hdrClose(b *hdrBlock) (*hdrBlock, error) {
	l := p.l
	for {
		line, ok := p.next()
		if !ok {
			return nil, p.eof("the dashed line that closes the HdrHistogram block")
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#[Buckets") {
			continue
		}
		if t != "" && strings.Trim(t, "-") == "" {
			return b, nil
		}
		return nil, l.Errorf(1, "expected the dashed line that closes the HdrHistogram block, found %q", clipQuote(t))
	}
}

// footer reads "#[Mean    =        6.373, StdDeviation   =        0.620]":
// the two keys, in order.
func (p *wrkParser) footer(k1, k2 string) ([]hdrKV, error) {
	kvs, err := hdrFooter(p.l)
	if err != nil {
		return nil, err
	}
	if len(kvs) != 2 || kvs[0].key != k1 || kvs[1].key != k2 {
		return nil, p.l.Errorf(1, "expected \"#[%s = <n>, %s = <n>]\", found %q", k1, k2, clipQuote(strings.TrimSpace(p.l.Text())))
	}
	return kvs, nil
}

// requestsLine reads "29943 requests in 15.00s, 3.40MB read".
func (p *wrkParser) requestsLine(f []posField) error {
	l := p.l
	if p.requests {
		return l.Errorf(1, "a second requests line in one report")
	}
	if !p.stats || len(f) != 6 || f[5].text != "read" || !strings.HasSuffix(f[3].text, ",") {
		return l.Errorf(1, "expected \"<N> requests in <duration>, <size> read\" after the Thread Stats table")
	}
	n, err := strconv.ParseInt(f[0].text, 10, 64)
	if err != nil || n < 0 {
		return l.Errorf(f[0].col, "expected a count of requests, found %q", f[0].text)
	}
	durText := strings.TrimSuffix(f[3].text, ",")
	ms, ok := durationExactMS(durText)
	if ok {
		ms, ok = ms.shift(-3)
	}
	if !ok {
		return l.Errorf(f[3].col, "expected a duration such as 15.00s, found %q", durText)
	}
	b, ok := binaryBytes(f[4].text)
	if !ok {
		return l.Errorf(f[4].col, "expected a size such as 3.40MB, found %q", f[4].text)
	}
	p.requests = true
	p.reqLine = l.Line()
	p.run.Requests = model.Some(n)
	p.run.DurationS = model.Some(ms.float())
	p.run.BytesRead = model.Some(b)
	runLabel(p.run, "reported_duration", durText)
	if v, ok := sizeBytes(f[4].text, binaryBase); ok {
		reported(p.run, model.ReportedBytesRead, v)
	}
	return nil
}

// socketErrors reads "Socket errors: connect 0, read 9, write 109695, timeout 24".
func (p *wrkParser) socketErrors(line string) error {
	l := p.l
	if !p.requests || p.socket {
		return l.Errorf(1, "unexpected %q line", "Socket errors")
	}
	p.socket = true
	_, rest, _ := strings.Cut(line, "Socket errors:")
	off := len(line) - len(rest)
	parts := strings.Split(rest, ",")
	names := []string{"connect", "read", "write", "timeout"}
	if len(parts) != 4 {
		return l.Errorf(off+1, "expected \"connect <n>, read <n>, write <n>, timeout <n>\"")
	}
	var total int64
	for i, part := range parts {
		f := posFields(part)
		if len(f) != 2 || f[0].text != names[i] {
			return l.Errorf(off+1, "expected \"%s <n>\" in the socket errors", names[i])
		}
		n, err := strconv.ParseInt(f[1].text, 10, 64)
		if err != nil || n < 0 {
			return l.Errorf(off+f[1].col, "expected a count of %s errors, found %q", names[i], f[1].text)
		}
		if total += n; total < 0 {
			return l.Errorf(off+f[1].col, "socket error counts overflow")
		}
		runLabel(p.run, "socket_"+names[i], f[1].text)
		off += len(part) + 1
	}
	p.run.Errors = model.Some(total)
	return nil
}

// noLatencyWarning says why a run that recorded no latency has none: wrk
// prints NaN statistics when no request was answered in time, and wrk2
// also when its calibration, during which it records nothing, outlasts
// the run.
func (p *wrkParser) noLatencyWarning() string {
	msg := fmt.Sprintf("%s recorded no latency (it printed %s %s for the mean and deviation): the latency columns are NULL", p.tool, p.latency[0], p.latency[1])
	longest := 0.0
	for _, v := range p.calibInterval {
		x, _ := strconv.ParseFloat(v, 64)
		longest = max(longest, x)
	}
	if d := p.run.DurationS; d.Valid && longest > 0 && longest/1000 >= d.V {
		msg += fmt.Sprintf("; its calibration (a rate sampling interval of %s ms) outlasted the %s s run", fmtLabelNum(longest), fmtLabelNum(d.V))
	}
	return msg
}

// finish fills the run from what was read.
func (p *wrkParser) finish() error {
	r := p.run
	r.LatencyCorrected = p.tool == "wrk2"
	if !p.socket {
		// wrk prints the line only when a count is not zero.
		for _, n := range []string{"connect", "read", "write", "timeout"} {
			runLabel(p.run, "socket_"+n, "0")
		}
		r.Errors = model.Some(int64(0))
	}
	if !p.non2xx {
		r.Non2xx = model.Some(int64(0)) // printed only when not zero
	}
	if r.Non2xx.V > r.Requests.V {
		return Errorf(p.l.in.Name, p.nonLine, p.nonC, "%d Non-2xx or 3xx responses exceed the %d requests", r.Non2xx.V, r.Requests.V)
	}
	// wrk counts every parsed response in "requests" and those with a
	// status above 399 as "Non-2xx or 3xx"; the rest are 1xx-3xx.
	r.Responses2xx = model.Some(r.Requests.V - r.Non2xx.V)

	// Thread Stats latency. A "-nan" spread means no latency was recorded
	// (every request timed out): the zeros printed beside it are no
	// measurement and stay NULL.
	if p.latencyLine == 0 {
		return Errorf(p.l.in.Name, p.reqLine, 0, "the Thread Stats table has no Latency line")
	}
	noLatency := isPrintedNaN(p.latency[0]) || isPrintedNaN(p.latency[1]) || isPrintedNaN(p.latency[3])
	if noLatency {
		runLabel(p.run, "warning", p.noLatencyWarning())
	} else {
		mean, _ := durationMS(p.latency[0])
		stdev, _ := durationMS(p.latency[1])
		mx, _ := durationMS(p.latency[2])
		r.LatencyMeanMS, r.LatencyStdevMS, r.LatencyMaxMS = model.Some(mean), model.Some(stdev), model.Some(mx)
		pct, _ := percentValue(p.latency[3])
		runLabel(p.run, "latency_within_stdev_pct", fmtLabelNum(pct))
	}
	for i, k := range []string{"reported_latency_mean", "reported_latency_stdev", "reported_latency_max"} {
		runLabel(p.run, k, p.latency[i])
	}

	if len(p.calibMean) > 0 {
		runLabel(p.run, "calibration_mean_latency_ms", strings.Join(p.calibMean, ","))
		runLabel(p.run, "calibration_interval_ms", strings.Join(p.calibInterval, ","))
	}

	switch p.tool {
	case "wrk":
		if noLatency {
			// Nothing recorded: the 0.00us of the --latency lines are no
			// measurement either.
			r.Percentiles = nil
		}
		for _, q := range r.Percentiles {
			switch q.Percentile {
			case 50:
				r.LatencyP50MS = model.Some(q.LatencyMS)
			case 90:
				r.LatencyP90MS = model.Some(q.LatencyMS)
			case 99:
				r.LatencyP99MS = model.Some(q.LatencyMS)
			}
		}
	case "wrk2":
		if b := p.recorded; b != nil && b.total > 0 {
			// The footer prints the same histogram's mean, deviation and
			// maximum as the Thread Stats line, with three decimals of ms.
			r.LatencyMeanMS, r.LatencyStdevMS, r.LatencyMaxMS = model.Some(b.mean), model.Some(b.stdev), model.Some(b.max)
			r.LatencyP50MS = model.Some(b.summary["50.000"])
			r.LatencyP90MS = model.Some(b.summary["90.000"])
			r.LatencyP99MS = model.Some(b.summary["99.000"])
			r.LatencyP999MS = model.Some(b.summary["99.900"])
			for _, q := range b.spectrum {
				if q.Percentile == 95 {
					r.LatencyP95MS = model.Some(q.LatencyMS)
				}
			}
			r.Percentiles = append(r.Percentiles, b.spectrum...)
			runLabel(p.run, "hdr_total_count", strconv.FormatInt(b.total, 10))
			if b.usec {
				runLabel(p.run, "hdr_spectrum_unit", "us")
			}
		}
		if b := p.uncorrected; b != nil && b.total > 0 {
			r.Percentiles = append(r.Percentiles, b.spectrum...)
			runLabel(p.run, "uncorrected_latency_mean_ms", fmtLabelNum(b.mean))
			runLabel(p.run, "uncorrected_latency_stdev_ms", fmtLabelNum(b.stdev))
			runLabel(p.run, "uncorrected_latency_max_ms", fmtLabelNum(b.max))
			runLabel(p.run, "uncorrected_latency_p50_ms", fmtLabelNum(b.summary["50.000"]))
			runLabel(p.run, "uncorrected_latency_p99_ms", fmtLabelNum(b.summary["99.000"]))
			runLabel(p.run, "uncorrected_hdr_total_count", strconv.FormatInt(b.total, 10))
		}
	}
	return nil
}
