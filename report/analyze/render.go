package analyze

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/costs"
	"github.com/wra-bench/wra/stats"
)

// Render lays an analysis out, section by section: the summary, its
// context and the findings first, then the manifest's layouts (nil for
// none), then every table kind in the order a benchmarker reads them.
// Each table shows the values of labels by the names the manifest gives
// them; the plots name and colour the servers so.
func Render(a *analysis.Result, layouts *Section) *Result {
	sections := []*Section{
		cpuSection(a.CPU),
		spectraSection(a.Spectra),
		roundsSection(a.Rounds),
		cpuSplitSection(a.CPUSplit),
		memorySection(a.Memory),
		laddersSection(a.Ladders, a.Rule),
		rankingSection(a.Ranking),
		achievedSection(a.Achieved),
		calibrationSection(a.Calibration),
		costSection(a.Cost, a.Display),
	}
	for _, sec := range sections {
		for _, d := range sec.Tables {
			displayTable(d, a.Display)
		}
		for _, f := range sec.Figures {
			displayFigure(f.Figure, a.Display)
		}
	}
	res := &Result{Sections: sections}
	opening := []*Section{summarySection(a.Summary), contextSection(a.Context, sections), findingsSection(a.Findings, res)}
	if layouts != nil {
		opening = append(opening, layouts)
	}
	res.Sections = append(opening, sections...)
	// One colour per server in every plot.
	pal := analysisPalette(a.Servers, a.Display)
	for _, sec := range res.Sections {
		for _, f := range sec.Figures {
			switch c := f.Figure.(type) {
			case *report.LadderChart:
				c.Palette = pal
			case *report.MemoryChart:
				c.Palette = pal
			case *report.SpectrumChart:
				c.Palette = pal
			case *report.RateChart:
				c.Palette = pal
			}
		}
	}
	return res
}

// paired are the cells of a within-trial ratio: median, low, high,
// coverage and trials; empty where there is none.
func paired(p *stats.Paired) []any {
	if p == nil {
		return []any{nil, nil, nil, nil, nil}
	}
	return []any{num(p.Median), num(p.Low), num(p.High), num(p.Coverage), int64(p.N)}
}

// bars are a bar plot's groups.
func bars(bs []analysis.Bar) []report.BarGroup {
	var out []report.BarGroup
	for _, b := range bs {
		out = append(out, report.BarGroup{Label: b.Label, Series: b.Series, Values: b.Values, Median: b.Median})
	}
	return out
}

func cpuSection(c analysis.CPUSection) *Section {
	sec := &Section{ID: "cpu-per-request", Title: "CPU per request at a fixed rate", Skipped: c.Skipped}
	if c.Skipped != "" {
		return sec
	}
	for _, t := range c.Tables {
		d := &report.Data{
			Title: fmt.Sprintf("CPU per request: %s at %s requests/s (µs per successful response)", analysis.OrDash(t.Test), Sig(t.RateRPS)),
			Name:  analysis.TestName(t.Test) + " " + analysis.RateName(t.RateRPS),
			Columns: []report.Column{
				col("server", "server", nil), col("database", "database", nil), col("passes", "passes", nil),
				col("stack_cpu_us", "stack CPU µs", Sig), col("stack_cpu_ci_pct", "±", pm),
				col("stack_cpu_min_us", "min", Sig), col("stack_cpu_max_us", "max", Sig),
				col("db_cpu_us", "database CPU µs", Sig), col("total_cpu_us", "total µs", Sig),
				col("p99_ms", "p99 ms", Sig), col("failed", "failed", nil),
				col("vs_lowest_ratio", "vs lowest, within trials", times), col("vs_lowest_low", "low", Sig),
				col("vs_lowest_high", "high", Sig), {Name: "vs_lowest_coverage", Machine: true}, {Name: "vs_lowest_trials", Machine: true},
			},
			Notes: t.Notes,
		}
		for _, r := range t.Rows {
			row := []any{r.Server, nullIfEmpty(r.Database), r.Passes, rounded(r.StackUS, r.StackMinUS, r.StackMaxUS), num(r.StackCIPct),
				rounded(r.StackMinUS, r.StackMinUS, r.StackMaxUS), rounded(r.StackMaxUS, r.StackMinUS, r.StackMaxUS), num(r.DBUS), num(r.TotalUS), num(r.P99MS), r.Failed}
			row = append(row, paired(r.VsLowest)...)
			d.Rows = append(d.Rows, row)
			d.RowSources = append(d.RowSources, r.Sources)
		}
		d.DropEmpty("database", "db_cpu_us", "p99_ms", "stack_cpu_ci_pct", "vs_lowest_ratio", "vs_lowest_low", "vs_lowest_high", "vs_lowest_coverage", "vs_lowest_trials")
		sec.Tables = append(sec.Tables, d)
	}
	sec.Figures = append(sec.Figures, Figure{Name: "cpu-per-request", Caption: "Stack + database CPU per request at a fixed rate: median bar, min–max whisker, each pass a dot",
		Figure: &report.BarChart{Title: "CPU per request at a fixed rate", XLabel: "server", YLabel: "CPU per request (µs)", Groups: bars(c.Bars)}})
	return sec
}

