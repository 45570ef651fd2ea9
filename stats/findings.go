package stats

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// The rules below turn the figures of a report into findings: what a
// careful benchmarker would notice. Each is a pure function over the
// passes of the figures it looks at and fires only with enough passes and
// an effect beyond the noise those passes measure; a finding not made is
// better than a false one. Inputs are per server (or per rate) lists of
// pass values, in the caller's order; results name them by index.

// FindingRules are the thresholds of the finding rules.
type FindingRules struct {
	// MinPasses is the fewest passes every compared figure needs (3).
	MinPasses int
	// Alpha is the significance level of every test a rule makes (0.05).
	Alpha float64
	// IdleMinFall is the least relative fall of CPU per request, from the
	// lowest to the highest rate, that IdleCost calls a finding (0.1).
	IdleMinFall float64
	// TailMADs is k of OutlierTails: a p99 more than k median absolute
	// deviations above the median of the other servers (5, about 3.4 on
	// the modified z-score of Iglewicz and Hoaglin, who flag above 3.5).
	TailMADs float64
	// TailMinPeers is the fewest other servers OutlierTails compares with
	// (3).
	TailMinPeers int
	// SlopeMinSpread is the least (max - min) / |median| of the passes'
	// memory slopes that UnstableSlope calls a finding (0.2).
	SlopeMinSpread float64
	// RateExcess: a run whose rate is more than this fraction above the
	// rate it was asked for has a broken counter (0.25).
	RateExcess float64
	// SharedTolerance: SharedLimit calls servers level when their best
	// throughputs are within this fraction of their median (0.05).
	SharedTolerance float64
}

// DefaultFindingRules are the thresholds wra uses unless told otherwise.
func DefaultFindingRules() FindingRules {
	return FindingRules{MinPasses: 3, Alpha: 0.05, IdleMinFall: 0.1, TailMADs: 5, TailMinPeers: 3,
		SlopeMinSpread: 0.2, RateExcess: 0.25, SharedTolerance: 0.05}
}

// A FindingSetting is one threshold of FindingRules by name, as the
// command line (--find-NAME with dashes) and the [findings] table of
// wra.toml (NAME) set it.
type FindingSetting struct {
	Name, Doc string
	Get       func(FindingRules) float64
	Set       func(*FindingRules, float64) error
}

// FindingSettings lists every threshold of FindingRules.
func FindingSettings() []FindingSetting {
	frac := func(name string, v float64) error {
		if !(v > 0 && v < 1) {
			return fmt.Errorf("%s must be in (0, 1), not %s", name, strconv.FormatFloat(v, 'g', -1, 64))
		}
		return nil
	}
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s must be > 0, not %s", name, strconv.FormatFloat(v, 'g', -1, 64))
		}
		return nil
	}
	count := func(name string, v float64, least int) error {
		if v != math.Trunc(v) || v < float64(least) || v > 1000 {
			return fmt.Errorf("%s must be a whole number >= %d, not %s", name, least, strconv.FormatFloat(v, 'g', -1, 64))
		}
		return nil
	}
	return []FindingSetting{
		{"min_passes", "fewest passes of every figure a finding compares", func(r FindingRules) float64 { return float64(r.MinPasses) },
			func(r *FindingRules, v float64) error { r.MinPasses = int(v); return count("min_passes", v, 2) }},
		{"alpha", "significance level of the findings' tests", func(r FindingRules) float64 { return r.Alpha },
			func(r *FindingRules, v float64) error { r.Alpha = v; return frac("alpha", v) }},
		{"idle_min_fall", "idle cost: least fall of CPU per request from the lowest to the highest rate, a fraction", func(r FindingRules) float64 { return r.IdleMinFall },
			func(r *FindingRules, v float64) error { r.IdleMinFall = v; return frac("idle_min_fall", v) }},
		{"tail_mads", "outlier tail: a p99 more than this many MADs above the median of the other servers", func(r FindingRules) float64 { return r.TailMADs },
			func(r *FindingRules, v float64) error { r.TailMADs = v; return pos("tail_mads", v) }},
		{"tail_min_peers", "outlier tail: fewest other servers to compare with", func(r FindingRules) float64 { return float64(r.TailMinPeers) },
			func(r *FindingRules, v float64) error { r.TailMinPeers = int(v); return count("tail_min_peers", v, 2) }},
		{"slope_min_spread", "unstable slope: least (max - min) / median of the passes' memory slopes", func(r FindingRules) float64 { return r.SlopeMinSpread },
			func(r *FindingRules, v float64) error { r.SlopeMinSpread = v; return pos("slope_min_spread", v) }},
		{"rate_excess", "broken counters: a rate more than this fraction above the requested one", func(r FindingRules) float64 { return r.RateExcess },
			func(r *FindingRules, v float64) error { r.RateExcess = v; return pos("rate_excess", v) }},
		{"shared_tolerance", "shared limit: best throughputs within this fraction of their median", func(r FindingRules) float64 { return r.SharedTolerance },
			func(r *FindingRules, v float64) error { r.SharedTolerance = v; return frac("shared_tolerance", v) }},
	}
}

