package ingest

import (
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
	w := &writeup{}
	var contexts []reportContext
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" || isFence(t) {
			continue
		}
		if !f.begins(t) {
			w.see(t, l.Line())
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
		contexts = append(contexts, w.take())
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
	settings, err := applyContexts(in, sink, runs, contexts, f.settings)
	if err != nil {
		return err
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

// markdownHeading reads an ATX heading ("## PHP — Swoole 6.2 (port
// 9501)"): its level and its text without the marks and closing hashes.
// A line of key=value settings after the marks ("### … server=go round=1
// cmd: wrk …", a script's log) names no report and is not one, and
// neither is a root prompt's command ("# wrk -t4 -c100 http://…").
func markdownHeading(t string) (int, string, bool) {
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n < 1 || n > 6 || len(t) == n || t[n] != ' ' && t[n] != '\t' {
		return 0, "", false
	}
	h := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[n:]), "#"))
	if h == "" || strings.Contains(h, "=") {
		return 0, "", false
	}
	if _, ok := parseCommand(h); ok {
		return 0, "", false
	}
	return n, h, true
}

// isFence reports whether a trimmed line opens or closes a Markdown code
// block (```bash, ~~~).
func isFence(t string) bool { return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") }

// sinkDesign is what the manifest says of the roles of labels, as the
// reader's sink knows it; the defaults without a manifest.
func sinkDesign(sink model.Sink) design {
	if g, ok := sink.(*guardSink); ok {
		sink = g.Sink
	}
	if ls, ok := sink.(*labelSink); ok {
		return ls.design
	}
	return design{blocks: DefaultBlocks}
}

// article is "a" or "an" before a tool's name.
func article(tool string) string {
	if strings.ContainsRune("aeio", rune(tool[0])) {
		return "an " + tool
	}
	return "a " + tool
}

// numberRounds numbers the runs of one file that have the same settings
// as rounds 1, 2, 3 … in file order, where no label sets the round: runs
// whose settings no other run of the file shares are no rounds of
// anything and get none. A round numbered so is one of this file only
// (label round_by = "file order"): rounds of two files are different
// replicates. The labels the manifest's [[reports]] rules give a report
// by its lines count as its own, though the sink sets them later: two
// reports the rules name differently are no rounds of one another.
func numberRounds(runs []*model.Run, settings []string, sink model.Sink) {
	if _, set := sinkLabel(sink, "round"); set {
		return
	}
	ls := sinkOf(sink)
	ruled := func(r *model.Run) map[string]string {
		if ls == nil {
			return nil
		}
		return ls.lineRuleLabels(r.Line)
	}
	keyOf := func(r *model.Run) string {
		key := []string{r.Tool}
		rules := ruled(r)
		for _, k := range append([]string{"server", "database", "test", "connections", "threads", "target_rps"}, settings...) {
			v, _ := r.Label(k)
			if rv, ok := rules[k]; ok {
				v = rv
			}
			key = append(key, strconv.Quote(v))
		}
		return strings.Join(key, " ")
	}
	count := map[string]int{}
	for _, r := range runs {
		count[keyOf(r)]++
	}
	seen := map[string]int64{}
	for _, r := range runs {
		k := keyOf(r)
		if count[k] < 2 {
			continue
		}
		seen[k]++
		if _, byRule := ruled(r)["round"]; byRule {
			continue
		}
		if _, set := r.Label("round"); !set {
			r.Round = model.Some(seen[k])
			runLabel(r, "round_by", "file order")
		}
	}
}
