package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Gatling (gatling/gatling) prints, when a simulation ends, its "Global
// Information" block on stdout: one line per statistic of all requests,
// with the OK and KO requests' values beside it. Up to 3.10 (the classic
// layout):
//
//	---- Global Information --------------------------------------------------------
//	> request count                                       5000 (OK=5000   KO=0     )
//	> mean response time                                    38 (OK=38     KO=-     )
//	> response time 95th percentile                         64 (OK=64     KO=-     )
//	> mean requests/sec                                   2500 (OK=2500   KO=-     )
//
// and from 3.11 a table with thousands separators and units:
//
//	---- Global Information ---------------------------------|---Total---|-----OK----|----KO----
//	> request count                                          |   326,617 |   326,617 |         -
//	> response time 99th percentile (ms)                     |     1,954 |       713 |         -
//	> mean throughput (rps)                                  | 13,064.68 | 13,064.68 |         -
//
// Times are whole milliseconds; the percentile levels are in the lines'
// names (gatling.conf charting.indicators.percentile1..4, 50, 75, 95, 99
// by default). "-" is a figure with no request behind it.

func init() {
	registerReports("gatling", 40, detectGatlingText, gatlingReports)
	register(&Format{Name: "gatling-stats-json", Priority: 40, Detect: detectGatlingStats, Read: readGatlingStats})
}

var gatlingReports = &reportFormat{
	tool:   "gatling",
	first:  `"---- Global Information ----"`,
	begins: func(t string) bool { return strings.HasPrefix(t, "---- Global Information ") },
	read:   readGatlingReport,
}

// detectGatlingText claims a head with a Global Information header
// followed by its request count line.
func detectGatlingText(head []byte) bool {
	seen := false
	return hasLine(head, func(t string) bool {
		if strings.HasPrefix(t, "---- Global Information ") {
			seen = true
			return false
		}
		if seen {
			_, ok := gatlingStatLine(t)
			return ok
		}
		return false
	})
}

var (
	gatlingClassic = regexp.MustCompile(`^> (\S.*?)\s{2,}(\S+) \(OK=\s*(\S+)\s+KO=\s*(\S+)\s*\)$`)
	gatlingTable   = regexp.MustCompile(`^> (\S.*?)\s*\|\s*(\S+)\s*\|\s*(\S+)\s*\|\s*(\S+)$`)
	gatlingPct     = regexp.MustCompile(`^response time (\d+(?:\.\d+)?)th percentile$`)
)

// gatlingStat is one statistic line: its name (without the unit) and
// its Total, OK and KO values as printed.
type gatlingStat struct {
	name             string
	total, ok, ko    string
	col              int // of the Total value, 1-based, in the trimmed line
	separatorsGroups bool
}

// gatlingStatLine reads a trimmed statistic line of either layout.
func gatlingStatLine(t string) (gatlingStat, bool) {
	if m := gatlingTable.FindStringSubmatchIndex(t); m != nil {
		name := strings.TrimSpace(t[m[2]:m[3]])
		name = strings.TrimSuffix(strings.TrimSuffix(name, " (ms)"), " (rps)")
		return gatlingStat{name: name, total: t[m[4]:m[5]], ok: t[m[6]:m[7]], ko: t[m[8]:m[9]], col: m[4] + 1, separatorsGroups: true}, true
	}
	if m := gatlingClassic.FindStringSubmatchIndex(t); m != nil {
		return gatlingStat{name: t[m[2]:m[3]], total: t[m[4]:m[5]], ok: t[m[6]:m[7]], ko: t[m[8]:m[9]], col: m[4] + 1}, true
	}
	return gatlingStat{}, false
}

// num reads a value: "-" is none; the table layout groups thousands
// with commas.
func (s gatlingStat) num(v string) (float64, bool, error) {
	if v == "-" {
		return 0, false, nil
	}
	if s.separatorsGroups {
		v = strings.ReplaceAll(v, ",", "")
	}
	x, err := decimalMS(v, 0)
	if err != nil {
		return 0, false, fmt.Errorf("expected a number >= 0 or -, found %q", clipQuote(v))
	}
	return x, true, nil
}

