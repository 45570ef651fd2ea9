package analysis

import (
	"cmp"
	"math"
	"slices"

	"github.com/wra-bench/wra/stats"
)

// AchievedSection is the fixed-rate runs of the rounds and single-run
// tables as the requests/s they achieved against their target rate: one
// plot per test, a series per server, tool and variant. A fixed-rate
// run's requests/s is not a throughput to compare in bars.
type AchievedSection struct {
	Skipped string
	Plots   []AchievedPlot
}

// AchievedPlot is the fixed-rate runs of one test.
type AchievedPlot struct {
	Test   string
	Series []RateSeries
}

// RateSeries is the runs of one server, tool and variant: each run's
// target and achieved rate, and at each target, in order, the median
// achieved (the line through the runs).
type RateSeries struct {
	Server, Database, Label string
	Points                  []RatePoint
	Medians                 []RatePoint
}

// RatePoint is one run's target and achieved rate, requests/s.
type RatePoint struct {
	TargetRPS, AchievedRPS float64
}

// achieved gives the fixed-rate runs of the rounds and single-run tables
// as the requests/s they achieved against their target rate.
func (a *analysis) achieved(rounds, singles []runRow) AchievedSection {
	var sec AchievedSection
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
	for i, r := range runs {
		if i == 0 || r.test != runs[i-1].test {
			sec.Plots = append(sec.Plots, AchievedPlot{Test: r.test})
		}
		p := &sec.Plots[len(sec.Plots)-1]
		label := ServerName(r.server) + ": " + seriesName(r.test, r.tool, "fixed rate", r.variant)
		if n := len(p.Series); n == 0 || p.Series[n-1].Label != label {
			p.Series = append(p.Series, RateSeries{Server: r.server, Database: r.database, Label: label})
		}
		s := &p.Series[len(p.Series)-1]
		s.Points = append(s.Points, RatePoint{TargetRPS: r.targetRPS, AchievedRPS: r.rps})
	}
	for i := range sec.Plots {
		for j := range sec.Plots[i].Series {
			s := &sec.Plots[i].Series[j]
			s.Medians = medians(s.Points)
		}
	}
	return sec
}

// medians is the median achieved at each target of pts, by target.
func medians(pts []RatePoint) []RatePoint {
	by := map[float64][]float64{}
	var targets []float64
	for _, pt := range pts {
		if _, ok := by[pt.TargetRPS]; !ok {
			targets = append(targets, pt.TargetRPS)
		}
		by[pt.TargetRPS] = append(by[pt.TargetRPS], pt.AchievedRPS)
	}
	slices.Sort(targets)
	out := make([]RatePoint, len(targets))
	for i, t := range targets {
		out[i] = RatePoint{TargetRPS: t, AchievedRPS: stats.Median(by[t])}
	}
	return out
}
