package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// RankingSection is the single runs: per test, tool, variant and load,
// the runs at full speed ranked by goodput, the fixed-rate runs by
// whether they held their rate.
type RankingSection struct {
	Skipped string
	Tables  []RankingTable
}

// RankingTable is one test, tool, variant and load: Ranked where the runs
// ran at full speed, Held where at a fixed rate.
type RankingTable struct {
	Test, Tool, What string // What: the tool and the variant
	Connections      int64
	TargetRPS        float64
	Ranked           []RankedRun
	Held             []HeldRun
	Notes            []string
}

// FixedRate says that the table's runs ran at a fixed rate (Held).
func (t RankingTable) FixedRate() bool { return !math.IsNaN(t.TargetRPS) }

// Load names the table's load for a title: "at 250 requests/s", "at
// full speed, 16 connections".
func (t RankingTable) Load() string {
	switch {
	case !math.IsNaN(t.TargetRPS):
		return "at " + Sig(t.TargetRPS) + " requests/s"
	case t.Connections >= 0:
		return fmt.Sprintf("at full speed, %d connections", t.Connections)
	}
	return "at full speed"
}

// RankedRun is one run of a ranking: its place (Rank 0 for a run whose
// every request failed: listed last, unranked), tied where it shares the
// place; its latencies are NaN where it got no answer; Goodput says
// whether anything failed (the goodput column).
type RankedRun struct {
	Rank                        int
	Tied                        bool
	Server, Database            string
	RPS                         float64
	Goodput                     bool
	GoodputRPS                  float64
	MeanMS, P50MS, P95MS, P99MS float64
	Failed                      int64
	Corrected                   bool
	Source                      model.Source
}

// HeldRun is one fixed-rate run: the rate asked and achieved, its share,
// the latency, the failures and whether it held the rate (rate_held).
type HeldRun struct {
	Server, Database                 string
	TargetRPS, AchievedRPS, Achieved float64
	P95MS, P99MS                     float64
	Failed                           int64
	Held, Corrected                  bool
	Source                           model.Source
}

// ranking ranks single runs (no round label) by requests/s, one table per
// test, tool and load: runs at full speed are ranked only against runs of
// the same tool at the same connections; runs at a fixed rate are not
// ranked at all (their requests/s is their target) but reported by
// whether they held it (see heldAtRate).
func (a *analysis) ranking(singles, repeated []runRow) (RankingSection, error) {
	var sec RankingSection
	rows := singles
	if len(rows) == 0 {
		sec.Skipped = "no single runs: every configuration ran two or more times (see the rounds)"
		return sec, nil
	}
	spread := toolSpreads(repeated, a.fig)
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].Test == rows[i].Test && rows[j].Tool == rows[i].Tool && loadKey(rows[j]) == loadKey(rows[i]) &&
			rows[j].variant == rows[i].variant {
			j++
		}
		if math.IsNaN(rows[i].TargetRPS) {
			sec.Tables = append(sec.Tables, a.rankTable(rows[i:j], spread))
		} else {
			t, err := a.heldAtRate(rows[i:j])
			if err != nil {
				return sec, err
			}
			sec.Tables = append(sec.Tables, t)
		}
		i = j
	}
	return sec, nil
}

// sortSingles orders single runs as the ranking lays them out: by test,
// tool, variant (see variants: what tells runs of one test and tool
// apart), connections and target rate (full speed first). It returns
// the labels that split them.
func sortSingles(rows []runRow) []string {
	split := splitVariants(rows)
	slices.SortStableFunc(rows, func(x, y runRow) int {
		return cmp.Or(cmp.Compare(x.Test, y.Test), cmp.Compare(x.Tool, y.Tool), cmp.Compare(x.variant, y.variant),
			cmp.Compare(x.Connections, y.Connections), cmpNaNLast(x.TargetRPS, y.TargetRPS))
	})
	return split
}

// toolSpreads is, per tool, the spread its repeated runs show: over the
// groups of rows (runs with a round) with two or more runs, the median of
// their requests/s range, (max − min) / median, in percent, each group's
// figures its own (fig: run_medians). A tool without repeated runs has
// none.
func toolSpreads(rows []runRow, fig func(id string) model.GroupFigures) map[string]float64 {
	ranges := map[string][]float64{}
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].GroupID == rows[i].GroupID {
			j++
		}
		if f := fig(rows[i].GroupID); f.RPSPasses >= 2 && f.RPSMedian > 0 {
			ranges[rows[i].Tool] = append(ranges[rows[i].Tool], 100*(f.RPSMax-f.RPSMin)/f.RPSMedian)
		}
		i = j
	}
	out := map[string]float64{}
	for tool, v := range ranges {
		out[tool] = stats.Median(v)
	}
	return out
}