func cpuSplitSection(c analysis.CPUSplitSection) *Section {
	sec := &Section{ID: "cpu-split", Title: "CPU per request split: user, kernel, database", Skipped: c.Skipped}
	if c.Skipped != "" {
		return sec
	}
	for _, t := range c.Tables {
		d := &report.Data{
			Title: fmt.Sprintf("CPU per request split: %s (µs per successful response, median of passes)", analysis.OrDash(t.Test)),
			Name:  analysis.TestName(t.Test),
			Columns: []report.Column{
				col("server", "server", nil), col("database", "database", nil), col("load", "load", nil), col("passes", "passes", nil),
				col("user_us", "user µs", Sig), col("kernel_us", "kernel µs", Sig), col("stack_us", "stack µs", Sig),
				col("db_us", "database µs", Sig), col("total_us", "total µs", Sig),
			},
			Notes: t.Notes,
		}
		for _, r := range t.Rows {
			d.Rows = append(d.Rows, []any{r.Server, nullIfEmpty(r.Database), r.Load, r.Passes,
				num(r.UserUS), num(r.KernelUS), num(r.StackUS), num(r.DBUS), num(r.TotalUS)})
			d.RowSources = append(d.RowSources, r.Sources)
		}
		d.DropEmpty("database", "user_us", "kernel_us", "db_us")
		sec.Tables = append(sec.Tables, d)
	}
	if len(c.FullSpeed) > 0 {
		sec.Figures = append(sec.Figures, Figure{Name: "cpu-per-request-full-speed", Caption: "Stack + database CPU per request at full speed, per test and connections: median bar, min–max whisker, each pass a dot",
			Figure: &report.BarChart{Title: "CPU per request at full speed", XLabel: "server", YLabel: "CPU per request (µs)", Groups: bars(c.FullSpeed)}})
	}
	return sec
}

func connsText(c int64) any {
	if c < 0 {
		return nil
	}
	return c
}

// marked is v marked as the best of its column where best.
func marked(v any, best bool) any {
	if best {
		return report.MarkBest(v)
	}
	return v
}

