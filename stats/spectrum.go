package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// A SpectrumPoint is one row of a latency percentile spectrum as
// HdrHistogram prints it (wrk2's "Detailed Percentile spectrum"):
// Percentile (0–100) of the requests took at most ValueMS, and Count is
// the cumulative number of requests up to that row (HdrHistogram's
// TotalCount).
type SpectrumPoint struct {
	Percentile float64
	ValueMS    float64
	Count      int64
}

// A Spectrum is a combined latency spectrum: Points in increasing value
// order with cumulative counts, Percentile recomputed as 100 * Count /
// Total.
type Spectrum struct {
	Points []SpectrumPoint
	Total  int64
}

// MergeSpectra combines the spectra of several runs (passes) into one, the
// way HdrHistogram adds histograms: each spectrum's cumulative counts are
// turned back into per-row counts (Count minus the previous row's Count),
// the per-row counts of all runs are added per value, and the cumulative
// counts and percentiles are recomputed. A per-row count is attributed to
// its row's value, which is the largest value of the requests it counts,
// so the merged percentiles are exact at the printed values and on the
// high side between them. A spectrum whose counts decrease, or whose
// values are NaN, is left out with a warning.
func MergeSpectra(spectra ...[]SpectrumPoint) (Spectrum, []Warning) {
	var ws []Warning
	byValue := map[float64]int64{}
	for si, sp := range spectra {
		rows := slices.Clone(sp)
		slices.SortStableFunc(rows, func(a, b SpectrumPoint) int {
			if c := cmp.Compare(a.Count, b.Count); c != 0 {
				return c
			}
			return cmp.Compare(a.ValueMS, b.ValueMS)
		})
		inc := map[float64]int64{}
		prevCount, prevValue, ok := int64(0), math.Inf(-1), true
		for _, r := range rows {
			if math.IsNaN(r.ValueMS) || r.Count < 0 || r.ValueMS < prevValue {
				ok = false
				break
			}
			inc[r.ValueMS] += r.Count - prevCount
			prevCount, prevValue = r.Count, r.ValueMS
		}
		if !ok {
			ws = append(ws, warn(WarnInvalidInput, fmt.Sprintf("spectrum %d: values do not grow with the cumulative count; left out", si+1)))
			continue
		}
		for v, c := range inc {
			byValue[v] += c
		}
	}
	var s Spectrum
	values := make([]float64, 0, len(byValue))
	for v, c := range byValue {
		if c > 0 {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	for _, v := range values {
		s.Total += byValue[v]
		s.Points = append(s.Points, SpectrumPoint{ValueMS: v, Count: s.Total})
	}
	for i := range s.Points {
		s.Points[i].Percentile = 100 * float64(s.Points[i].Count) / float64(s.Total)
	}
	return s, ws
}

// ABPercents are the percentages ApacheBench prints under "Percentage of
// the requests served within a certain time (ms)".
var ABPercents = []int{50, 66, 75, 80, 90, 95, 98, 99, 100}

// ABPercentile returns the value ApacheBench 2.3 prints for percent in its
// "Percentage of the requests served within a certain time" table, from
// the request times sorted ascending: sorted[(n * percent) / 100] with
// integer division for 0 < percent < 100, and the largest value for
// percent >= 100 (ab.c: stats[(int) (done * percs[i] / 100)].time). ab
// rounds each time to whole milliseconds ((µs + 500) / 1000) before
// printing, as its -g file does, and rounding keeps the order, so the
// ttime column of a -g file reproduces the printed table exactly. It
// returns NaN for percent <= 0 (ab prints "<0> (never)") or no values.
func ABPercentile(sorted []float64, percent int) float64 {
	n := len(sorted)
	if n == 0 || percent <= 0 {
		return math.NaN()
	}
	if percent >= 100 {
		return sorted[n-1]
	}
	return sorted[n*percent/100]
}

// JMeterPercentile returns the percentile (0 < percent <= 100) that
// Apache JMeter's HTML dashboard prints (statistics.json pct1ResTime …)
// for the response times sorted ascending: Apache Commons Math's
// Percentile with its default LEGACY estimation, Hyndman and Fan's type
// 6: the position pos = percent/100 × (n+1) (1-based), the smallest value
// below position 1, the largest at or past position n, else linear
// interpolation between the values at floor(pos) and floor(pos)+1. It
// returns NaN for no values or a percent outside (0, 100].
func JMeterPercentile(sorted []float64, percent float64) float64 {
	n := len(sorted)
	if n == 0 || !(percent > 0 && percent <= 100) {
		return math.NaN()
	}
	pos := percent / 100 * float64(n+1)
	if percent == 100 {
		pos = float64(n)
	}
	if pos < 1 {
		return sorted[0]
	}
	if pos >= float64(n) {
		return sorted[n-1]
	}
	f := math.Floor(pos)
	i := int(f)
	lower, upper := sorted[i-1], sorted[i]
	return lower + (pos-f)*(upper-lower)
}