// rankTable orders the full-speed runs of one test, tool and connections
// by requests/s. A single run shows no spread, so neighbours share a place
// when they differ by less than the spread the same tool shows on its
// repeated runs (toolSpreads), or, where none is known, by the tie rule's
// percentage, and the table says that its order cannot rank.
func (a *analysis) rankTable(cur []runRow, spread map[string]float64) RankingTable {
	r0 := cur[0]
	rule := a.tieRule()
	sp, known := spread[r0.Tool]
	sp = math.Ceil(sp*10) / 10 // a tenth of a percent, rounded up: the rule printed is the rule applied
	if known && sp > rule.TiePct {
		rule.TiePct = sp
	}
	what := r0.Tool
	if r0.variant != "" {
		what += ", " + r0.variant
	}
	t := RankingTable{Test: r0.Test, Tool: r0.Tool, What: what, Connections: r0.Connections, TargetRPS: r0.TargetRPS}
	n := &notes{}
	if known {
		n.add(fmt.Sprintf("single runs cannot rank: the order is one run each, and rows share a place when they differ by less than %s%%, the median spread (max − min over median) of %s's repeated runs here, or the tie rule's, when larger",
			strconv.FormatFloat(sp, 'f', 1, 64), r0.Tool))
	} else {
		n.add(fmt.Sprintf("single runs cannot rank: the order is one run each, and no spread of %s's repeated runs is known here to tell a difference from noise; rows share a place only under the tie rule", r0.Tool))
	}
	cv := a.newCaveats()
	// Runs whose every request failed are no contenders: they come last,
	// unranked, with their failure.
	var ranked, failed []runRow
	for _, r := range cur {
		if r.AllFailed {
			failed = append(failed, r)
		} else {
			ranked = append(ranked, r)
		}
	}
	entries := make([]stats.Entry, len(ranked))
	for i, r := range ranked {
		entries[i] = stats.Entry{Values: []float64{r.GoodputRPS}, DriftPct: r.DriftPct}
	}
	tied, anyFailed := false, false
	row := func(rank int, tie bool, r runRow) {
		x := RankedRun{Rank: rank, Tied: tie, Server: r.Server, Database: r.Database, RPS: r.RPS, Goodput: r.Failed > 0, GoodputRPS: r.GoodputRPS,
			MeanMS: math.NaN(), P50MS: math.NaN(), P95MS: math.NaN(), P99MS: math.NaN(), Failed: r.Failed, Corrected: r.Corrected, Source: r.source()}
		anyFailed = anyFailed || r.Failed > 0
		if !r.AllFailed {
			x.MeanMS, x.P50MS, x.P95MS, x.P99MS = r.MeanMS, r.P50MS, r.P95MS, r.P99MS
		}
		cv.add(a.rowName(r.Server, r.Database, ""), []string{r.GroupID})
		t.Ranked = append(t.Ranked, x)
		warningNote(n, r)
	}
	for _, p := range stats.RankTies(entries, true, rule) {
		tied = tied || p.Tied
		row(p.Rank, p.Tied, ranked[p.Index])
	}
	for _, r := range failed {
		row(0, false, r)
		n.add(failedNote(r))
	}
	if anyFailed {
		n.add(GoodputNote)
	}
	if tied {
		n.add("=N: a place shared by neighbours inside the noise (" + rule.String() + ")")
	}
	cv.to(n)
	t.Notes = n.list
	return t
}

// heldAtRate reports the fixed-rate runs of one test, tool and target
// rate by whether each held it: the rate achieved, the latency, the
// failures, and held as the store's rate_held macro says under the ladder
// rule with at least MinAchievedRatio of the target achieved.
func (a *analysis) heldAtRate(cur []runRow) (RankingTable, error) {
	r0 := cur[0]
	rule := a.opts.LadderRule
	heldByRun, err := a.st.RatesHeld(a.ctx, rule)
	if err != nil {
		return RankingTable{}, err
	}
	t := RankingTable{Test: r0.Test, Tool: r0.Tool, What: r0.Tool, Connections: r0.Connections, TargetRPS: r0.TargetRPS}
	n := &notes{}
	cv := a.newCaveats()
	for _, r := range cur {
		cv.add(a.rowName(r.Server, r.Database, ""), []string{r.GroupID})
		t.Held = append(t.Held, HeldRun{Server: r.Server, Database: r.Database, TargetRPS: r.TargetRPS, AchievedRPS: r.RPS, Achieved: r.RPS / r.TargetRPS,
			P95MS: r.P95MS, P99MS: r.P99MS, Failed: r.Failed, Held: heldByRun[r.RunID], Corrected: r.Corrected, Source: r.source()})
		if math.IsNaN(r.P95MS) {
			n.add(fmt.Sprintf("%s has no p95 latency: held is false for want of it", a.serverName(r.Server)))
		}
		warningNote(n, r)
	}
	t.Held = byManifest(t.Held, a.disp, func(r HeldRun) string { return r.Server })
	n.add(fmt.Sprintf("a fixed-rate run's requests/s is its target, so these runs are not ranked; held: p95 < %g ms, errors < %g%% and at least %g%% of the target achieved",
		rule.P95MS, rule.MaxErrorRate*100, rule.MinAchievedRatio*100))
	cv.to(n)
	t.Notes = n.list
	return t, nil
}
