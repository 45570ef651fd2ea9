package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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
		if !math.IsNaN(r.TargetRPS) && !math.IsNaN(r.RPS) {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		sec.Skipped = "no fixed-rate runs"
		return sec
	}
	slices.SortStableFunc(runs, func(x, y runRow) int {
		return cmp.Or(cmp.Compare(x.Test, y.Test), cmp.Compare(x.Server, y.Server), cmp.Compare(x.Tool, y.Tool), cmp.Compare(x.variant, y.variant),
			cmp.Compare(x.Database, y.Database), cmp.Compare(x.Connections, y.Connections))
	})
	// A series is one server, tool and variant; where its runs differ in
	// database or connections, factors of the design, each is a series of
	// its own, named by what tells it apart, so that no line pools them.
	type line struct{ test, server, tool, variant string }
	type apart struct {
		database    string
		connections int64
	}
	kinds := map[line][]apart{}
	for _, r := range runs {
		l, k := line{r.Test, r.Server, r.Tool, r.variant}, apart{r.Database, r.Connections}
		if !slices.Contains(kinds[l], k) {
			kinds[l] = append(kinds[l], k)
		}
	}
	for i, r := range runs {
		if i == 0 || r.Test != runs[i-1].Test {
			sec.Plots = append(sec.Plots, AchievedPlot{Test: r.Test})
		}
		p := &sec.Plots[len(sec.Plots)-1]
		var more []string
		if ks := kinds[line{r.Test, r.Server, r.Tool, r.variant}]; len(ks) > 1 {
			dbs, conns := false, false
			for _, k := range ks[1:] {
				dbs, conns = dbs || k.database != ks[0].database, conns || k.connections != ks[0].connections
			}
			if dbs && r.Database != "" {
				more = append(more, r.Database)
			} else if dbs {
				more = append(more, "no database")
			}
			if conns && r.Connections >= 0 {
				more = append(more, fmt.Sprintf("%d connections", r.Connections))
			} else if conns {
				more = append(more, "connections not recorded")
			}
		}
		label := ServerName(r.Server) + ": " + seriesName(r.Test, r.Tool, "fixed rate", append([]string{r.variant}, more...)...)
		if n := len(p.Series); n == 0 || p.Series[n-1].Label != label {
			p.Series = append(p.Series, RateSeries{Server: r.Server, Database: r.Database, Label: label})
		}
		s := &p.Series[len(p.Series)-1]
		s.Points = append(s.Points, RatePoint{TargetRPS: r.TargetRPS, AchievedRPS: r.RPS})
		// the line through a series is its group's median at each
		// target (run_medians), by target: a series is one group at each
		if !slices.ContainsFunc(s.Medians, func(m RatePoint) bool { return m.TargetRPS == r.TargetRPS }) {
			s.Medians = append(s.Medians, RatePoint{TargetRPS: r.TargetRPS, AchievedRPS: a.fig(r.GroupID).RPSMedian})
		}
	}
	for i := range sec.Plots {
		for j := range sec.Plots[i].Series {
			slices.SortStableFunc(sec.Plots[i].Series[j].Medians, func(x, y RatePoint) int { return cmp.Compare(x.TargetRPS, y.TargetRPS) })
		}
	}
	return sec
}
