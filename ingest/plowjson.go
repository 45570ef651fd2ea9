package ingest

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// plow --json prints each snapshot of a run as an indented JSON document
// (since 1.2): Summary (Elapsed, Count, Counts by status class, RPS,
// Reads, Writes; Concurrency since 1.4), Error (only when some request
// failed), Statistics (Latency as Go durations, or with --seconds numbers
// of seconds as strings; RPS), Percentiles ("P50" … "P99.99") and
// Histograms. With --summary it prints only the last one; else every
// interval, one document after another, each of the run so far. The
// banner, on stderr, may stand before the first one in a terminal's copy.

func init() {
	register(&Format{Name: "plow-json", Priority: 40, Detect: detectPlowJSON, Read: readPlowJSON})
}

// plowJSONDoc is one document of plow --json.
type plowJSONDoc struct {
	Summary *struct {
		Elapsed     string
		Count       *int64
		Counts      map[string]int64
		RPS         *json.Number
		Concurrency *int64
		Reads       string
		Writes      string
	}
	Error      map[string]int64
	Statistics *struct {
		Latency *struct{ Min, Mean, StdDev, Max string }
		RPS     *struct{ Min, Mean, StdDev, Max json.Number }
	}
	Percentiles map[string]string
}

func detectPlowJSON(head []byte) bool {
	keys, ok := jsonKeys(head)
	if !ok || keys["Summary"] == nil {
		return false
	}
	if _, ok := keys["Statistics"]; !ok {
		if _, ok := keys["Error"]; !ok {
			return false
		}
	}
	var s map[string]json.RawMessage
	if json.Unmarshal(keys["Summary"], &s) != nil {
		return false
	}
	_, count := s["Count"]
	_, elapsed := s["Elapsed"]
	return count && elapsed
}

