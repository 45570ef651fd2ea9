package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// The Summary: the answer first. For each comparison the records
// support (per test and load: CPU per request, database CPU, throughput,
// held rate, memory growth, cost), who leads and by how much, in a
// sentence, from the figures the sections computed (the shared figures
// and the sections' tables), with the caveats of the groups behind it
// beside it in the words of the tables' footnotes.

// A contender is one group (or stack) of a comparison.
type contender struct {
	// server and database are its stack; serverOnly where its contest
	// is of one database, so that the sentence names the server alone.
	server, database string
	serverOnly       bool
	// name names it in the sentence, row in its caveats, both with the
	// manifest's display names (analysis.nameContenders).
	name, row string
	// value is the figure its table prints (a median); plus marks it
	// as a lower bound (a ladder that still held at its last step).
	value float64
	plus  bool
	// values are its passes, whose min–max range judges a tie where no
	// paired figure exists; blocks the same by block (trial), for the
	// paired one. Either may be empty.
	values []float64
	blocks map[string][]float64
	// ids are the groups of the experiment behind it, for its caveats.
	ids []string
}

// A contest is one comparison of the summary.
type contest struct {
	lead  string // what is compared, and at what load
	unit  string // the unit of the values, after a space
	money bool   // the values are dollars: $1,234
	lower bool   // lower is better
	// best says what the leader does: "uses the least"; ratio what the
	// ratios are: "the others' over the leader's".
	best, ratio string
	cs          []contender
	// note, where set, follows the bullet's sentences.
	note string
	// part, where set, names the contest within its bullet: contests
	// of one lead in a row share a bullet ("on mariadb: …; on
	// postgresql: …").
	part string
	// tiePct, where above 0, ties single runs (one value each) within
	// that percentage of the larger, as the single-run ranking does.
	tiePct float64
	// dead are the stacks whose every request failed: no contenders,
	// named after the sentence.
	dead []contender
}

// versus is a contender against the leader: the ratio of the worse to
// the better (≥ 1 when the leader is ahead), its interval, and whether
// the two are tied.
type versus struct {
	c              contender
	ratio, lo, hi  float64
	paired, ranged bool
	single         bool // one run each: tied within the contest's tiePct
	trials         int
	tied           bool
}

// against compares c with the leader: the paired figure (pairedBlocks,
// the one the CPU tables print) where both share two or more blocks, a
// tie when its interval includes 1; else the ratio of their medians, a
// tie when the ranges of their passes overlap.
func (k contest) against(leader, c contender) versus {
	v := versus{c: c, lo: math.NaN(), hi: math.NaN()}
	base, vs := leader, c
	if !k.lower {
		base, vs = c, leader
	}
	if p := pairedBlocks(base.blocks, vs.blocks); p != nil {
		v.ratio, v.lo, v.hi, v.paired, v.trials = p.Median, p.Low, p.High, true, p.N
		v.tied = !p.Excludes1()
		return v
	}
	v.ratio = vs.value / base.value
	if k.tiePct > 0 && len(leader.values) == 1 && len(c.values) == 1 {
		v.single = true
		hi := max(leader.value, c.value)
		v.tied = hi > 0 && math.Abs(leader.value-c.value) <= k.tiePct/100*hi
		return v
	}
	if len(leader.values) > 0 && len(c.values) > 0 {
		v.ranged = true
		v.lo, v.hi = slices.Min(c.values), slices.Max(c.values)
		v.tied = v.lo <= slices.Max(leader.values) && slices.Min(leader.values) <= v.hi
	}
	if leader.plus && c.plus && leader.value == c.value {
		v.tied = true // both held every step asked: nothing tells them apart
	}
	return v
}

// valueText prints a contender's figure with its unit.
func (k contest) valueText(c contender) string {
	if k.money {
		return money(c.value)
	}
	v := Sig(c.value)
	if c.plus {
		v += "+"
	}
	return v + k.unit
}

// ratioText prints a ratio with its interval: "×1.20 (1.05–1.50)".
func ratioText(v versus) string {
	t := times(v.ratio)
	switch {
	case v.paired:
		t += fmt.Sprintf(" (%s–%s)", Sig(v.lo), Sig(v.hi))
	}
	return t
}

