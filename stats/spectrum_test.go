package stats

import (
	"bufio"
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestMergeSpectraByHand(t *testing.T) {
	// Run A: 2 requests at 1 ms, 1 at 2 ms, 1 at 5 ms (cumulative 2, 3, 4).
	// Run B: 1 at 2 ms, 3 at 3 ms (cumulative 1, 4).
	// Combined per value: 1ms:2, 2ms:2, 3ms:3, 5ms:1 -> cumulative 2, 4,
	// 7, 8 of 8 -> percentiles 25, 50, 87.5, 100.
	a := []SpectrumPoint{{50, 1, 2}, {75, 2, 3}, {100, 5, 4}}
	b := []SpectrumPoint{{25, 2, 1}, {100, 3, 4}}
	s, ws := MergeSpectra(a, b)
	want := []SpectrumPoint{{25, 1, 2}, {50, 2, 4}, {87.5, 3, 7}, {100, 5, 8}}
	if len(ws) != 0 || s.Total != 8 || !slices.Equal(s.Points, want) {
		t.Fatalf("merged = %+v %v, want %+v", s, ws, want)
	}
	// HdrHistogram ranks: p50 -> int(4 + 0.5) = 4 -> 2 ms; p90 -> int(7.7) =
	// 7 -> 3 ms; p99 -> int(8.42) = 8 -> 5 ms; p0 -> rank 1 -> 1 ms; p30 ->
	// int(2.9) = 2 -> 1 ms; p35 -> int(3.3) = 3 -> 2 ms.
	for _, tc := range []struct{ p, want float64 }{{50, 2}, {90, 3}, {99, 5}, {0, 1}, {100, 5}, {25, 1}, {30, 1}, {35, 2}} {
		if got := valueAt(s, tc.p); got != tc.want {
			t.Errorf("ValueAt(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	// A spectrum whose values fall while counts grow is left out.
	s, ws = MergeSpectra(a, []SpectrumPoint{{50, 3, 1}, {100, 2, 2}})
	if len(ws) != 1 || s.Total != 4 {
		t.Errorf("bad spectrum: %+v %v", s, ws)
	}
	if v := valueAt(Spectrum{}, 50); !math.IsNaN(v) {
		t.Errorf("empty ValueAt = %v", v)
	}
}

// readWrk2Spectrum parses the "Detailed Percentile spectrum" rows (Value,
// Percentile 0-1, TotalCount) and the "Latency Distribution" lines of a
// real wrk2 --latency report.
func readWrk2Spectrum(t *testing.T, path string) (rows []SpectrumPoint, printed map[float64]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	printed = map[float64]string{}
	sc := bufio.NewScanner(f)
	inSpectrum := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fields := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "Value"):
			inSpectrum = true
		case strings.HasPrefix(line, "#["):
			inSpectrum = false
		case inSpectrum && len(fields) == 4:
			v, _ := strconv.ParseFloat(fields[0], 64)
			p, _ := strconv.ParseFloat(fields[1], 64)
			c, _ := strconv.ParseInt(fields[2], 10, 64)
			rows = append(rows, SpectrumPoint{Percentile: p * 100, ValueMS: v, Count: c})
		case !inSpectrum && len(fields) == 2 && strings.HasSuffix(fields[0], "%") && strings.HasSuffix(fields[1], "ms"):
			p, err := strconv.ParseFloat(strings.TrimSuffix(fields[0], "%"), 64)
			if err == nil {
				printed[p] = fields[1]
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows, printed
}

func TestSpectrumRealWrk2(t *testing.T) {
	// wrk2 -R5000 --latency against nginx: wrk2 prints its percentiles
	// (HdrHistogram hdr_value_at_percentile) and the detailed spectrum of
	// the same histogram, whose rows carry cumulative counts.
	rows, printed := readWrk2Spectrum(t, "testdata/wrk2_latency_nginx_static_R5000.txt")
	if len(rows) < 50 || len(printed) != 8 {
		t.Fatalf("parsed %d rows, %d printed percentiles", len(rows), len(printed))
	}
	one, ws := MergeSpectra(rows)
	if len(ws) != 0 || one.Total != 24351 { // "#[... Total count = 24351]"
		t.Fatalf("total %d, warnings %v", one.Total, ws)
	}
	two, _ := MergeSpectra(rows, rows)
	if two.Total != 2*24351 {
		t.Errorf("merged with itself: total %d", two.Total)
	}
	// Where the printed percentile is itself a row of the spectrum (50, 75,
	// 90 here: rows 0.500000, 0.750000, 0.900000) the value is exact.
	// Elsewhere the spectrum only has the rows around it, and the merged
	// value is the row at or above the rank: wrk2's printed value lies
	// between the row below and the returned one (p99: rows 5.887 and
	// 6.131, wrk2 printed 6.01).
	exact := map[float64]bool{50: true, 75: true, 90: true}
	for p, want := range printed {
		got := valueAt(one, p)
		w, err := strconv.ParseFloat(strings.TrimSuffix(want, "ms"), 64)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(one.Points, func(pt SpectrumPoint) bool { return pt.ValueMS == got })
		below := 0.0
		if i > 0 {
			below = one.Points[i-1].ValueMS
		}
		if exact[p] && fmt.Sprintf("%.2fms", got) != want {
			t.Errorf("p%v = %.2fms, wrk2 printed %s", p, got, want)
		}
		if !(below <= w && w <= got+0.005) {
			t.Errorf("p%v: wrk2 printed %s, outside (%v, %v]", p, want, below, got)
		}
		// Merging a run with an identical run leaves every percentile.
		if a, b := valueAt(one, p), valueAt(two, p); a != b {
			t.Errorf("p%v: single %v, doubled %v", p, a, b)
		}
	}
}

func TestABPercentileRealGnuplot(t *testing.T) {
	// ab -n 1000 -c 5 -g ab_gnuplot_nginx_static.tsv: the -g file's ttime
	// column (whole ms) must reproduce the printed "Percentage of the
	// requests served within a certain time (ms)" table exactly.
	f, err := os.Open("testdata/ab_gnuplot_nginx_static.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ttime []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 6 || cols[0] == "starttime" {
			continue
		}
		v, err := strconv.ParseFloat(cols[4], 64)
		if err != nil {
			t.Fatalf("ttime %q: %v", cols[4], err)
		}
		ttime = append(ttime, v)
	}
	if len(ttime) != 1000 {
		t.Fatalf("%d rows, ab printed Complete requests: 1000", len(ttime))
	}
	slices.Sort(ttime)
	printed := readABTable(t, "testdata/ab_gnuplot_nginx_static.txt")
	if len(printed) != len(ABPercents) {
		t.Fatalf("printed table %v", printed)
	}
	for _, p := range ABPercents {
		if got := ABPercentile(ttime, p); got != printed[p] {
			t.Errorf("%d%% = %v, ab printed %v", p, got, printed[p])
		}
	}
}

func readABTable(t *testing.T, path string) map[int]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "Percentage of the requests served within a certain time (ms)\n")
	if !ok {
		t.Fatal("no percentage table")
	}
	out := map[int]float64{}
	for _, line := range strings.Split(table, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasSuffix(f[0], "%") {
			continue
		}
		p, err1 := strconv.Atoi(strings.TrimSuffix(f[0], "%"))
		v, err2 := strconv.ParseFloat(f[1], 64)
		if err1 == nil && err2 == nil {
			out[p] = v
		}
	}
	return out
}

func TestABPercentileByHand(t *testing.T) {
	// ab.c: stats[(int)(done * percs[i] / 100)] with integer arithmetic,
	// so for 10 sorted values 1..10: 50% -> index 5 -> 6; 66% -> 660/100 =
	// 6 -> 7; 99% -> 990/100 = 9 -> 10; 100% -> the largest. Type 7 would
	// give 5.5 for 50%: the definitions differ, which is why this exists.
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for p, want := range map[int]float64{50: 6, 66: 7, 75: 8, 80: 9, 90: 10, 95: 10, 99: 10, 100: 10} {
		if got := ABPercentile(xs, p); got != want {
			t.Errorf("ABPercentile(1..10, %d) = %v, want %v", p, got, want)
		}
	}
	if !math.IsNaN(ABPercentile(xs, 0)) || !math.IsNaN(ABPercentile(nil, 50)) {
		t.Errorf("0%% or empty must be NaN")
	}
	// -e CSV: (int)(0.5 + done * i / 100.0): 10 values, 25% -> int(3.0) = 3
	// -> 4; 24% -> int(2.9) = 2 -> 3; 0% -> smallest; 99% -> int(10.4) = 10,
	// past the end in ab, clamped to the largest.
	for p, want := range map[int]float64{25: 4, 24: 3, 0: 1, 99: 10, 50: 6} {
		if got := abCSVPercentile(xs, p); got != want {
			t.Errorf("abCSVPercentile(1..10, %d) = %v, want %v", p, got, want)
		}
	}
}

func TestABPrintedAgainstCSV(t *testing.T) {
	// ab -n 2000 -c 4 -e ab_percentiles_go2_wait2.csv: the printed table
	// and the -e file come from the same sorted times. With n = 2000 both
	// index rules pick the same request for every printed percentage
	// ((2000*p)/100 = int(0.5 + 2000*p/100.0) = 20p), so the printed value
	// is the -e value (µs precision, %.3f ms) rounded as ab rounds,
	// (µs + 500) / 1000; 100% is the longest request in both.
	idx := make([]float64, 2000)
	for i := range idx {
		idx[i] = float64(i)
	}
	printed := readABTable(t, "testdata/ab_percentiles_go2_wait2.txt")
	b, err := os.ReadFile("testdata/ab_percentiles_go2_wait2.csv")
	if err != nil {
		t.Fatal(err)
	}
	csvMS := map[int]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] { // "Percentage served,Time in ms"
		p, v, _ := strings.Cut(line, ",")
		pi, err1 := strconv.Atoi(p)
		ms, err2 := strconv.ParseFloat(v, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", line)
		}
		csvMS[pi] = ms
	}
	// This ab (Debian's 2.3) writes rows 0 to 100; row 100 is the largest.
	if len(csvMS) != 101 || len(printed) != 9 {
		t.Fatalf("%d CSV rows, %d printed", len(csvMS), len(printed))
	}
	for _, p := range ABPercents {
		if ABPercentile(idx, p) != abCSVPercentile(idx, p) {
			t.Fatalf("p%d: index %v against %v", p, ABPercentile(idx, p), abCSVPercentile(idx, p))
		}
		us := int64(math.Round(csvMS[p] * 1000))
		if got := float64((us + 500) / 1000); got != printed[p] {
			t.Errorf("%d%%: -e gives %v ms, rounded %v; ab printed %v", p, csvMS[p], got, printed[p])
		}
	}
}

