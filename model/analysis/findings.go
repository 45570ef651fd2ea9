package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// The Findings section: the rules of package stats (stats/findings.go)
// applied to the figures the other sections computed, each finding one
// sentence with its numbers, the rule that fired and the runs behind it.

// A found is one finding before it becomes a row.
type found struct {
	// headline is the effect, its size and where (fit bounds it); text
	// the evidence.
	rule, headline, text string
	// p is the p-value of the rule's test, where it makes one (hasP).
	p    float64
	hasP bool
	// section is the ID of the section whose rows are behind the
	// finding; empty for the rows of every section.
	section string
	srcs    []model.Source
	// paired: the text gives a within-trial ratio
	paired bool
}

// The names of the rules, as the rule column prints them.
const (
	ruleIdleCost      = "idle cost"
	ruleSplit         = "split at equal load"
	ruleTail          = "outlier tail"
	ruleUnstableSlope = "unstable slope"
	ruleBentSlope     = "bent slope"
	ruleCounters      = "broken counters"
	ruleErrorsInOne   = "errors in one server"
	ruleSharedLimit   = "shared limit"
	ruleDrift         = "drift"
	ruleLadder        = "ladder's first step failed"
)

// ruleIDs are the rules' names for programs (the rule_id column of CSV
// and JSON).
var ruleIDs = map[string]string{
	ruleIdleCost: "idle-cost", ruleSplit: "split", ruleTail: "outlier-tail", ruleUnstableSlope: "unstable-slope",
	ruleBentSlope: "bent-slope", ruleCounters: "broken-counters", ruleErrorsInOne: "errors-in-one-server",
	ruleSharedLimit: "shared-limit", ruleDrift: "drift", ruleLadder: "ladder-first-step-failed",
}

// tested counts the tests a rule made at Alpha, for the note on the
// chance of a false finding.
type tested map[string]int

// Findings are the rules of package stats that fired on the figures of
// the other sections, each one sentence with its numbers, the rule, the
// runs behind it and the section whose rows hold them; Notes say what
// the rules need and the chance of a false finding, and the caveats of
// the groups behind each finding.
type Findings struct {
	List  []Finding
	Notes []string
}

// Finding is one finding: Rule names its rule for people, RuleID for
// programs; Headline says its effect, size and where in at most
// MaxHeadline characters, Text its evidence; P is its test's p-value where it makes one (HasP); Section
// is the ID of the section whose rows are behind it (empty for any).
type Finding struct {
	Rule, RuleID, Headline, Text string
	P                            float64
	HasP                         bool
	Section                      string
	Sources                      []model.Source
}

// MaxFindingFiles is how many files a finding's runs name for people.
const MaxFindingFiles = 4

