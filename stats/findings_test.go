package stats

import (
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// passesAround returns three passes: v lowered, v, v raised by rel.
func passesAround(v, rel float64) []float64 { return []float64{v * (1 - rel), v, v * (1 + rel)} }

// bruteTrendP enumerates every assignment of the pooled values to groups
// of the given sizes and returns the share with J >= j: the exact
// permutation p-value, by a route independent of DecreasingTrend's.
func bruteTrendP(groups [][]float64) float64 {
	var pool []float64
	var sizes []int
	for _, g := range groups {
		pool = append(pool, g...)
		sizes = append(sizes, len(g))
	}
	obs := DecreasingTrend(groups).J
	label := make([]int, len(pool))
	hit, total := 0, 0
	var rec func(i int, left []int)
	rec = func(i int, left []int) {
		if i == len(pool) {
			gs := make([][]float64, len(sizes))
			for k, l := range label {
				gs[l] = append(gs[l], pool[k])
			}
			total++
			if DecreasingTrend(gs).J >= obs {
				hit++
			}
			return
		}
		for g := range left {
			if left[g] > 0 {
				left[g]--
				label[i] = g
				rec(i+1, left)
				left[g]++
			}
		}
	}
	rec(0, slices.Clone(sizes))
	return float64(hit) / float64(total)
}

func TestDecreasingTrend(t *testing.T) {
	// Complete order of 3 x 3 values: 1 / (9! / (3! 3! 3!)) = 1/1680.
	got := DecreasingTrend([][]float64{{9, 8, 7}, {6, 5, 4}, {3, 2, 1}})
	if !got.Exact || got.J != 27 || !closeTo(got.P, 1.0/1680, 1e-12) {
		t.Errorf("complete order: %+v, want J 27, exact P 1/1680", got)
	}
	// A rise is no fall: J = 0 and P = 1.
	if got := DecreasingTrend([][]float64{{1, 2}, {3, 4}}); got.J != 0 || !closeTo(got.P, 1, 1e-12) {
		t.Errorf("rising: %+v, want J 0, P 1", got)
	}
	for _, gs := range [][][]float64{
		{{5, 9, 2}, {4, 7}, {1, 6, 3}},
		{{10, 8}, {9, 3, 6}, {2, 7}, {1}},
		{{4, 3, 6}, {5, 2, 1}},
	} {
		if got, want := DecreasingTrend(gs).P, bruteTrendP(gs); !closeTo(got, want, 1e-12) {
			t.Errorf("%v: P = %v, enumeration gives %v", gs, got, want)
		}
	}
	// Ties go to the normal approximation, which leans towards no trend.
	tied := DecreasingTrend([][]float64{{3, 3, 2}, {2, 1, 1}})
	if tied.Exact || !(tied.P > 0.02 && tied.P < 0.2) {
		t.Errorf("ties: %+v, want an approximate P between 0.02 and 0.2", tied)
	}
	if got := DecreasingTrend([][]float64{{1, 2, 3}}); !math.IsNaN(got.P) {
		t.Errorf("one group: P = %v, want NaN", got.P)
	}
}

// The published figures: .NET's CPU per request 0.97, 0.83, 0.70 ms at
// 1000, 2000 and 4000 requests/s, three passes each within 2%.
func TestIdleCostPublished(t *testing.T) {
	r := DefaultFindingRules()
	net := [][]float64{passesAround(0.97, 0.02), passesAround(0.83, 0.02), passesAround(0.70, 0.02)}
	got := IdleCost(net, r)
	if !got.Found || !closeTo(got.FallFrac, 1-0.70/0.97, 1e-12) || got.Trend.P > 0.001 {
		t.Errorf("published .NET figures: %+v, want a finding with a fall of 28%% and p < 0.001", got)
	}
	flat := [][]float64{{0.82, 0.84, 0.83}, {0.84, 0.83, 0.82}, {0.83, 0.82, 0.84}}
	if got := IdleCost(flat, r); got.Found {
		t.Errorf("the same passes with the fall removed: %+v, want no finding", got)
	}
	// The same medians inside the noise: passes spread over ±30%.
	noisy := [][]float64{passesAround(0.97, 0.3), passesAround(0.83, 0.3), passesAround(0.70, 0.3)}
	if got := IdleCost(noisy, r); got.Found {
		t.Errorf("the fall inside the passes' spread: %+v, want no finding", got)
	}
	// Two passes per rate are too few, however clean.
	two := [][]float64{{0.96, 0.98}, {0.82, 0.84}, {0.69, 0.71}}
	if got := IdleCost(two, r); got.Found {
		t.Errorf("two passes per rate: %+v, want no finding", got)
	}
	// A fall that is not monotone is not this finding.
	bumpy := [][]float64{passesAround(0.97, 0.01), passesAround(0.60, 0.01), passesAround(0.70, 0.01)}
	if got := IdleCost(bumpy, r); got.Found {
		t.Errorf("a fall then a rise: %+v, want no finding", got)
	}
	// A clean fall of 5% is below IdleMinFall.
	small := [][]float64{passesAround(1.00, 0.001), passesAround(0.98, 0.001), passesAround(0.95, 0.001)}
	if got := IdleCost(small, r); got.Found {
		t.Errorf("a 5%% fall: %+v, want no finding below IdleMinFall", got)
	}
}

// twelveStacks is a database CPU per request (ms) of twelve stacks at one
// load: three whose drivers keep prepared statements at about 0.5 ms, nine
// at 1.2–1.5 ms, three passes each within 3%.
func twelveStacks(split bool) [][]float64 {
	meds := []float64{0.49, 0.50, 0.52, 1.20, 1.24, 1.27, 1.31, 1.35, 1.38, 1.42, 1.46, 1.50}
	var out [][]float64
	for i, m := range meds {
		if !split && i < 3 {
			m = 1.33 + 0.03*float64(i) // the same three among the others
		}
		out = append(out, passesAround(m, 0.03))
	}
	return out
}

func TestSplitPublished(t *testing.T) {
	r := DefaultFindingRules()
	got := Split(twelveStacks(true), r)
	want := [][]int{{0, 1, 2}, {3, 4, 5, 6, 7, 8, 9, 10, 11}}
	if !reflect.DeepEqual(got.Groups, want) {
		t.Fatalf("groups %v, want %v", got.Groups, want)
	}
	if c := got.Cuts[0]; !closeTo(c.Gap, 1.20-0.52, 1e-12) || !closeTo(c.Within, 0.30, 1e-12) || !(c.P < 1e-5) {
		t.Errorf("cut %+v, want gap 0.68 over a spread of 0.30 with p < 1e-5", c)
	}
	if got := Split(twelveStacks(false), r); got.Found() {
		t.Errorf("the same stacks without the three cheap ones: groups %v, want one", got.Groups)
	}
}

func TestSplitNoise(t *testing.T) {
	r := DefaultFindingRules()
	// Two servers of three passes can never be split at 0.05.
	if got := Split([][]float64{{1, 1.01, 1.02}, {2, 2.01, 2.02}}, r); got.Found() {
		t.Errorf("3 against 3 passes: %v, want one group", got.Groups)
	}
	// A pair against a third with passes apart: the candidate, named in
	// order; pure chance deals as clean a split about one time in twenty
	// to twenty-five, so its P is near 0.05.
	got := Split([][]float64{{3.0, 3.1, 3.2}, {1.0, 1.1, 1.2}, {1.3, 1.4, 1.5}}, r)
	if want := [][]int{{1, 2}, {0}}; !reflect.DeepEqual(got.Groups, want) || !got.Candidate() || !(got.P > 0.02 && got.P < 0.08) {
		t.Errorf("groups %v, P %v: want the candidate %v with P between 0.02 and 0.08", got.Groups, got.P, want)
	}
	if c := got.Cuts[0]; !closeTo(c.P, 2.0/84, 1e-9) {
		t.Errorf("cut p %v, want 2/84 (complete separation of 6 against 3)", c.P)
	}
	// The same medians with passes that overlap across the gap: no
	// candidate whose cut holds alone.
	got = Split([][]float64{{1.5, 3.1, 3.2}, {1.0, 1.1, 3.3}, {1.3, 1.4, 1.5}}, r)
	if got.Found() || got.Candidate() && got.Cuts[0].P < r.Alpha {
		t.Errorf("overlapping passes: %v, cuts %+v, want no split", got.Groups, got.Cuts)
	}
	// Evenly spaced medians: no gap is larger than the spread within.
	got = Split([][]float64{{1, 1.01, 1.02}, {2, 2.01, 2.02}, {3, 3.01, 3.02}, {4, 4.01, 4.02}}, r)
	if got.Found() {
		t.Errorf("evenly spaced: %v, want one group", got.Groups)
	}
	// A server with too few passes takes no part.
	got = Split([][]float64{{3.0, 3.1, 3.2}, {1.0, 1.1, 1.2}, {1.3, 1.4, 1.5}, {9}}, r)
	if want := [][]int{{1, 2}, {0}}; !reflect.DeepEqual(got.Groups, want) || !math.IsNaN(got.Medians[3]) {
		t.Errorf("groups %v medians %v, want %v and NaN for the one-pass server", got.Groups, got.Medians, want)
	}
}

func TestOutlierTails(t *testing.T) {
	r := DefaultFindingRules()
	// One stack's p99 was 78 ms where the others had 3.6–10.4 ms.
	peers := []float64{3.6, 4.2, 5.1, 5.8, 6.3, 7.0, 7.7, 8.4, 9.1, 10.4}
	var p99 [][]float64
	for _, m := range peers {
		p99 = append(p99, passesAround(m, 0.05))
	}
	got := OutlierTails(append(slices.Clone(p99), passesAround(78, 0.05)), r)
	if len(got) != 1 || got[0].Server != 10 || got[0].Peers != 10 || !closeTo(got[0].PeersMedianMS, 6.65, 1e-12) {
		t.Fatalf("tails %+v, want server 10 against 10 peers with median 6.65 ms", got)
	}
	if got := OutlierTails(append(slices.Clone(p99), passesAround(11, 0.05)), r); len(got) != 0 {
		t.Errorf("an 11 ms p99 among 3.6–10.4: %+v, want none", got)
	}
	// The same 78 ms with passes reaching down among the peers.
	if got := OutlierTails(append(slices.Clone(p99), []float64{9, 78, 80}), r); len(got) != 0 {
		t.Errorf("a 78 ms median whose lowest pass is 9 ms: %+v, want none", got)
	}
	// Two peers are too few.
	if got := OutlierTails([][]float64{passesAround(5, 0.05), passesAround(6, 0.05), passesAround(78, 0.05)}, r); len(got) != 0 {
		t.Errorf("two peers: %+v, want none", got)
	}
}

func TestUnstableSlope(t *testing.T) {
	r := DefaultFindingRules()
	// A memory slope that moved between passes from 0.39 to 0.76 GiB per
	// 1000, each fit with a standard error of 0.02.
	moved := []SlopePass{{0.39, 0.02}, {0.55, 0.02}, {0.76, 0.02}}
	got := UnstableSlope(moved, r)
	if !got.Found || got.Passes != 3 || !(got.P < 1e-6) || got.Min != 0.39 || got.Max != 0.76 {
		t.Errorf("%+v, want a finding from 0.39 to 0.76 with p < 1e-6", got)
	}
	// The same slopes inside their fits' errors.
	loose := []SlopePass{{0.39, 0.3}, {0.55, 0.3}, {0.76, 0.3}}
	if got := UnstableSlope(loose, r); got.Found {
		t.Errorf("standard errors of 0.3: %+v, want none", got)
	}
	// Precise fits that differ by 2% are not worth a finding.
	close := []SlopePass{{0.50, 0.001}, {0.51, 0.001}, {0.505, 0.001}}
	if got := UnstableSlope(close, r); got.Found {
		t.Errorf("a 2%% spread: %+v, want none below SlopeMinSpread", got)
	}
	if got := UnstableSlope(moved[:2], r); got.Found {
		t.Errorf("two passes: %+v, want none", got)
	}
}

func TestBrokenCounters(t *testing.T) {
	r := DefaultFindingRules()
	nan := math.NaN()
	ok := RunCounts{CPUServerS: 2, CPUUserS: 1.5, CPUKernelS: 0.5, CPUDBS: 1, Requests: 1000, Responses2xx: 1000, RPS: 1010, TargetRPS: 1000}
	tests := []struct {
		name string
		c    RunCounts
		want []CounterProblem
	}{
		{"sound", ok, nil},
		{"unknown", RunCounts{CPUServerS: nan, CPUUserS: nan, CPUKernelS: nan, CPUDBS: nan, Requests: -1, Responses2xx: -1, RPS: nan, TargetRPS: nan}, nil},
		{"negative database CPU", func() RunCounts { c := ok; c.CPUDBS = -0.4; return c }(), []CounterProblem{NegativeCPU}},
		{"a value stored as NULL", func() RunCounts { c := ok; c.CPUDBS = nan; c.Broken = "cpu_db_s -41.73"; return c }(), []CounterProblem{BrokenValues}},
		{"more 2xx than requests", func() RunCounts { c := ok; c.Responses2xx = 1001; return c }(), []CounterProblem{MoreOKThanRequests}},
		{"rate 24% above", func() RunCounts { c := ok; c.RPS = 1240; return c }(), nil},
		{"rate 30% above", func() RunCounts { c := ok; c.RPS = 1300; return c }(), []CounterProblem{RateAboveTarget}},
		{"all three", RunCounts{CPUServerS: -1, CPUUserS: nan, CPUKernelS: nan, CPUDBS: nan, Requests: 5, Responses2xx: 9, RPS: 900, TargetRPS: 100},
			[]CounterProblem{NegativeCPU, MoreOKThanRequests, RateAboveTarget}},
	}
	for _, tc := range tests {
		if got := BrokenCounters(tc.c, r); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestErrorsInOneServer(t *testing.T) {
	tests := []struct {
		failed [][]int64
		want   int
	}{
		{[][]int64{{0, 0}, {0, 3}, {0, 0}}, 1},
		{[][]int64{{0, 0}, {0, 3}, {1, 0}}, -1},
		{[][]int64{{0}, {0}}, -1},
		{[][]int64{{4}}, -1},      // no other server to compare with
		{[][]int64{{4}, nil}, -1}, // the other server has no runs
		{[][]int64{{0}, {0}, {2}}, 2},
	}
	for _, tc := range tests {
		if got := ErrorsInOneServer(tc.failed); got != tc.want {
			t.Errorf("%v: %d, want %d", tc.failed, got, tc.want)
		}
	}
}

func TestSharedLimit(t *testing.T) {
	r := DefaultFindingRules()
	// Four servers at 1000 inserts/s within 2%, CPU per request in two
	// groups (80 and 200 µs).
	best := [][]float64{{990, 1000, 1010}, {985, 995, 1005}, {1000, 1010, 1020}, {992, 1002, 1012}}
	cpu := [][]float64{passesAround(80, 0.03), passesAround(82, 0.03), passesAround(200, 0.03), passesAround(205, 0.03)}
	got := SharedLimit(best, cpu, r)
	if !got.Found || !reflect.DeepEqual(got.CPU.Groups, [][]int{{0, 1}, {2, 3}}) {
		t.Errorf("%+v, want a shared limit with CPU groups [[0 1] [2 3]]", got)
	}
	// The same CPU split with throughputs 20% apart: their own limits.
	apart := [][]float64{{990, 1000, 1010}, {985, 995, 1005}, {1190, 1200, 1210}, {1192, 1202, 1212}}
	if got := SharedLimit(apart, cpu, r); got.Found {
		t.Errorf("throughputs 20%% apart: %+v, want none", got)
	}
	// Level throughputs and CPU per request alike: nothing to say.
	same := [][]float64{passesAround(100, 0.03), passesAround(101, 0.03), passesAround(102, 0.03), passesAround(103, 0.03)}
	if got := SharedLimit(best, same, r); got.Found {
		t.Errorf("CPU per request level too: %+v, want none", got)
	}
}

func TestFirstStepFailed(t *testing.T) {
	rule := p95AndErrors
	failed := EvaluateLadder([]LadderStep{{TargetRPS: 100, P95MS: 80, Requests: 400}, {TargetRPS: 200, P95MS: 20, Requests: 800}}, rule)
	held := EvaluateLadder([]LadderStep{{TargetRPS: 100, P95MS: 8, Requests: 400}, {TargetRPS: 200, P95MS: 90, Requests: 800}}, rule)
	if !FirstStepFailed(failed) || FirstStepFailed(held) || FirstStepFailed(LadderResult{}) {
		t.Errorf("FirstStepFailed: %v for a failed first step, %v for a held one, %v for none; want true, false, false",
			FirstStepFailed(failed), FirstStepFailed(held), FirstStepFailed(LadderResult{}))
	}
}

func TestFindingSettings(t *testing.T) {
	r := DefaultFindingRules()
	for _, s := range FindingSettings() {
		v := s.Get(r)
		c := r
		if err := s.Set(&c, v); err != nil || c != r {
			t.Errorf("%s: setting the default %v gave %v, %+v", s.Name, v, err, c)
		}
		if err := s.Set(&c, -1); err == nil {
			t.Errorf("%s: -1 accepted", s.Name)
		}
	}
}

// With no effect at all (every pass of every server drawn from one
// distribution), the rules that test at Alpha fire no more often than
// Alpha (plus three standard errors of the simulated rate): the chance of
// a false finding is what the report's note says at most. Fixed seed;
// 1000 draws each.
func TestFindingRulesFalseAlarmRate(t *testing.T) {
	r := DefaultFindingRules()
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(groups, passes int) [][]float64 {
		out := make([][]float64, groups)
		for i := range out {
			for range passes {
				out[i] = append(out[i], 100+10*rng.NormFloat64())
			}
		}
		return out
	}
	const n = 1000
	rates := map[string]int{}
	for range n {
		if IdleCost(draw(3, 3), r).Found {
			rates["idle cost, 3 rates x 3 passes"]++
		}
		if IdleCost(draw(4, 5), r).Found {
			rates["idle cost, 4 rates x 5 passes"]++
		}
		if Split(draw(3, 3), r).Found() {
			rates["split, 3 servers x 3 passes"]++
		}
		if Split(draw(12, 3), r).Found() {
			rates["split, 12 servers x 3 passes"]++
		}
		if Split(draw(6, 10), r).Found() {
			rates["split, 6 servers x 10 passes"]++
		}
		var results []SplitResult
		var names [][]string
		for range 5 {
			results = append(results, Split(draw(3, 3), r))
			names = append(names, []string{"a", "b", "c"})
		}
		if len(ReplicatedSplits(names, results, r)) > 0 {
			rates["split replicated, 5 loads of 3 servers x 3 passes"]++
		}
		results, names = nil, nil
		for range 3 {
			results = append(results, Split(draw(8, 3), r))
			names = append(names, []string{"a", "b", "c", "d", "e", "f", "g", "h"})
		}
		if len(ReplicatedSplits(names, results, r)) > 0 {
			rates["split replicated, 3 loads of 8 servers x 3 passes"]++
		}
		if len(OutlierTails(draw(8, 3), r)) > 0 {
			rates["outlier tail, 8 servers x 3 passes"]++
		}
	}
	for _, name := range slices.Sorted(maps.Keys(rates)) {
		k := rates[name]
		if rate := float64(k) / n; rate > r.Alpha+3*math.Sqrt(r.Alpha*(1-r.Alpha)/n) {
			t.Errorf("%s: fired on %.1f%% of draws without an effect, more than alpha %g", name, 100*rate, r.Alpha)
		} else {
			t.Logf("%s: %.2f%% false findings", name, 100*rate)
		}
	}
}

// The shipped corpus's shape: three servers of three passes at several
// loads, one server's database CPU per request 1.5-1.9 times the others'.
// A single load can hardly call it (P near 0.05), the recurring partition
// can.
func TestReplicatedSplits(t *testing.T) {
	r := DefaultFindingRules()
	names := []string{"go-pgx", "go-pq", "node-pg"}
	load := func(pgx, pq, node float64) []float64 { return []float64{pgx, pq, node} }
	build := func(meds ...[]float64) ([][]string, []SplitResult) {
		var ns [][]string
		var rs []SplitResult
		for _, m := range meds {
			ns = append(ns, names)
			rs = append(rs, Split([][]float64{passesAround(m[0], 0.08), passesAround(m[1], 0.08), passesAround(m[2], 0.08)}, r))
		}
		return ns, rs
	}
	ns, rs := build(load(243, 370, 297), load(120, 229, 158), load(255, 440, 272), load(219, 325, 225))
	got := ReplicatedSplits(ns, rs, r)
	want := []Replication{{Groups: [][]string{{"go-pgx", "node-pg"}, {"go-pq"}}, Loads: []int{0, 1, 2, 3}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replications %+v, want %+v", got, want)
	}
	// The effect at one load only, or nowhere: nothing recurs.
	ns, rs = build(load(243, 370, 297), load(160, 158, 150), load(260, 255, 272), load(219, 225, 222))
	if got := ReplicatedSplits(ns, rs, r); len(got) != 0 {
		t.Errorf("one load with the effect: %+v, want none", got)
	}
}
