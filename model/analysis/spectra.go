package analysis

import (
	"cmp"
	"math"
	"slices"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// minDistributionPoints is the fewest percentiles without counts that are
// drawn as a line: a tool's summary prints four to eight (wrk's 50, 75, 90
// and 99; k6's median, p90, p95), a distribution (ab -e, every 1%) many
// more. Spectra with counts (HdrHistogram) are always a distribution.
const minDistributionPoints = 10

// MaxPlotServers is the most servers one plot of lines holds before it
// is split into one plot per database (small multiples): past it, the
// lines of a plot hide each other whatever their styles.
const MaxPlotServers = 8

// SplitByDatabase groups n series by database where more than
// MaxPlotServers servers would share a plot and the series name two or
// more databases: it returns the databases in order ("" for one plot of
// all, "no database" for series that name none) and the indices of each
// one's series, in their order.
func SplitByDatabase(n int, server, database func(i int) string) ([]string, [][]int) {
	servers, dbs := map[string]bool{}, map[string][]int{}
	for i := range n {
		servers[server(i)] = true
		dbs[database(i)] = append(dbs[database(i)], i)
	}
	if len(servers) <= MaxPlotServers || len(dbs) < 2 {
		return []string{""}, [][]int{identity(n)}
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

// spectrumLine is the runs of one server, database, tool and correction
// at one test and rate: one line (or set of points) of a spectrum plot.
type spectrumLine struct {
	test, server, database, tool string
	variant                      string
	rate                         float64
	corrected                    bool
	runs                         [][]stats.SpectrumPoint
}

// SpectraSection is the latency percentile spectra of fixed-rate runs:
// one plot per test, rate and tool, split by database where more than
// MaxPlotServers servers would share it.
type SpectraSection struct {
	Skipped string
	Plots   []SpectrumPlot
}

// SpectrumPlot is one plot: its test, rate and tool (ToolNamed where
// the test and rate have spectra of several tools, each its own plot),
// its database where the plot is one of a split ("" for all), and its
// lines.
type SpectrumPlot struct {
	Test      string
	RateRPS   float64
	Tool      string
	ToolNamed bool
	Database  string
	Spectra   []Spectrum
}

// Spectrum is one line: the runs of one server, database, tool and
// correction merged (stats.MergeSpectra); Summary where it is a tool's
// few summary percentiles, drawn as points.
type Spectrum struct {
	Label, Server      string
	Corrected, Summary bool
	Points             []SpectrumPoint
}

// SpectrumPoint is the latency at one percentile.
type SpectrumPoint struct {
	Percentile, LatencyMS float64
}

// spectra gives the latency percentile spectra of fixed-rate runs: one
// plot per test, rate and tool (a tool's summary percentiles apart from
// another's distribution), split by database where more than
// MaxPlotServers servers would share it; one line per server, database,
// tool and correction, named as every plot names its series
// (seriesName), the passes merged the way HdrHistogram adds histograms.
func (a *analysis) spectra() (SpectraSection, error) {
	var sec SpectraSection
	// The rows come ordered by test, rate, server, database, tool,
	// correction, run and percentile: a line is a run of rows, built as
	// they are read.
	var lines []*spectrumLine
	var prev model.SpectrumRow
	err := a.st.Spectra(a.ctx, func(r model.SpectrumRow) error {
		first := len(lines) == 0
		if first || r.Test != prev.Test || r.TargetRPS != prev.TargetRPS || r.Server != prev.Server ||
			r.Database != prev.Database || r.Tool != prev.Tool || r.Variant != prev.Variant || r.Corrected != prev.Corrected {
			lines = append(lines, &spectrumLine{test: r.Test, rate: r.TargetRPS, server: r.Server, database: r.Database, tool: r.Tool, variant: r.Variant,
				corrected: r.Corrected})
		}
		l := lines[len(lines)-1]
		if len(l.runs) == 0 || r.RunID != prev.RunID {
			l.runs = append(l.runs, nil)
		}
		p := stats.SpectrumPoint{Percentile: r.Percentile, ValueMS: r.LatencyMS, Count: r.Count}
		if r.Count < 0 || math.IsNaN(p.ValueMS) {
			p.Count = 0
		}
		l.runs[len(l.runs)-1] = append(l.runs[len(l.runs)-1], p)
		prev = r
		return nil
	})
	if err != nil {
		return sec, err
	}
	if len(lines) == 0 {
		sec.Skipped = "no latency spectra of fixed-rate runs (wrk2 --latency, ab -e, k6 summaries)"
		return sec, nil
	}
	// A plot per test, rate and tool; per database too where it would
	// hold too many servers (SplitByDatabase).
	type plotKey struct {
		test string
		rate float64
		tool string
	}
	byPlot := map[plotKey][]*spectrumLine{}
	tools := map[plotKey]int{} // tools at the key's test and rate
	var keys []plotKey
	for _, l := range lines {
		k := plotKey{l.test, l.rate, l.tool}
		if byPlot[k] == nil {
			keys = append(keys, k)
			tools[plotKey{test: l.test, rate: l.rate}]++
		}
		byPlot[k] = append(byPlot[k], l)
	}
	slices.SortStableFunc(keys, func(x, y plotKey) int {
		return cmp.Or(cmp.Compare(x.test, y.test), cmp.Compare(x.rate, y.rate), cmp.Compare(x.tool, y.tool))
	})
	for _, k := range keys {
		ls := byPlot[k]
		dbs, groups := SplitByDatabase(len(ls), func(i int) string { return ls[i].server }, func(i int) string { return ls[i].database })
		for gi, db := range dbs {
			p := SpectrumPlot{Test: k.test, RateRPS: k.rate, Tool: k.tool, ToolNamed: tools[plotKey{test: k.test, rate: k.rate}] > 1, Database: db}
			for _, i := range groups[gi] {
				if sp := ls[i].spectrum(); len(sp.Points) > 1 {
					p.Spectra = append(p.Spectra, sp)
				}
			}
			if len(p.Spectra) > 0 {
				sec.Plots = append(sec.Plots, p)
			}
		}
	}
	return sec, nil
}

// spectrum merges a line's passes: by their counts where the tool gave
// them (HdrHistogram), else the first pass as printed, a few summary
// percentiles marked as such.
func (l *spectrumLine) spectrum() Spectrum {
	label := ServerName(l.server) + ": " + seriesName(l.test, l.tool, Sig(l.rate)+" requests/s", l.database, l.variant)
	sp := Spectrum{Label: label, Server: l.server, Corrected: l.corrected}
	merged, _ := stats.MergeSpectra(l.runs...)
	if merged.Total > 0 {
		for _, pt := range merged.Points {
			if pt.Percentile < 100 {
				sp.Points = append(sp.Points, SpectrumPoint{Percentile: pt.Percentile, LatencyMS: pt.ValueMS})
			}
		}
		return sp
	}
	// No counts to merge by: the first pass as printed.
	for _, pt := range l.runs[0] {
		sp.Points = append(sp.Points, SpectrumPoint{Percentile: pt.Percentile, LatencyMS: pt.ValueMS})
	}
	sp.Summary = len(sp.Points) < minDistributionPoints
	return sp
}