// sentence is the contest's verdict: who leads, who ties with the
// leader, the next after them and the last, each with its ratio to the
// leader; ok false where fewer than two contenders have a figure
// (nothing to compare).
//
// how says what the ratios are: "within 5 trials", "medians", or "" (a
// tie whose figures are all the same); the caller writes it once per
// bullet.
func (k contest) sentence() (text, how string, paired, tie, ok bool) {
	cs, vs := k.ranked()
	if len(cs) < 2 {
		return "", "", false, false, false
	}
	leader := cs[0]
	var tied, rest []versus
	trials, ranged, single := 0, false, false
	for _, v := range vs {
		if v.paired {
			paired, trials = true, max(trials, v.trials)
		}
		ranged = ranged || v.ranged
		single = single || v.single
		if v.tied {
			tied = append(tied, v)
		} else {
			rest = append(rest, v)
		}
	}
	one := func(v versus) string {
		if math.IsInf(v.ratio, 0) || math.IsNaN(v.ratio) {
			return v.c.name + " at " + k.valueText(v.c) // a ratio to 0: the figure says it
		}
		return v.c.name + " " + ratioText(v)
	}
	var b strings.Builder
	switch {
	case len(rest) == 0:
		last := cs[len(cs)-1]
		switch {
		case k.valueText(last) == k.valueText(leader):
			fmt.Fprintf(&b, "a tie, all %d at %s", len(cs), k.valueText(leader))
		case len(cs) == 2:
			fmt.Fprintf(&b, "a tie: %s at %s and %s at %s", leader.name, k.valueText(leader), last.name, k.valueText(last))
		default:
			fmt.Fprintf(&b, "a tie, all %d from %s at %s to %s at %s", len(cs), leader.name, k.valueText(leader), last.name, k.valueText(last))
		}
	default:
		if len(tied) == 0 {
			fmt.Fprintf(&b, "%s %s, %s", leader.name, k.best, k.valueText(leader))
		} else {
			var with []string
			for i, v := range tied {
				if i == 2 {
					with = append(with, fmt.Sprintf("%d more", len(tied)-2))
					break
				}
				with = append(with, one(v))
			}
			fmt.Fprintf(&b, "%s at %s ties for the lead with %s", leader.name, k.valueText(leader), joinAnd(with))
		}
		fmt.Fprintf(&b, "; next %s", one(rest[0]))
		if len(rest) > 1 {
			fmt.Fprintf(&b, ", last %s", one(rest[len(rest)-1]))
		}
	}
	switch {
	case paired:
		how = fmt.Sprintf("within %d trials", trials)
	case len(rest) > 0 && ranged:
		how = "from the medians"
	case single:
		how = fmt.Sprintf("one run each, a tie within %s%%", strconv.FormatFloat(k.tiePct, 'f', -1, 64))
	}
	return b.String(), how, paired, len(rest) == 0, true
}

// ranked is the contest's contenders with a figure, the leader first,
// and each of the others against it (vs[i] is cs[i+1]'s).
func (k contest) ranked() (cs []contender, vs []versus) {
	for _, c := range k.cs {
		if !math.IsNaN(c.value) {
			cs = append(cs, c)
		}
	}
	slices.SortStableFunc(cs, func(x, y contender) int {
		if k.lower {
			return cmpNaNLast(x.value, y.value)
		}
		return cmpNaNLast(y.value, x.value)
	})
	if len(cs) < 2 {
		return cs, nil
	}
	for _, c := range cs[1:] {
		vs = append(vs, k.against(cs[0], c))
	}
	return cs, vs
}

// SummaryChart is one comparison drawn: its contenders in the order of
// its sentence, the leader first, each a point with its interval. Ratio
// says the points are the ratios of the sentence (the worse figure over
// the better, the leader at 1, an interval where they are within
// trials); else they are the figures, with the range of their passes.
type SummaryChart struct {
	// Title names its part of the bullet (the lead where it has one
	// part); Lead is the bullet's comparison, Part its part ("" for
	// none), as the sentence writes it.
	Title, Lead, Part, Unit string
	Ratio                   bool
	Points                  []SummaryPoint
}

// SummaryPoint is one contender of a SummaryChart; Lo and Hi are NaN
// where it has no interval.
type SummaryPoint struct {
	Name          string
	Value, Lo, Hi float64
	Leader, Tied  bool
	// Plus marks a lower bound: a ladder whose last step still held.
	Plus bool
}