// readGatlingReport reads one Global Information block: requests is the
// request count (OK and KO), errors its KO count (Gatling's failed
// requests: a failed check, such as an unexpected status, or no
// answer), rps the mean requests/sec (mean throughput), the latencies
// the mean, std deviation, max and percentile lines of all requests.
// The block needs its request count line; the Response Time
// Distribution and Errors sections after it are read over.
func readGatlingReport(l *Lines, _ model.Sink) (*model.Run, error) {
	l.Scan()
	r := &model.Run{Tool: "gatling", Line: l.Line()}
	seen := map[string]bool{}
	var requests, ko model.Opt[int64]
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" || strings.HasPrefix(t, "---- Global Information ") {
			l.Unread()
			break
		}
		if strings.HasPrefix(t, "---- ") || strings.HasPrefix(t, "====") {
			continue // another section of the block
		}
		s, ok := gatlingStatLine(t)
		if !ok {
			if strings.HasPrefix(t, "> ") && len(seen) > 0 {
				continue // a line of another section
			}
			l.Unread()
			break
		}
		if seen[s.name] {
			return nil, l.Errorf(1, "Gatling Global Information from line %d: %q twice", r.Line, s.name)
		}
		seen[s.name] = true
		col := strings.Index(l.Text(), t) + s.col
		total, has, err := s.num(s.total)
		if err != nil {
			return nil, l.Errorf(col, "Gatling %s: %v", s.name, err)
		}
		switch name := s.name; {
		case name == "request count":
			okN, _, err1 := s.num(s.ok)
			koN, _, err2 := s.num(s.ko)
			if err := firstErr(err1, err2); err != nil || !has || total != float64(int64(total)) || okN+koN != total {
				return nil, l.Errorf(col, "Gatling request count: expected a count and its OK and KO counts that add up to it, found %q", clipQuote(t))
			}
			requests, ko = model.Some(int64(total)), model.Some(int64(koN))
		case !has:
		case name == "min response time":
			runLabel(r, "latency_min_ms", fmtLabelNum(total))
		case name == "max response time":
			r.LatencyMaxMS = model.Some(total)
		case name == "mean response time":
			r.LatencyMeanMS = model.Some(total)
		case name == "std deviation" || name == "response time std deviation":
			r.LatencyStdevMS = model.Some(total)
		case name == "mean requests/sec" || name == "mean throughput":
			r.RPS = model.Some(total)
		case gatlingPct.MatchString(name):
			p, _ := strconv.ParseFloat(gatlingPct.FindStringSubmatch(name)[1], 64)
			if p <= 0 || p > 100 {
				return nil, l.Errorf(col, "Gatling %s: not a percentile level", name)
			}
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: total})
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if !requests.Valid {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, "Gatling Global Information from line %d ends before its \"> request count\" line", r.Line)
	}
	r.Requests, r.Errors = requests, ko
	if len(r.Percentiles) > 0 {
		sortPercentiles(r.Percentiles)
		spectrumColumns(r)
	}
	return r, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// The HTML report's js/global_stats.json holds the statistics of all
// requests, js/stats.json (and the js/stats.js it is the data of) the
// same in a tree: the "Global Information" group, its requests and
// groups under "contents", each with its "stats". Every statistic has
// its total, ok and ko value, a number (or, before 3.4 and in stats.js,
// a string; "-" where no request is behind it). percentiles1..4 are the
// levels of gatling.conf (50, 75, 95, 99 by default), which the files do
// not state.

// gatlingPctLevels says which levels percentiles1..4 are read as.
const gatlingPctLevels = "percentiles1..4 read as 50, 75, 95, 99: Gatling's defaults (charting.indicators.percentile1..4), which the file does not state"

// gatlingValue is a statistic's value: a number or its text.
type gatlingValue struct {
	set bool
	v   float64
	raw string
}

func (g *gatlingValue) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		g.raw = s
		if s == "-" || s == "" {
			return nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("expected a number or \"-\", found %q", clipQuote(s))
		}
		g.set, g.v = true, x
		return nil
	}
	if err := json.Unmarshal(b, &g.v); err != nil {
		return fmt.Errorf("expected a number or \"-\", found %s", clipQuote(string(b)))
	}
	g.set, g.raw = true, string(b)
	return nil
}

// gatlingTriple is a statistic's total, ok and ko values.
type gatlingTriple struct {
	Total, OK, KO gatlingValue
}

type gatlingStats struct {
	Name     *string        `json:"name"`
	Requests *gatlingTriple `json:"numberOfRequests"`
	Min      gatlingTriple  `json:"minResponseTime"`
	Max      gatlingTriple  `json:"maxResponseTime"`
	Mean     *gatlingTriple `json:"meanResponseTime"`
	Stdev    gatlingTriple  `json:"standardDeviation"`
	P1       gatlingTriple  `json:"percentiles1"`
	P2       gatlingTriple  `json:"percentiles2"`
	P3       gatlingTriple  `json:"percentiles3"`
	P4       gatlingTriple  `json:"percentiles4"`
	RPS      gatlingTriple  `json:"meanNumberOfRequestsPerSecond"`
}

// gatlingNode is a node of stats.json: the global group, a group or a
// request.
type gatlingNode struct {
	Type     string                     `json:"type"`
	Name     string                     `json:"name"`
	Path     string                     `json:"path"`
	Stats    *gatlingStats              `json:"stats"`
	Contents map[string]json.RawMessage `json:"contents"`
}

// detectGatlingStats claims global_stats.json (numberOfRequests and
// meanResponseTime at the top) and stats.json (type, stats, contents).
func detectGatlingStats(head []byte) bool {
	return hasJSONKeys(head, "numberOfRequests", "meanResponseTime") ||
		hasJSONKeys(head, "type", "name", "stats")
}