func roundsSection(c analysis.RoundsSection) *Section {
	sec := &Section{ID: "rounds", Title: "Throughput by rounds", Skipped: c.Skipped}
	if c.Skipped != "" {
		return sec
	}
	for _, t := range c.Tables {
		d := &report.Data{
			Title: fmt.Sprintf("Rounds: %s, %s (median of rounds)", analysis.OrDash(t.Test), t.What),
			Name:  analysis.TestName(t.Test) + " " + t.What,
			Columns: []report.Column{
				col("server", "server", nil), col("database", "database", nil), col("connections", "connections", nil), col("target_rps", "target rps", Sig),
				col("rounds", "rounds", nil), col("rps", "requests/s", Sig), col("rps_min", "min", Sig), col("rps_max", "max", Sig),
				col("goodput_rps", "goodput", Sig),
				col("p99_ms", "p99 ms", Sig), col("failed", "failed", nil),
				col("vs_fastest_ratio", "vs fastest, within trials", times), col("vs_fastest_low", "low", Sig), col("vs_fastest_high", "high", Sig),
				{Name: "vs_fastest_coverage", Machine: true}, {Name: "vs_fastest_trials", Machine: true},
			},
			Notes: t.Notes,
		}
		for _, r := range t.Rows {
			var gp any
			if r.Goodput {
				gp = rounded(r.GoodputRPS, r.GoodputMin, r.GoodputMax)
			}
			row := []any{r.Server, nullIfEmpty(r.Database), connsText(r.Connections), num(r.TargetRPS), r.Rounds,
				marked(rounded(r.RPS, r.RPSMin, r.RPSMax), r.BestRPS), rounded(r.RPSMin, r.RPSMin, r.RPSMax), rounded(r.RPSMax, r.RPSMin, r.RPSMax), gp,
				marked(rounded(r.P99MS, r.P99MinMS, r.P99MaxMS), r.BestP99), r.Failed}
			row = append(row, paired(r.VsFastest)...)
			d.Rows = append(d.Rows, row)
			d.RowSources = append(d.RowSources, r.Sources)
		}
		d.DropEmpty("database", "target_rps", "connections", "goodput_rps", "p99_ms", "vs_fastest_ratio", "vs_fastest_low", "vs_fastest_high", "vs_fastest_coverage", "vs_fastest_trials")
		sec.Tables = append(sec.Tables, d)
	}
	for _, p := range c.Plots {
		sec.Figures = append(sec.Figures, Figure{Name: "throughput-" + report.Slug(analysis.TestName(p.Test)),
			Caption: fmt.Sprintf("Requests/s of %s at full speed by server, per tool and connections: median bar, min–max whisker, each round a dot", analysis.OrDash(p.Test)),
			Figure:  &report.BarChart{Title: "Throughput: " + analysis.OrDash(p.Test) + " at full speed", XLabel: "server", YLabel: "requests/s", Groups: bars(p.Bars)}})
	}
	return sec
}

func rankingSection(c analysis.RankingSection) *Section {
	sec := &Section{ID: "ranking", Title: "Single-run ranking", Skipped: c.Skipped}
	for _, t := range c.Tables {
		if t.FixedRate() {
			sec.Tables = append(sec.Tables, heldTable(t))
		} else {
			sec.Tables = append(sec.Tables, rankTable(t))
		}
	}
	return sec
}

func rankTable(t analysis.RankingTable) *report.Data {
	d := &report.Data{
		Title: fmt.Sprintf("Single runs: %s, %s %s, ranked by requests/s", analysis.OrDash(t.Test), t.What, t.Load()),
		Name:  analysis.TestName(t.Test) + " " + t.What + " " + analysis.ConnsName(t.Connections),
		Columns: []report.Column{
			col("rank", "rank", nil), {Name: "tied", Machine: true}, col("server", "server", nil), col("database", "database", nil),
			col("rps", "requests/s", Sig), col("goodput_rps", "goodput", Sig), col("mean_ms", "mean ms", Sig),
			col("p50_ms", "p50 ms", Sig), col("p95_ms", "p95 ms", Sig), col("p99_ms", "p99 ms", Sig),
			col("failed", "failed", nil), col("latency_corrected", "corrected", nil),
		},
		Notes: t.Notes,
	}
	for _, r := range t.Ranked {
		var rank, gp any
		if r.Rank > 0 {
			rank = report.Rank{N: r.Rank, Tied: r.Tied}
		}
		if r.Goodput {
			gp = num(r.GoodputRPS)
		}
		d.Rows = append(d.Rows, []any{rank, r.Tied, r.Server, nullIfEmpty(r.Database),
			num(r.RPS), gp, num(r.MeanMS), num(r.P50MS), num(r.P95MS), num(r.P99MS), r.Failed, r.Corrected})
		d.RowSources = append(d.RowSources, []report.Source{r.Source})
	}
	d.DropEmpty("database", "goodput_rps", "mean_ms", "p50_ms", "p95_ms", "p99_ms")
	return d
}

