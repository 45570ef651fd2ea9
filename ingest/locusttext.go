package ingest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Locust prints, in headless mode, its statistics table every few
// seconds while a test runs and once more when it ends, followed then by
// the table of percentiles:
//
//	Type     Name            # reqs      # fails |    Avg     Min     Max    Med |   req/s  failures/s
//	--------|--------------|-------|-------------|-------|-------|-------|-------|--------|-----------
//	GET      /                 2088     0(0.00%) |      7       2      60      5 |   69.81        0.00
//	--------|--------------|-------|-------------|-------|-------|-------|-------|--------|-----------
//	         Aggregated        2088     0(0.00%) |      7       2      60      5 |   69.81        0.00
//
//	Response time percentiles (approximated)
//	Type     Name                50%    66%    75%    80%    90%    95%    98%    99%  99.9% 99.99%   100% # reqs
//	…
//
// Before 2.x the header has no Type column (" Name  # reqs  # fails  |
// Avg  Min  Max  Median  |  req/s failures/s", the method part of the
// name) and the separators are dashes only. Times are whole ms.

func init() {
	register(&Format{Name: "locust-console", Priority: 40, Late: true, Detect: detectLocustConsole, Read: readLocustConsole})
}

var (
	locustConsoleHeader = regexp.MustCompile(`^(Type\s+)?Name\s+# reqs\s+# fails\s+\|?\s*Avg\s+Min\s+Max\s+(Median|Med)\s+\|\s+req/s\s+failures/s$`)
	locustConsoleRow    = regexp.MustCompile(`^(.*?)\s+(\d+)\s+(\d+)\(\s*([\d.]+)%\)\s+\|\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\|\s+([\d.]+)\s+([\d.]+)$`)
	locustPctHeader     = regexp.MustCompile(`^(Type\s+)?Name\s+(.*%.*)\s+# reqs\|?$`)
)

// detectLocustConsole claims a head with the statistics table's header.
func detectLocustConsole(head []byte) bool {
	return hasLine(head, func(t string) bool { return locustConsoleHeader.MatchString(t) })
}

// locustTable is one statistics table: its rows as runs, and where the
// percentile table follows it, that.
type locustTable struct {
	runs  []*model.Run
	final bool // followed by its percentile table: the end of a test
}

