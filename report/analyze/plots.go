package analyze

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// ladderLayout is how one kind of ladder is published: its table's title
// and file name, and its plot.
type ladderLayout struct {
	title, name                 string
	figure, caption, chartTitle string // no plot where figure is ""
}

var ladderLayouts = map[string]ladderLayout{
	"samples": {title: "Held-rate ladders: highest step held (requests/s)", name: "k6 steps",
		figure: "ladders", caption: "Ladder steps: p95 latency against the target rate, held and failed steps marked", chartTitle: "Held-rate ladders"},
	"summary": {title: "Held-rate ladders from k6 summaries: highest step held (requests/s)", name: "k6 summaries"},
	"fixed-rate": {title: "Held-rate ladders from fixed-rate runs: highest rate held (requests/s)", name: "fixed-rate",
		figure: "ladders-fixed-rate", caption: "Fixed-rate runs as ladders: p95 latency against the target rate, held and failed rates marked", chartTitle: "Held-rate ladders from fixed-rate runs"},
}

func laddersSection(l analysis.LaddersSection, rule stats.LadderRule) *Section {
	sec := &Section{ID: "ladders", Title: "Held-rate ladders", Skipped: l.Skipped}
	threshold := rule.P95MS
	if math.IsNaN(threshold) {
		threshold = 0
	}
	ruleText := report.LadderRuleText(rule)
	for _, t := range l.Tables {
		k := ladderLayouts[t.Kind]
		d := &report.Data{Title: k.title, Name: k.name, Notes: t.Notes}
		// A row is one group of the experiment: a ladder is never pooled
		// across tests, tools or variants.
		d.Columns = []report.Column{col("server", "server", nil), col("database", "database", nil),
			col("test", "test", nil), col("tool", "tool", nil), col("variant", "variant", nil),
			col("runs", "runs", nil), col("highest_held_rps", "highest held", nil), col("still_holding", "still holding", nil),
			col("each_run", "each run", nil), col("highest_held_achieved_rps", "achieved at it", nil),
			col("step_rps", "step", Sig), col("rule", "rule", nil)}
		for _, r := range t.Rows {
			var each []string
			for _, run := range r.Summary.Runs {
				each = append(each, run.String())
			}
			variant := any(nil)
			if t.Variants {
				variant = nullIfEmpty(r.Variant)
			}
			sum := r.Summary
			d.Rows = append(d.Rows, []any{r.Server, nullIfEmpty(r.Database), nullIfEmpty(r.Test), r.Tool, variant,
				int64(len(sum.Runs)), sum.String(), sum.StillHolding, strings.Join(each, ", "), report.LadderText(sum, true), num(sum.StepRPS), ruleText})
			d.RowSources = append(d.RowSources, r.Sources)
		}
		d.DropEmpty("database", "test", "variant")
		sec.Tables = append(sec.Tables, d)
		if k.figure != "" {
			var series []report.LadderSeries
			for _, s := range t.Series {
				ser := report.LadderSeries{Server: s.Server, Database: s.Database, Run: s.Run, Label: s.Label}
				for _, st := range s.Steps {
					ser.Steps = append(ser.Steps, report.LadderStep{TargetRPS: st.TargetRPS, P95MS: st.P95MS, Held: st.Held})
				}
				series = append(series, ser)
			}
			sec.Figures = append(sec.Figures, ladderFigures(k, series, threshold)...)
		}
	}
	return sec
}

// ladderFigures is the ladder plot of a kind of ladder, one per
// database where its servers are too many for one
// (analysis.SplitByDatabase).
func ladderFigures(k ladderLayout, series []report.LadderSeries, threshold float64) []Figure {
	dbs, groups := analysis.SplitByDatabase(len(series), func(i int) string { return series[i].Server }, func(i int) string { return series[i].Database })
	var out []Figure
	for i, db := range dbs {
		f := Figure{Name: k.figure, Caption: k.caption}
		chart := &report.LadderChart{Title: k.chartTitle, ThresholdP95MS: threshold}
		for _, j := range groups[i] {
			chart.Series = append(chart.Series, series[j])
		}
		if db != "" {
			f.Name += "-" + report.Slug(db)
			f.Caption += ", on " + db
			chart.Title += ": " + db
		}
		f.Figure = chart
		out = append(out, f)
	}
	return out
}

