package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/layout"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// compareData lays the rows out: for people one cell per side with the
// median and its interval and benchstat's delta cell with footmarks; for
// machines every figure in its own column.
func compareData(rows []row, o Options) *report.Data {
	s := o.Sides
	keys := s.Keys()
	var notes []string
	noteIndex := func(msg string) int {
		if i := slices.Index(notes, msg); i >= 0 {
			return i + 1
		}
		notes = append(notes, msg)
		return len(notes)
	}
	// Key columns that say something: not NULL in every row; for people,
	// the mode only where the rows differ in it.
	var keyCols []int
	for i := range keys {
		if keys[i] == "mode" && !o.Machine && !differ(rows, i) {
			continue
		}
		for _, r := range rows {
			if r.Key[i] != nil {
				keyCols = append(keyCols, i)
				break
			}
		}
	}
	d := &report.Data{}
	d.Columns = report.Columns("metric")
	for _, i := range keyCols {
		d.Columns = append(d.Columns, report.Column{Name: keys[i]})
	}
	paired := slices.ContainsFunc(rows, func(r row) bool { return r.Paired != nil })
	if o.Machine {
		d.Columns = append(d.Columns, report.Columns(
			"base", "vs",
			"base_median", "base_ci_low", "base_ci_high", "base_ci_pct", "base_n",
			"vs_median", "vs_ci_low", "vs_ci_high", "vs_ci_pct", "vs_n",
			"delta_pct", "u", "p_raw", "p", "p_adjusted", "exact", "alpha", "significant", "warnings")...)
		if paired {
			d.Columns = append(d.Columns, report.Columns("paired_ratio", "paired_low", "paired_high", "paired_coverage", "paired_n", "paired_p")...)
		}
	} else {
		// Where the sides share trials, the comparison within trials
		// leads: it is the one a drift of the machine does not swamp.
		if paired {
			d.Columns = append(d.Columns, report.Column{Name: "paired", Title: "vs / base within trials"})
		}
		d.Columns = append(d.Columns,
			report.Column{Name: "base", Title: s.Base},
			report.Column{Name: "vs", Title: s.Vs},
			report.Column{Name: "delta"})
	}
	reach := reachOf(rows, o)
	signReach := signTestReaches(rows, o.Alpha)
	if len(rows) > 0 && !o.Machine {
		// The lines that hold for every row come first, numbered as
		// footnotes like the rest.
		notes = reach.notes(o)
		if paired {
			notes = append(notes, pairedNote(rows, o.Alpha, signReach))
		}
	}
	// A caveat of the groups of both sides of every row is said once,
	// under the table, instead of beside every figure.
	var ws [][]string
	for _, r := range rows {
		var msgs []string
		for _, w := range r.Cmp.Warnings {
			if w.Kind == stats.WarnDesign {
				msgs = append(msgs, w.Msg)
			}
		}
		ws = append(ws, msgs)
	}
	everywhere := bothSidesEverywhere(ws)
	if !o.Machine {
		for _, t := range everywhere {
			notes = append(notes, "both sides of every row: "+t)
		}
	}
	for _, r := range rows {
		c := r.Cmp
		line := []any{r.Metric}
		for _, i := range keyCols {
			line = append(line, r.Key[i])
		}
		if o.Machine {
			var ws []string
			for _, w := range c.Warnings {
				ws = append(ws, w.Msg)
				noteIndex(w.Msg)
			}
			line = append(line, s.Base, s.Vs)
			for _, sum := range []stats.Summary{c.Base, c.Vs} {
				pct, ok := sum.CIPct()
				line = append(line, sum.Median, finite(sum.CILow), finite(sum.CIHigh), okValue(pct, ok), int64(sum.N))
			}
			line = append(line, finite(c.DeltaPct), finite(c.Test.U), finite(c.Test.P), finite(c.P), c.Adjusted, c.Test.Exact, c.Alpha, c.Significant, strings.Join(ws, "; "))
			if paired {
				line = append(line, pairedCells(r.Paired, true, signReach, noteIndex)...)
			}
			d.Rows = append(d.Rows, line)
			continue
		}
		var baseMarks, vsMarks, deltaMarks []int
		for _, w := range c.Warnings {
			switch {
			case w.Kind == stats.WarnDesign && slices.Contains(everywhere, sideless(w.Msg)):
				// said under the table
			case w.Kind == stats.WarnTooFewSamples && (strings.HasPrefix(w.Msg, "base: ") || strings.HasPrefix(w.Msg, "vs: ")):
				// the cell says "no interval" itself
			case w.Kind == stats.WarnTooFewSamples && !reach.any:
				// the one line under the table says it for every row
			case strings.HasPrefix(w.Msg, "base: "):
				baseMarks = append(baseMarks, noteIndex(strings.TrimPrefix(w.Msg, "base: ")))
			case strings.HasPrefix(w.Msg, "vs: "):
				vsMarks = append(vsMarks, noteIndex(strings.TrimPrefix(w.Msg, "vs: ")))
			default:
				deltaMarks = append(deltaMarks, noteIndex(w.Msg))
			}
		}
		if paired {
			line = append(line, pairedCells(r.Paired, false, signReach, noteIndex)...)
		}
		line = append(line,
			humanSummary(c.Base, reach.intervals)+marks(baseMarks),
			humanSummary(c.Vs, reach.intervals)+marks(vsMarks),
			deltaCell(c, reach.any)+marks(deltaMarks))
		d.Rows = append(d.Rows, line)
	}
	method := fmt.Sprintf("Medians with the half-width of their %s confidence interval (distribution-free, from order statistics) where one exists; "+
		"delta is the change of the vs median from the base median, with the two-sided Mann-Whitney U test's p (exact without ties below 50 runs a side, else normal with tie and continuity correction)",
		strconv.FormatFloat(o.Confidence*100, 'f', -1, 64)+"%")
	if o.Holm && len(rows) > 1 {
		method += fmt.Sprintf(", Holm-Bonferroni adjusted across the %d rows", len(rows))
	}
	method += fmt.Sprintf("; ~ means no significant difference at alpha %s.", strconv.FormatFloat(o.Alpha, 'f', -1, 64))
	if slices.ContainsFunc(rows, func(r row) bool { return r.Metric == HighestHeld }) {
		method += fmt.Sprintf(" highest_held_rps: the highest ladder step held (p95 < %s ms, under %s%% of requests failed) before the first failing step.",
			strconv.FormatFloat(o.Rule.P95MS, 'f', -1, 64), strconv.FormatFloat(o.Rule.MaxErrorRate*100, 'f', -1, 64))
	}
	if paired {
		method += " vs / base within trials: where both sides ran in the same trials (run_groups.block), the ratio of the two in each trial, median over the trials with the sign test's distribution-free interval of the median ratio and the sign test's p; a drift of the machine's speed that a trial's runs share cancels in the ratio, so this comparison stands where the unpaired one is swamped by drift."
	}
	d.Notes = append(notes, method)
	if len(rows) == 0 {
		d.Notes = append(d.Notes, "No metric has runs on both sides with the same "+strings.Join(keys, ", ")+".")
	}
	return d
}