func heldTable(t analysis.RankingTable) *report.Data {
	d := &report.Data{
		Title: fmt.Sprintf("Single runs: %s, %s %s, held or not", analysis.OrDash(t.Test), t.Tool, t.Load()),
		Name:  analysis.TestName(t.Test) + " " + t.Tool + " " + analysis.RateName(t.TargetRPS),
		Columns: []report.Column{
			col("server", "server", nil), col("database", "database", nil), col("target_rps", "target rps", Sig), col("achieved_rps", "achieved rps", Sig),
			col("achieved_ratio", "achieved", Pct), col("p95_ms", "p95 ms", Sig), col("p99_ms", "p99 ms", Sig),
			col("failed", "failed", nil), col("held", "held", nil), col("latency_corrected", "corrected", nil),
		},
		Notes: t.Notes,
	}
	for _, r := range t.Held {
		d.Rows = append(d.Rows, []any{r.Server, nullIfEmpty(r.Database), num(r.TargetRPS), num(r.AchievedRPS), num(r.Achieved),
			num(r.P95MS), num(r.P99MS), r.Failed, r.Held, r.Corrected})
		d.RowSources = append(d.RowSources, []report.Source{r.Source})
	}
	d.DropEmpty("database", "p95_ms", "p99_ms")
	return d
}

func memorySection(m analysis.MemorySection) *Section {
	sec := &Section{ID: "memory", Title: "Memory", Skipped: m.Skipped}
	if h := m.Highest; h != nil {
		d := &report.Data{
			Title: "Highest memory per server, database and variant over its runs at every test and load (MiB)",
			Name:  "highest",
			Columns: []report.Column{col("server", "server", nil), col("database", "database", nil), col("variant", "variant", nil),
				col("working_set_mb", "working set MiB", Sig), col("private_mb", "private MiB", Sig), col("runs", "runs", nil)},
			Notes: h.Notes,
		}
		for _, r := range h.Rows {
			d.Rows = append(d.Rows, []any{r.Server, nullIfEmpty(r.Database), nullIfEmpty(r.Variant), num(r.WorkingSetMB), num(r.PrivateMB), r.Runs})
		}
		d.DropEmpty("database", "variant")
		sec.Tables = append(sec.Tables, d)
	}
	if g := m.Growth; g != nil {
		d := &report.Data{
			Title: "Memory growth per 1000 concurrent waiting requests (GiB per 1000)",
			Name:  "growth",
			Columns: []report.Column{
				col("server", "server", nil), col("database", "database", nil), col("passes", "passes", nil),
				col("pass_slope_median_gib_per_1000", "median pass slope GiB/1000", Sig), col("slope_min_gib_per_1000", "min", Sig), col("slope_max_gib_per_1000", "max", Sig),
				col("pooled_slope_gib_per_1000", "pooled fit GiB/1000", Sig), col("theil_sen_gib_per_1000", "Theil–Sen", Sig),
				col("intercept_gib", "base GiB", Sig), col("r2", "R²", Sig), col("points", "points", nil),
			},
			Notes: g.Notes,
		}
		for _, r := range g.Rows {
			d.Rows = append(d.Rows, []any{r.Server, nullIfEmpty(r.Database), r.Passes, rounded(r.SlopeMedian, r.SlopeMin, r.SlopeMax),
				rounded(r.SlopeMin, r.SlopeMin, r.SlopeMax), rounded(r.SlopeMax, r.SlopeMin, r.SlopeMax),
				num(r.PooledSlope), num(r.TheilSenSlope), num(r.InterceptGiB), num(r.R2), r.Points})
			d.RowSources = append(d.RowSources, r.Sources)
		}
		d.DropEmpty("database")
		sec.Tables = append(sec.Tables, d)
		var chart []report.MemorySeries
		for _, s := range g.Series {
			series := report.MemorySeries{Server: s.Server, Label: s.Label}
			for _, p := range s.Points {
				series.Points = append(series.Points, report.MemoryPoint{Concurrency: p.Concurrency, MemoryMB: p.MemoryMB})
			}
			if !math.IsNaN(s.SlopeMBPerRequest) {
				series.Fit = &report.MemoryFit{SlopeMBPerRequest: s.SlopeMBPerRequest, InterceptMB: s.InterceptMB}
			}
			chart = append(chart, series)
		}
		sec.Figures = append(sec.Figures, Figure{Name: "memory", Caption: "Memory against concurrent waiting requests, with the fitted line per server",
			Figure: &report.MemoryChart{Title: "Memory per waiting request", Series: chart}})
	}
	return sec
}