// findings applies every rule to what the sections computed.
func (a *analysis) findings(sh *shared, ladders []ladderRuns, groupOf map[model.Source][]string) (Findings, error) {
	var out Findings
	r := a.opts.Findings
	t := tested{}
	var all []found
	all = append(all, a.idleCosts(sh, r, t)...)
	all = append(all, a.splits(sh, r, t)...)
	all = append(all, a.tails(sh, r)...)
	all = append(all, a.slopes(sh, r, t)...)
	counters, err := a.counters(sh, r)
	if err != nil {
		return out, err
	}
	all = append(all, counters...)
	all = append(all, a.errorsInOne(sh)...)
	all = append(all, a.sharedLimits(sh, r, t)...)
	drifts, err := a.driftFindings(sh)
	if err != nil {
		return out, err
	}
	all = append(all, drifts...)
	all = append(all, a.ladderFindings(ladders)...)

	cv := a.newCaveats()
	cv.noun = "finding"
	var robust []string // findings with a within-trial ratio and a drift caveat
	for i, f := range all {
		var ids []string
		for _, src := range f.srcs {
			for _, id := range groupOf[src] {
				if !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
		cv.add(strconv.Itoa(i+1), ids)
		if f.paired && slices.ContainsFunc(ids, func(id string) bool {
			return slices.ContainsFunc(a.caveats[id], func(c model.Caveat) bool { return c.Kind == "drift" })
		}) {
			robust = append(robust, strconv.Itoa(i+1))
		}
		out.List = append(out.List, Finding{Rule: f.rule, RuleID: ruleIDs[f.rule], Headline: fit(f.headline), Text: f.text, P: f.p, HasP: f.hasP, Section: f.section, Sources: f.srcs})
	}
	var list []string
	if len(all) == 0 {
		list = append(list, "no rule fired")
	}
	list = append(list, fmt.Sprintf("a rule fires only with at least %d passes of every figure it compares and an effect beyond the noise of those passes; wra analyze --help and docs/analyze.md give each rule and its threshold", r.MinPasses))
	if n := t[ruleIdleCost] + t[ruleSplit] + t[ruleUnstableSlope] + t[ruleSharedLimit]; n > 0 {
		var parts []string
		for _, k := range []string{ruleIdleCost, ruleSplit, ruleUnstableSlope, ruleSharedLimit} {
			if t[k] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", k, t[k]))
			}
		}
		list = append(list, fmt.Sprintf("tests made at alpha %g: %s; were no effect real, at most about %s of them would fire by chance",
			r.Alpha, strings.Join(parts, ", "), Sig(float64(n)*r.Alpha)))
	}
	list = append(list, fmt.Sprintf("rows behind it: the tables (tables/<name>.csv) and their rows, counted from 1; runs: file:line of each run, lines of one file joined, at most %d files (the CSV and JSON list every one)", MaxFindingFiles))
	n := &notes{list: list}
	cv.to(n)
	if len(robust) > 0 {
		n.add(fmt.Sprintf("%s %s: the within-trial ratios are robust to a drift that the runs of a trial share; the medians are not",
			map[bool]string{true: "finding", false: "findings"}[len(robust) == 1], strings.Join(robust, ", ")))
	}
	out.Notes = n.list
	return out, nil
}

// figure is one CPU figure of the fixed-rate table.
type figure struct {
	name string
	get  func(cpuRun) float64
}

var cpuFigures = []figure{
	{"stack CPU", func(r cpuRun) float64 { return r.StackUS }},
	{"database CPU", func(r cpuRun) float64 { return r.DBUS }},
}

func groupSources(gs ...cpuGroup) []model.Source {
	var out []model.Source
	for _, g := range gs {
		out = append(out, g.sources()...)
	}
	return out
}

// idleCosts applies stats.IdleCost to each server's CPU per request at
// the fixed rates of a test.
func (a *analysis) idleCosts(sh *shared, r stats.FindingRules, t tested) []found {
	type key struct{ test, server, database string }
	var order []key
	series := map[key][]cpuGroup{}
	for _, g := range sh.fixed {
		k := key{g.test, g.server, g.database}
		if _, ok := series[k]; !ok {
			order = append(order, k)
		}
		series[k] = append(series[k], g)
	}
	var out []found
	for _, k := range order {
		gs := series[k]
		if len(gs) < 2 {
			continue
		}
		slices.SortStableFunc(gs, func(x, y cpuGroup) int { return cmpNaNLast(x.targetRPS, y.targetRPS) })
		for _, fig := range cpuFigures {
			var passes [][]float64
			for _, g := range gs {
				passes = append(passes, g.values(fig.get))
			}
			if slices.ContainsFunc(passes, func(p []float64) bool { return len(p) < r.MinPasses }) {
				continue
			}
			t[ruleIdleCost]++
			res := stats.IdleCost(passes, r)
			if !res.Found {
				continue
			}
			var meds, rates []string
			for i, g := range gs {
				meds = append(meds, Sig(res.Medians[i]))
				rates = append(rates, Sig(g.targetRPS))
			}
			within := ""
			if pr := pairedCPU(gs[0], gs[len(gs)-1], fig.get); pr != nil {
				within = fmt.Sprintf("; within trials, the highest rate's over the lowest's is %s (%s–%s, %d trials)", times(pr.Median), Sig(pr.Low), Sig(pr.High), pr.N)
			}
			where := OrDash(k.test)
			if k.database != "" {
				where += ", " + k.database
			}
			headline := fmt.Sprintf("%s's %s per request falls %s from %s to %s requests/s (%s)",
				a.serverName(k.server), fig.name, pct(res.FallFrac), rates[0], rates[len(rates)-1], where)
			out = append(out, found{rule: ruleIdleCost, headline: headline, p: res.Trend.P, hasP: true, section: "cpu-per-request", srcs: groupSources(gs...), paired: within != "", text: fmt.Sprintf(
				"%s's %s per request on %s falls from %s µs as the rate rises from %s requests/s (%s passes at each rate): a fall of %s, larger than the spread of the passes at any rate (%s µs), Jonckheere–Terpstra %s%s; part of the CPU is spent whether requests come or not, and a higher rate spreads it over more of them.",
				a.serverName(k.server), fig.name, OrDash(k.test), strings.Join(meds, " to "), strings.Join(rates, " to "), passCount(passes),
				pct(res.FallFrac), Sig(res.MaxSpread), pValue(res.Trend.P), within)})
		}
	}
	return out
}

// splits applies stats.Split to the servers' CPU per request at each
// load: a test and rate on one database (servers on two databases are
// not at equal load: each database's CPU is its own). A split that recurs
// at several loads (stats.ReplicatedSplits) is one finding over all of
// them; a split found at one load alone (stats.SplitResult.Found) is one
// of its own.
func (a *analysis) splits(sh *shared, r stats.FindingRules, t tested) []found {
	var loads [][]cpuGroup
	for i := 0; i < len(sh.fixed); {
		j := i
		for j < len(sh.fixed) && sh.fixed[j].test == sh.fixed[i].test && sh.fixed[j].targetRPS == sh.fixed[i].targetRPS {
			j++
		}
		var dbs []string
		byDB := map[string][]cpuGroup{}
		for _, g := range sh.fixed[i:j] {
			if _, ok := byDB[g.database]; !ok {
				dbs = append(dbs, g.database)
			}
			byDB[g.database] = append(byDB[g.database], g)
		}
		for _, db := range dbs {
			if len(byDB[db]) >= 2 {
				loads = append(loads, byDB[db])
			}
		}
		i = j
	}
	var out []found
	for _, fig := range cpuFigures {
		var names [][]string
		var results []stats.SplitResult
		for _, gs := range loads {
			var passes [][]float64
			var ns []string
			for _, g := range gs {
				passes = append(passes, g.values(fig.get))
				ns = append(ns, a.serverName(g.server))
			}
			res := stats.Split(passes, r)
			if res.Candidate() || len(res.Groups) == 1 && len(res.Groups[0]) >= 2 {
				t[ruleSplit]++
			}
			names, results = append(names, ns), append(results, res)
		}
		covered := map[int]bool{}
		for _, rep := range stats.ReplicatedSplits(names, results, r) {
			for _, l := range rep.Loads {
				covered[l] = true
			}
			out = append(out, replicatedSplit(fig, rep, loads, names, results))
		}
		for l, res := range results {
			if !res.Found() || covered[l] {
				continue
			}
			gs, ns := loads[l], names[l]
			lo, hi := res.Groups[0][0], res.Groups[len(res.Groups)-1][len(res.Groups[len(res.Groups)-1])-1]
			w := withinText(gs[lo], gs[hi], fig)
			headline := fmt.Sprintf("%s uses %s× %s's %s per request at %s", ns[hi], Sig(res.Medians[hi]/res.Medians[lo]), ns[lo], fig.name, splitLoad(gs))
			out = append(out, found{rule: ruleSplit, headline: headline, p: res.P, hasP: true, section: "cpu-per-request", srcs: groupSources(gs...), paired: w != "", text: fmt.Sprintf(
				"At %s, %s per request splits the servers into %d groups: %s; %s, larger than the spread of medians within any group (%s µs); Mann–Whitney %s taken alone, and %s for the partition, allowing for its choice among all (%d permutations); the dearest, %s, costs %s times what the cheapest, %s, does%s.",
				splitLoad(gs), fig.name, len(res.Groups), groupsText(res, ns), gapsText(res), Sig(res.Cuts[0].Within),
				pList(res.Cuts), pValue(res.P), stats.SplitPermutations, ns[hi], Sig(res.Medians[hi]/res.Medians[lo]), ns[lo], w)})
		}
	}
	return out
}

func splitLoad(gs []cpuGroup) string {
	if db := gs[0].database; db != "" {
		return fmt.Sprintf("%s, %s requests/s on %s", OrDash(gs[0].test), Sig(gs[0].targetRPS), db)
	}
	return fmt.Sprintf("%s, %s requests/s", OrDash(gs[0].test), Sig(gs[0].targetRPS))
}

// replicatedSplit is the finding of a split that recurs at several loads.
func replicatedSplit(fig figure, rep stats.Replication, loads [][]cpuGroup, names [][]string, results []stats.SplitResult) found {
	var groups []string
	for _, g := range rep.Groups {
		groups = append(groups, "{"+listed(g)+"}")
	}
	cheap, dear := rep.Groups[0][0], rep.Groups[len(rep.Groups)-1][len(rep.Groups[len(rep.Groups)-1])-1]
	var at, withins []string
	var srcs []model.Source
	ratioLo, ratioHi := math.Inf(1), math.Inf(-1)
	for _, l := range rep.Loads {
		res := results[l]
		var gs []string
		for _, g := range res.Groups {
			var meds []string
			for _, k := range g {
				meds = append(meds, Sig(res.Medians[k]))
			}
			gs = append(gs, listed(meds))
		}
		at = append(at, fmt.Sprintf("%s (%s µs, Mann–Whitney %s)", splitLoad(loads[l]), strings.Join(gs, " | "), pList(res.Cuts)))
		srcs = append(srcs, groupSources(loads[l]...)...)
		ratio := res.Medians[slices.Index(names[l], dear)] / res.Medians[slices.Index(names[l], cheap)]
		ratioLo, ratioHi = math.Min(ratioLo, ratio), math.Max(ratioHi, ratio)
		if ci, di := slices.Index(names[l], cheap), slices.Index(names[l], dear); ci >= 0 && di >= 0 {
			if w := withinText(loads[l][ci], loads[l][di], fig); w != "" {
				withins = append(withins, splitLoad(loads[l])+w)
			}
		}
	}
	// The loads where the same servers ran and the split did not show.
	var not []string
	for l, ns := range names {
		if slices.Contains(rep.Loads, l) {
			continue
		}
		all := true
		for _, g := range rep.Groups {
			for _, sv := range g {
				if k := slices.Index(ns, sv); k < 0 || math.IsNaN(results[l].Medians[k]) {
					all = false
				}
			}
		}
		if all {
			not = append(not, splitLoad(loads[l]))
		}
	}
	notText := ""
	if len(not) > 0 {
		notText = fmt.Sprintf(" (not at %s, where it is inside the noise of the passes)", strings.Join(not, "; "))
	}
	ratio := Sig(ratioLo)
	if ratioHi > ratioLo && Sig(ratioHi) != ratio {
		ratio += "–" + Sig(ratioHi)
	}
	// The loads by test: "one at 100, 500; page at 250".
	var tests, dbs []string
	rates := map[string][]string{}
	for _, l := range rep.Loads {
		g := loads[l][0]
		if _, ok := rates[OrDash(g.test)]; !ok {
			tests = append(tests, OrDash(g.test))
		}
		rates[OrDash(g.test)] = append(rates[OrDash(g.test)], Sig(g.targetRPS))
		dbs = append(dbs, g.database)
	}
	var where []string
	for _, t := range tests {
		where = append(where, t+" at "+strings.Join(rates[t], ", "))
	}
	on := ""
	if dbs = distinct(dbs); len(dbs) == 1 && dbs[0] != "" {
		on = " on " + dbs[0]
	}
	headline := fmt.Sprintf("%s uses %s× %s's %s per request%s (%s requests/s)", dear, ratio, cheap, fig.name, on, strings.Join(where, "; "))
	return found{rule: ruleSplit, headline: headline, section: "cpu-per-request", srcs: srcs, paired: len(withins) > 0, text: fmt.Sprintf(
		"%s per request splits the servers into %s at %d loads: %s%s; each load's gap is larger than the spread of medians within its groups, and named at one load the groups split again on the independent passes of the others, so the split is no accident of one load's noise; %s costs %s times what %s does%s.",
		upperFirst(fig.name), strings.Join(groups, " and "), len(rep.Loads), strings.Join(at, "; "), notText, dear, ratio, cheap, withinList(withins))}
}

// withinText is the paired figure of dear against cheap on fig, where
// they share trials: ", within trials ×1.40 (1.20–1.60, 5 trials)".
func withinText(cheap, dear cpuGroup, fig figure) string {
	p := pairedCPU(cheap, dear, fig.get)
	if p == nil {
		return ""
	}
	return fmt.Sprintf(", within trials %s (%s–%s, %d trials)", times(p.Median), Sig(p.Low), Sig(p.High), p.N)
}

// withinList lists the paired figures of a split's loads.
func withinList(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	return " (" + strings.Join(ws, "; ") + ")"
}

// A finding names up to maxListed subjects (servers, their medians) in
// one list; a longer list names the first listedHead and counts the rest.
const (
	maxListed  = 12
	listedHead = 8
)

// listed joins items with commas, all of them up to maxListed and beyond
// that the first listedHead and "and N more": a finding stays readable,
// and bounded in length, however many servers a store holds. Its runs
// column still cites every run.
func listed(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:listedHead], ", "), len(items)-listedHead)
}