// chart is the contest drawn (SummaryChart); ok false where its
// sentence has nothing to compare.
func (k contest) chart(title string) (SummaryChart, bool) {
	cs, vs := k.ranked()
	if len(cs) < 2 {
		return SummaryChart{}, false
	}
	ch := SummaryChart{Title: title, Lead: k.lead, Part: k.part, Unit: strings.TrimSpace(k.unit)}
	if k.money {
		ch.Unit = "$ a month"
	}
	for _, v := range vs {
		ch.Ratio = ch.Ratio || v.paired
	}
	nan := math.NaN()
	if ch.Ratio {
		ch.Points = append(ch.Points, SummaryPoint{Name: cs[0].name, Value: 1, Lo: nan, Hi: nan, Leader: true})
		for _, v := range vs {
			pt := SummaryPoint{Name: v.c.name, Value: v.ratio, Lo: nan, Hi: nan, Tied: v.tied}
			if v.paired {
				pt.Lo, pt.Hi = v.lo, v.hi
			}
			ch.Points = append(ch.Points, pt)
		}
		return ch, true
	}
	for i, c := range cs {
		pt := SummaryPoint{Name: c.name, Value: c.value, Lo: nan, Hi: nan, Leader: i == 0, Tied: i > 0 && vs[i-1].tied, Plus: c.plus}
		if len(c.values) > 1 {
			pt.Lo, pt.Hi = slices.Min(c.values), slices.Max(c.values)
		}
		ch.Points = append(ch.Points, pt)
	}
	return ch, true
}

// Summary is the answer first: for each comparison the records support
// (per test and load: CPU per request, database CPU, throughput, held
// rate, memory growth, cost), who leads and by how much, one bullet each,
// with the caveats of the groups behind it.
type Summary struct {
	Skipped string
	Bullets []SummaryBullet
	// Remarks say how the ratios were made, after the bullets.
	Remarks []string
}

// SummaryBullet is one comparison: Lead says what is compared and how
// the ratios were made, Text the verdict (or, where the bullet prints
// one line per part, Lines, Text then holding only what follows them),
// Sentence all of it as one paragraph (the table's cell), Notes the
// caveats beside it.
type SummaryBullet struct {
	Lead, Text string
	Lines      []string
	Sentence   string
	Notes      []string
	// Charts draw its comparisons, one for each part.
	Charts []SummaryChart
}

