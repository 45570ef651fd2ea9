package analyze

import (
	"slices"

	"github.com/wra-bench/wra/report"
)

// maxPlotServers is the most servers one plot of lines holds before it
// is split into one plot per database (small multiples): past it, the
// lines of a plot hide each other whatever their styles.
const maxPlotServers = 8

// splitByDatabase groups n series by database where more than
// maxPlotServers servers would share a plot and the series name two or
// more databases: it returns the databases in order ("" for one plot of
// all, "no database" for series that name none) and the indices of each
// one's series, in their order.
func splitByDatabase(n int, server, database func(i int) string) ([]string, [][]int) {
	servers, dbs := map[string]bool{}, map[string][]int{}
	for i := range n {
		servers[server(i)] = true
		dbs[database(i)] = append(dbs[database(i)], i)
	}
	if len(servers) <= maxPlotServers || len(dbs) < 2 {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return []string{""}, [][]int{all}
	}
	var names []string
	for db := range dbs {
		names = append(names, db)
	}
	slices.Sort(names)
	groups := make([][]int, len(names))
	for i, db := range names {
		groups[i] = dbs[db]
		if db == "" {
			names[i] = "no database"
		}
	}
	return names, groups
}

// ladderFigures is the ladder plot of a kind of ladder, one per
// database where its servers are too many for one (splitByDatabase).
func ladderFigures(k ladderKind, series []report.LadderSeries, threshold float64) []Figure {
	dbs, groups := splitByDatabase(len(series), func(i int) string { return series[i].Server }, func(i int) string { return series[i].Database })
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

// achievedFigures splits each achieved-rate plot by database where its
// servers are too many for one (splitByDatabase).
func achievedFigures(figs []Figure) []Figure {
	var out []Figure
	for _, f := range figs {
		chart := f.Figure.(*report.RateChart)
		series := chart.Series
		dbs, groups := splitByDatabase(len(series), func(i int) string { return series[i].Server }, func(i int) string { return series[i].Database })
		for i, db := range dbs {
			if db == "" {
				out = append(out, f)
				continue
			}
			part := &report.RateChart{Title: chart.Title + ", " + db, Palette: chart.Palette}
			for _, j := range groups[i] {
				part.Series = append(part.Series, series[j])
			}
			out = append(out, Figure{Name: f.Name + "-" + report.Slug(db), Caption: f.Caption + "; on " + db, Figure: part})
		}
	}
	return out
}