// readGatlingStats reads global_stats.json (one run) or stats.json (the
// global run, then every request in file order, groups walked into):
// requests numberOfRequests.total, errors its ko, rps
// meanNumberOfRequestsPerSecond.total, latency_mean_ms
// meanResponseTime, stdev standardDeviation, max maxResponseTime,
// percentiles1..4 as p50, p75, p95, p99 (gatlingPctLevels). The global
// run is request_name its name ("Global Information", "All Requests")
// with aggregated=true; a
// request is request_name its name and request_group its group path.
func readGatlingStats(in *Input, sink model.Sink) error {
	var top map[string]json.RawMessage
	doc, line, err := readJSONDoc(in, &top, "Gatling stats JSON")
	if err != nil {
		return err
	}
	var runs []*model.Run
	add := func(st *gatlingStats, name, group string, line int, all bool) error {
		r, err := gatlingStatsRun(in.Name, line, st)
		if err != nil {
			return err
		}
		r.Index = len(runs)
		runLabel(r, "request_name", name)
		if group != "" {
			runLabel(r, "request_group", group)
		}
		if all {
			runLabel(r, "aggregated", "true") // "Global Information", "All Requests" from 3.9
		}
		runs = append(runs, r)
		return nil
	}
	if _, flat := top["numberOfRequests"]; flat {
		var st gatlingStats
		if err := decodeJSON(in.Name, line, doc, &st, "Gatling global_stats.json", false); err != nil {
			return err
		}
		name := "Global Information"
		if st.Name != nil {
			name = *st.Name
		}
		if err := add(&st, name, "", line, true); err != nil {
			return err
		}
	} else {
		var root gatlingNode
		if err := decodeJSON(in.Name, line, doc, &root, "Gatling stats.json", false); err != nil {
			return err
		}
		// The root is the group of all requests; a request is a run, a
		// group only the path of the requests in it.
		var walk func(n *gatlingNode, raw []byte, group string, root bool) error
		walk = func(n *gatlingNode, raw []byte, group string, root bool) error {
			if n.Stats == nil {
				return Errorf(in.Name, line, 0, "Gatling stats.json: %q has no stats", n.Name)
			}
			switch {
			case root || n.Type == "REQUEST":
				if err := add(n.Stats, n.Name, group, line, root); err != nil {
					return err
				}
			case n.Type == "GROUP":
				group = strings.TrimPrefix(group+" / "+n.Name, " / ")
			}
			for _, key := range jsonObjectKeys(raw, "contents") {
				var c gatlingNode
				if err := json.Unmarshal(n.Contents[key], &c); err != nil {
					return Errorf(in.Name, line, 0, "Gatling stats.json: contents %q: %v", key, err)
				}
				if err := walk(&c, n.Contents[key], group, false); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(&root, doc, "", true); err != nil {
			return err
		}
	}
	for _, r := range runs {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// jsonObjectKeys returns the keys of the object under key in doc, in
// file order (Go maps lose it).
func jsonObjectKeys(doc []byte, key string) []string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		if k, _ := tok.(string); k != key {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return nil
		}
		var keys []string
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return keys
			}
			k, _ := tok.(string)
			keys = append(keys, k)
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return keys
			}
		}
		return keys
	}
	return nil
}

// gatlingStatsRun maps one stats object to a run.
func gatlingStatsRun(name string, line int, st *gatlingStats) (*model.Run, error) {
	if st.Requests == nil || !st.Requests.Total.set || st.Mean == nil {
		return nil, Errorf(name, line, 0, "Gatling stats JSON: an entry lacks numberOfRequests or meanResponseTime")
	}
	n, ko := st.Requests.Total.v, st.Requests.KO.v
	if n < 0 || ko < 0 || ko > n || n != float64(int64(n)) || ko != float64(int64(ko)) {
		return nil, Errorf(name, line, 0, "Gatling stats JSON: numberOfRequests total %s, ko %s: expected counts, ko at most total", st.Requests.Total.raw, st.Requests.KO.raw)
	}
	r := &model.Run{Tool: "gatling", Line: line}
	r.Requests = model.Some(int64(n))
	r.Errors = model.Some(int64(ko))
	for _, f := range []struct {
		v   gatlingValue
		dst *model.Opt[float64]
	}{{st.RPS.Total, &r.RPS}, {st.Mean.Total, &r.LatencyMeanMS}, {st.Stdev.Total, &r.LatencyStdevMS}, {st.Max.Total, &r.LatencyMaxMS}} {
		if f.v.set {
			if f.v.v < 0 {
				return nil, Errorf(name, line, 0, "Gatling stats JSON: a negative time or rate %s", f.v.raw)
			}
			*f.dst = model.Some(f.v.v)
		}
	}
	if st.Min.Total.set {
		runLabel(r, "latency_min_ms", fmtLabelNum(st.Min.Total.v))
	}
	for _, p := range []struct {
		at float64
		v  gatlingValue
	}{{50, st.P1.Total}, {75, st.P2.Total}, {95, st.P3.Total}, {99, st.P4.Total}} {
		if p.v.set {
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p.at, LatencyMS: p.v.v})
		}
	}
	if len(r.Percentiles) > 0 {
		spectrumColumns(r)
		runLabel(r, "percentile_levels", gatlingPctLevels)
	}
	return r, nil
}
