package main

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Two servers recorded in six interleaved trials on a machine whose speed
// swings by up to 2.7 times between trials: b costs 1.2 times a's CPU per
// request in every trial. Compared within trials, wra compare and the CPU
// table find the 1.2 exactly, with an interval that excludes 1; compared
// unpaired, the drift hides it.
func TestTrialsArePaired(t *testing.T) {
	db := trials(t, "target_rps,requests_per_s,latency_p95_ms,cpu_server_s", map[string]float64{"a": 3, "b": 3.6},
		func(x float64) string { return fmt.Sprintf("500,500,2,%.4f", x) })
	r := wra(t, db, "--format", "csv", "compare", "--by", "server", "--base", "a", "--vs", "b", "--metric", "cpu_server_us_per_req")
	if r.code != 0 {
		t.Fatalf("compare: exit %d: %s", r.code, r.stderr)
	}
	rows := csvRows(t, r.stdout)
	if len(rows) != 1 {
		t.Fatalf("compare: %d rows\n%s", len(rows), r.stdout)
	}
	row := rows[0]
	if math.Abs(num(t, row["paired_ratio"])-1.2) > 1e-9 || num(t, row["paired_n"]) != 6 || num(t, row["paired_low"]) <= 1 ||
		math.Abs(num(t, row["paired_p"])-2.0/64) > 1e-12 {
		t.Errorf("paired: %v; want a ratio of 1.2 over 6 trials, an interval above 1, sign test p 2/64", row)
	}
	if row["significant"] != "false" {
		t.Errorf("unpaired: significant %s; the drift should hide the difference from the U test", row["significant"])
	}
	out := filepath.Join(t.TempDir(), "report")
	if r := wra(t, db, "--quiet", "analyze", "--no-ingest", "--out", out); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	text, err := os.ReadFile(filepath.Join(out, "tables", "cpu-per-request-one-500rps.csv"))
	if err != nil {
		t.Fatal(err)
	}
	cpu := csvRows(t, string(text))
	if len(cpu) != 2 || cpu[1]["server"] != "b" || math.Abs(num(t, cpu[1]["vs_lowest_ratio"])-1.2) > 1e-9 || num(t, cpu[1]["vs_lowest_low"]) <= 1 {
		t.Errorf("CPU table: %v", cpu)
	}
}

// The rounds of two servers at full speed in six interleaved trials on a
// machine whose speed swings by up to 2.7 times: b serves 0.8 times a's
// requests/s in every trial. The rounds table finds the 0.8 within
// trials, with an interval that excludes 1.
func TestRoundsTrialsArePaired(t *testing.T) {
	db := trials(t, "requests_per_s,latency_p99_ms", map[string]float64{"a": 1000, "b": 800},
		func(x float64) string { return fmt.Sprintf("%.4f,2", x) })
	out := filepath.Join(t.TempDir(), "report")
	if r := wra(t, db, "--quiet", "analyze", "--no-ingest", "--out", out); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	names, _ := filepath.Glob(filepath.Join(out, "tables", "rounds-*.csv"))
	if len(names) != 1 {
		t.Fatalf("rounds tables: %v", names)
	}
	text, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	rows := csvRows(t, string(text))
	if len(rows) != 2 || rows[0]["server"] != "a" || rows[0]["vs_fastest_ratio"] != "" || rows[1]["server"] != "b" ||
		math.Abs(num(t, rows[1]["vs_fastest_ratio"])-0.8) > 1e-9 || num(t, rows[1]["vs_fastest_high"]) >= 1 || num(t, rows[1]["vs_fastest_trials"]) != 6 {
		t.Errorf("rounds table: %v", rows)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "vs fastest, within trials: the row's requests/s over the fastest row's") {
		t.Errorf("report.md has no footnote of the paired figure")
	}
}

// trials ingests records of servers (a, b, …) at 16 connections in six
// interleaved trials on a machine whose speed swings by up to 2.7 times
// between trials: the columns cols of each record are fields(x), x the
// server's figure times the trial's drift.
func trials(t *testing.T, cols string, servers map[string]float64, fields func(x float64) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("utc,server,database,round,trial,test,connections,responses_2xx,requests,errors,duration_s," + cols + "\n")
	drift := []float64{0.6, 1.6, 1.0, 1.3, 0.7, 1.45}
	names := slices.Sorted(maps.Keys(servers))
	for i, d := range drift {
		for j, s := range names {
			fmt.Fprintf(&b, "2026-06-01T10:%02d:00Z,%s,postgresql,%d,%d,one,16,30000,30000,0,60,%s\n", len(names)*i+j, s, i+1, i+1, fields(servers[s]*d))
		}
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "records.csv"), b.String())
	return ingested(t, dir)
}