func groupsText(res stats.SplitResult, names []string) string {
	var gs []string
	for _, g := range res.Groups {
		var parts []string
		for _, k := range g {
			parts = append(parts, fmt.Sprintf("%s %s µs", names[k], Sig(res.Medians[k])))
		}
		gs = append(gs, "{"+listed(parts)+"}")
	}
	return strings.Join(gs, " and ")
}

func gapsText(res stats.SplitResult) string {
	var gaps []string
	for _, c := range res.Cuts {
		gaps = append(gaps, Sig(c.Gap)+" µs")
	}
	if len(gaps) == 1 {
		return "the gap is " + gaps[0]
	}
	return "the gaps are " + strings.Join(gaps, ", ")
}

func pList(cuts []stats.SplitCut) string {
	var ps []string
	for _, c := range cuts {
		ps = append(ps, pValue(c.P))
	}
	return strings.Join(ps, ", ")
}

// runGroups groups the runs of the rounds and single-run tables by
// configuration: test, tool, variant, connections and target rate, and
// within it by group of the experiment (the store's run_groups: a server
// on one database), named "server (database)" where the runs name one,
// in their order of first appearance. Runs of two groups are never
// pooled.
type runGroup struct {
	test, tool  string
	variant     string
	connections int64
	targetRPS   float64
	servers     []string
	runs        map[string][]runRow
}

