package ingest

import (
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Several reports in one file. A text report is found by its first line,
// wherever it is: a file may hold one report, an excerpt pasted into a
// README, or a log of many runs with a script's own lines (separators,
// echoed commands, RESULT lines) between them. readReports hands each
// report to the format's reader, which reads it up to its last line and
// leaves the line after it unread; lines outside any report are ignored.
// Each report is a run of its own (run index 0, 1, 2 … in file order, so
// run_id is source:index), and the runs of one file with the same settings
// are numbered as rounds 1, 2, 3 … in file order unless a label (the
// record, wra.toml or --label) sets the round; a file of one report sets
// no round.
//
// A text reader adopts the rule with a reportFormat (wrk.go and ab.go are
// the examples):
//
//   - begins recognises the first line of a report (trimmed), including
//     the line an excerpt may start at;
//   - read reads one report starting at the next line of l (its first
//     line) and returns its run without storing it (readReports numbers
//     and stores the runs); at a line that begins the next report, or at
//     the first line that is not its own once the report holds the lines
//     whose numbers it stores, it calls l.Unread and returns; a line it
//     cannot read before that is a *SyntaxError at that line, and a next
//     report that cuts it short is one too;
//   - settings names the labels that, with the tool, connections, threads
//     and target_rps, tell whether two runs measured the same thing;
//   - body, optional, recognises lines only a report prints, so that a
//     report that ended at a line it could not read is refused there
//     rather than cut short without a word.
//
// Then read the format with
//
//	func readX(in *Input, sink model.Sink) error { return readReports(in, sink, xReports) }
//
// and let its Detect find a report anywhere in the head, not only at its
// first line.

// reportFormat is a text report format read by readReports.
type reportFormat struct {
	tool string
	// first describes a report's first line, for the message when a
	// file holds none.
	first string
	// begins reports whether a trimmed line is the first line of a report.
	begins func(t string) bool
	// read reads one report, from its first line up to its last.
	read func(l *Lines, sink model.Sink) (*model.Run, error)
	// settings are the labels that make two runs of a file the same test.
	settings []string
	// body, when set, reports whether a trimmed line can only be part of
	// a report: met outside any report, it tells that the report above
	// ended at a line it could not read, which is then the error.
	body func(t string) bool
}

// registerReports registers a text format whose reports readReports
// reads.
func registerReports(name string, priority int, detect func(head []byte) bool, f *reportFormat) {
	register(&Format{Name: name, Priority: priority, Late: true, Detect: detect,
		Read: func(in *Input, sink model.Sink) error { return readReports(in, sink, f) }})
}

// readReports reads every report of a file (see reportFormat).
func readReports(in *Input, sink model.Sink, f *reportFormat) error {
	l := NewLines(in)
	var runs []*model.Run
	other, otherText := 0, ""
	end, endText := 0, "" // the first line after the last report
	var headings []reportHeading
	heading := reportHeading{}
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" || isFence(t) {
			continue
		}
		if !f.begins(t) {
			if h, ok := markdownHeading(t); ok {
				heading = reportHeading{text: h, line: l.Line()}
			} else {
				heading = reportHeading{}
			}
			if other == 0 {
				other, otherText = l.Line(), t
			}
			if end != 0 && f.body != nil && f.body(t) {
				return Errorf(in.Name, end, 1, "unexpected line in %s report: %q (the report's lines go on at line %d)", article(f.tool), clipQuote(endText), l.Line())
			}
			continue
		}
		l.Unread()
		r, err := f.read(l, sink)
		if err != nil {
			return err
		}
		r.Index = len(runs)
		runs = append(runs, r)
		headings = append(headings, heading)
		heading = reportHeading{}
		end = 0
		for l.Scan() {
			if t := strings.TrimSpace(l.Text()); t != "" {
				end, endText = l.Line(), t
				l.Unread()
				break
			}
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	if len(runs) == 0 {
		if other == 0 {
			return Errorf(in.Name, l.Line()+1, 0, "%s report ends early: expected %s", f.tool, f.first)
		}
		return Errorf(in.Name, other, 1, "no %s report: expected %s, found %q", f.tool, f.first, clipQuote(otherText))
	}
	settings := f.settings
	if key := sinkHeadingLabel(sink); key != "" && len(runs) > 1 && !slices.ContainsFunc(headings, func(h reportHeading) bool { return h.line == 0 }) {
		for i, r := range runs {
			if err := r.SetLabel(key, headings[i].text); err != nil {
				return Errorf(in.Name, headings[i].line, 1, "the heading above the report of line %d fills the label %s (wra.toml heading_label): %v", r.Line, key, err)
			}
			runLabel(r, "heading_line", strconv.Itoa(headings[i].line))
		}
		settings = append(slices.Clip(settings), key)
	}
	if len(runs) > 1 {
		numberRounds(runs, settings, sink)
	}
	for _, r := range runs {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// reportHeading is the Markdown heading just above a report: only blank
// lines and code fences between them.
type reportHeading struct {
	text string
	line int // 0: none
}

// markdownHeading reads an ATX heading ("## PHP — Swoole 6.2 (port
// 9501)"): its text without the marks and closing hashes. A line of
// key=value settings after the marks ("### … server=go round=1 cmd:
// wrk …", a script's log) names no report and is not one.
func markdownHeading(t string) (string, bool) {
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n < 1 || n > 6 || len(t) == n || t[n] != ' ' && t[n] != '\t' {
		return "", false
	}
	h := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[n:]), "#"))
	return h, h != "" && !strings.Contains(h, "=")
}

// isFence reports whether a trimmed line opens or closes a Markdown code
// block (```bash, ~~~).
func isFence(t string) bool { return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") }

// sinkHeadingLabel is the label a report's heading fills: the manifest's
// heading_label, DefaultHeadingLabel without one.
func sinkHeadingLabel(sink model.Sink) string {
	if g, ok := sink.(*guardSink); ok {
		sink = g.Sink
	}
	if ls, ok := sink.(*labelSink); ok {
		return ls.design.headingLabel()
	}
	return DefaultHeadingLabel
}

// article is "a" or "an" before a tool's name.
func article(tool string) string {
	if strings.ContainsRune("aeio", rune(tool[0])) {
		return "an " + tool
	}
	return "a " + tool
}

// numberRounds numbers the runs of one file that have the same settings
// as rounds 1, 2, 3 … in file order, where no label sets the round.
func numberRounds(runs []*model.Run, settings []string, sink model.Sink) {
	if _, set := sinkLabel(sink, "round"); set {
		return
	}
	seen := map[string]int64{}
	for _, r := range runs {
		key := []string{r.Tool}
		for _, k := range append([]string{"connections", "threads", "target_rps"}, settings...) {
			v, _ := r.Label(k)
			key = append(key, strconv.Quote(v))
		}
		k := strings.Join(key, " ")
		seen[k]++
		if _, set := r.Label("round"); !set {
			r.Round = model.Some(seen[k])
		}
	}
}
