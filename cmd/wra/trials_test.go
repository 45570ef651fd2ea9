package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two servers recorded in six interleaved trials on a machine whose speed
// swings by up to 2.7 times between trials: b costs 1.2 times a's CPU per
// request in every trial. Compared within trials, wra compare and the CPU
// table find the 1.2 exactly, with an interval that excludes 1; compared
// unpaired, the drift hides it.
func TestTrialsArePaired(t *testing.T) {
	var b strings.Builder
	b.WriteString("utc,server,database,round,trial,test,connections,target_rps,requests_per_s,latency_p95_ms,responses_2xx,requests,errors,cpu_server_s,duration_s\n")
	drift := []float64{0.6, 1.6, 1.0, 1.3, 0.7, 1.45}
	for i, d := range drift {
		for j, s := range []struct {
			name string
			cpu  float64
		}{{"a", 3}, {"b", 3.6}} {
			fmt.Fprintf(&b, "2026-06-01T10:%02d:00Z,%s,postgresql,%d,%d,one,16,500,500,2,30000,30000,0,%.4f,60\n", 2*i+j, s.name, i+1, i+1, s.cpu*d)
		}
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "records.csv"), b.String())
	db := ingested(t, dir)
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
