package ingest

// The text report of hey and of oha, its Rust successor, which prints the
// same layout: a Summary, a Response time histogram, a Latency (oha: Response
// time) distribution, Details, a Status code distribution and an Error
// distribution. One parser reads both; heyDialect holds what differs.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// heyDialect is the vocabulary of one of the two tools.
type heyDialect struct {
	tool string
	// units are the time units its values carry, as milliseconds.
	units map[string]msScale
	// method names the percentile definition of its distribution.
	method string
	// details are the lines of its Details block.
	details []string
}

// heyTool: hey, and boom, as it was called until 2016, which printed
// "1.2723 secs." and a "Speed index:" line.
var heyTool = &heyDialect{
	tool:    "hey",
	units:   map[string]msScale{"secs": {3, 1}, "secs.": {3, 1}},
	method:  "hey nearest rank: sorted[i] for the first i with i*100/n >= p (integer division)",
	details: []string{"DNS+dialup", "DNS-lookup", "req write", "resp wait", "resp read"},
}

// ohaTool: oha 0.x and 1.0-1.8 print seconds as "secs"; 1.9 and later
// scale every time to the slowest request ("ns", "us", "ms", "sec", "10
// sec", "min", "10 min", "hr"), or to --time-unit.
var ohaTool = &heyDialect{
	tool: "oha",
	units: map[string]msScale{"secs": {3, 1}, "ns": {-6, 1}, "us": {-3, 1}, "ms": {0, 1}, "sec": {3, 1},
		"10 sec": {4, 1}, "min": {3, 60}, "10 min": {3, 600}, "hr": {3, 3600}},
	method:  "oha: sorted[floor(p/100 * n)] of the answered requests",
	details: []string{"DNS+dialup", "DNS-lookup"},
}

// heyMaxResults is how many results hey keeps for its distributions
// (requester/report.go maxRes).
const heyMaxResults = 1000000

// Sections of a report, in the order the tools print them.
const (
	heyNone = iota
	heySummary
	heyHistogram
	heyDistribution
	heyBreakdown // oha --stats-success-breakdown: histograms and distributions of 2xx and of 4xx+5xx
	heyDetails
	heyStatuses
	heyErrors
)

// heyHeadings maps a heading line to its section.
var heyHeadings = map[string]int{
	"Summary:":                                     heySummary,
	"Response time histogram:":                     heyHistogram,
	"Latency distribution:":                        heyDistribution,
	"Response time distribution:":                  heyDistribution,
	"Response time histogram (2xx only):":          heyBreakdown,
	"Response time distribution (2xx only):":       heyBreakdown,
	"Response time histogram (4xx + 5xx only):":    heyBreakdown,
	"Response time distribution (4xx + 5xx only):": heyBreakdown,
	"Details (average, fastest, slowest):":         heyDetails,
	"Status code distribution:":                    heyStatuses,
	"Error distribution:":                          heyErrors,
}

// heyParser reads one hey or oha report.
type heyParser struct {
	l *Lines
	d *heyDialect

	run       *model.Run
	section   int
	heading   string // the heading of the section, as printed
	codes     map[string]int64
	errCounts map[string]int64
	histCount int64
	histSeen  bool
	histDone  bool // a section followed the histogram: it is complete
	rate      bool
	slowest   model.Opt[float64]
}

// heyReports and ohaReports read the reports of a file (readReports): a
// report starts at its "Summary:" line and ends before the next one, or
// before the first line after its Status code or Error distribution that
// is not one of their "[…]" entries.
var heyReports, ohaReports = heyFormat(heyTool), heyFormat(ohaTool)

func heyFormat(d *heyDialect) *reportFormat {
	return &reportFormat{
		tool:   d.tool,
		first:  `"Summary:"`,
		begins: func(t string) bool { return t == "Summary:" },
		read: func(l *Lines, _ model.Sink) (*model.Run, error) {
			p := &heyParser{l: l, d: d}
			return p.report()
		},
	}
}

func readHeyText(in *Input, sink model.Sink, d *heyDialect) error {
	if d == ohaTool {
		return readReports(in, sink, ohaReports)
	}
	return readReports(in, sink, heyReports)
}