func calibrationSection(c analysis.CalibrationSection) *Section {
	sec := &Section{ID: "calibration", Title: "Calibration", Single: true, Skipped: c.Skipped}
	if c.Skipped != "" {
		return sec
	}
	d := &report.Data{
		Title: "Calibration: a fixed CPU job timed before and after (median ms)",
		Columns: []report.Column{col("calibration", "calibration", nil), col("processes", "processes", nil),
			col("before_ms", "before ms", Sig), col("after_ms", "after ms", Sig), col("ratio", "after/before", Sig), col("flagged", "flagged", nil)},
		Notes: c.Notes,
	}
	for _, r := range c.Rows {
		d.Rows = append(d.Rows, []any{r.Pair, r.Processes, num(r.BeforeMS), num(r.AfterMS), num(r.Ratio), r.Flagged})
		d.RowSources = append(d.RowSources, r.Sources)
	}
	sec.Tables = append(sec.Tables, d)
	return sec
}

func summarySection(sm analysis.Summary) *Section {
	sec := &Section{ID: "summary", Title: "Summary", Single: true, Opening: true, Skipped: sm.Skipped}
	if sm.Skipped != "" {
		return sec
	}
	d := &report.Data{
		Title: "Summary",
		Columns: []report.Column{col("comparison", "comparison", nil), {Name: "summary", Title: "who leads, by how much", Wrap: 80},
			{Name: "caveats", Title: "caveats", Wrap: 48}},
		Notes: sm.Remarks,
	}
	for i, b := range sm.Bullets {
		sec.Bullets = append(sec.Bullets, report.Bullet{Lead: b.Lead, Text: b.Text, Lines: b.Lines, Notes: b.Notes})
		d.Rows = append(d.Rows, []any{b.Lead, b.Sentence, nullIfEmpty(strings.Join(b.Notes, "; "))})
		for j, ch := range b.Charts {
			sec.Figures = append(sec.Figures, summaryFigure(ch, i+1, j+1))
		}
	}
	d.DropEmpty("caveats")
	sec.Remarks = sm.Remarks
	sec.Tables = []*report.Data{d}
	return sec
}

// summaryFigure is the chart of a summary comparison: the j-th of the
// i-th bullet, drawn beside it.
func summaryFigure(ch analysis.SummaryChart, i, j int) Figure {
	ic := &report.IntervalChart{Title: ch.Title}
	what := ch.Lead
	if ch.Part != "" {
		what += ", " + ch.Part
	}
	caption := what + ": each stack's figure"
	switch {
	case ch.Ratio:
		ic.XLabel, ic.Reference = "× the leader (worse over better)", 1
		caption = what + ": each stack against the leader, the worse figure over the better, with its within-trial interval where it has one"
	default:
		ic.XLabel, ic.FromZero = ch.Unit, true
		if ch.Unit != "" {
			caption += " (" + ch.Unit + ")"
		}
		if slices.ContainsFunc(ch.Points, func(p analysis.SummaryPoint) bool { return !math.IsNaN(p.Lo) }) {
			caption += ", median of its passes with their range"
		}
	}
	plus := false
	for _, pt := range ch.Points {
		name := pt.Name
		if pt.Plus {
			name, plus = name+" +", true
		}
		mark := report.Behind
		switch {
		case pt.Leader:
			mark = report.Leader
		case pt.Tied:
			mark = report.Tied
		}
		ic.Rows = append(ic.Rows, report.IntervalRow{Label: name, X: pt.Value, Lo: pt.Lo, Hi: pt.Hi, Mark: mark})
	}
	if plus {
		caption += "; + after a name: its last step still held, so its limit is higher"
	}
	return Figure{Name: fmt.Sprintf("summary-%d-%d", i, j), Caption: caption, Figure: ic, Bullet: i}
}

// contextSection is the context block, and what the report leaves out
// for want of records of its kind (the sections skipped).
func contextSection(c analysis.Context, sections []*Section) *Section {
	sec := &Section{ID: "context", Title: "Context", Single: true, Opening: true}
	d := &report.Data{Title: "Context", Columns: []report.Column{col("item", "item", nil), {Name: "text", Title: "text", Wrap: 100}}}
	add := func(lead, text string) {
		sec.Bullets = append(sec.Bullets, report.Bullet{Lead: lead, Text: text})
		d.Rows = append(d.Rows, []any{lead, text})
	}
	for _, it := range c.Items {
		add(it.Lead, it.Text)
	}
	var skipped []string
	for _, s := range sections {
		if s.Skipped != "" {
			skipped = append(skipped, s.Title)
		}
	}
	if len(skipped) > 0 {
		add("Not in this report", "For want of records of their kind: "+strings.Join(skipped, "; ")+" (report.md's Skipped says what each needs).")
	}
	if len(d.Rows) == 0 {
		sec.Skipped = "no runs"
		return sec
	}
	sec.Tables = []*report.Data{d}
	return sec
}

