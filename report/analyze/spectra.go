package analyze

import (
	"fmt"
	"math"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// minDistributionPoints is the fewest percentiles without counts that are
// drawn as a line: a tool's summary prints four to eight (wrk's 50, 75, 90
// and 99; k6's median, p90, p95), a distribution (ab -e, every 1%) many
// more. Spectra with counts (HdrHistogram) are always a distribution.
const minDistributionPoints = 10

// spectra plots the latency percentile spectra of fixed-rate runs: one
// plot per (test, rate), one line per server, database, tool and
// correction, named as every plot names its series (seriesName), the
// passes merged the way HdrHistogram adds histograms.
func (a *analysis) spectra() (*Section, error) {
	sec := &Section{ID: "spectra", Title: "Latency spectra"}
	rows, err := a.st.Spectra(a.ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		sec.Skipped = "no latency spectra of fixed-rate runs (wrk2 --latency, ab -e, k6 summaries)"
		return sec, nil
	}
	type line struct {
		server, label string
		corrected     bool
		runs          [][]stats.SpectrumPoint
	}
	var chart *report.SpectrumChart
	var lines []*line
	flush := func() {
		for _, l := range lines {
			merged, _ := stats.MergeSpectra(l.runs...)
			sp := report.Spectrum{Label: l.label, Server: l.server, Corrected: l.corrected}
			if merged.Total > 0 {
				for _, pt := range merged.Points {
					if pt.Percentile < 100 {
						sp.Points = append(sp.Points, report.SpectrumPoint{Percentile: pt.Percentile, LatencyMS: pt.ValueMS})
					}
				}
			} else if len(l.runs) > 0 {
				// No counts to merge by: show the first pass; a few
				// percentiles of a summary are drawn as points.
				for _, pt := range l.runs[0] {
					sp.Points = append(sp.Points, report.SpectrumPoint{Percentile: pt.Percentile, LatencyMS: pt.ValueMS})
				}
				sp.Summary = len(sp.Points) < minDistributionPoints
			}
			if len(sp.Points) > 1 {
				chart.Spectra = append(chart.Spectra, sp)
			}
		}
		lines = nil
	}
	for i, r := range rows {
		test, rate, server, corrected, run := r.Test, r.TargetRPS, r.Server, r.Corrected, r.RunID
		newChart := i == 0 || test != rows[i-1].Test || rate != rows[i-1].TargetRPS
		if newChart {
			if chart != nil {
				flush()
			}
			chart = &report.SpectrumChart{Title: fmt.Sprintf("Latency by percentile: %s at %s requests/s", orDash(test), Sig(rate))}
			sec.Figures = append(sec.Figures, Figure{
				Name:    "spectrum-" + report.Slug(testName(test), rateName(rate)),
				Caption: fmt.Sprintf("Latency spectra, %s at %s requests/s: passes merged per server, database and tool; dashed lines are not corrected for coordinated omission", orDash(test), Sig(rate)),
				Figure:  chart,
			})
		}
		if newChart || server != rows[i-1].Server || r.Database != rows[i-1].Database || r.Tool != rows[i-1].Tool || corrected != rows[i-1].Corrected {
			label := serverName(server) + ": " + seriesName(test, r.Tool, Sig(rate)+" requests/s", r.Database)
			lines = append(lines, &line{server: server, label: label, corrected: corrected})
		}
		l := lines[len(lines)-1]
		if newChart || len(l.runs) == 0 || run != rows[i-1].RunID {
			l.runs = append(l.runs, nil)
		}
		cnt := r.Count
		p := stats.SpectrumPoint{Percentile: r.Percentile, ValueMS: r.LatencyMS, Count: cnt}
		if cnt < 0 || math.IsNaN(p.ValueMS) {
			p.Count = 0
		}
		l.runs[len(l.runs)-1] = append(l.runs[len(l.runs)-1], p)
	}
	flush()
	return sec, nil
}