func spectraSection(c analysis.SpectraSection) *Section {
	sec := &Section{ID: "spectra", Title: "Latency spectra", Skipped: c.Skipped}
	for _, p := range c.Plots {
		chart := &report.SpectrumChart{}
		for _, sp := range p.Spectra {
			s := report.Spectrum{Label: sp.Label, Server: sp.Server, Corrected: sp.Corrected, Summary: sp.Summary}
			for _, pt := range sp.Points {
				s.Points = append(s.Points, report.SpectrumPoint{Percentile: pt.Percentile, LatencyMS: pt.LatencyMS})
			}
			chart.Spectra = append(chart.Spectra, s)
		}
		what := fmt.Sprintf("%s at %s requests/s, %s", analysis.OrDash(p.Test), Sig(p.RateRPS), p.Tool)
		slug := []string{analysis.TestName(p.Test), analysis.RateName(p.RateRPS)}
		if p.ToolNamed {
			slug = append(slug, p.Tool)
		}
		if p.Database != "" {
			what += ", " + p.Database
			slug = append(slug, p.Database)
		}
		chart.Title = "Latency by percentile: " + what
		caption := "Latency spectra, " + what + ": passes merged per server, database and tool; dashed lines are not corrected for coordinated omission"
		if slices.ContainsFunc(chart.Spectra, func(sp report.Spectrum) bool { return sp.Summary }) {
			caption += "; points alone are a tool's summary percentiles"
		}
		sec.Figures = append(sec.Figures, Figure{Name: "spectrum-" + report.Slug(slug...), Caption: caption, Figure: chart})
	}
	return sec
}

// achievedSection plots the fixed-rate runs as the requests/s they
// achieved against their target rate: one plot per test
// (plots/achieved-<test>.svg), split by database where its servers are
// too many for one (analysis.SplitByDatabase).
func achievedSection(c analysis.AchievedSection) *Section {
	sec := &Section{ID: "achieved", Title: "Fixed-rate runs: achieved against target rate", Skipped: c.Skipped}
	for _, p := range c.Plots {
		name := "achieved-" + report.Slug(analysis.TestName(p.Test))
		caption := fmt.Sprintf("Requests/s achieved by the fixed-rate runs of %s against their target: each run a dot, the line through the medians; runs that kept up lie on the dashed diagonal", analysis.OrDash(p.Test))
		title := "Achieved against target rate: " + analysis.OrDash(p.Test)
		var series []report.RateSeries
		for _, s := range p.Series {
			rs := report.RateSeries{Server: s.Server, Database: s.Database, Label: s.Label}
			for _, pt := range s.Points {
				rs.Points = append(rs.Points, report.RatePoint{TargetRPS: pt.TargetRPS, AchievedRPS: pt.AchievedRPS})
			}
			for _, pt := range s.Medians {
				rs.Medians = append(rs.Medians, report.RatePoint{TargetRPS: pt.TargetRPS, AchievedRPS: pt.AchievedRPS})
			}
			series = append(series, rs)
		}
		dbs, groups := analysis.SplitByDatabase(len(series), func(i int) string { return series[i].Server }, func(i int) string { return series[i].Database })
		for i, db := range dbs {
			if db == "" {
				sec.Figures = append(sec.Figures, Figure{Name: name, Caption: caption, Figure: &report.RateChart{Title: title, Series: series}})
				continue
			}
			part := &report.RateChart{Title: title + ", " + db}
			for _, j := range groups[i] {
				part.Series = append(part.Series, series[j])
			}
			sec.Figures = append(sec.Figures, Figure{Name: name + "-" + report.Slug(db), Caption: caption + "; on " + db, Figure: part})
		}
	}
	return sec
}