// groupName names the runs of a server on a database in a finding:
// "server (database)", or the server alone where the runs name none.
func groupName(server, database string) string {
	if database == "" {
		return server
	}
	return rowName(server, database, "")
}

func groupRuns(rows ...[]runRow) []*runGroup {
	var out []*runGroup
	for _, rs := range rows {
		for _, r := range rs {
			var g *runGroup
			for _, c := range out {
				if c.test == r.Test && c.tool == r.Tool && c.variant == r.variant && c.connections == r.Connections && sameFloat(c.targetRPS, r.TargetRPS) {
					g = c
					break
				}
			}
			if g == nil {
				g = &runGroup{test: r.Test, tool: r.Tool, variant: r.variant, connections: r.Connections, targetRPS: r.TargetRPS, runs: map[string][]runRow{}}
				out = append(out, g)
			}
			name := groupName(r.Server, r.Database)
			if _, ok := g.runs[name]; !ok {
				g.servers = append(g.servers, name)
			}
			g.runs[name] = append(g.runs[name], r)
		}
	}
	return out
}

// headLoad is load for a headline: a run without a test label is
// named by its tool and load alone ("vegeta, 450 requests/s").
func (g *runGroup) headLoad() string {
	if g.test != "" || g.variant != "" {
		return g.load()
	}
	return strings.Join(append([]string{g.tool}, g.loadParts()...), ", ")
}

// loadParts are the target rate and connections of the group, those it
// has.
func (g *runGroup) loadParts() []string {
	var parts []string
	if !math.IsNaN(g.targetRPS) {
		parts = append(parts, Sig(g.targetRPS)+" requests/s")
	}
	if g.connections >= 0 {
		parts = append(parts, fmt.Sprintf("%d connections", g.connections))
	}
	return parts
}

func (g *runGroup) load() string {
	load := strings.Join(g.loadParts(), ", ")
	test := OrDash(g.test)
	if g.variant != "" {
		test += ", " + g.variant
	}
	if load == "" {
		return fmt.Sprintf("%s (%s)", test, g.tool)
	}
	return fmt.Sprintf("%s (%s, %s)", test, g.tool, load)
}

func runSources(rs []runRow) []model.Source {
	out := make([]model.Source, len(rs))
	for i, r := range rs {
		out[i] = r.source()
	}
	return out
}

