package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/wra-bench/wra/report"
)

// achieved plots the fixed-rate runs of the rounds and single-run tables
// as the requests/s they achieved against their target rate: one plot
// per test (plots/achieved-<test>.svg), a series per server, tool and
// variant, and the diagonal on which a run that kept up lies. A
// fixed-rate run's requests/s is not a throughput to compare in bars.
func (a *analysis) achieved(rounds, singles []runRow) *Section {
	sec := &Section{ID: "achieved", Title: "Fixed-rate runs: achieved against target rate"}
	var runs []runRow
	for _, r := range append(slices.Clone(rounds), singles...) {
		if !math.IsNaN(r.targetRPS) && !math.IsNaN(r.rps) {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		sec.Skipped = "no fixed-rate runs"
		return sec
	}
	slices.SortStableFunc(runs, func(x, y runRow) int {
		return cmp.Or(cmp.Compare(x.test, y.test), cmp.Compare(x.server, y.server), cmp.Compare(x.tool, y.tool), cmp.Compare(x.variant, y.variant))
	})
	var chart *report.RateChart
	for i, r := range runs {
		if i == 0 || r.test != runs[i-1].test {
			chart = &report.RateChart{Title: "Achieved against target rate: " + orDash(r.test)}
			sec.Figures = append(sec.Figures, Figure{Name: "achieved-" + report.Slug(testName(r.test)),
				Caption: fmt.Sprintf("Requests/s achieved by the fixed-rate runs of %s against their target: each run a dot, the line through the medians; runs that kept up lie on the dashed diagonal", orDash(r.test)),
				Figure:  chart})
		}
		label := serverName(r.server) + ": " + seriesName(r.test, r.tool, "fixed rate", r.variant)
		if n := len(chart.Series); n == 0 || chart.Series[n-1].Label != label {
			chart.Series = append(chart.Series, report.RateSeries{Server: r.server, Database: r.database, Label: label})
		}
		s := &chart.Series[len(chart.Series)-1]
		s.Points = append(s.Points, report.RatePoint{TargetRPS: r.targetRPS, AchievedRPS: r.rps})
	}
	sec.Figures = achievedFigures(sec.Figures)
	return sec
}
