package analysis

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Corpus is what an analyzed folder says of itself: the title and the
// first paragraph of its README.md.
type Corpus struct {
	Source, Title, Paragraph string
}

// ReadCorpus reads the README.md of the first folder among paths that
// has one: its first "# " heading and the first paragraph of prose after
// it (not a heading, a list, a table, a quote or code), Markdown emphasis
// and code marks removed. A folder without one gives an empty Corpus.
func ReadCorpus(paths []string) (Corpus, error) {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			continue
		}
		name := filepath.Join(p, "README.md")
		b, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return Corpus{}, err
		}
		c := parseReadme(b)
		c.Source = filepath.ToSlash(name)
		return c, nil
	}
	return Corpus{}, nil
}

func parseReadme(b []byte) Corpus {
	var c Corpus
	var para []string
	fence := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if c.Title == "" && strings.HasPrefix(trim, "# ") {
			c.Title = plainMarkdown(strings.TrimPrefix(trim, "# "))
			continue
		}
		prose := trim != "" && !strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "\t") &&
			!strings.ContainsAny(trim[:1], "#|>-*+") && !(len(trim) > 1 && trim[0] >= '0' && trim[0] <= '9' && strings.Contains(trim[:min(4, len(trim))], "."))
		switch {
		case prose:
			para = append(para, trim)
		case len(para) > 0:
			c.Paragraph = plainMarkdown(strings.Join(para, " "))
			return c
		}
	}
	if len(para) > 0 {
		c.Paragraph = plainMarkdown(strings.Join(para, " "))
	}
	return c
}

// plainMarkdown removes emphasis and code marks and keeps a link's text.
func plainMarkdown(s string) string {
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == ']' && i+1 < len(s) && s[i+1] == '(' {
			if j := strings.IndexByte(s[i:], ')'); j > 0 {
				i += j
				continue
			}
		}
		if s[i] == '[' {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// MachineLabels are the labels of runs that describe the machine they
// ran on, which the context block names with their values.
var MachineLabels = []string{"machine", "host", "hostname", "cpu", "cpus", "cores", "vcpus", "memory_gib", "instance", "instance_type", "os", "kernel"}

// Context is the context block: what the corpus says of itself, when
// the runs were made and by which tools, the machine, and how much the
// machine's speed moved while they ran (the calibration pairs), one item
// each.
type Context struct {
	Items []ContextItem
}

// ContextItem is one item of the context block.
type ContextItem struct {
	Lead, Text string
}

// context is the context block: the dates of the runs, the tools and
// their versions, the calibration's noise and the corpus's README.
func (a *analysis) context(sh *shared) (Context, error) {
	var c Context
	add := func(lead, text string) { c.Items = append(c.Items, ContextItem{Lead: lead, Text: text}) }
	tools, err := a.st.RunTools(a.ctx)
	if err != nil {
		return c, err
	}
	var first, last time.Time
	stretch := func(t time.Time) {
		if t.IsZero() {
			return
		}
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	var runs int64
	var used []string
	for _, t := range tools {
		runs += t.Runs
		stretch(t.First)
		stretch(t.Last)
		name := t.Tool
		if name == "records" {
			name = "harness records"
		}
		if t.Version != "" {
			name += " " + t.Version
		}
		used = append(used, fmt.Sprintf("%s (%d)", name, t.Runs))
	}
	for _, p := range sh.drifts {
		stretch(p.from)
		stretch(p.to)
	}
	if runs > 0 {
		when := "no run recorded its start time"
		if !first.IsZero() {
			when = "recorded " + span(first.UTC(), last.UTC())
		}
		add("Runs", fmt.Sprintf("%d runs, %s; tools, version where the tool printed it, and runs: %s", runs, when, strings.Join(used, ", ")))
	}
	machine, err := a.st.RunLabels(a.ctx, MachineLabels)
	if err != nil {
		return c, err
	}
	if len(machine) > 0 {
		var parts []string
		for _, m := range machine {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", m.Key, m.Value, plural(int(m.Runs), "run")))
		}
		add("Machine", "as the records say: "+strings.Join(parts, "; "))
	}
	if text := noiseText(sh.drifts, a.opts.DriftTolerance); text != "" {
		add("Calibration", text)
	}
	if cp := a.opts.Corpus; cp.Title != "" || cp.Paragraph != "" {
		text := cp.Paragraph
		if cp.Title != "" && text != "" {
			text = cp.Title + ": " + text
		} else if text == "" {
			text = cp.Title
		}
		add("The corpus", text+" ("+cp.Source+")")
	}
	return c, nil
}

// span prints a time span in UTC: "2026-12-01, 15:04–16:08 UTC", with
// both dates where the span crosses midnight.
func span(from, to time.Time) string {
	if from.Format(time.DateOnly) == to.Format(time.DateOnly) {
		return fmt.Sprintf("on %s, %s–%s UTC", from.Format(time.DateOnly), from.Format("15:04"), to.Format("15:04"))
	}
	return fmt.Sprintf("from %s to %s UTC", from.Format("2006-01-02 15:04"), to.Format("2006-01-02 15:04"))
}

// noiseText says how far the calibration job's time moved between the
// before and the after of its pairs (the calibration table's figures).
func noiseText(pairs []driftPair, tolerance float64) string {
	var ratios []float64
	var names []string
	flagged := 0
	for _, p := range pairs {
		if math.IsNaN(p.result.Ratio) {
			continue
		}
		ratios = append(ratios, p.result.Ratio)
		if !slices.Contains(names, p.pair) {
			names = append(names, p.pair)
		}
		if p.result.Flagged {
			flagged++
		}
	}
	if len(ratios) == 0 {
		return ""
	}
	moved := 0.0
	for _, r := range ratios {
		moved = math.Max(moved, math.Abs(r-1))
	}
	flag := "none beyond the tolerance"
	if flagged > 0 {
		flag = fmt.Sprintf("%d beyond it: see the Calibration table and the caveats", flagged)
	}
	return fmt.Sprintf("A fixed CPU job timed before and after: %s, %s (one per process count); its time after over its time before ranged %s–%s, at most %s off (tolerance %s), %s",
		plural(len(names), "pair"), plural(len(ratios), "comparison"), Sig(slices.Min(ratios)), Sig(slices.Max(ratios)), pct(moved), pct(tolerance), flag)
}