// report reads one report, from its Summary: line.
func (p *heyParser) report() (*model.Run, error) {
	l := p.l
	l.Scan()
	p.run = &model.Run{Tool: p.d.tool, Line: l.Line()}
	p.section = heySummary
	for l.Scan() {
		t := l.Text()
		tt := strings.TrimSpace(t)
		_, heading := heyHeadings[tt]
		if tt == "Summary:" || (p.section == heyStatuses || p.section == heyErrors) && tt != "" && !heading && !strings.HasPrefix(tt, "[") {
			l.Unread()
			return p.finish(l.Line())
		}
		if err := p.line(t); err != nil {
			return nil, err
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	return p.finish(l.Line() + 1)
}

func (p *heyParser) errorf(col int, format string, args ...any) error {
	return p.l.Errorf(col, "%s %s", p.d.tool, strings.TrimSpace(fmt.Sprintf(format, args...)))
}

func (p *heyParser) line(t string) error {
	tt := strings.TrimSpace(t)
	if tt == "" {
		return nil
	}
	if s, ok := heyHeadings[tt]; ok {
		if p.section == heyHistogram {
			p.histDone = true
		}
		if s == heyErrors {
			p.errCounts = map[string]int64{}
		}
		if s == heyStatuses {
			p.codes = map[string]int64{}
		}
		p.section, p.heading = s, strings.TrimSuffix(tt, ":")
		return nil
	}
	col := strings.Index(t, tt) + 1
	switch p.section {
	case heySummary:
		return p.summary(t, tt)
	case heyHistogram, heyBreakdown:
		// "0.012 [4903]\t|∎∎∎", oha "  4.325 ms [21] |■■■": the
		// bucket marks are not kept; the counts add up to the answered
		// requests.
		if n, ok := heyBucket(tt); ok {
			if p.section == heyHistogram {
				p.histCount += n
				p.histSeen = true
			}
			return nil
		}
		if p.section == heyBreakdown {
			if _, _, err := p.percentile(tt); err == nil {
				return nil
			}
		}
		return p.errorf(col, "%s: expected \"mark [count] |bars\", found %q", p.heading, clipLine(tt))
	case heyDistribution:
		pc, ms, err := p.percentile(tt)
		if err != nil {
			if v, ok := cutPercentIn(tt); ok {
				return p.errorf(strings.LastIndex(t, v)+1, "%s: %v", p.heading, err)
			}
			return p.errorf(col, "%s: expected \"P%% in N %s\", found %q", p.heading, p.unitList(), clipLine(tt))
		}
		if ms.Valid {
			p.run.Percentiles = append(p.run.Percentiles, model.Percentile{Percentile: pc, LatencyMS: ms.V})
		}
	case heyDetails:
		key, _, _ := strings.Cut(tt, ":")
		for _, k := range p.d.details {
			if key == k {
				return nil
			}
		}
		return p.errorf(col, "Details: expected one of %s, found %q", strings.Join(p.d.details, ", "), clipLine(tt))
	case heyStatuses, heyErrors:
		if p.section == heyStatuses {
			// "[200]\t5000 responses"
			code, rest, ok := strings.Cut(tt[1:], "]")
			c, err1 := strconv.Atoi(code)
			cnt, found := strings.CutSuffix(strings.TrimSpace(rest), " responses")
			n, err2 := strconv.ParseInt(cnt, 10, 64)
			if !ok || !found || err1 != nil || c < 0 || err2 != nil || n < 0 {
				return p.errorf(col, "Status code distribution: expected \"[code] N responses\", found %q", clipLine(tt))
			}
			p.codes[code] += n
			return nil
		}
		// "[100]\tGet ...: connection refused"
		cnt, msg, ok := strings.Cut(tt[1:], "]")
		n, err := strconv.ParseInt(cnt, 10, 64)
		if !ok || err != nil || n < 0 {
			return p.errorf(col, "Error distribution: expected \"[N] error\", found %q", clipLine(tt))
		}
		p.errCounts[strings.TrimSpace(msg)] += n
	}
	return nil
}

// summary reads one line of the Summary block.
func (p *heyParser) summary(t, tt string) error {
	key, val, ok := strings.Cut(tt, ":")
	val = strings.TrimSpace(val)
	if !ok {
		return p.errorf(strings.Index(t, tt)+1, "Summary: expected \"Name: value\", found %q", clipLine(tt))
	}
	colon := strings.Index(t, ":")
	col := len(t) - len(strings.TrimLeft(t[colon+1:], " \t")) + 1 // the value's column
	r := p.run
	switch key {
	case "Total", "Slowest", "Fastest", "Average":
		ms, err := p.duration(val)
		if err != nil {
			return p.errorf(col, "%s: %v", key, err)
		}
		switch key {
		case "Total":
			if !ms.Valid {
				return p.errorf(col, "Total: expected a duration, found %q", val)
			}
			r.DurationS, _ = p.durationIn(val, -3)
		case "Slowest":
			p.slowest = ms
		case "Average":
			r.LatencyMeanMS = ms
		}
	case "Requests/sec":
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) || strings.ContainsAny(val, "xXpP_") {
			return p.errorf(col, "Requests/sec: expected a number, found %q", val)
		}
		r.RPS = model.Some(v)
		p.rate = true
	case "Total data":
		if n, ok := strings.CutSuffix(val, " bytes"); ok && p.d == heyTool {
			b, err := strconv.ParseInt(n, 10, 64)
			if err != nil || b < 0 {
				return p.errorf(col, "Total data: expected \"N bytes\", found %q", val)
			}
			r.BytesRead = model.Some(b)
			return nil
		}
		// oha prints binary multiples rounded to two decimals
		// ("38.28 MiB"): the tool's figure, not a byte count.
		b, ok := sizeBytes(val, binaryBase)
		if !ok {
			return p.errorf(col, "Total data: expected a size such as 38.28 MiB, found %q", val)
		}
		reported(r, model.ReportedBytesRead, b)
	case "Size/sec":
		if b, ok := sizeBytes(val, binaryBase); ok {
			reported(r, model.ReportedTransferBytesPerS, b)
		}
	case "Size/request":
	case "Speed index":
		runLabel(r, "speed_index", val) // boom: "Meh", "Fast", …
	case "Success rate":
		if p.d != ohaTool {
			return p.errorf(col, "Summary: %q is a line of oha's report, not of hey's", tt)
		}
		// 0.x prints a ratio ("1.0000"), later versions a percentage.
		pct, ok := percentValue(val)
		if !ok {
			if x, err := strconv.ParseFloat(val, 64); err == nil && x >= 0 {
				pct, ok = ratioPct(x)
			}
		}
		if !ok {
			return p.errorf(col, "Success rate: expected a percentage or a ratio, found %q", val)
		}
		reported(r, model.ReportedSuccessPct, pct)
	case "Note":
		// hey: "Note:  Distributions are for first 1000000 results."
		runLabel(r, "distribution_note", val)
	default:
		return p.errorf(strings.Index(t, tt)+1, "Summary: unexpected line %q", clipLine(tt))
	}
	return nil
}

// duration reads "0.0026 secs" (or oha's "4.3250 ms") as milliseconds;
// NaN, which both print where no request was answered, is an absent value.
func (p *heyParser) duration(s string) (model.Opt[float64], error) { return p.durationIn(s, 0) }

// durationIn reads a duration in ms times 10^shift (-3: seconds).
func (p *heyParser) durationIn(s string, shift int) (model.Opt[float64], error) {
	num, unit, _ := strings.Cut(strings.TrimSpace(s), " ")
	perMS, ok := p.d.units[unit]
	if !ok {
		return model.Opt[float64]{}, fmt.Errorf("expected \"N %s\", found %q", p.unitList(), s)
	}
	if num == "NaN" {
		return model.Opt[float64]{}, nil
	}
	ms, err := decimalMS(num, perMS.exp+shift)
	if err != nil || math.IsInf(ms*perMS.mul, 0) {
		return model.Opt[float64]{}, fmt.Errorf("expected \"N %s\" with N >= 0, found %q", p.unitList(), s)
	}
	return model.Some(ms * perMS.mul), nil
}

func (p *heyParser) unitList() string {
	if p.d == heyTool {
		return "secs"
	}
	return "secs|ms|us|ns|sec|min|hr"
}

// percentile reads "10%% in 0.0004 secs" (hey prints its format string's
// "%%"), "10% in …" or oha's "10.00% in 1.2235 ms".
func (p *heyParser) percentile(tt string) (float64, model.Opt[float64], error) {
	pc, _, _ := strings.Cut(tt, "%")
	v, ok := cutPercentIn(tt)
	x, err := strconv.ParseFloat(pc, 64)
	if !ok || err != nil || !(x >= 0 && x <= 100) {
		return 0, model.Opt[float64]{}, fmt.Errorf("expected \"P%% in N %s\", found %q", p.unitList(), clipLine(tt))
	}
	ms, err := p.duration(v)
	return x, ms, err
}

// cutPercentIn returns what follows "P% in " (or hey's "P%% in ").
func cutPercentIn(tt string) (string, bool) {
	if _, v, ok := strings.Cut(tt, "%% in "); ok {
		return v, true
	}
	_, v, ok := strings.Cut(tt, "% in ")
	return v, ok
}

// heyBucket reads a histogram line and returns its count.
func heyBucket(tt string) (int64, bool) {
	mark, rest, ok := strings.Cut(tt, " [")
	cnt, bars, found := strings.Cut(rest, "]")
	n, err := strconv.ParseInt(cnt, 10, 64)
	if !ok || !found || err != nil || n < 0 || !strings.HasPrefix(strings.TrimSpace(bars), "|") {
		return 0, false
	}
	_, err = strconv.ParseFloat(strings.Fields(mark)[0], 64)
	return n, err == nil || strings.Fields(mark)[0] == "NaN"
}

// finish completes the report, whose last line is before line end.
func (p *heyParser) finish(end int) (*model.Run, error) {
	r := p.run
	name := p.l.in.Name
	c := countResponses(p.codes, p.errCounts, p.d == ohaTool)
	n2xx, non2xx, nerr, aborted := c.n2xx, c.non2xx, c.errors, c.aborted
	switch {
	case p.codes != nil:
		if _, capped := r.Labels["distribution_note"]; p.histCount > 0 && !capped && p.histCount != n2xx+non2xx {
			return nil, Errorf(name, r.Line, 0, "%s report: the Status code distribution counts %d responses, the Response time histogram %d: a truncated report?", p.d.tool, n2xx+non2xx, p.histCount)
		}
		if n2xx+non2xx+nerr+aborted == 0 {
			return nil, Errorf(name, r.Line, 0, "%s report counts no request: no status code and no error", p.d.tool)
		}
		r.Errors = model.Some(nerr)
		if n := n2xx + non2xx + nerr; p.d == heyTool && n == heyMaxResults && r.RPS.Valid && r.DurationS.Valid &&
			r.RPS.V*r.DurationS.V > heyMaxResults+r.RPS.V {
			// hey records the first million results only: its
			// distributions stop there while Requests/sec × Total says
			// how many requests the run made. The run's counts are not
			// known.
			runLabel(r, "counts_capped", "hey counts the first 1000000 results only; Requests/sec x Total is "+fmtLabelNum(math.Round(r.RPS.V*r.DurationS.V)))
			break
		}
		r.Requests = model.Some(n2xx + non2xx + nerr)
		r.Responses2xx = model.Some(n2xx)
		r.Non2xx = model.Some(non2xx)
	case p.histSeen && !p.histDone:
		return nil, Errorf(name, end, 0, "%s report from line %d ends inside its Response time histogram: expected the rest of it, or the next section", p.d.tool, r.Line)
	case p.histSeen:
		// An excerpt without the Status code distribution: the
		// histogram still counts the answered requests.
		r.Requests = model.Some(p.histCount + nerr)
		if p.errCounts != nil {
			r.Errors = model.Some(nerr)
		}
		runLabel(r, "requests_basis", "the Response time histogram's counts (no Status code distribution)")
	}
	c.label(r, p.codes, p.errCounts)
	if !r.Requests.Valid && len(r.Percentiles) == 0 {
		return nil, Errorf(name, end, 0, "%s report from line %d stops before its counts and its latency distribution: expected the Response time histogram, a distribution or the Status code distribution", p.d.tool, r.Line)
	}
	if r.LatencyMeanMS.Valid {
		r.LatencyMaxMS = p.slowest
	} else if len(r.Percentiles) > 0 {
		return nil, Errorf(name, r.Line, 0, "%s report: a latency distribution with a NaN Average", p.d.tool)
	}
	runLabel(r, "percentile_method", p.d.method)
	spectrumColumns(r)
	return r, nil
}

// msScale is a unit as milliseconds: 10^exp times mul.
type msScale struct {
	exp int
	mul float64
}

// responseCounts are the counts of a hey or oha report: answers by status
// class, requests that got no answer, and oha's requests aborted at the
// -z deadline (cut by the tool, not failed by the server: in neither).
type responseCounts struct {
	n2xx, non2xx, errors, aborted int64
}

// countResponses adds up a Status code and an Error distribution; with
// deadline, the "aborted due to deadline" errors are counted apart.
func countResponses(codes, errs map[string]int64, deadline bool) responseCounts {
	var c responseCounts
	for code, n := range codes {
		if v, _ := strconv.Atoi(code); v >= 200 && v < 300 {
			c.n2xx += n
		} else {
			c.non2xx += n
		}
	}
	for msg, n := range errs {
		if deadline && msg == "aborted due to deadline" {
			c.aborted += n
			continue
		}
		c.errors += n
	}
	return c
}

// label files the distributions as labels status_codes, errors_breakdown
// and aborted_at_deadline.
func (c responseCounts) label(r *model.Run, codes, errs map[string]int64) {
	if len(codes) > 0 {
		runLabel(r, "status_codes", countsJSON(codes))
	}
	if len(errs) > 0 {
		runLabel(r, "errors_breakdown", countsJSON(errs))
	}
	if c.aborted > 0 {
		runLabel(r, "aborted_at_deadline", strconv.FormatInt(c.aborted, 10))
	}
}