// summary writes the Summary from the shared figures, the ladder rows
// and the cost table; groupOf gives the groups of a run read at a file
// and line.
func (a *analysis) summary(res *Result, sh *shared, ladders []ladderRuns, groupOf map[model.Source][]string) Summary {
	var sec Summary
	var contests []contest
	contests = append(contests, cpuContests(sh.fixed, a.disp)...)
	contests = append(contests, throughputContests(sh.rounds, sh.singles, a.singleTiePct(sh.rounds), a.fig)...)
	contests = append(contests, ladderContests(ladders)...)
	contests = append(contests, memoryContest(sh.memory)...)
	contests = append(contests, a.costContests(res.Cost, groupOf)...)
	a.nameContenders(contests)
	drift := false
	for i := 0; i < len(contests); {
		// The contests of one lead in a row are one bullet.
		j := i
		for j < len(contests) && contests[j].lead == contests[i].lead {
			j++
		}
		cv := a.newCaveats()
		cv.every = "every stack"
		// A row named alike in two parts of the bullet may stand for two
		// groups (a server's ladders of two tests): the caveats then name
		// each row with its part, so that none is said of a group it is
		// not of.
		rowOf := func(k contest, c contender) string { return c.row }
		if rowsDiffer(contests[i:j]) {
			rowOf = func(k contest, c contender) string {
				if k.part == "" {
					return c.row
				}
				return k.part + ": " + c.row
			}
		}
		var parts []string
		anyPaired, allTied := false, true
		var hows []string
		var charts []SummaryChart
		note := ""
		for _, k := range contests[i:j] {
			text, how, paired, tie, ok := k.sentence()
			if !ok {
				continue
			}
			// The bullet's lead stands above its charts: each names its part.
			title := k.lead
			if k.part != "" {
				title = upperFirst(k.part)
			}
			if ch, ok := k.chart(title); ok {
				charts = append(charts, ch)
			}
			if k.part != "" {
				text = k.part + ": " + text
			}
			parts, hows = append(parts, text), append(hows, how)
			anyPaired, allTied = anyPaired || paired, allTied && tie
			for _, c := range k.cs {
				cv.add(rowOf(k, c), c.ids)
			}
			if k.note != "" {
				note = k.note
			}
			if len(k.dead) > 0 {
				var names []string
				for _, c := range k.dead {
					names = append(names, c.name)
					cv.add(rowOf(k, c), c.ids)
				}
				note = strings.TrimSpace(note + " " + fmt.Sprintf("every request of %s failed: not compared", joinAnd(names)))
			}
		}
		lead := contests[i].lead
		i = j
		if len(parts) == 0 {
			continue
		}
		// How the ratios were made, once in the lead where every part
		// made them alike, else after each part.
		if h := slices.Compact(slices.DeleteFunc(slices.Clone(hows), func(h string) bool { return h == "" })); len(h) == 1 {
			lead += ", " + h[0]
		} else {
			for p, h := range hows {
				if h != "" {
					parts[p] += " (" + h + ")"
				}
			}
		}
		text := strings.Join(parts, "; ") + "."
		if strings.HasPrefix(text, "a tie") || strings.HasPrefix(text, "the ") {
			text = upperFirst(text) // a sentence of wra's words, not a stack's name
		}
		bullet := SummaryBullet{Lead: lead, Text: text, Charts: charts}
		if len(parts) > 1 && !allTied {
			// One line per part: "stack + database: …", "database CPU
			// on mariadb: …".
			bullet.Text, bullet.Lines = "", parts
		}
		if note != "" {
			bullet.Text = strings.TrimSpace(bullet.Text + " " + upperFirst(note) + ".")
			text += " " + upperFirst(note) + "."
		}
		n := &notes{}
		cv.to(n)
		if anyPaired && cv.has("drift") {
			drift = true
			n.add("the within-trial ratios are robust to a drift that the runs of a trial share; the medians are not")
		}
		bullet.Notes, bullet.Sentence = n.list, text
		sec.Bullets = append(sec.Bullets, bullet)
	}
	if len(sec.Bullets) == 0 {
		sec.Skipped = "no comparison: no load at which two or more stacks have figures"
		for _, k := range contests {
			if len(k.dead) > 0 {
				sec.Skipped = "no comparison: no load at which two or more stacks answered (every request of the others failed)"
			}
		}
		return sec
	}
	sec.Remarks = append(sec.Remarks, "×: each stack against the leader, the worse figure over the better; within trials, the median of the per-trial ratios with the sign test's distribution-free interval in parentheses, a tie where it includes 1; else the ratio of the medians, a tie where the passes' ranges overlap. The tables below hold every figure and its runs.")
	if drift {
		sec.Remarks = append(sec.Remarks, "A drift caveat beside a within-trial ratio: a drift of the machine's speed that all the runs of a trial share cancels in the ratio, so the ratio stands where the medians may not.")
	}
	return sec
}

// rowsDiffer reports whether a row name stands for different groups in
// different contests of cs.
func rowsDiffer(cs []contest) bool {
	ids := map[string]string{}
	for _, k := range cs {
		for _, c := range append(slices.Clone(k.cs), k.dead...) {
			key := strings.Join(c.ids, "\x00")
			if prev, ok := ids[c.row]; ok && prev != key {
				return true
			}
			ids[c.row] = key
		}
	}
	return false
}

// nameContenders names the contenders of the contests by the display
// names the manifest gives their server and database ([labels.server]
// names), the names the tables show.
func (a *analysis) nameContenders(contests []contest) {
	for i := range contests {
		for j := range contests[i].dead {
			c := &contests[i].dead[j]
			c.row = rowName(a.disp.Name("server", c.server), a.disp.Name("database", c.database), "")
			c.name = c.row
		}
		for j := range contests[i].cs {
			c := &contests[i].cs[j]
			c.row = rowName(a.disp.Name("server", c.server), a.disp.Name("database", c.database), "")
			c.name = c.row
			if c.serverOnly {
				c.name = ServerName(a.disp.Name("server", c.server))
			}
		}
	}
}

// cpuContenders are the groups of one load as contenders on the figure
// get gives of their passes, each valued at its group's median of it
// (median, from run_medians), with the paired figure by trial.
func cpuContenders(gs []cpuGroup, get func(cpuRun) float64, median func(model.GroupFigures) float64) []contender {
	var out []contender
	for _, g := range gs {
		out = append(out, contender{server: g.server, database: g.database, value: median(g.fig), values: g.values(get), blocks: g.byBlock(get), ids: []string{g.id}})
	}
	return out
}