func (r FindingRules) enough(passes []float64) bool {
	return len(dropNaN(passes)) >= r.MinPasses
}

// spread is max - min of the values; 0 for none.
func spread(xs []float64) float64 {
	xs = dropNaN(xs)
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs) - slices.Min(xs)
}

// An IdleCostResult is the idle-cost rule applied to one figure (a
// server's CPU per request) at rising fixed rates.
type IdleCostResult struct {
	Medians []float64 // per rate, in the order given
	// FallFrac is 1 - last median / first median.
	FallFrac float64
	// Fall is first median - last median; MaxSpread the largest max -
	// min of the passes at one rate.
	Fall, MaxSpread float64
	Trend           TrendTest
	Found           bool
}

// IdleCost tests whether CPU per request falls as the fixed rate rises:
// the part of the CPU a server spends whether or not requests come (a
// thread pool that spins, timers, a database's background work) is
// divided by more requests at a higher rate. passes holds the passes at
// each rate, rates rising. It fires when every rate has at least
// MinPasses passes, there are two rates or more, the medians fall at
// every step, the whole fall is at least IdleMinFall of the first median
// and larger than the spread (max - min) of the passes at any rate, and a
// one-sided Jonckheere–Terpstra test of a decrease over all passes
// (DecreasingTrend) gives p < Alpha. With three passes at each of two
// rates the smallest p is 0.05, so two rates never suffice at the
// default Alpha; three rates of three passes can reach 1/1680.
func IdleCost(passes [][]float64, r FindingRules) IdleCostResult {
	res := IdleCostResult{FallFrac: math.NaN(), Fall: math.NaN()}
	for _, p := range passes {
		res.Medians = append(res.Medians, Median(dropNaN(p)))
		res.MaxSpread = math.Max(res.MaxSpread, spread(p))
	}
	res.Trend = DecreasingTrend(passes)
	if len(passes) < 2 {
		return res
	}
	for _, p := range passes {
		if !r.enough(p) {
			return res
		}
	}
	first, last := res.Medians[0], res.Medians[len(res.Medians)-1]
	res.Fall, res.FallFrac = first-last, 1-last/first
	for i := 1; i < len(res.Medians); i++ {
		if !(res.Medians[i] < res.Medians[i-1]) {
			return res
		}
	}
	res.Found = first > 0 && res.FallFrac >= r.IdleMinFall && res.Fall > res.MaxSpread && res.Trend.P < r.Alpha
	return res
}

// A SplitResult is the split rule applied to one figure of several
// servers at one load.
type SplitResult struct {
	Medians []float64 // per server, in the order given; NaN for one left out
	// Groups are the servers (indices) of each group, groups in rising
	// order of their medians and servers within a group likewise; one
	// group when no partition is better than the rest. Servers with
	// fewer than MinPasses passes are in no group.
	Groups [][]int
	// Cuts[i] is the cut between Groups[i] and Groups[i+1].
	Cuts []SplitCut
	// P is the permutation p-value of the partition, which allows for
	// its having been chosen as the best of many: the share of
	// SplitPermutations random reassignments of all the passes to the
	// servers (plus the observed one) in which the search finds a
	// partition at least as well separated. NaN without a partition, or
	// when a cut fails even as if named in advance (then no permutation
	// is run).
	P     float64
	alpha float64
}

// A SplitCut is the gap between two neighbouring groups and the evidence
// for it.
type SplitCut struct {
	// Gap is the difference of the medians either side of the cut;
	// Within is the largest range of medians inside any group.
	Gap, Within float64
	// P is the two-sided exact Mann–Whitney p-value of the passes of the
	// group below against those of the group above, as if the groups had
	// been named in advance (they were not: SplitResult.P allows for
	// that).
	P float64
}

