package ingest

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Artillery prints, when a run ends, its "Summary report @ <time>" on
// stdout (every 10 s before it, the same block for the period: 1.x
// "Report @ …", 2.x "Metrics for period to: …", which are not the run's
// figures and are read over). 1.x:
//
//	Summary report @ 01:19:05(-0500) 2020-03-05
//	  Scenarios launched:  1200
//	  Requests completed:  2400
//	  Mean response/sec: 39.39          (before 1.6: RPS sent: 39.39)
//	  Response time (msec):             (before 1.6: Request latency:)
//	    min: 19.6
//	    median: 101.4
//	  Codes:
//	    200: 1200
//	  Errors:
//	    ESOCKETTIMEDOUT: 548
//
// 2.x, metric names and dot leaders:
//
//	http.codes.200: ........................................ 6469
//	http.request_rate: ..................................... 36/sec
//	http.requests: ......................................... 6469
//	http.response_time:
//	  min: ................................................. 0
//	errors.ETIMEDOUT: ...................................... 12

func init() {
	registerReports("artillery", 40, detectArtilleryText, artilleryReports)
}

var artilleryReports = &reportFormat{
	tool:   "artillery",
	first:  `"Summary report @ …"`,
	begins: func(t string) bool { return strings.HasPrefix(t, "Summary report @") },
	read:   readArtilleryReport,
}

// detectArtilleryText claims a head with a Summary report line followed
// by a line of either layout's figures.
func detectArtilleryText(head []byte) bool {
	seen := false
	return hasLine(head, func(t string) bool {
		if strings.HasPrefix(t, "Summary report @") {
			seen = true
			return false
		}
		return seen && (strings.HasPrefix(t, "Requests completed:") || strings.HasPrefix(t, "http.requests: ..."))
	})
}

var (
	artilleryV2Line = regexp.MustCompile(`^(\S[^:]*): \.+ (\S+)$`)
	artilleryV1Line = regexp.MustCompile(`^([A-Za-z0-9][^:]*):\s+(\S.*)$`)
	artilleryHeader = regexp.MustCompile(`^(\S[^:]*):$`)
)

// artilleryLine is one figure of a summary: its group (the header line
// above an indented figure, "" at the top) and key, and its value as
// printed.
type artilleryLine struct {
	group, key, value string
	line, col         int
}