// tails applies stats.OutlierTails to the p99 of the servers at each
// configuration of the rounds tables: one finding per server, listing
// the loads at which its tail stands out.
func (a *analysis) tails(sh *shared, r stats.FindingRules) []found {
	var order []string
	by := map[string]*found{}
	at := map[string][]string{}
	one := map[string]string{} // the sentence of a server's first load
	oneHead := map[string]string{}
	tests, tools := map[string][]string{}, map[string][]string{}
	for _, g := range groupRuns(sh.rounds) {
		var p99 [][]float64
		for _, sv := range g.servers {
			var ps []float64
			for _, run := range g.runs[sv] {
				if !math.IsNaN(run.P99MS) && !run.AllFailed {
					ps = append(ps, run.P99MS)
				}
			}
			p99 = append(p99, ps)
		}
		tails := stats.OutlierTails(p99, r)
		for _, tl := range tails {
			sv := g.servers[tl.Server]
			var peers []float64
			for k, p := range p99 {
				if k != tl.Server && len(p) >= r.MinPasses {
					peers = append(peers, a.fig(g.runs[g.servers[k]][0].GroupID).P99MSMedian)
				}
			}
			if by[sv] == nil {
				by[sv] = &found{rule: ruleTail, section: "rounds"}
				order = append(order, sv)
			}
			by[sv].srcs = append(by[sv].srcs, runSources(g.runs[sv])...)
			tests[sv], tools[sv] = append(tests[sv], OrDash(g.test)), append(tools[sv], g.tool)
			if len(at[sv]) == 0 {
				oneHead[sv] = fmt.Sprintf("%s's p99, %s ms, stands out at %s: others %s–%s ms",
					a.serverName(sv), Sig(tl.MedianMS), g.headLoad(), Sig(slices.Min(peers)), Sig(slices.Max(peers)))
				one[sv] = fmt.Sprintf("At %s, %s's p99 is %s ms where the other %d servers have %s–%s ms: even its lowest pass (%s ms) is above %s ms, their median plus %g times the median absolute deviation (%s ms).",
					g.load(), a.serverName(sv), Sig(tl.MedianMS), tl.Peers, Sig(slices.Min(peers)), Sig(slices.Max(peers)), Sig(tl.MinMS),
					Sig(tl.LimitMS), r.TailMADs, Sig(tl.NoiseMS))
			}
			at[sv] = append(at[sv], fmt.Sprintf("%s, %s ms (lowest pass %s ms, above %s ms; the other %d servers %s–%s ms)",
				g.load(), Sig(tl.MedianMS), Sig(tl.MinMS), Sig(tl.LimitMS), tl.Peers, Sig(slices.Min(peers)), Sig(slices.Max(peers))))
		}
	}
	var out []found
	for _, sv := range order {
		fd := by[sv]
		fd.text, fd.headline = one[sv], oneHead[sv]
		if n := len(at[sv]); n > 1 {
			fd.headline = fmt.Sprintf("%s's p99 stands out at %d loads of %s (%s)",
				a.serverName(sv), n, few(distinct(tests[sv])), few(distinct(tools[sv])))
			fd.text = fmt.Sprintf("%s's p99 stands out at %d loads, even its lowest pass above the other servers' median plus %g times their median absolute deviation: at %s.",
				a.serverName(sv), n, r.TailMADs, strings.Join(at[sv], "; at "))
		}
		out = append(out, *fd)
	}
	return out
}

// slopes applies stats.UnstableSlope to each server's memory slopes and
// reports the series that bend (stats.CheckMemoryFit's rule).
func (a *analysis) slopes(sh *shared, r stats.FindingRules, t tested) []found {
	var out []found
	for _, m := range sh.memory {
		var ps []stats.SlopePass
		for _, p := range m.passes {
			ps = append(ps, stats.SlopePass{Slope: p.SlopeGiBPer1000, SE: p.SlopeSEGiBPer1000})
		}
		res := stats.UnstableSlope(ps, r)
		if res.Passes >= r.MinPasses {
			t[ruleUnstableSlope]++
		}
		if res.Found {
			headline := fmt.Sprintf("%s's memory growth varies between passes, %s to %s GiB per 1000 waiting requests (%d passes)",
				a.rowName(m.server, m.database, ""), Sig(res.Min), Sig(res.Max), res.Passes)
			out = append(out, found{rule: ruleUnstableSlope, headline: headline, p: res.P, hasP: true, section: "memory", srcs: m.srcs, text: fmt.Sprintf(
				"%s's memory growth moves between passes from %s to %s GiB per 1000 waiting requests (%d passes), more than their fits' standard errors allow (Cochran's Q = %s, %s): the median slope %s is not a property of the server alone.",
				a.rowName(m.server, m.database, ""), Sig(res.Min), Sig(res.Max), res.Passes, Sig(res.Q), pValue(res.P), Sig(res.Median))})
		}
		// Passes that disagree make a pooled series bend; that is the
		// finding above, not a second one.
		if m.pooled.Bends && !res.Found {
			var why []string
			for _, w := range m.pooled.Warnings {
				if w.Kind == stats.WarnPoorFit {
					why = append(why, w.Msg)
				}
			}
			headline := fmt.Sprintf("%s's memory growth bends over %d points: do not extrapolate its %s GiB per 1000 waiting requests",
				a.rowName(m.server, m.database, ""), m.pooled.Points, Sig(m.pooled.SlopeGiBPer1000))
			out = append(out, found{rule: ruleBentSlope, headline: headline, section: "memory", srcs: m.srcs, text: fmt.Sprintf(
				"%s's memory series bends (all passes pooled, %d points): %s; its slope of %s GiB per 1000 depends on the concurrency levels chosen and should not be extrapolated.",
				a.rowName(m.server, m.database, ""), m.pooled.Points, strings.Join(why, "; "), Sig(m.pooled.SlopeGiBPer1000))})
		}
	}
	return out
}