// cpuContests compare, at each fixed rate of a test, the stacks' total
// CPU per request (the figure the CPU table sorts by), then on each
// database with two or more stacks their database CPU per request, the
// database named as the manifest names it (disp).
func cpuContests(fixed []cpuGroup, disp model.Display) []contest {
	var out []contest
	for i := 0; i < len(fixed); {
		j := i
		for j < len(fixed) && fixed[j].test == fixed[i].test && fixed[j].targetRPS == fixed[i].targetRPS {
			j++
		}
		gs := fixed[i:j]
		load := fmt.Sprintf("%s at %s requests/s", OrDash(gs[0].test), Sig(gs[0].targetRPS))
		out = append(out, contest{lead: "CPU per request, " + load, part: "stack + database", unit: " µs", lower: true,
			best: "uses the least", ratio: "the others' CPU over the leader's", cs: cpuContenders(gs, cpuRun.total, func(f model.GroupFigures) float64 { return f.CPUTotalUSMedian })})
		var dbs []string
		byDB := map[string][]cpuGroup{}
		for _, g := range gs {
			if g.database == "" || math.IsNaN(g.fig.CPUDBUSMedian) {
				continue
			}
			if _, ok := byDB[g.database]; !ok {
				dbs = append(dbs, g.database)
			}
			byDB[g.database] = append(byDB[g.database], g)
		}
		for _, db := range dbs {
			if len(byDB[db]) < 2 {
				continue
			}
			cs := cpuContenders(byDB[db], func(r cpuRun) float64 { return r.DBUS }, func(f model.GroupFigures) float64 { return f.CPUDBUSMedian })
			for k := range cs {
				cs[k].serverOnly = true
			}
			out = append(out, contest{lead: "CPU per request, " + load, part: "database CPU on " + disp.Name("database", db), unit: " µs", lower: true,
				best: "costs it least", ratio: "the others' database CPU over the leader's", cs: cs})
		}
		i = j
	}
	return out
}

// throughputContests compare the goodput of the stacks at full speed,
// per test, tool, variant and connections: the rows of the rounds tables
// and of the single-run rankings alike, so that the same reports give the
// same summary however they are filed. A stack whose every request failed
// is no contender: the contest names it in a note. Single runs tie with
// the leader within tiePct percent, the ranking's rule.
func throughputContests(rounds, singles []runRow, tiePct func(tool string) float64, fig func(id string) model.GroupFigures) []contest {
	type key struct {
		test, tool, variant string
		conns               int64
	}
	var order []key
	by := map[key][]contender{}
	dead := map[key][]contender{}
	single := map[key]bool{}
	add := func(rows []runRow, one bool) {
		for i := 0; i < len(rows); {
			j := i
			for j < len(rows) && rows[j].GroupID == rows[i].GroupID {
				j++
			}
			r0 := rows[i]
			if r0.Mode != "full-speed" {
				i = j
				continue
			}
			k := key{r0.Test, r0.Tool, r0.variant, r0.Connections}
			if _, ok := by[k]; !ok {
				if _, ok := dead[k]; !ok {
					order = append(order, k)
				}
			}
			single[k] = single[k] || one
			c := contender{server: r0.Server, database: r0.Database, blocks: map[string][]float64{}, ids: []string{r0.GroupID}}
			f := fig(r0.GroupID)
			for _, r := range rows[i:j] {
				if math.IsNaN(r.GoodputRPS) {
					continue
				}
				c.values = append(c.values, r.GoodputRPS)
				if r.Block != "" {
					c.blocks[r.Block] = append(c.blocks[r.Block], r.GoodputRPS)
				}
			}
			i = j
			if f.AllFailed {
				dead[k] = append(dead[k], c)
				continue
			}
			c.value = f.GoodputMedian
			by[k] = append(by[k], c)
		}
	}
	add(rounds, false)
	add(singles, true)
	var out []contest
	for _, k := range order {
		what := k.tool
		if k.variant != "" {
			what += ", " + k.variant
		}
		load := "full speed"
		if k.conns >= 0 {
			load = fmt.Sprintf("%d connections", k.conns)
		}
		c := contest{lead: fmt.Sprintf("Throughput, %s (%s, %s)", OrDash(k.test), what, load), unit: " requests/s",
			best: "serves the most", ratio: "the leader's requests/s over the others'", cs: by[k], dead: dead[k]}
		if single[k] {
			c.tiePct = tiePct(k.tool)
		}
		out = append(out, c)
	}
	return out
}