// readLocustConsole reads the headless console output: each statistics
// table that the percentile table follows is the summary of a test that
// ended, and its rows are runs (request_type, request_name; the
// Aggregated row aggregated=true): requests # reqs, errors # fails
// (Locust's failures: an error status or no answer), rps req/s,
// latency_mean_ms Avg, latency_p50_ms Med, latency_max_ms Max, label
// latency_min_ms Min, failures_per_s, and the percentile row of the same
// name as the spectrum. The tables printed while a test runs are
// progress, read over; an excerpt with no percentile table is read by its
// last statistics table.
func readLocustConsole(in *Input, sink model.Sink) error {
	l := NewLines(in)
	var tables []*locustTable
	for l.Scan() {
		raw := strings.TrimRight(l.Text(), " \r")
		t := strings.TrimSpace(raw)
		switch {
		case locustConsoleHeader.MatchString(t):
			tab, err := readLocustStatsTable(l, raw)
			if err != nil {
				return err
			}
			tables = append(tables, tab)
		case t == "Response time percentiles (approximated)" && len(tables) > 0:
			if err := readLocustPctTable(l, tables[len(tables)-1]); err != nil {
				return err
			}
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	var keep []*locustTable
	for _, tab := range tables {
		if tab.final {
			keep = append(keep, tab)
		}
	}
	if len(keep) == 0 && len(tables) > 0 {
		keep = tables[len(tables)-1:]
	}
	var runs []*model.Run
	for _, tab := range keep {
		for _, r := range tab.runs {
			r.Index = len(runs)
			if len(r.Percentiles) > 0 {
				sortPercentiles(r.Percentiles)
				spectrumColumns(r)
				runLabel(r, "percentile_method", locustPercentMethod)
			}
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return Errorf(in.Name, l.Line()+1, 0, "no Locust statistics table: expected its header \"Type Name # reqs # fails | Avg Min Max Med | req/s failures/s\"")
	}
	for _, r := range runs {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// readLocustStatsTable reads the rows after a header, up to the
// Aggregated row.
func readLocustStatsTable(l *Lines, header string) (*locustTable, error) {
	typed := strings.HasPrefix(strings.TrimSpace(header), "Type")
	nameAt := strings.Index(header, "Name")
	tab := &locustTable{}
	for l.Scan() {
		raw := strings.TrimRight(l.Text(), " \r")
		t := strings.TrimSpace(raw)
		if t == "" || strings.Trim(t, "-|") == "" {
			continue
		}
		m := locustConsoleRow.FindStringSubmatch(t)
		if m == nil {
			if len(tab.runs) > 0 && tab.runs[len(tab.runs)-1].Labels["aggregated"] == "true" {
				l.Unread()
				return tab, nil
			}
			return nil, l.Errorf(1, "Locust statistics table: expected a row \"Name N F(P%%) | Avg Min Max Med | req/s failures/s\", found %q", clipQuote(t))
		}
		r := &model.Run{Tool: "locust", Line: l.Line()}
		name, typ := strings.TrimSpace(m[1]), ""
		if typed && nameAt > 0 && len(raw) > nameAt {
			// The type column ends where the header's Name starts (the
			// header and its rows share their indentation).
			if typ = strings.TrimSpace(raw[:nameAt]); strings.HasPrefix(name, typ) {
				name = strings.TrimSpace(name[len(typ):])
			} else {
				typ = ""
			}
		}
		if typ != "" && typ != "None" {
			runLabel(r, "request_type", typ)
		}
		runLabel(r, "request_name", name)
		if name == "Aggregated" && (typ == "" || typ == "None") {
			runLabel(r, "aggregated", "true")
		}
		n, _ := strconv.ParseInt(m[2], 10, 64)
		f, _ := strconv.ParseInt(m[3], 10, 64)
		r.Requests, r.Errors = model.Some(n), model.Some(f)
		num := func(s string) float64 { x, _ := strconv.ParseFloat(s, 64); return x }
		r.RPS = model.Some(num(m[9]))
		runLabel(r, "failures_per_s", m[10])
		if n > 0 {
			r.LatencyMeanMS, r.LatencyMaxMS, r.LatencyP50MS = model.Some(num(m[5])), model.Some(num(m[7])), model.Some(num(m[8]))
			runLabel(r, "latency_min_ms", m[6])
		}
		tab.runs = append(tab.runs, r)
	}
	if len(tab.runs) == 0 || tab.runs[len(tab.runs)-1].Labels["aggregated"] != "true" {
		return nil, l.Errorf(0, "Locust statistics table ends before its Aggregated row")
	}
	return tab, nil
}

// readLocustPctTable reads the percentile table after its title and
// gives each row's percentiles to the run of the same name.
func readLocustPctTable(l *Lines, tab *locustTable) error {
	var levels []float64
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" {
			continue
		}
		m := locustPctHeader.FindStringSubmatch(t)
		if m == nil {
			return l.Errorf(1, "Locust percentile table: expected its header \"Type Name 50%% … 100%% # reqs\", found %q", clipQuote(t))
		}
		for _, h := range strings.Fields(m[2]) {
			p, ok := locustPercentile(h)
			if !ok {
				return l.Errorf(1, "Locust percentile table: %q is not a percentile column", clipQuote(h))
			}
			levels = append(levels, p)
		}
		break
	}
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" || strings.Trim(t, "-|") == "" {
			if t == "" && tab.final {
				return nil
			}
			continue
		}
		f := strings.Fields(strings.TrimRight(t, "|"))
		if len(f) < len(levels)+2 {
			l.Unread()
			return nil
		}
		vals := f[len(f)-len(levels)-1 : len(f)-1]
		name := strings.Join(f[:len(f)-len(levels)-1], " ")
		var r *model.Run
		for _, c := range tab.runs {
			typ := c.Labels["request_type"]
			full := strings.TrimSpace(typ + " " + c.Labels["request_name"])
			if name == full || name == c.Labels["request_name"] || name == "None "+c.Labels["request_name"] {
				r = c
				break
			}
		}
		if r == nil {
			l.Unread()
			return nil
		}
		tab.final = true
		r.Percentiles = nil
		for i, v := range vals {
			if v == "N/A" {
				continue
			}
			x, err := decimalMS(v, 0)
			if err != nil {
				return l.Errorf(1, "Locust percentile table: %s%%: expected whole ms, found %q", fmtLabelNum(levels[i]), clipQuote(v))
			}
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: levels[i], LatencyMS: x})
		}
	}
	return nil
}