// Found is true when the servers fall into two or more groups, the
// partition is significant (P < Alpha) and so is each of its cuts taken
// alone.
func (s SplitResult) Found() bool { return len(s.Groups) >= 2 && s.P < s.alpha }

// Candidate is true when the search found a partition, significant or
// not; ReplicatedSplits looks for it at other loads.
func (s SplitResult) Candidate() bool { return len(s.Groups) >= 2 }

// The search of Split.
const (
	// SplitPermutations is the number of random reassignments behind
	// SplitResult.P; the smallest P is 1/(SplitPermutations+1).
	SplitPermutations = 999
	// SplitMaxCuts bounds the partitions tried: at most this many cuts.
	SplitMaxCuts = 5
	// splitSeed seeds the reassignments, so that the same passes give
	// the same P.
	splitSeed = 0x5eed
)

// Split clusters servers by one figure at one load (CPU per request at a
// test and rate) into groups separated by gaps larger than the spread
// within them: a one-dimensional clustering with a gap test, not a fixed
// ratio. The servers with at least MinPasses passes are ordered by their
// medians; cutting the k largest gaps between neighbouring medians (k = 1
// … SplitMaxCuts) gives k+1 groups, and a partition is a candidate when
// every gap cut is larger than the range of medians inside every group.
// Its separation is the smallest, over its cuts, of the Mann–Whitney z of
// the passes of the group above against those of the group below (the
// normal form, (U - n1 n2 / 2) / sqrt(n1 n2 (n1 + n2 + 1) / 12), ties
// counting one half); the candidate best separated is the result. Because
// it is the best of many, a test of its cuts as if they had been named in
// advance would find splits in pure noise far more often than Alpha; P is
// therefore a permutation p-value (SplitPermutations reassignments of all
// passes to the servers, each server keeping its number of passes, and
// the same search run on each), and the split is Found when P < Alpha and
// every cut's own Mann–Whitney p-value is below Alpha too.
// The statistic is the z of the weakest cut, so the size of the gap
// counts only through the candidate rule: with three servers of three
// passes, a pair against a third whose passes lie clear of the pair's has
// P near 0.05 (chance deals as clean a split about one time in twenty to
// twenty-five) however wide the gap; ReplicatedSplits looks for the same
// candidate at other loads instead.
func Split(passes [][]float64, r FindingRules) SplitResult {
	res := SplitResult{Medians: make([]float64, len(passes)), P: math.NaN(), alpha: r.Alpha}
	var order []int
	var pool []float64
	var counts []int
	for i, p := range passes {
		res.Medians[i] = math.NaN()
		if r.enough(p) {
			v := dropNaN(p)
			res.Medians[i] = Median(v)
			order = append(order, i)
			pool = append(pool, v...)
			counts = append(counts, len(v))
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(res.Medians[a], res.Medians[b]) })
	groups, score := splitSearch(order, res.Medians, passes)
	if groups == nil {
		if len(order) > 0 {
			res.Groups = [][]int{order}
		}
		return res
	}
	res.Groups = groups
	within := 0.0
	for _, g := range groups {
		within = math.Max(within, res.Medians[g[len(g)-1]]-res.Medians[g[0]])
	}
	for j := 0; j+1 < len(groups); j++ {
		lo, hi := groups[j], groups[j+1]
		res.Cuts = append(res.Cuts, SplitCut{Gap: res.Medians[hi[0]] - res.Medians[lo[len(lo)-1]], Within: within,
			P: MannWhitneyU(groupPasses(passes, lo), groupPasses(passes, hi)).P})
	}
	// A partition whose cuts fail even as if named in advance is no
	// finding, and needs no permutations.
	for _, c := range res.Cuts {
		if !(c.P < r.Alpha) {
			return res
		}
	}
	// The permutation test: the same search on the passes dealt out anew.
	rng := rand.New(rand.NewPCG(splitSeed, uint64(len(pool))))
	shuffled := slices.Clone(pool)
	perm := make([][]float64, len(counts))
	meds := make([]float64, len(counts))
	idx := make([]int, len(counts))
	atLeast := 1 // the observed assignment
	limit := int(math.Ceil(r.Alpha * (SplitPermutations + 1)))
	done := 0
	for ; done < SplitPermutations && atLeast < limit; done++ {
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		off := 0
		for i, c := range counts {
			perm[i] = shuffled[off : off+c]
			off += c
			meds[i] = Median(perm[i])
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(meds[a], meds[b]) })
		if g, sc := splitSearch(idx, meds, perm); g != nil && sc >= score {
			atLeast++
		}
	}
	res.P = float64(atLeast) / float64(done+1)
	return res
}

