package analysis

import (
	"fmt"
	"slices"
	"time"

	"github.com/wra-bench/wra/model"
)

// driftPair is a calibration pair at one process count and the time
// between its before and its after.
type driftPair struct {
	pair          string
	processes     int64
	result        model.DriftRow // calibration_drift's
	from, to      time.Time      // the last before timing, the first after
	before, after []model.Source
}

// driftPairs reads, per calibration pair and process count, the drift
// of the medians and the time between the last timing before and the
// first after from the table macro calibration_drift at the options'
// tolerance (the one definition of drift, which the groups' caveats read
// too), with the timings of each pair (the view calibration_pairs) as its
// sources; notes say which timings had nothing to pair with.
func (a *analysis) driftPairs() ([]driftPair, []string, error) {
	rows, err := a.st.CalibrationDrift(a.ctx, a.opts.DriftTolerance)
	if err != nil {
		return nil, nil, err
	}
	timings, err := a.st.CalibrationTimings(a.ctx)
	if err != nil {
		return nil, nil, err
	}
	type key struct {
		pair      string
		processes int64
	}
	type sources struct{ before, after []model.Source }
	srcs := map[key]*sources{}
	for _, t := range timings {
		k := key{t.Pair, t.Processes}
		if srcs[k] == nil {
			srcs[k] = &sources{}
		}
		src := model.Source{File: t.Source, Line: t.Line}
		if t.Phase == "before" {
			srcs[k].before = append(srcs[k].before, src)
		} else {
			srcs[k].after = append(srcs[k].after, src)
		}
	}
	var out []driftPair
	var notes []string
	for _, r := range rows {
		if r.NBefore == 0 || r.NAfter == 0 {
			notes = append(notes, fmt.Sprintf("%s: no %s timings to pair with", r.Pair, map[bool]string{true: "after", false: "before"}[r.NAfter == 0]))
			continue
		}
		w := driftPair{pair: r.Pair, processes: r.Processes, result: r, from: r.BeforeLast, to: r.AfterFirst}
		if s := srcs[key{r.Pair, r.Processes}]; s != nil {
			w.before, w.after = s.before, s.after
		}
		out = append(out, w)
	}
	return out, notes, nil
}

// CalibrationSection is, per calibration pair and process count, the
// medians before and after and their ratio, flagged beyond the
// tolerance.
type CalibrationSection struct {
	Skipped string
	Rows    []CalibrationRow
	Notes   []string
}

// CalibrationRow is one pair at one process count (calibration_drift).
type CalibrationRow struct {
	Pair                     string
	Processes                int64
	BeforeMS, AfterMS, Ratio float64
	Flagged                  bool
	Sources                  []model.Source
}

// calibration gives, per calibration pair and process count, the medians
// and their ratio, flagged beyond the tolerance.
func (a *analysis) calibration(drifts []driftPair, unpaired []string) CalibrationSection {
	var sec CalibrationSection
	if len(drifts) == 0 && len(unpaired) == 0 {
		sec.Skipped = "no calibration files"
		return sec
	}
	n := &notes{}
	for _, u := range unpaired {
		n.add(u)
	}
	flagged := 0
	for _, w := range drifts {
		r := w.result
		if r.Flagged {
			flagged++
		}
		sec.Rows = append(sec.Rows, CalibrationRow{Pair: w.pair, Processes: w.processes, BeforeMS: r.BeforeMS, AfterMS: r.AfterMS, Ratio: r.Ratio,
			Flagged: r.Flagged, Sources: append(slices.Clone(w.before), w.after...)})
	}
	n.add(fmt.Sprintf("flagged: the median moved by more than %g%% between before and after; the runs between them are suspect", a.opts.DriftTolerance*100))
	if flagged > 0 {
		n.add(fmt.Sprintf("%d calibration pairs drifted beyond the tolerance: the machine's speed changed during the runs (another load, throttling)", flagged))
	}
	sec.Notes = n.list
	return sec
}
