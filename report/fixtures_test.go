package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wra-bench/wra/stats"
	"gonum.org/v1/gonum/stat"
)

// The plots in the tests draw real captures copied from the project's
// sample set (see testdata/): a wrk2 run with -U (corrected and
// uncorrected spectra), a wrk2 run against nginx, the harness's
// records.csv (three rounds per server, test and connections) and
// memory_waiting.csv, and three k6 ladder summaries. The helpers below
// read just enough of them; the real readers live in ingest.

// readSpectra returns the "Detailed Percentile spectrum" blocks of a
// wrk2 report in file order (the recorded one first, then with -U the
// uncorrected one). wrk2 prints the percentile as a fraction.
func readSpectra(t *testing.T, name string) [][]SpectrumPoint {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]SpectrumPoint
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "Detailed Percentile spectrum"):
			in = true
			out = append(out, nil)
		case strings.HasPrefix(line, "#["):
			in = false
		case in:
			fs := strings.Fields(line)
			if len(fs) != 4 {
				continue
			}
			v, err1 := strconv.ParseFloat(fs[0], 64)
			p, err2 := strconv.ParseFloat(fs[1], 64)
			if err1 != nil || err2 != nil {
				continue
			}
			out[len(out)-1] = append(out[len(out)-1], SpectrumPoint{Percentile: p * 100, LatencyMS: v})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// readCSV returns the rows of a CSV file as maps by column name.
func readCSV(t *testing.T, name string) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// recordGroups makes one bar per server and connections of a test from
// records.csv, one value per round, with value(row) as the quantity.
func recordGroups(t *testing.T, test string, value func(map[string]string) float64) []BarGroup {
	t.Helper()
	var gs []BarGroup
	for _, r := range readCSV(t, "records.csv") {
		if r["test"] != test {
			continue
		}
		series := r["connections"] + " connections"
		i := slices.IndexFunc(gs, func(g BarGroup) bool { return g.Label == r["server"] && g.Series == series })
		if i < 0 {
			gs = append(gs, BarGroup{Label: r["server"], Series: series})
			i = len(gs) - 1
		}
		gs[i].Values = append(gs[i].Values, value(r))
	}
	for i := range gs {
		gs[i].Median = stats.Median(gs[i].Values)
	}
	return gs
}

func throughputChart(t *testing.T) *BarChart {
	return &BarChart{
		Title:  "Throughput, test ping (3 rounds)",
		XLabel: "server",
		YLabel: "throughput (requests/s)",
		Groups: recordGroups(t, "ping", func(r map[string]string) float64 { return num(t, r["requests_per_s"]) }),
	}
}

// cpuChart is the server CPU per answered request in microseconds:
// cpu_server_s / (responses_2xx + errors) × 10^6.
func cpuChart(t *testing.T) *BarChart {
	var gs []BarGroup
	for _, g := range recordGroups(t, "db", func(r map[string]string) float64 {
		return num(t, r["cpu_server_s"]) / (num(t, r["responses_2xx"]) + num(t, r["errors"])) * 1e6
	}) {
		if g.Series == "64 connections" {
			g.Series = ""
			gs = append(gs, g)
		}
	}
	return &BarChart{
		Title:  "Server CPU per request, test db, 64 connections",
		XLabel: "server",
		YLabel: "CPU per request (µs)",
		Groups: gs,
	}
}

func spectrumChart(t *testing.T) *SpectrumChart {
	go2 := readSpectra(t, "wrk2_U_go2_wait5_R1000.txt")
	ngx := readSpectra(t, "wrk2_latency_nginx_static_R5000.txt")
	if len(go2) != 2 || len(ngx) != 1 {
		t.Fatalf("spectra: got %d and %d blocks, want 2 and 1", len(go2), len(ngx))
	}
	return &SpectrumChart{
		Title: "Latency spectrum (wrk2)",
		Spectra: []Spectrum{
			{Label: "go-gmp2 /wait?ms=5 at 1000/s", Points: go2[0], Corrected: true},
			{Label: "go-gmp2 /wait?ms=5 at 1000/s", Points: go2[1]},
			{Label: "nginx static at 5000/s", Points: ngx[0], Corrected: true},
		},
	}
}