// splitSearch returns the best separated candidate partition of the
// servers in order (sorted by medians) and its separation; nil when no
// partition is a candidate.
func splitSearch(order []int, medians []float64, passes [][]float64) ([][]int, float64) {
	n := len(order)
	byGap := make([]int, 0, max(n-1, 0))
	for i := 0; i+1 < n; i++ {
		byGap = append(byGap, i)
	}
	gap := func(i int) float64 { return medians[order[i+1]] - medians[order[i]] }
	slices.SortStableFunc(byGap, func(a, b int) int { return cmp.Compare(gap(b), gap(a)) })
	var best [][]int
	bestScore := math.Inf(-1)
	for k := 1; k <= min(n-1, SplitMaxCuts); k++ {
		at := slices.Sorted(slices.Values(byGap[:k]))
		var groups [][]int
		start := 0
		for _, i := range at {
			groups = append(groups, order[start:i+1])
			start = i + 1
		}
		groups = append(groups, order[start:])
		within := 0.0
		for _, g := range groups {
			within = math.Max(within, medians[g[len(g)-1]]-medians[g[0]])
		}
		score := math.Inf(1)
		for j, i := range at {
			if !(gap(i) > within) {
				score = math.Inf(-1)
				break
			}
			score = math.Min(score, uZ(groupPasses(passes, groups[j]), groupPasses(passes, groups[j+1])))
		}
		if score > bestScore {
			best, bestScore = groups, score
		}
	}
	if math.IsInf(bestScore, -1) {
		return nil, bestScore
	}
	return best, bestScore
}

// uZ is the Mann–Whitney z of hi against lo: positive when hi lies above.
func uZ(lo, hi []float64) float64 {
	u := 0.0
	for _, y := range hi {
		for _, x := range lo {
			switch {
			case y > x:
				u++
			case y == x:
				u += 0.5
			}
		}
	}
	n1, n2 := float64(len(lo)), float64(len(hi))
	return (u - n1*n2/2) / math.Sqrt(n1*n2*(n1+n2+1)/12)
}

func groupPasses(passes [][]float64, g []int) []float64 {
	var out []float64
	for _, i := range g {
		out = append(out, dropNaN(passes[i])...)
	}
	return out
}

// A Tail is a server whose p99 is far above its peers'.
type Tail struct {
	Server int
	// MedianMS is the server's median p99, MinMS its lowest pass.
	MedianMS, MinMS float64
	// PeersMedianMS is the median of the other servers' median p99s,
	// NoiseMS the deviation the limit is measured in, LimitMS =
	// PeersMedianMS + TailMADs x NoiseMS.
	PeersMedianMS, NoiseMS, LimitMS float64
	Peers                           int
}

// OutlierTails finds the servers whose p99 at one load is far above the
// others': for each server with at least MinPasses passes, among at
// least TailMinPeers other such servers, the limit is the median of the
// others' median p99s plus TailMADs times a deviation, the larger of the
// median absolute deviation of those medians and the median of the
// others' own pass MADs (so that the limit is never narrower than the
// pass-to-pass noise of a peer). The server is an outlier when even its
// lowest pass is above the limit.
func OutlierTails(p99 [][]float64, r FindingRules) []Tail {
	var ok []int
	med := make([]float64, len(p99))
	mad := make([]float64, len(p99))
	for i, p := range p99 {
		if r.enough(p) {
			s := Summarize(dropNaN(p))
			med[i], mad[i] = s.Median, s.MAD
			ok = append(ok, i)
		}
	}
	var out []Tail
	for _, i := range ok {
		var meds, mads []float64
		for _, j := range ok {
			if j != i {
				meds, mads = append(meds, med[j]), append(mads, mad[j])
			}
		}
		if len(meds) < r.TailMinPeers {
			continue
		}
		peers := Summarize(meds)
		noise := math.Max(peers.MAD, Median(mads))
		t := Tail{Server: i, MedianMS: med[i], MinMS: slices.Min(dropNaN(p99[i])), PeersMedianMS: peers.Median,
			NoiseMS: noise, LimitMS: peers.Median + r.TailMADs*noise, Peers: len(meds)}
		if noise > 0 && t.MinMS > t.LimitMS {
			out = append(out, t)
		}
	}
	return out
}

// A SlopePass is one pass's memory slope and its standard error.
type SlopePass struct{ Slope, SE float64 }