// readPlowJSON reads the documents of a file: a document whose Count and
// Elapsed are not below those of the one before is a later snapshot of
// the same run, which ends at its last one.
func readPlowJSON(in *Input, sink model.Sink) error {
	data, err := io.ReadAll(in.R)
	if err != nil {
		return err
	}
	// The banner, and the listening notice, before the first document.
	off, line := 0, 1
	var banner []string
	for off < len(data) && !bytes.HasPrefix(bytes.TrimLeft(data[off:], " \t"), []byte("{")) {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off - 1
		}
		if m := plowBanner.FindStringSubmatch(strings.TrimSpace(string(data[off : off+end]))); m != nil {
			banner = m
		}
		off, line = off+end+1, line+1
	}
	var runs []*plowReport
	var prevElapsed float64
	pos := off
	for {
		rest := data[pos:]
		lead := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n"))
		if lead == len(rest) {
			break
		}
		start := pos + lead
		docLine := 1 + bytes.Count(data[:start], []byte("\n"))
		d := json.NewDecoder(bytes.NewReader(data[start:]))
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			// Placed at its line and column by decodeJSON.
			return decodeJSON(in.Name, docLine, data[start:], &raw, "plow JSON", false)
		}
		pos = start + int(d.InputOffset())
		var doc plowJSONDoc
		if err := decodeJSON(in.Name, docLine, raw, &doc, "plow JSON", false); err != nil {
			return err
		}
		p, err := plowJSONReport(in.Name, docLine, &doc)
		if err != nil {
			return err
		}
		elapsed, _ := k6TextValue(doc.Summary.Elapsed)
		if n := len(runs); n > 0 && p.run.Requests.V >= runs[n-1].run.Requests.V && elapsed >= prevElapsed {
			p.run.Line = runs[n-1].run.Line
			runs[n-1] = p // a later snapshot of the same run
		} else {
			runs = append(runs, p)
		}
		prevElapsed = elapsed
	}
	if len(runs) == 0 {
		return Errorf(in.Name, line, 0, "no plow JSON document")
	}
	var out []*model.Run
	for i, p := range runs {
		r, err := p.finish(in.Name)
		if err != nil {
			return err
		}
		r.Index = i
		if banner != nil && i == 0 {
			plowBannerLabels(r, banner)
		}
		out = append(out, r)
	}
	if len(out) > 1 {
		numberRounds(out, plowReports.settings, sink)
	}
	for _, r := range out {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// plowJSONReport turns a document into the report the text reader would
// have read from the same snapshot.
func plowJSONReport(name string, line int, doc *plowJSONDoc) (*plowReport, error) {
	if doc.Summary == nil || doc.Summary.Count == nil || *doc.Summary.Count < 0 {
		return nil, Errorf(name, line, 0, "plow JSON: expected a Summary with a Count >= 0")
	}
	s := doc.Summary
	p := &plowReport{run: &model.Run{Tool: "plow", Line: line}, codes: map[string]int64{}, count: true, stats: true, rate: s.RPS != nil}
	p.run.Requests = model.Some(*s.Count)
	if s.RPS != nil {
		x, err := s.RPS.Float64()
		if err != nil || x < 0 {
			return nil, Errorf(name, line, 0, "plow JSON: Summary.RPS: expected a rate, found %q", s.RPS.String())
		}
		p.run.RPS = model.Some(x)
	}
	p.times = append(p.times, plowValue{line: line, what: "Elapsed", text: s.Elapsed})
	for k, n := range s.Counts {
		if !plowStatusClass.MatchString(k) || n < 0 {
			return nil, Errorf(name, line, 0, "plow JSON: Summary.Counts: expected status classes such as \"2xx\" with counts, found %q", clipQuote(k))
		}
		p.codes[k] = n
	}
	for k, v := range map[string]string{"reads": s.Reads, "writes": s.Writes} {
		if v != "" {
			runLabel(p.run, k, v)
		}
	}
	if s.Concurrency != nil {
		runLabel(p.run, "concurrency", strconv.FormatInt(*s.Concurrency, 10))
	}
	for msg, n := range doc.Error {
		if n < 0 {
			return nil, Errorf(name, line, 0, "plow JSON: Error %q: expected a count >= 0", clipQuote(msg))
		}
		p.errors += n
		runLabel(p.run, "error."+msg, strconv.FormatInt(n, 10))
	}
	if st := doc.Statistics; st != nil {
		if lat := st.Latency; lat != nil {
			p.times = append(p.times,
				plowValue{line: line, what: "Latency Min", text: lat.Min, label: "latency_min_ms"},
				plowValue{line: line, what: "Latency Mean", text: lat.Mean, dst: &p.run.LatencyMeanMS},
				plowValue{line: line, what: "Latency StdDev", text: lat.StdDev, dst: &p.run.LatencyStdevMS},
				plowValue{line: line, what: "Latency Max", text: lat.Max, dst: &p.run.LatencyMaxMS})
		}
		if x := st.RPS; x != nil {
			for stat, n := range map[string]json.Number{"min": x.Min, "mean": x.Mean, "stdev": x.StdDev, "max": x.Max} {
				if v, err := n.Float64(); err == nil {
					reported(p.run, model.ReportedRPSPrefix+stat, v)
				}
			}
		}
	}
	names := make([]string, 0, len(doc.Percentiles))
	pcts := map[string]float64{}
	for k := range doc.Percentiles {
		m := plowPercentName.FindStringSubmatch(k)
		pct, err := strconv.ParseFloat(firstGroup(m), 64)
		if m == nil || err != nil || pct <= 0 || pct > 100 {
			return nil, Errorf(name, line, 0, "plow JSON: Percentiles: expected names such as \"P50\" or \"P99.9\", found %q", clipQuote(k))
		}
		names, pcts[k] = append(names, k), pct
	}
	sort.Slice(names, func(i, j int) bool { return pcts[names[i]] < pcts[names[j]] })
	for _, k := range names {
		p.times = append(p.times, plowValue{line: line, what: k, text: doc.Percentiles[k], pct: pcts[k]})
	}
	return p, nil
}
