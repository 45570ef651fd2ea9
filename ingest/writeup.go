package ingest

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Write-ups of several reports. A README or a results page pastes reports
// one after another, each filed under Markdown headings ("## Go",
// "### GET /users") with prose, shell prompts and command lines between
// them. What a report is filed under names what it measured: each heading
// level above a report (the nearest heading of that level, across prose,
// prompts, command lines and fences, a heading clearing the levels below
// it) is part of the report's heading path, and the levels whose texts
// differ between the file's reports are labels: the outermost the server,
// the next the test (or what the manifest's headings list names), any
// further level a label heading.N. A level that differs only by a run
// number ("Run 1", "Run 2") numbers rounds instead. A command line pasted
// above a report gives its settings (see command.go).

// writeup follows the lines outside the reports of a file: the nearest
// heading of each level, the last command line and the lines of text
// since the last report (for the manifest's [[reports]] above rules).
type writeup struct {
	levels [7]heading // 1 to 6
	cmd    *commandLine
	text   []heading // the lines since the last report, at most maxAbove
}

// maxAbove is how many lines above a report [[reports]] above rules
// read: a write-up's prose, not a log's thousand progress lines.
const maxAbove = 200

// heading is a Markdown heading: its text and line (0: none).
type heading struct {
	text string
	line int
}

// reportContext is what a report was filed under: its heading path and
// the command line above it.
type reportContext struct {
	levels [7]heading
	cmd    *commandLine
	text   []heading
}

// see takes a line outside any report.
func (w *writeup) see(t string, line int) {
	if len(w.text) == maxAbove {
		w.text = w.text[1:]
	}
	w.text = append(w.text, heading{text: t, line: line})
	if n, h, ok := markdownHeading(t); ok {
		w.levels[n] = heading{text: h, line: line}
		for i := n + 1; i < len(w.levels); i++ {
			w.levels[i] = heading{}
		}
		return
	}
	if c, ok := findCommand(t, line); ok {
		w.cmd = &c
	}
}

// take is the context of the report that begins now; the command line
// belongs to it alone.
func (w *writeup) take() reportContext {
	c := reportContext{levels: w.levels, cmd: w.cmd, text: w.text}
	w.cmd, w.text = nil, nil
	return c
}

// DefaultHeadings are the labels the differing heading levels of a
// write-up fill, outermost first, where the manifest names none.
var DefaultHeadings = []string{"server", "test"}

// runNumber is a heading that numbers a repeat: "Run 2", "Round #3",
// "Pass 1", "Iteration 4", "Trial 5", "Attempt 2".
var runNumber = regexp.MustCompile(`(?i)^(?:run|round|pass|iteration|trial|attempt|try|repeat)\s*(?:no\.?|#)?\s*(\d+)$`)

// applyContexts labels the runs of a file from what each was filed under
// and returns the labels that, with the reader's settings, tell whether
// two runs of the file are rounds of one another.
func applyContexts(in *Input, sink model.Sink, runs []*model.Run, ctxs []reportContext, settings []string) ([]string, error) {
	out := slices.Clip(settings)
	for i, r := range runs {
		if c := ctxs[i].cmd; c != nil {
			applyCommand(in, r, c)
		}
		if err := applyAbove(in, sink, r, ctxs[i].text); err != nil {
			return nil, err
		}
	}
	for _, k := range append(slices.Clone(reportSettings), "method", "streams", "repetitions") {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if len(runs) < 2 {
		return out, nil
	}
	names, on := sinkDesign(sink).headingLabels()
	if !on {
		return out, nil
	}
	var differing []int
	for n := 1; n <= 6; n++ {
		seen := map[string]bool{}
		for _, c := range ctxs {
			seen[c.levels[n].text] = true
		}
		if len(seen) > 1 {
			differing = append(differing, n)
		}
	}
	next := 0
	for _, n := range differing {
		if rounds := headingRounds(ctxs, n); rounds != nil {
			if _, set := sinkLabel(sink, "round"); !set {
				for i, r := range runs {
					if _, own := r.Label("round"); !own && rounds[i] > 0 {
						r.Round = model.Some(rounds[i])
						runLabel(r, "round_by", "heading")
					}
				}
			}
			continue
		}
		key := headingLevelLabel(n)
		if next < len(names) {
			key = names[next]
			next++
		}
		for i, r := range runs {
			h := ctxs[i].levels[n]
			if h.line == 0 {
				continue
			}
			if have, own := r.Label(key); own {
				if !sameSetting(key, have, h.text) {
					in.warn("the heading at line %d gives %s %q, but the report of line %d prints %s; the report's is kept", h.line, key, h.text, r.Line, have)
				}
				continue
			}
			if err := r.SetLabel(key, h.text); err != nil {
				return nil, Errorf(in.Name, h.line, 1, "the heading above the report of line %d fills the label %s (wra.toml headings): %v", r.Line, key, err)
			}
			runLabel(r, "heading_line", strconv.Itoa(h.line))
		}
		out = append(out, key)
	}
	return out, nil
}

// headingRounds is the run number each report's heading of level n
// gives, where every heading of that level is a run number ("Run 1"), or
// nil; a report without one gets 0.
func headingRounds(ctxs []reportContext, n int) []int64 {
	out := make([]int64, len(ctxs))
	any := false
	for i, c := range ctxs {
		h := c.levels[n]
		if h.line == 0 {
			continue
		}
		m := runNumber.FindStringSubmatch(h.text)
		if m == nil {
			return nil
		}
		v, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return nil
		}
		out[i], any = v, true
	}
	if !any {
		return nil
	}
	return out
}