// k6Ladder reads the per-step p95 of a k6 summary export
// (http_req_duration{step:N}) and whether its p(95)<50 threshold held
// (k6 writes true for a failed threshold).
func k6Ladder(t *testing.T, server, name string) LadderSeries {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metrics map[string]struct {
			P95        float64         `json:"p(95)"`
			Thresholds map[string]bool `json:"thresholds"`
		} `json:"metrics"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	step := regexp.MustCompile(`^http_req_duration\{step:(\d+)\}$`)
	s := LadderSeries{Server: server, Run: name}
	for k, m := range doc.Metrics {
		if g := step.FindStringSubmatch(k); g != nil {
			s.Steps = append(s.Steps, LadderStep{TargetRPS: num(t, g[1]), P95MS: m.P95, Held: !m.Thresholds["p(95)<50"]})
		}
	}
	slices.SortFunc(s.Steps, func(a, b LadderStep) int { return int(a.TargetRPS - b.TargetRPS) })
	return s
}

func ladderChart(t *testing.T) *LadderChart {
	return &LadderChart{
		Title: "Held-rate ladders (k6, p95 < 50 ms)",
		Series: []LadderSeries{
			k6Ladder(t, "go-gmp1 /db/1", "k6_ladder_go1_db_summary_export.json"),
			k6Ladder(t, "go-gmp1 /wait?ms=10", "k6_ladder_go1_wait10_summary_export.json"),
			k6Ladder(t, "go-gmp2 /wait?ms=5", "k6_ladder_go2_wait5_summary_export.json"),
		},
		ThresholdP95MS: 50,
	}
}

// memoryChart fits each server's points by least squares (gonum's
// stat.LinearRegression), the fit the plot is meant to show.
func memoryChart(t *testing.T) *MemoryChart {
	var ss []MemorySeries
	for _, r := range readCSV(t, "memory_waiting.csv") {
		i := slices.IndexFunc(ss, func(s MemorySeries) bool { return s.Server == r["server"] })
		if i < 0 {
			ss = append(ss, MemorySeries{Server: r["server"]})
			i = len(ss) - 1
		}
		ss[i].Points = append(ss[i].Points, MemoryPoint{Concurrency: num(t, r["concurrency"]), MemoryMB: num(t, r["rss_mb"])})
	}
	for i := range ss {
		var xs, ys []float64
		for _, p := range ss[i].Points {
			xs, ys = append(xs, p.Concurrency), append(ys, p.MemoryMB)
		}
		a, b := stat.LinearRegression(xs, ys, nil, false)
		ss[i].Fit = &MemoryFit{SlopeMBPerRequest: b, InterceptMB: a}
	}
	return &MemoryChart{Title: "Memory while requests wait 1 s", Series: ss}
}

// costChart prices the median CPU per request of test db at 64
// connections at 1000 requests/s, 60% target utilisation and an assumed
// $0.04 per vCPU-hour over 730 hours a month: vCPUs = CPU-seconds per
// request × 1000 / 0.6. The database's CPU is priced the same way.
func costChart(t *testing.T) *CostChart {
	perMonth := func(cpuPerRequest float64) float64 { return cpuPerRequest * 1000 / 0.6 * 0.04 * 730 }
	var cs []CostStack
	for _, server := range []string{"go-gmp1", "go-gmp2"} {
		var stack, db []float64
		for _, r := range readCSV(t, "records.csv") {
			if r["server"] == server && r["test"] == "db" && r["connections"] == "64" {
				n := num(t, r["responses_2xx"]) + num(t, r["errors"])
				stack = append(stack, num(t, r["cpu_server_s"])/n)
				db = append(db, num(t, r["cpu_postgres_s"])/n)
			}
		}
		cs = append(cs, CostStack{Server: server, StackUSD: perMonth(stats.Median(stack)), DBUSD: perMonth(stats.Median(db))})
	}
	if math.IsNaN(cs[0].StackUSD) {
		t.Fatal("no db rows in records.csv")
	}
	return &CostChart{Title: "Cost per month at 1000 requests/s (test db)", Stacks: cs}
}

// rateChart plots the fixed-rate passes of test one that the harness
// recorded on 2026-11-29 (harness_fixed_rate_2026-11-29.csv: a copy of
// that recording's data/records/fixed-rate.csv, wrk2 at 250, 500 and 1000
// requests/s, three passes each): node-pg and go-pq fell behind at 1000
// in one pass each (904.61 and 935.7 requests/s).
func rateChart(t *testing.T) *RateChart {
	var ss []RateSeries
	for _, r := range readCSV(t, "harness_fixed_rate_2026-11-29.csv") {
		if r["test"] != "one" {
			continue
		}
		i := slices.IndexFunc(ss, func(s RateSeries) bool { return s.Server == r["server"] })
		if i < 0 {
			ss = append(ss, RateSeries{Server: r["server"], Label: r["server"] + ": one, wrk2, fixed rate"})
			i = len(ss) - 1
		}
		ss[i].Points = append(ss[i].Points, RatePoint{TargetRPS: num(t, r["target_rps"]), AchievedRPS: num(t, r["requests_per_s"])})
	}
	// The line through the passes: at each target, their median.
	for i := range ss {
		by := map[float64][]float64{}
		var targets []float64
		for _, p := range ss[i].Points {
			if _, ok := by[p.TargetRPS]; !ok {
				targets = append(targets, p.TargetRPS)
			}
			by[p.TargetRPS] = append(by[p.TargetRPS], p.AchievedRPS)
		}
		slices.Sort(targets)
		for _, x := range targets {
			ss[i].Medians = append(ss[i].Medians, RatePoint{TargetRPS: x, AchievedRPS: stats.Median(by[x])})
		}
	}
	return &RateChart{Title: "Achieved against target rate: one", Series: ss}
}

// figures are every plot kind, named as their golden files.
func figures(t *testing.T) []struct {
	name string
	fig  Figure
} {
	return []struct {
		name string
		fig  Figure
	}{
		{"bars_throughput", throughputChart(t)},
		{"bars_cpu", cpuChart(t)},
		{"spectrum", spectrumChart(t)},
		{"ladder", ladderChart(t)},
		{"memory", memoryChart(t)},
		{"cost", costChart(t)},
		{"rate", rateChart(t)},
	}
}
