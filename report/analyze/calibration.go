package analyze

import (
	"fmt"
	"slices"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// calibration gives, per calibration pair (the view calibration_pairs:
// one rule for which before file goes with which after file) and process
// count, the medians and their ratio, flagged beyond the tolerance.
func (a *analysis) calibration() (*Section, error) {
	sec := &Section{ID: "calibration", Title: "Calibration", Single: true}
	rows, err := a.st.CalibrationTimings(a.ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		sec.Skipped = "no calibration files"
		return sec, nil
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
	n := &notes{}
	d := &report.Data{
		Title: "Calibration: a fixed CPU job timed before and after (median ms)",
		Columns: []report.Column{col("calibration", "calibration", nil), col("processes", "processes", nil),
			col("before_ms", "before ms", Sig), col("after_ms", "after ms", Sig), col("ratio", "after/before", Sig), col("flagged", "flagged", nil)},
	}
	flagged := 0
	for _, k := range order {
		t := byKey[k]
		if len(t.before) == 0 || len(t.after) == 0 {
			n.add(fmt.Sprintf("%s: no %s timings to pair with", k.pair, map[bool]string{true: "after", false: "before"}[len(t.after) == 0]))
			continue
		}
		r := stats.Drift(t.before, t.after, a.opts.DriftTolerance)
		if r.Flagged {
			flagged++
		}
		w := t.window
		w.pair, w.processes, w.result = k.pair, k.processes, r
		a.drifts = append(a.drifts, w)
		d.Rows = append(d.Rows, []any{k.pair, k.processes, num(r.BeforeMS), num(r.AfterMS), num(r.Ratio), r.Flagged})
		d.RowSources = append(d.RowSources, append(slices.Clone(t.window.before), t.window.after...))
	}
	n.add(fmt.Sprintf("flagged: the median moved by more than %g%% between before and after; the runs between them are suspect", a.opts.DriftTolerance*100))
	if flagged > 0 {
		n.add(fmt.Sprintf("%d calibration pairs drifted beyond the tolerance: the machine's speed changed during the runs (another load, throttling)", flagged))
	}
	d.Notes = n.list
	sec.Tables = append(sec.Tables, d)
	return sec, nil
}