// The test's own readings of a spectrum and of ab's -e file, to hold
// MergeSpectra and ABPercentile against what the tools print.

// valueAt returns the smallest value whose cumulative count reaches the
// rank HdrHistogram uses for a percentile (0–100): rank = int(percentile/100
// * Total + 0.5), at least 1 and at most Total. It returns NaN for an empty
// spectrum.
func valueAt(s Spectrum, percentile float64) float64 {
	if s.Total == 0 || len(s.Points) == 0 {
		return math.NaN()
	}
	p := math.Min(percentile, 100)
	rank := p/100*float64(s.Total) + 0.5
	var r int64
	switch {
	case !(rank >= 1):
		r = 1
	case rank >= float64(s.Total):
		r = s.Total
	default:
		r = int64(rank)
	}
	i, _ := slices.BinarySearchFunc(s.Points, r, func(pt SpectrumPoint, r int64) int { return cmp.Compare(pt.Count, r) })
	return s.Points[i].ValueMS
}

// abCSVPercentile returns the value ApacheBench writes for percent in its
// -e CSV file: the smallest value for 0, else
// sorted[(int)(0.5 + n * percent / 100.0)] (rounded to the nearest index),
// and the largest value for 100 (a row newer ab versions write; the index
// is clamped to the last value, where older ones would read past their
// array).
func abCSVPercentile(sorted []float64, percent int) float64 {
	n := len(sorted)
	if n == 0 || percent < 0 {
		return math.NaN()
	}
	if percent == 0 {
		return sorted[0]
	}
	i := int(0.5 + float64(n)*float64(percent)/100.0)
	return sorted[min(i, n-1)]
}

