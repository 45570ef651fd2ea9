package analysis

import (
	"slices"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// CompareRow is one line of wra compare: a metric for one match of the two
// sides (runs with equal keys), the comparison of their runs (stats.CompareAt,
// Holm-adjusted across the rows where asked), and, where the two sides
// were measured in the same blocks (trials), the comparison within blocks.
type CompareRow struct {
	Metric string
	Key    []any
	Cmp    stats.Comparison
	Paired *stats.Paired
}

// CompareOptions are the settings of CompareMatches.
type CompareOptions struct {
	Metrics           []string
	Alpha, Confidence float64
	Holm              bool
}

// CompareMatches compares the two sides of runs ("base" and the other),
// metric by metric and match by match in the keys' order. The
// comparison's warnings say the caveats of each side's groups and,
// where a side's ladder still held at its top step, that its
// model.HighestHeld is a lower bound (match.caveats).
func CompareMatches(runs []*model.CompareRun, o CompareOptions) []CompareRow {
	var rows []CompareRow
	for _, m := range o.Metrics {
		for _, gr := range matchSides(runs, m) {
			if len(gr.base) == 0 || len(gr.vs) == 0 {
				continue // nothing to compare with
			}
			c := stats.CompareAt(gr.base, gr.vs, o.Alpha, o.Confidence)
			c.Warnings = append(c.Warnings, gr.caveats(m)...)
			rows = append(rows, CompareRow{Metric: m, Key: gr.key, Cmp: c, Paired: pairBlocks(gr.baseBlocks, gr.vsBlocks, o.Confidence)})
		}
	}
	if o.Holm && len(rows) > 1 {
		cs := make([]stats.Comparison, len(rows))
		for i := range rows {
			cs[i] = rows[i].Cmp
		}
		stats.AdjustHolm(cs)
		for i := range rows {
			rows[i].Cmp = cs[i]
		}
	}
	return rows
}

// pairBlocks compares within blocks: per block both sides have values in,
// the median of each side's values there (one run each in a trial), then
// stats.PairedRatios over the blocks; nil where fewer than two blocks
// have both sides.
func pairBlocks(base, vs map[string][]float64, confidence float64) *stats.Paired {
	b, v := PairedByBlock(base, vs)
	if b == nil {
		return nil
	}
	p := stats.PairedRatios(b, v, confidence)
	if p.N < 2 {
		return nil // a base of 0 leaves too few ratios to compare
	}
	return &p
}

// match is one match of the two sides for one metric: the runs with equal
// keys, their values on each side, and the values of each side by block
// (trial), for the comparison within blocks.
type match struct {
	key                  []any
	base, vs             []float64
	baseRuns, vsRuns     []*model.CompareRun
	baseBlocks, vsBlocks map[string][]float64
}

// matchSides groups the runs that have metric into matches, in the keys'
// order (model.CompareKeysOrder): what wra compare and wra gate compare.
func matchSides(runs []*model.CompareRun, metric string) []*match {
	groups := map[string]*match{}
	var out []*match
	for _, r := range runs {
		v, ok := r.Values[metric]
		if !ok {
			continue
		}
		k := model.CompareKeyString(r.Key)
		g := groups[k]
		if g == nil {
			g = &match{key: r.Key, baseBlocks: map[string][]float64{}, vsBlocks: map[string][]float64{}}
			groups[k] = g
			out = append(out, g)
		}
		vals, rs, blocks := &g.base, &g.baseRuns, g.baseBlocks
		if r.Side == "vs" {
			vals, rs, blocks = &g.vs, &g.vsRuns, g.vsBlocks
		}
		*vals, *rs = append(*vals, v), append(*rs, r)
		if r.Block != "" {
			blocks[r.Block] = append(blocks[r.Block], v)
		}
	}
	slices.SortFunc(out, func(a, b *match) int { return model.CompareKeysOrder(a.key, b.key) })
	return out
}

// caveats are what is said beside a match's metric, each after its
// side's name ("base: ", "vs: "): the caveats of the groups of the
// side's runs (model.CompareRun.Caveats), each once, in group_caveats'
// words; then, for model.HighestHeld, a side with a ladder that still
// held at its top step (model.LowerBoundCaveat).
func (g *match) caveats(metric string) []stats.Warning {
	var out []stats.Warning
	for _, side := range []struct {
		name string
		runs []*model.CompareRun
	}{{"base", g.baseRuns}, {"vs", g.vsRuns}} {
		var said []string
		for _, r := range side.runs {
			for _, cv := range r.Caveats {
				if !slices.Contains(said, cv.Text) {
					said = append(said, cv.Text)
					out = append(out, stats.Warning{Kind: stats.WarnDesign, Msg: side.name + ": " + cv.Text})
				}
			}
		}
	}
	if metric != model.HighestHeld {
		return out
	}
	holding := func(r *model.CompareRun) bool { return r.StillHolding }
	if slices.ContainsFunc(g.baseRuns, holding) {
		out = append(out, stats.Warning{Kind: stats.WarnLowerBound, Msg: "base: " + model.LowerBoundCaveat})
	}
	if slices.ContainsFunc(g.vsRuns, holding) {
		out = append(out, stats.Warning{Kind: stats.WarnLowerBound, Msg: "vs: " + model.LowerBoundCaveat})
	}
	return out
}
