package analyze

import (
	"fmt"
	"slices"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// driftPairs reads the calibration timings (the view calibration_pairs:
// one rule for which before file goes with which after file) and gives,
// per pair and process count, the drift of the medians and the time
// between the last timing before and the first after; notes say which
// timings had nothing to pair with.
func (a *analysis) driftPairs() ([]driftPair, []string, error) {
	rows, err := a.st.CalibrationTimings(a.ctx)
	if err != nil {
		return nil, nil, err
	}
	type key struct {
		pair      string
		processes int64
	}
	type times struct {
		before, after []float64
		window        driftPair
	}
	var order []key
	byKey := map[key]*times{}
	for _, r := range rows {
		k := key{r.Pair, r.Processes}
		t, ok := byKey[k]
		if !ok {
			t = &times{}
			byKey[k] = t
			order = append(order, k)
		}
		src := report.Source{File: r.Source, Line: r.Line}
		if r.Phase == "before" {
			t.before = append(t.before, r.MS)
			t.window.before = append(t.window.before, src)
			if r.UTC.After(t.window.from) {
				t.window.from = r.UTC
			}
		} else {
			t.after = append(t.after, r.MS)
			t.window.after = append(t.window.after, src)
			if t.window.to.IsZero() || r.UTC.Before(t.window.to) {
				t.window.to = r.UTC
			}
		}
	}
	var out []driftPair
	var notes []string
	for _, k := range order {
		t := byKey[k]
		if len(t.before) == 0 || len(t.after) == 0 {
			notes = append(notes, fmt.Sprintf("%s: no %s timings to pair with", k.pair, map[bool]string{true: "after", false: "before"}[len(t.after) == 0]))
			continue
		}
		w := t.window
		w.pair, w.processes, w.result = k.pair, k.processes, stats.Drift(t.before, t.after, a.opts.DriftTolerance)
		out = append(out, w)
	}
	return out, notes, nil
}

// calibration gives, per calibration pair and process count, the medians
// and their ratio, flagged beyond the tolerance.
func (a *analysis) calibration(drifts []driftPair, unpaired []string) *Section {
	sec := &Section{ID: "calibration", Title: "Calibration", Single: true}
	if len(drifts) == 0 && len(unpaired) == 0 {
		sec.Skipped = "no calibration files"
		return sec
	}
	n := &notes{}
	for _, u := range unpaired {
		n.add(u)
	}
	d := &report.Data{
		Title: "Calibration: a fixed CPU job timed before and after (median ms)",
		Columns: []report.Column{col("calibration", "calibration", nil), col("processes", "processes", nil),
			col("before_ms", "before ms", Sig), col("after_ms", "after ms", Sig), col("ratio", "after/before", Sig), col("flagged", "flagged", nil)},
	}
	flagged := 0
	for _, w := range drifts {
		r := w.result
		if r.Flagged {
			flagged++
		}
		d.Rows = append(d.Rows, []any{w.pair, w.processes, num(r.BeforeMS), num(r.AfterMS), num(r.Ratio), r.Flagged})
		d.RowSources = append(d.RowSources, append(slices.Clone(w.before), w.after...))
	}
	n.add(fmt.Sprintf("flagged: the median moved by more than %g%% between before and after; the runs between them are suspect", a.opts.DriftTolerance*100))
	if flagged > 0 {
		n.add(fmt.Sprintf("%d calibration pairs drifted beyond the tolerance: the machine's speed changed during the runs (another load, throttling)", flagged))
	}
	d.Notes = n.list
	sec.Tables = append(sec.Tables, d)
	return sec
}