// Reference values: JMeter 5.x's own statistics.json for a run whose JTL
// is in ingest/testdata/wild/jmeter (musicGDS/jmeterResult): the label
// HomePage, 2000 samples, printed pct1ResTime 360.9000000000001 (90%),
// pct3ResTime 425.95000000000005 (99%), medianResTime 237.0; checked here
// on small samples worked by hand with pos = p/100 × (n+1).
func TestJMeterPercentile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct{ p, want float64 }{
		{50, 5.5},  // pos 5.5: 5 + 0.5 × (6 - 5)
		{90, 9.9},  // pos 9.9: 9 + 0.9 × (10 - 9)
		{95, 10},   // pos 10.45 ≥ n: the largest
		{5, 1},     // pos 0.55 < 1: the smallest
		{100, 10},  // the largest
		{25, 2.75}, // pos 2.75
	} {
		if got := JMeterPercentile(xs, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("JMeterPercentile(1..10, %v) = %v, want %v", c.p, got, c.want)
		}
	}
	for _, p := range []float64{0, -1, 101, math.NaN()} {
		if got := JMeterPercentile(xs, p); !math.IsNaN(got) {
			t.Errorf("JMeterPercentile(%v) = %v, want NaN", p, got)
		}
	}
	if got := JMeterPercentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("no values: %v, want NaN", got)
	}
}