// singleTiePct is the percentage within which two single runs of a
// tool cannot be told apart: the spread the tool shows on its repeated
// runs here (toolSpreads), or the tie rule's, when larger (the ranking's
// rule, rankTable).
func (a *analysis) singleTiePct(repeated []runRow) func(tool string) float64 {
	spread := toolSpreads(repeated, a.fig)
	return func(tool string) float64 {
		if sp, ok := spread[tool]; ok {
			return max(math.Ceil(sp*10)/10, a.opts.TiePct)
		}
		return a.opts.TiePct
	}
}

// ladderContests compare the highest rate held of each ladder kind
// (the ladders table's figure, ladderRuns.sum).
func ladderContests(ladders []ladderRuns) []contest {
	var order []string
	by := map[string][]contender{}
	for _, l := range ladders {
		c := contender{server: l.server, value: l.sum.MedianHeldRPS, plus: l.sum.StillHolding, ids: l.ids}
		for _, r := range l.sum.Runs {
			c.values = append(c.values, r.HighestHeldRPS)
		}
		if _, ok := by[l.what]; !ok {
			order = append(order, l.what)
		}
		by[l.what] = append(by[l.what], c)
	}
	var out []contest
	for _, what := range order {
		out = append(out, contest{lead: "Highest rate held", part: what, unit: " requests/s",
			best: "holds the highest rate", ratio: "the leader's rate over the others'", cs: by[what],
			note: "+: the last step asked still held, so the limit is higher"})
	}
	return out
}

// memoryContest compares the servers' memory growth per 1000 waiting
// requests: the median of the passes' slopes, as the memory table
// publishes it.
func memoryContest(mem []memoryPasses) []contest {
	var cs []contender
	for _, m := range mem {
		c := contender{server: m.server, database: m.database, value: m.row.PassSlopeMedianGiBPer1000}
		for _, p := range m.passes {
			if !math.IsNaN(p.SlopeGiBPer1000) {
				c.values = append(c.values, p.SlopeGiBPer1000)
			}
		}
		cs = append(cs, c)
	}
	if len(cs) < 2 {
		return nil
	}
	return []contest{{lead: "Memory growth per 1000 waiting requests", unit: " GiB", lower: true,
		best: "grows the least", ratio: "the others' slope over the leader's", cs: cs}}
}

// costContests compare the monthly cost of the stacks that held the
// rate, per test, from the cost table.
func (a *analysis) costContests(c CostSection, groupOf map[model.Source][]string) []contest {
	if c.Skipped != "" || len(c.Rows) == 0 {
		return nil
	}
	// Only the stacks that held the rate compete, unless fewer than two
	// did.
	nHeld := 0
	for _, r := range c.Rows {
		if r.Job.Held != nil && *r.Job.Held {
			nHeld++
		}
	}
	note := fmt.Sprintf("%s, %g%% utilisation, from medians", a.opts.Price.Name, a.opts.Util*100)
	if nHeld < 2 {
		note += fmt.Sprintf("; no two stacks were seen holding %s requests/s, so these extrapolate from lower rates", Sig(a.opts.RPS))
	}
	var order []string
	by := map[string][]contender{}
	for _, r := range c.Rows {
		if r.Job.Held != nil && !*r.Job.Held && nHeld >= 2 {
			continue
		}
		t := r.Stack.Test
		c := contender{server: r.Stack.Server, database: r.Stack.Database, value: r.TotalUSDMonth, ids: appendGroups(nil, r.Job.Sources, groupOf)}
		if _, ok := by[t]; !ok {
			order = append(order, t)
		}
		by[t] = append(by[t], c)
	}
	var out []contest
	for _, t := range order {
		out = append(out, contest{lead: fmt.Sprintf("Cost per month at %s requests/s", Sig(a.opts.RPS)), part: "test " + OrDash(t), money: true, lower: true, best: "costs the least",
			ratio: "the others' cost over the leader's", cs: by[t]})
	}
	if len(out) > 0 {
		out[len(out)-1].note = note
	}
	return out
}