// A SlopeAgreement is the unstable-slope rule applied to one server's
// memory slopes.
type SlopeAgreement struct {
	Min, Max, Median float64
	// Q is Cochran's Q, the weighted sum of squared deviations from the
	// inverse-variance weighted mean, with Passes-1 degrees of freedom;
	// P its chi-squared upper tail.
	Q, P   float64
	Passes int
	Found  bool
}

// UnstableSlope tests whether the memory slopes of a server's passes
// disagree by more than their fits' standard errors allow: Cochran's Q
// test of homogeneity, Q = Σ w_i (b_i - b̄)², w_i = 1/SE_i², b̄ the
// w-weighted mean, against a chi-squared distribution with k-1 degrees of
// freedom. It fires with at least MinPasses passes with a finite, positive
// standard error, p < Alpha, and (max - min) / |median| of the slopes of
// at least SlopeMinSpread.
func UnstableSlope(passes []SlopePass, r FindingRules) SlopeAgreement {
	res := SlopeAgreement{Q: math.NaN(), P: math.NaN(), Min: math.NaN(), Max: math.NaN(), Median: math.NaN()}
	var bs, ws []float64
	for _, p := range passes {
		if !math.IsNaN(p.Slope) && p.SE > 0 && !math.IsInf(p.SE, 0) {
			bs, ws = append(bs, p.Slope), append(ws, 1/(p.SE*p.SE))
		}
	}
	res.Passes = len(bs)
	if len(bs) < 2 {
		return res
	}
	res.Min, res.Max, res.Median = slices.Min(bs), slices.Max(bs), Median(bs)
	sw, swb := 0.0, 0.0
	for i := range bs {
		sw += ws[i]
		swb += ws[i] * bs[i]
	}
	mean := swb / sw
	res.Q = 0
	for i := range bs {
		res.Q += ws[i] * (bs[i] - mean) * (bs[i] - mean)
	}
	res.P = distuv.ChiSquared{K: float64(len(bs) - 1)}.Survival(res.Q)
	res.Found = len(bs) >= r.MinPasses && res.P < r.Alpha && res.Median != 0 &&
		(res.Max-res.Min)/math.Abs(res.Median) >= r.SlopeMinSpread
	return res
}

// RunCounts are the counters of one run; a float is NaN and a count
// negative where the run has none.
type RunCounts struct {
	CPUServerS, CPUUserS, CPUKernelS, CPUDBS float64
	Requests, Responses2xx                   int64
	RPS, TargetRPS                           float64
	// Broken names the values the record had that cannot be right and
	// were stored as NULL ("cpu_postgres_s -41.73"), "" for none.
	Broken string
}

// A CounterProblem is a counter of a run that cannot be right.
type CounterProblem int

const (
	// NegativeCPU: a CPU figure below zero (a counter reset, a process
	// tree that lost members during the run).
	NegativeCPU CounterProblem = iota + 1
	// MoreOKThanRequests: more successful responses than requests.
	MoreOKThanRequests
	// RateAboveTarget: the rate is more than RateExcess above the rate
	// asked for (the tool did not hold the rate, or the label is wrong).
	RateAboveTarget
	// BrokenValues: values of the record that cannot be right (a CPU
	// counter that fell, text where a number belongs), stored as NULL.
	BrokenValues
)

// BrokenCounters returns the problems of one run's counters, in the
// order of the CounterProblem constants. These need no passes: each is
// impossible in a correct record.
func BrokenCounters(c RunCounts, r FindingRules) []CounterProblem {
	var out []CounterProblem
	if c.CPUServerS < 0 || c.CPUUserS < 0 || c.CPUKernelS < 0 || c.CPUDBS < 0 {
		out = append(out, NegativeCPU)
	}
	if c.Requests >= 0 && c.Responses2xx > c.Requests {
		out = append(out, MoreOKThanRequests)
	}
	if c.TargetRPS > 0 && c.RPS > c.TargetRPS*(1+r.RateExcess) {
		out = append(out, RateAboveTarget)
	}
	if c.Broken != "" {
		out = append(out, BrokenValues)
	}
	return out
}

// ErrorsInOneServer takes the failed requests of each pass of each
// server at one configuration and returns the one server with failures
// when every other server (at least one) has none in any pass; -1
// otherwise. A server with no passes takes no part.
func ErrorsInOneServer(failed [][]int64) int {
	one, servers := -1, 0
	for i, ps := range failed {
		if len(ps) == 0 {
			continue
		}
		servers++
		sum := int64(0)
		for _, v := range ps {
			sum += max(v, 0)
		}
		if sum > 0 {
			if one >= 0 {
				return -1
			}
			one = i
		}
	}
	if servers < 2 {
		return -1
	}
	return one
}