// readArtilleryReport reads one Summary report. 1.x: requests are
// Requests completed (the answered ones) plus the Errors counts (a
// request that got no answer), errors those counts, rps Mean
// response/sec (RPS sent), the latencies the Response time (msec)
// (Request latency) block; 2.x: requests http.requests, errors the
// errors.<code> counts, rps http.request_rate, the latencies the
// http.response_time block. responses_2xx and non_2xx from the codes.
// Each error count is kept as label error.<code>. A NaN figure (a period
// with too few responses) is NULL.
func readArtilleryReport(l *Lines, _ model.Sink) (*model.Run, error) {
	l.Scan()
	r := &model.Run{Tool: "artillery", Line: l.Line()}
	var lines []artilleryLine
	v2 := false
	header, headerIndent := "", -1
	for l.Scan() {
		text := strings.TrimRight(l.Text(), " \t\r")
		t := strings.TrimSpace(text)
		if len(lines) == 0 && (t == "" || strings.Trim(t, "-") == "") {
			continue // the dashes around the 2.x title
		}
		if t == "" || strings.HasPrefix(t, "Summary report @") {
			l.Unread()
			break
		}
		indent := len(text) - len(strings.TrimLeft(text, " \t"))
		if len(lines) == 0 && header == "" {
			v2 = indent == 0
		}
		if !v2 && indent == 0 {
			l.Unread() // 1.x figures are indented: "Log file: …" ends it
			break
		}
		if indent <= headerIndent {
			header, headerIndent = "", -1
		}
		if m := artilleryHeader.FindStringSubmatch(t); m != nil && header == "" {
			header, headerIndent = m[1], indent
			continue
		}
		re := artilleryV1Line
		if v2 {
			re = artilleryV2Line
		}
		m := re.FindStringSubmatchIndex(t)
		if m == nil {
			l.Unread()
			break
		}
		lines = append(lines, artilleryLine{group: header, key: t[m[2]:m[3]], value: t[m[4]:m[5]], line: l.Line(), col: indent + m[4] + 1})
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if err := artilleryFigures2Run(l, r, lines, v2); err != nil {
		return nil, err
	}
	return r, nil
}

// artilleryFigures2Run maps the figures of a summary to the run.
func artilleryFigures2Run(l *Lines, r *model.Run, lines []artilleryLine, v2 bool) error {
	num := func(a artilleryLine, unit string) (float64, bool, error) {
		v := strings.TrimSuffix(a.value, unit)
		if v == "NaN" {
			return 0, false, nil
		}
		x, err := decimalMS(v, 0)
		if err != nil {
			return 0, false, l.errorAt(a.line, a.col, "Artillery %s: expected a number >= 0%s, found %q", a.key, unit, clipQuote(a.value))
		}
		return x, true, nil
	}
	count := func(a artilleryLine) (int64, error) {
		n, err := strconv.ParseInt(a.value, 10, 64)
		if err != nil || n < 0 {
			return 0, l.errorAt(a.line, a.col, "Artillery %s: expected a count, found %q", a.key, clipQuote(a.value))
		}
		return n, nil
	}
	latencyGroup, requestsKey, rateKey := "Response time (msec)", "Requests completed", "Mean response/sec"
	if v2 {
		latencyGroup, requestsKey, rateKey = "http.response_time", "http.requests", "http.request_rate"
	}
	var requests model.Opt[int64]
	var n2xx, non2xx, errs int64
	codes := false
	errorsBy := map[string]int64{}
	lat := map[string]float64{}
	for _, a := range lines {
		code, isCode := a.key, a.group == "Codes"
		errName, isErr := a.key, a.group == "Errors"
		if v2 {
			code, isCode = strings.CutPrefix(a.key, "http.codes.")
			errName, isErr = strings.CutPrefix(a.key, "errors.")
			isCode, isErr = isCode && a.group == "", isErr && a.group == ""
		}
		switch {
		case a.group == latencyGroup || !v2 && a.group == "Request latency":
			x, ok, err := num(a, "")
			if err != nil {
				return err
			}
			if ok {
				lat[a.key] = x
			}
		case a.group != "" && !isCode && !isErr:
		case a.key == requestsKey:
			n, err := count(a)
			if err != nil {
				return err
			}
			requests = model.Some(n)
		case a.key == rateKey || !v2 && a.key == "RPS sent":
			x, ok, err := num(a, map[bool]string{true: "/sec"}[v2])
			if err != nil {
				return err
			}
			if ok {
				r.RPS = model.Some(x)
			}
		case isCode:
			n, err := count(a)
			if err != nil {
				return err
			}
			codes = true
			if c, err := strconv.Atoi(code); err == nil && c >= 200 && c < 300 {
				n2xx += n
			} else {
				non2xx += n
			}
		case isErr:
			n, err := count(a)
			if err != nil {
				return err
			}
			errorsBy[errName] += n
			errs += n
		case v2 && a.key == "http.downloaded_bytes":
			n, err := count(a)
			if err != nil {
				return err
			}
			r.BytesRead = model.Some(n)
		case v2 && (a.key == "http.responses" || a.key == "vusers.created" || a.key == "vusers.completed" || a.key == "vusers.failed"),
			!v2 && (a.key == "Scenarios launched" || a.key == "Scenarios completed"):
			runLabel(r, strings.ToLower(strings.NewReplacer(".", "_", " ", "_").Replace(a.key)), a.value)
		}
	}
	if !requests.Valid {
		return l.errorAt(l.Line()+1, 0, "Artillery summary from line %d ends before its %q line", r.Line, requestsKey+":")
	}
	if v2 {
		r.Requests = requests
		runLabel(r, "artillery_layout", "2.x")
	} else {
		runLabel(r, "requests_completed", strconv.FormatInt(requests.V, 10))
		r.Requests = model.Some(requests.V + errs)
		runLabel(r, "artillery_layout", "1.x")
	}
	r.Errors = model.Some(errs)
	if codes {
		r.Responses2xx, r.Non2xx = model.Some(n2xx), model.Some(non2xx)
	}
	names := make([]string, 0, len(errorsBy))
	for e := range errorsBy {
		names = append(names, e)
	}
	sort.Strings(names)
	for _, e := range names {
		runLabel(r, "error."+e, strconv.FormatInt(errorsBy[e], 10))
	}
	if len(lat) > 0 {
		artilleryLatency(r, lat)
	}
	return nil
}

// errorAt is a *SyntaxError at a line already read.
func (l *Lines) errorAt(line, col int, format string, args ...any) *SyntaxError {
	return &SyntaxError{File: l.in.Name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}