func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

func okValue(v float64, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

func marks(ns []int) string {
	slices.Sort(ns)
	ns = slices.Compact(ns)
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(" " + report.Footmark(n))
	}
	return b.String()
}

// pairedCells are a row's cells of the comparison within trials: for
// people "×1.10 [1.05, 1.20] 5 trials, p=0.062" (the p only where the
// sign test can reach alpha with the trials there are; footmarks for its
// warnings), for machines each figure; empty where the row has none.
func pairedCells(p *stats.Paired, machine, withP bool, noteIndex func(string) int) []any {
	if machine {
		if p == nil {
			return []any{nil, nil, nil, nil, nil, nil}
		}
		return []any{finite(p.Median), finite(p.Low), finite(p.High), finite(p.Coverage), int64(p.N), finite(p.P)}
	}
	if p == nil || math.IsNaN(p.Median) {
		return []any{nil}
	}
	var ms []int
	for _, w := range p.Warnings {
		if w.Kind != stats.WarnTooFewSamples { // the note on coverage says it
			ms = append(ms, noteIndex(w.Msg))
		}
	}
	cell := fmt.Sprintf("×%s [%s, %s] %d trials", sig4(p.Median), sig4(p.Low), sig4(p.High), p.N)
	if withP {
		cell += ", p=" + strconv.FormatFloat(p.P, 'f', 3, 64)
	}
	return []any{cell + marks(ms)}
}

// sig4 prints a ratio with four significant digits.
func sig4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// humanSummary is a side's median with three significant figures and the
// half-width of its interval, "12.3k ± 4%", where it has one; where it
// has none, "(n=3: no interval)", or the median alone when no median of
// the table has one (a note says it once).
func humanSummary(s stats.Summary, anyInterval bool) string {
	switch {
	case s.HasCI():
		return report.SigCell(s.Median) + " " + s.FormatCIPct()
	case anyInterval:
		return fmt.Sprintf("%s (n=%d: no interval)", report.SigCell(s.Median), s.N)
	}
	return report.SigCell(s.Median)
}