// A SharedLimitResult is the shared-limit rule applied to the servers of
// one test.
type SharedLimitResult struct {
	// BestMedians are the servers' median throughputs at their best;
	// Spread is (max - min) / median of them.
	BestMedians []float64
	Spread      float64
	// CPU is the split of the servers' CPU per request at those runs.
	CPU   SplitResult
	Found bool
}

// SharedLimit tests whether the servers of a test all reach the same
// throughput at their best although their CPU per request differs: then
// what limits them is something they share (the database, the load
// generator, the network), not their own CPU. best holds each server's
// throughput passes at its best configuration, cpu the CPU per request of
// the same passes. It fires with two servers or more, each with at least
// MinPasses passes of both, when the spread of the best medians is at most
// SharedTolerance and no larger than the spread of any one server's
// passes (they are level within the noise), and the CPU per request
// splits into two or more groups by Split.
func SharedLimit(best, cpu [][]float64, r FindingRules) SharedLimitResult {
	res := SharedLimitResult{Spread: math.NaN()}
	if len(best) < 2 || len(cpu) != len(best) {
		return res
	}
	noise := 0.0
	for i := range best {
		if !r.enough(best[i]) || !r.enough(cpu[i]) {
			return res
		}
		res.BestMedians = append(res.BestMedians, Median(dropNaN(best[i])))
		noise = math.Max(noise, spread(best[i]))
	}
	lo, hi := slices.Min(res.BestMedians), slices.Max(res.BestMedians)
	res.Spread = (hi - lo) / Median(res.BestMedians)
	res.CPU = Split(cpu, r)
	res.Found = res.Spread <= r.SharedTolerance && hi-lo <= noise && res.CPU.Found()
	return res
}

// FirstStepFailed is the rule of a ladder that says nothing: its first
// step already failed, so the load was never below capacity and the
// highest step held is unknown, not zero.
func FirstStepFailed(res LadderResult) bool {
	return len(res.Steps) > 0 && !res.Steps[0].Held
}

// Set sets the threshold of the given name (see FindingSettings); an
// unknown name or a value out of range is an error that names the
// accepted ones.
func (r *FindingRules) Set(name string, v float64) error {
	var names []string
	for _, s := range FindingSettings() {
		if s.Name == name {
			c := *r
			if err := s.Set(&c, v); err != nil {
				return err
			}
			*r = c
			return nil
		}
		names = append(names, s.Name)
	}
	return fmt.Errorf("unknown finding threshold %q: expected one of %s", name, strings.Join(names, ", "))
}

// A Replication is a split that the same servers show at several loads.
type Replication struct {
	// Groups names the servers of each group, in rising order, as at the
	// first of Loads.
	Groups [][]string
	// Loads are the indices of the loads (of the results given) where
	// the servers split so.
	Loads []int
}

// ReplicatedSplits finds the partitions that recur: servers[i] names the
// servers of the passes behind results[i] (one figure at load i). A
// partition counts at a load when it is Split's candidate there and each
// of its cuts has a Mann–Whitney p below Alpha taken alone; one that counts
// at two loads or more is a Replication. Named at one load and tested on
// the independent passes of another, it needs no allowance for the search
// that found it: this is how three servers of three passes, which no
// single load can split (see Split), show a split that holds.
func ReplicatedSplits(servers [][]string, results []SplitResult, r FindingRules) []Replication {
	var out []Replication
	index := map[string]int{}
	for i, res := range results {
		if !res.Candidate() || slices.ContainsFunc(res.Cuts, func(c SplitCut) bool { return !(c.P < r.Alpha) }) {
			continue
		}
		var groups [][]string
		var key strings.Builder
		for _, g := range res.Groups {
			var names []string
			for _, k := range g {
				names = append(names, servers[i][k])
			}
			groups = append(groups, names)
			sorted := slices.Sorted(slices.Values(names))
			key.WriteString(strings.Join(sorted, "\x00") + "\x01")
		}
		k := key.String()
		if j, ok := index[k]; ok {
			out[j].Loads = append(out[j].Loads, i)
			continue
		}
		index[k] = len(out)
		out = append(out, Replication{Groups: groups, Loads: []int{i}})
	}
	return slices.DeleteFunc(out, func(rep Replication) bool { return len(rep.Loads) < 2 })
}