// toolFamily is the name of a report's tool on the command line.
func toolFamily(tool string) string {
	switch tool {
	case "wrk2":
		return "wrk"
	}
	return tool
}

// applyCommand gives a run the settings of the command line above its
// report that the report does not print; a setting the report prints
// otherwise keeps the report's value, with a warning naming both lines.
func applyCommand(in *Input, r *model.Run, c *commandLine) {
	if c.tool != toolFamily(r.Tool) {
		return
	}
	runLabel(r, "command_line", strconv.Itoa(c.line))
	for _, k := range model.SortedKeys(c.settings) {
		v := c.settings[k]
		have, ok := r.Label(k)
		if !ok || have == "" {
			if err := r.SetLabel(k, v); err != nil {
				in.warn("line %d: the command line's %s %q is no value of %s: left out", c.line, k, v, k)
			}
			continue
		}
		if sameSetting(k, have, v) {
			continue
		}
		in.warn("line %d: the command line gives %s %s, but the report of line %d prints %s; the report's is kept", c.line, k, v, r.Line, have)
	}
}

// sameSetting reports whether two texts of a setting say the same:
// numbers as numbers, durations as seconds, URLs by their endpoint and
// target.
func sameSetting(k, a, b string) bool {
	if a == b {
		return true
	}
	switch k {
	case "requested_duration":
		x, ok1 := durationSeconds(a)
		y, ok2 := durationSeconds(b)
		return ok1 && ok2 && x == y
	case "url":
		ea, ta := splitURL(a)
		eb, tb := splitURL(b)
		return ea == eb && (ta == tb || ta == "" || tb == "")
	case "method":
		return strings.EqualFold(a, b)
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}

// normalizeSettings writes the settings a reader stored as printed in one
// form, so that the same setting printed two ways is one value: a
// requested duration in seconds ("1m" and "60s" are "60s").
func normalizeSettings(r *model.Run) {
	if v, ok := r.Labels["requested_duration"]; ok {
		if s, ok := durationSeconds(v); ok {
			r.Labels["requested_duration"] = fmtLabelNum(s) + "s"
		}
	}
}

// headingLabels are the labels the differing heading levels of a
// write-up fill, outermost first: the manifest's headings, its
// heading_label alone, or DefaultHeadings; on is false where the
// manifest turns headings off (headings = [], heading_label = "").
func (d design) headingLabels() (names []string, on bool) {
	switch {
	case d.headings != nil:
		return d.headings, len(d.headings) > 0
	case d.heading != nil:
		return []string{*d.heading}, *d.heading != ""
	}
	return DefaultHeadings, true
}

// applyAbove gives a run the labels of the manifest's [[reports]] rules
// whose above pattern matches a line of the text above its report (the
// nearest matching line), marking them as the manifest's (see
// takeRuleKeys).
func applyAbove(in *Input, sink model.Sink, r *model.Run, text []heading) error {
	ls := sinkOf(sink)
	if ls == nil {
		return nil
	}
	for _, rr := range ls.design.reports {
		if rr.above == nil || !rr.matches(ls.rel, r.Line) {
			continue
		}
		for i := len(text) - 1; i >= 0; i-- {
			m := rr.above.FindStringSubmatch(text[i].text)
			if m == nil {
				continue
			}
			set := map[string]string{}
			for k, v := range rr.Labels {
				set[k] = v
			}
			for j, name := range rr.above.SubexpNames() {
				if name != "" && m[j] != "" {
					set[name] = m[j]
				}
			}
			for _, k := range model.SortedKeys(set) {
				if err := r.SetLabel(k, set[k]); err != nil {
					return Errorf(in.Name, text[i].line, 1, "the line above the report of line %d fills the label %s (wra.toml [[reports]] above): %v", r.Line, k, err)
				}
				markRuleKey(r, k)
			}
			runLabel(r, "above_line", strconv.Itoa(text[i].line))
			break
		}
	}
	return nil
}

// ruleKeysLabel lists, while a run goes from its reader to the store, the
// labels the manifest's [[reports]] rules gave it; labelSink counts them
// among the manifest's and drops the list.
const ruleKeysLabel = "\x00rule_keys"

func markRuleKey(r *model.Run, k string) {
	if v := r.Labels[ruleKeysLabel]; v != "" {
		k = v + "," + k
	}
	runLabel(r, ruleKeysLabel, k)
}

// takeRuleKeys returns the labels [[reports]] rules gave a run and drops
// their list.
func takeRuleKeys(r *model.Run) []string {
	v, ok := r.Labels[ruleKeysLabel]
	if !ok {
		return nil
	}
	delete(r.Labels, ruleKeysLabel)
	return strings.Split(v, ",")
}

// sinkOf is the labelSink inside a reader's sink, or nil.
func sinkOf(sink model.Sink) *labelSink {
	if g, ok := sink.(*guardSink); ok {
		sink = g.Sink
	}
	ls, _ := sink.(*labelSink)
	return ls
}