// findingsSection is the Findings table, and its list for the page and
// report.md: each finding's headline, its evidence beneath (the text,
// the rows and the runs). The rows behind each finding are those of the
// tables of res (laid out before it) that hold its runs.
func findingsSection(fs analysis.Findings, res *Result) *Section {
	d := &report.Data{
		Title: "Findings",
		Columns: []report.Column{col("rule", "rule", nil), {Name: "rule_id", Machine: true}, {Name: "headline", Wrap: 48},
			{Name: "finding", Wrap: 72}, {Name: "p_value", Machine: true}, {Name: "rows", Title: "rows behind it", Wrap: 36},
			{Name: "runs_shown", Title: "runs", Wrap: 40, People: true}, {Name: "runs", Machine: true}},
		Notes: fs.Notes,
	}
	sec := &Section{ID: "findings", Title: "Findings", Single: true, Remarks: fs.Notes}
	// The runs column lists the runs in every format, so the table has
	// no RowSources: the page would list them twice.
	rows := rowIndex(res)
	for i, f := range fs.List {
		var p any
		if f.HasP {
			p = num(f.P)
		}
		behind, runs := rows.behind(f.Section, f.Sources), boundedSources(f.Sources, analysis.MaxFindingFiles)
		d.Rows = append(d.Rows, []any{f.Rule, f.RuleID, f.Headline, f.Text, p, nullIfEmpty(behind),
			nullIfEmpty(runs), nullIfEmpty(sourcesText(f.Sources))})
		evidence := []string{f.Rule + ": " + f.Text}
		if behind != "" {
			evidence = append(evidence, "Rows behind it: "+behind)
		}
		if runs != "" {
			evidence = append(evidence, "Runs: "+runs)
		}
		sec.Bullets = append(sec.Bullets, report.Bullet{Lead: fmt.Sprintf("%d. %s", i+1, f.Headline), Details: evidence})
	}
	sec.Tables = []*report.Data{d}
	return sec
}

// costSection is the cost table (costs.Monthly's, wra cost's) and its
// plot.
func costSection(c analysis.CostSection, disp model.Display) *Section {
	sec := &Section{ID: "cost", Single: true, Title: fmt.Sprintf("Cost per month at %s requests/s", Sig(c.RPS)), Skipped: c.Skipped}
	if c.Skipped != "" {
		return sec
	}
	sec.Tables = append(sec.Tables, costs.Monthly(c))
	var stacks []report.CostStack
	for _, r := range c.Rows {
		stacks = append(stacks, report.CostStack{Server: chartLabel(r, c.Rows, disp), StackUSD: r.StackUSDMonth, DBUSD: r.DBUSDMonth})
	}
	sec.Figures = append(sec.Figures, Figure{Name: "cost", Caption: "Monthly cost per server: stack and database",
		Figure: &report.CostChart{Title: sec.Title, Stacks: stacks}})
	return sec
}

// chartLabel names a stack in the cost plot by its server, and by its
// database, test and variant where the stacks priced differ in them, as
// the manifest names them (disp).
func chartLabel(r analysis.CostRow, all []analysis.CostRow, disp model.Display) string {
	dbs, tests, variants := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, in := range all {
		dbs[in.Stack.Database], tests[in.Stack.Test], variants[in.Stack.Variant] = true, true, true
	}
	s := r.Stack
	out := disp.Name("server", s.Server)
	if len(dbs) > 1 {
		out += " " + orNone(disp.Name("database", s.Database), "(no database)")
	}
	if len(tests) > 1 {
		out += " " + analysis.OrDash(disp.Name("test", s.Test))
	}
	if len(variants) > 1 {
		out += " " + orNone(s.Variant, "(no variant)")
	}
	return out
}

func orNone(v, none string) string {
	if v == "" {
		return none
	}
	return v
}