// deltaCell is the change of the median, with the U test's verdict as
// benchstat prints it ("+12.34% (p=0.029 n=4)", "-3.10% ~ (p=0.343
// n=4)") where the test can reach alpha; the change alone where no row
// can (a note says why).
func deltaCell(c stats.Comparison, testCanReach bool) string {
	if c.Significant {
		return c.String()
	}
	var delta string
	switch {
	case math.IsNaN(c.DeltaPct):
		delta = "?"
	case c.DeltaPct == 0:
		delta = "0.00%"
	case math.Abs(c.DeltaPct) < 0.005:
		delta = "+" + strconv.FormatFloat(c.DeltaPct, 'g', 2, 64) + "%" // not "-0.00%"
		delta = strings.Replace(delta, "+-", "-", 1)
	default:
		delta = fmt.Sprintf("%+.2f%%", c.DeltaPct)
	}
	if !testCanReach {
		return delta
	}
	return delta + " " + c.String()
}

// ladderStepsTable lists every step of every ladder run of both sides,
// with each run's result and each side's median in the notes.
func ladderStepsTable(s model.CompareSides, runs []*model.CompareRun, steps map[string][]stats.LadderStep, results map[string]stats.LadderResult, rule stats.LadderRule) *report.Data {
	d := &report.Data{Columns: []report.Column{
		{Name: "side"}, {Name: "run"}, {Name: "step"},
		{Name: "target_rps", Human: report.SigCell},
		{Name: "achieved_rps", Human: report.SigCell},
		{Name: "p95_ms", Human: report.SigCell},
		{Name: "error_rate", Human: report.PctCell},
		{Name: "requests"}, {Name: "failed"}, {Name: "held"},
	}}
	var notes []string
	for _, side := range []string{"base", "vs"} {
		name := sideName(s, side)
		var res []layout.LadderRun
		var listed []string
		for _, r := range runs {
			if r.Side != side {
				continue
			}
			lr, ok := results[r.ID]
			if !ok {
				continue
			}
			res = append(res, layout.LadderRun{LadderResult: lr})
			src := report.Source{File: r.Source, Line: r.Line}.String()
			listed = append(listed, src+" ("+lr.String()+")")
			for _, st := range steps[r.ID] {
				d.Rows = append(d.Rows, []any{name, src, st.Step, st.TargetRPS, finite(st.AchievedRPS), finite(st.P95MS), finite(st.ErrorRate), st.Requests, st.Failed, st.Held})
			}
		}
		if len(res) == 0 {
			notes = append(notes, fmt.Sprintf("%s: no ladder (k6 samples tagged with their step, or a k6 summary with per-step sub-metrics).", name))
			continue
		}
		m := layout.LadderCell(res) // in the runs' order: they carry no round
		runsWord := "runs"
		if len(res) == 1 {
			runsWord = "run"
		}
		note := fmt.Sprintf("%s: highest step held %s rps (median of %d %s: %s); step %s rps.", name, m.String(), len(res), runsWord, strings.Join(listed, ", "), report.Exact(finite(m.StepRPS)))
		for _, w := range m.Warnings {
			note += " " + w.Msg + "."
		}
		notes = append(notes, note)
	}
	notes = append(notes, fmt.Sprintf("A step is held while its p95 (type 7, as k6 computes it) is under %s ms and under %s%% of its requests fail; \"+\" means the last step still held.",
		strconv.FormatFloat(rule.P95MS, 'f', -1, 64), strconv.FormatFloat(rule.MaxErrorRate*100, 'f', -1, 64)))
	d.Notes = notes
	return d
}

// differ reports whether the rows differ in their key i.
func differ(rows []row, i int) bool {
	for _, r := range rows[min(1, len(rows)):] {
		if fmt.Sprint(r.Key[i]) != fmt.Sprint(rows[0].Key[i]) {
			return true
		}
	}
	return false
}

// sideless is a caveat without the name of its side ("base: ", "vs: ").
func sideless(msg string) string {
	if t, ok := strings.CutPrefix(msg, "base: "); ok {
		return t
	}
	return strings.TrimPrefix(msg, "vs: ")
}

// bothSidesEverywhere are the caveats said of both sides ("base: " and
// "vs: " the same text) in every one of rows (each row's caveats), in the
// order of the first row; none for no rows.
func bothSidesEverywhere(rows [][]string) []string {
	if len(rows) == 0 {
		return nil
	}
	var out []string
	for _, msg := range rows[0] {
		t, ok := strings.CutPrefix(msg, "base: ")
		if !ok || slices.Contains(out, t) {
			continue
		}
		every := true
		for _, r := range rows {
			every = every && slices.Contains(r, "base: "+t) && slices.Contains(r, "vs: "+t)
		}
		if every {
			out = append(out, t)
		}
	}
	return out
}