// counters applies stats.BrokenCounters to every run, one finding per
// problem, server, test and tool.
func (a *analysis) counters(sh *shared, r stats.FindingRules) ([]found, error) {
	rows, err := a.st.RunCounters(a.ctx)
	if err != nil {
		return nil, err
	}
	type key struct {
		problem            stats.CounterProblem
		server, test, tool string
	}
	var order []key
	byKey := map[key]*found{}
	detail := map[key][]string{}
	for _, row := range rows {
		c := stats.RunCounts{TargetRPS: row.TargetRPS, RPS: row.RPS, Requests: row.Requests, Responses2xx: row.Responses2xx,
			CPUServerS: row.CPUServerS, CPUUserS: row.CPUUserS, CPUKernelS: row.CPUKernelS, CPUDBS: row.CPUDBS, Broken: row.Broken}
		src := model.Source{File: row.Source, Line: row.Line}
		for _, p := range stats.BrokenCounters(c, r) {
			k := key{p, row.Server, row.Test, row.Tool}
			if byKey[k] == nil {
				byKey[k] = &found{rule: ruleCounters}
				order = append(order, k)
			}
			byKey[k].srcs = append(byKey[k].srcs, src)
			switch p {
			case stats.NegativeCPU:
				var neg []string
				for i, name := range []string{"stack", "user", "kernel", "database"} {
					if v := []float64{c.CPUServerS, c.CPUUserS, c.CPUKernelS, c.CPUDBS}[i]; v < 0 {
						neg = append(neg, fmt.Sprintf("%s %s s", name, Sig(v)))
					}
				}
				detail[k] = append(detail[k], strings.Join(neg, ", "))
			case stats.MoreOKThanRequests:
				detail[k] = append(detail[k], fmt.Sprintf("%d successful of %d", c.Responses2xx, c.Requests))
			case stats.RateAboveTarget:
				detail[k] = append(detail[k], fmt.Sprintf("%s requests/s for %s asked", Sig(c.RPS), Sig(c.TargetRPS)))
			case stats.BrokenValues:
				detail[k] = append(detail[k], fmt.Sprintf("line %d %s", row.Line, c.Broken))
			}
		}
	}
	var out []found
	for _, k := range order {
		fd := byKey[k]
		what := map[stats.CounterProblem]string{
			stats.NegativeCPU:        "negative CPU seconds (%s): a CPU counter cannot fall; processes left the measured tree or connections were closed and reopened during the run, so its CPU per request is wrong",
			stats.MoreOKThanRequests: "more successful responses than requests (%s): the counts come from different windows or a parser misread them",
			stats.BrokenValues:       "values that cannot be right, stored as NULL and left out of their figures (%s): a CPU counter that fell or was read from the wrong process, or text where a number belongs",
			stats.RateAboveTarget:    fmt.Sprintf("a rate more than %s above the one asked for (%%s): the tool did not hold the rate, or the target label is wrong", strings.ReplaceAll(pct(r.RateExcess), "%", "%%")),
		}[k.problem]
		short := map[stats.CounterProblem]string{
			stats.NegativeCPU:        "negative CPU seconds, so its CPU per request is wrong",
			stats.MoreOKThanRequests: "more successful responses than requests",
			stats.BrokenValues:       "values that cannot be right, left out of its figures",
			stats.RateAboveTarget:    "a rate above the one asked for",
		}[k.problem]
		fd.headline = fmt.Sprintf("%s's %s on %s: %s", a.serverName(k.server), runsWord(len(fd.srcs), k.tool), k.test, short)
		if k.test == "" {
			fd.headline = fmt.Sprintf("%s's %s: %s", a.serverName(k.server), runsWord(len(fd.srcs), k.tool), short)
		}
		fd.text = fmt.Sprintf("%s's %s on %s: %s has %s.", a.serverName(k.server), runsWord(len(fd.srcs), k.tool), OrDash(k.test),
			map[bool]string{true: "the run", false: "each"}[len(fd.srcs) == 1], fmt.Sprintf(what, strings.Join(detail[k], "; ")))
		out = append(out, *fd)
	}
	return out, nil
}

func runsWord(n int, tool string) string {
	if n == 1 {
		return tool + " run"
	}
	return fmt.Sprintf("%d %s runs", n, tool)
}

