package analyze

import (
	"fmt"
	"math"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// spectra plots the latency percentile spectra of fixed-rate runs: one
// plot per (test, rate), one line per server and correction, the passes
// merged the way HdrHistogram adds histograms.
func (a *analysis) spectra() (*Section, error) {
	sec := &Section{ID: "spectra", Title: "Latency spectra"}
	rows, err := a.query(`
SELECT coalesce(r.test, ''), r.target_rps, coalesce(r.server, ''), p.corrected, r.run_id, p.percentile, p.latency_ms, p.count
FROM latency_percentiles p JOIN runs r USING (run_id)
WHERE r.target_rps IS NOT NULL AND p.percentile < 100
ORDER BY 1, 2, 3, 4 DESC, 5, p.percentile, p.latency_ms`)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		sec.Skipped = "no latency spectra of fixed-rate runs (wrk2 --latency, ab -e, k6 summaries)"
		return sec, nil
	}
	type line struct {
		server    string
		corrected bool
		runs      [][]stats.SpectrumPoint
	}
	var chart *report.SpectrumChart
	var lines []*line
	flush := func() {
		for _, l := range lines {
			merged, _ := stats.MergeSpectra(l.runs...)
			sp := report.Spectrum{Label: l.server, Corrected: l.corrected}
			if merged.Total > 0 {
				for _, pt := range merged.Points {
					if pt.Percentile < 100 {
						sp.Points = append(sp.Points, report.SpectrumPoint{Percentile: pt.Percentile, LatencyMS: pt.ValueMS})
					}
				}
			} else if len(l.runs) > 0 {
				// No counts to merge by: show the first pass.
				for _, pt := range l.runs[0] {
					sp.Points = append(sp.Points, report.SpectrumPoint{Percentile: pt.Percentile, LatencyMS: pt.ValueMS})
				}
			}
			if len(sp.Points) > 1 {
				chart.Spectra = append(chart.Spectra, sp)
			}
		}
		lines = nil
	}
	for i, r := range rows {
		test, rate, server, corrected, run := s(r[0]), f(r[1]), s(r[2]), r[3] == true, s(r[4])
		newChart := i == 0 || test != s(rows[i-1][0]) || rate != f(rows[i-1][1])
		if newChart {
			if chart != nil {
				flush()
			}
			chart = &report.SpectrumChart{Title: fmt.Sprintf("Latency by percentile: %s at %s requests/s", orDash(test), Sig(rate))}
			sec.Figures = append(sec.Figures, Figure{
				Name:    fmt.Sprintf("spectrum-%d", len(sec.Figures)+1),
				Caption: fmt.Sprintf("Latency spectra, %s at %s requests/s: passes merged per server; dashed lines are not corrected for coordinated omission", orDash(test), Sig(rate)),
				Figure:  chart,
			})
		}
		if newChart || server != s(rows[i-1][2]) || corrected != (rows[i-1][3] == true) {
			lines = append(lines, &line{server: server, corrected: corrected})
		}
		l := lines[len(lines)-1]
		if newChart || len(l.runs) == 0 || run != s(rows[i-1][4]) {
			l.runs = append(l.runs, nil)
		}
		cnt := int64(-1)
		if r[7] != nil {
			cnt = i64(r[7])
		}
		p := stats.SpectrumPoint{Percentile: f(r[5]), ValueMS: f(r[6]), Count: cnt}
		if cnt < 0 || math.IsNaN(p.ValueMS) {
			p.Count = 0
		}
		l.runs[len(l.runs)-1] = append(l.runs[len(l.runs)-1], p)
	}
	flush()
	return sec, nil
}