// errorsInOne applies stats.ErrorsInOneServer to each configuration of
// the rounds and single-run tables: one finding per server, listing the
// loads at which it alone failed.
func (a *analysis) errorsInOne(sh *shared) []found {
	var order []string
	by := map[string]*found{}
	at := map[string][]string{}
	first := map[string]string{} // the sentence of a server's first load
	firstHead := map[string]string{}
	tests := map[string][]string{}
	for _, g := range groupRuns(sh.rounds, sh.singles) {
		var failed [][]int64
		for _, sv := range g.servers {
			var fs []int64
			for _, run := range g.runs[sv] {
				fs = append(fs, run.Failed)
			}
			failed = append(failed, fs)
		}
		one := stats.ErrorsInOneServer(failed)
		if one < 0 {
			continue
		}
		sv := g.servers[one]
		var nFailed, nReq int64
		for _, run := range g.runs[sv] {
			nFailed += run.Failed
			nReq += run.Requests
		}
		if by[sv] == nil {
			by[sv] = &found{rule: ruleErrorsInOne}
			order = append(order, sv)
			firstHead[sv] = fmt.Sprintf("Only %s failed requests at %s: %s of %s", a.serverName(sv), g.headLoad(), model.Thousands(strconv.FormatInt(nFailed, 10)), model.Thousands(strconv.FormatInt(nReq, 10)))
			first[sv] = fmt.Sprintf("At %s, only %s failed requests: %d of %d over %s; the other %d servers failed none: a fault of that server, not of the load.",
				g.load(), a.serverName(sv), nFailed, nReq, runsWord(len(g.runs[sv]), g.tool), len(g.servers)-1)
		}
		by[sv].srcs = append(by[sv].srcs, runSources(g.runs[sv])...)
		tests[sv] = append(tests[sv], OrDash(g.test))
		at[sv] = append(at[sv], fmt.Sprintf("%s, %d of %d over %s, the other %d servers none", g.load(), nFailed, nReq, runsWord(len(g.runs[sv]), g.tool), len(g.servers)-1))
	}
	var out []found
	for _, sv := range order {
		fd := by[sv]
		fd.text, fd.headline = first[sv], firstHead[sv]
		if n := len(at[sv]); n > 1 {
			fd.headline = fmt.Sprintf("Only %s failed requests, at %d loads of %s", a.serverName(sv), n, few(distinct(tests[sv])))
			fd.text = fmt.Sprintf("Only %s failed requests at %d loads: at %s: a fault of that server, not of the load.", a.serverName(sv), n, strings.Join(at[sv], "; at "))
		}
		out = append(out, *fd)
	}
	return out
}

// sharedLimits applies stats.SharedLimit to the servers of each test and
// tool of the rounds tables at full speed: each server at its best
// connections, with the CPU per request of the same configuration.
func (a *analysis) sharedLimits(sh *shared, r stats.FindingRules, t tested) []found {
	type key struct{ test, tool string }
	var order []key
	byKey := map[key][]*runGroup{}
	for _, g := range groupRuns(sh.rounds) {
		if !math.IsNaN(g.targetRPS) {
			continue
		}
		k := key{g.test, g.tool}
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], g)
	}
	var out []found
	for _, k := range order {
		var servers []string
		for _, g := range byKey[k] {
			for _, sv := range g.servers {
				if !slices.Contains(servers, sv) {
					servers = append(servers, sv)
				}
			}
		}
		var best, cpu [][]float64
		var srcs []model.Source
		for _, sv := range servers {
			var bestRPS []float64
			var bestRuns []runRow
			var bestConns int64
			bestMedian := math.Inf(-1)
			for _, g := range byKey[k] {
				var rps []float64
				for _, run := range g.runs[sv] {
					rps = append(rps, run.RPS)
				}
				if len(rps) == 0 {
					continue
				}
				if med := a.fig(g.runs[sv][0].GroupID).RPSMedian; bestRPS == nil || med > bestMedian {
					bestRPS, bestRuns, bestConns, bestMedian = rps, g.runs[sv], g.connections, med
				}
			}
			var c []float64
			for _, g := range sh.open {
				if g.test == k.test && groupName(g.server, g.database) == sv && g.connections == bestConns {
					c = g.totals()
				}
			}
			best, cpu = append(best, bestRPS), append(cpu, c)
			srcs = append(srcs, runSources(bestRuns)...)
		}
		if len(servers) < 2 {
			continue
		}
		res := stats.SharedLimit(best, cpu, r)
		if len(res.BestMedians) == len(servers) {
			t[ruleSharedLimit]++
		}
		if !res.Found {
			continue
		}
		names := make([]string, len(servers))
		for i, sv := range servers {
			names[i] = a.serverName(sv)
		}
		headline := fmt.Sprintf("%s reach the same %s–%s requests/s at %s (%s): a limit they share, not their own CPU",
			few(names), Sig(slices.Min(res.BestMedians)), Sig(slices.Max(res.BestMedians)), OrDash(k.test), k.tool)
		out = append(out, found{rule: ruleSharedLimit, headline: headline, section: "rounds", srcs: srcs, text: fmt.Sprintf(
			"At %s (%s), every server reaches the same throughput at its best, %s–%s requests/s (within %s, no more than the spread of one server's passes), while their CPU per request (stack and database) differs: %s; the limit is something they share (the database, the load generator, the network), not their own CPU.",
			OrDash(k.test), k.tool, Sig(slices.Min(res.BestMedians)), Sig(slices.Max(res.BestMedians)), pct(res.Spread), groupsText(res.CPU, names))})
	}
	return out
}

// driftFindings reports each calibration pair that drifted beyond the
// tolerance (calibration_drift, as the calibration table flags it), with the
// runs that started between its before and its after.
func (a *analysis) driftFindings(sh *shared) ([]found, error) {
	var out []found
	for i := 0; i < len(sh.drifts); {
		j := i
		var ratios []string
		var srcs []model.Source
		worst := 0.0 // the largest drift, |after/before − 1|
		for ; j < len(sh.drifts) && sh.drifts[j].pair == sh.drifts[i].pair; j++ {
			d := sh.drifts[j]
			if d.result.Flagged && !math.IsNaN(d.result.Ratio) {
				ratios = append(ratios, fmt.Sprintf("%s with %d %s", Sig(d.result.Ratio), d.processes, map[bool]string{true: "process", false: "processes"}[d.processes == 1]))
				worst = math.Max(worst, math.Abs(d.result.Ratio-1))
				srcs = append(srcs, d.before...)
				srcs = append(srcs, d.after...)
			}
		}
		d := sh.drifts[i]
		i = j
		if len(ratios) == 0 {
			continue
		}
		covered := "the runs between them are suspect"
		suspect := "the runs between are suspect"
		if !d.from.IsZero() && !d.to.IsZero() && d.to.After(d.from) {
			rows, err := a.st.RunsStartedBetween(a.ctx, d.from, d.to)
			if err != nil {
				return nil, err
			}
			var servers []string
			for _, r := range rows {
				srcs = append(srcs, model.Source{File: r.Source, Line: r.Line})
				if sv := a.serverName(r.Server); !slices.Contains(servers, sv) {
					servers = append(servers, sv)
				}
			}
			span := fmt.Sprintf("between %s and %s UTC", d.from.UTC().Format(time.TimeOnly), d.to.UTC().Format(time.TimeOnly))
			switch len(rows) {
			case 0:
				covered = fmt.Sprintf("no run with a start time began %s; the runs between them are suspect", span)
			default:
				covered = fmt.Sprintf("the %d runs that started %s (%s) are suspect", len(rows), span, listed(servers))
				suspect = fmt.Sprintf("%d runs of %s are suspect", len(rows), few(servers))
			}
		}
		headline := fmt.Sprintf("The machine's speed moved by up to %s between calibrations: %s", pct(worst), suspect)
		if h := headline + " (" + d.pair + ")"; utf8.RuneCountInString(h) <= MaxHeadline {
			headline = h // the pair's name where it fits
		}
		out = append(out, found{rule: ruleDrift, headline: headline, section: "calibration", srcs: srcs, text: fmt.Sprintf(
			"Calibration %s: the fixed CPU job's time after the series over its time before was %s (tolerance %s): the machine's speed changed while the series ran, and %s.",
			d.pair, strings.Join(ratios, " and "), pct(d.result.Tolerance), covered)})
	}
	return out, nil
}

// ladderFindings reports the ladders with runs whose first step failed
// (stats.FirstStepFailed): one finding per server, listing its ladders.
func (a *analysis) ladderFindings(ladders []ladderRuns) []found {
	var order []string
	by := map[string]*found{}
	at := map[string][]string{}
	heads := map[string][]string{}
	var rule stats.LadderRule
	for _, l := range ladders {
		var failed []string
		var p95 []float64
		var srcs []model.Source
		first := math.NaN()
		for i, res := range l.sum.Runs {
			if !stats.FirstStepFailed(res) {
				continue
			}
			failed = append(failed, l.names[i])
			first = res.Steps[0].TargetRPS
			if !math.IsNaN(res.Steps[0].P95MS) {
				p95 = append(p95, res.Steps[0].P95MS)
			}
			if l.srcs != nil {
				srcs = append(srcs, l.srcs[i]...)
			} else {
				srcs = append(srcs, model.Source{File: l.names[i]})
			}
		}
		if len(failed) == 0 {
			continue
		}
		rule = l.sum.Runs[0].Rule
		p := ""
		if len(p95) > 0 {
			p = fmt.Sprintf(" with a p95 of %s–%s ms", Sig(slices.Min(p95)), Sig(slices.Max(p95)))
		}
		if by[l.server] == nil {
			by[l.server] = &found{rule: ruleLadder, section: "ladders"}
			order = append(order, l.server)
		}
		by[l.server].srcs = append(by[l.server].srcs, srcs...)
		heads[l.server] = append(heads[l.server], fmt.Sprintf("%s at %s requests/s", l.what, Sig(first)))
		at[l.server] = append(at[l.server], fmt.Sprintf("%s: the first step (%s requests/s) already failed in %d of %d runs%s", l.what, Sig(first), len(failed), len(l.sum.Runs), p))
	}
	var out []found
	for _, sv := range order {
		fd := by[sv]
		which := at[sv][0]
		if len(at[sv]) > 1 {
			which = fmt.Sprintf("in %d ladders: %s", len(at[sv]), strings.Join(at[sv], "; "))
		}
		fd.headline = fmt.Sprintf("%s failed the first step of %s", ServerName(a.disp.Name("server", sv)), heads[sv][0])
		if len(heads[sv]) > 1 {
			fd.headline = fmt.Sprintf("%s failed the first step of %d ladders", ServerName(a.disp.Name("server", sv)), len(heads[sv]))
		}
		fd.text = fmt.Sprintf("%s, %s (rule: p95 < %g ms and errors < %g%%): the load was never below capacity, so these runs say nothing about the highest rate held.",
			ServerName(a.disp.Name("server", sv)), which, rule.P95MS, rule.MaxErrorRate*100)
		out = append(out, *fd)
	}
	return out
}

func passCount(passes [][]float64) string {
	lo, hi := math.MaxInt, 0
	for _, p := range passes {
		lo, hi = min(lo, len(p)), max(hi, len(p))
	}
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}
