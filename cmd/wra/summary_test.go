package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// summaryCorpus writes harness records of servers at one fixed rate in
// interleaved trials: cpu[server][trial] is the server's CPU seconds in
// that trial (0: the server did not run in it), on a machine whose speed
// drifts between trials by the factors given.
func summaryCorpus(t *testing.T, servers []string, cpu map[string][]float64, db map[string][]float64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("utc,server,database,round,trial,test,connections,target_rps,requests_per_s,latency_p95_ms,responses_2xx,requests,errors,cpu_server_s,cpu_db_s,duration_s\n")
	drift := []float64{0.8, 1.3, 1.0, 1.15, 0.9}
	minute := 0
	for trial, d := range drift {
		for _, s := range servers {
			c := cpu[s][trial]
			if c == 0 {
				continue
			}
			fmt.Fprintf(&b, "2026-06-01T10:%02d:00Z,%s,postgresql,%d,%d,one,16,500,500,2,30000,30000,0,%.4f,%.4f,60\n",
				minute, s, trial+1, trial+1, c*d, db[s][trial]*d)
			minute++
		}
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "records.csv"), b.String())
	return dir
}

// summaryOf analyzes dir and returns the summary as tables/summary.md
// holds it.
func summaryOf(t *testing.T, dir string) string {
	t.Helper()
	return tableOf(t, dir, "summary.md")
}

// tableOf analyzes dir and returns tables/name.
func tableOf(t *testing.T, dir, name string) string {
	t.Helper()
	db := ingested(t, dir)
	out := filepath.Join(t.TempDir(), "report")
	if r := wra(t, db, "--quiet", "analyze", "--no-ingest", "--out", out); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "tables", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A clear leader: a uses the least CPU in every trial, b 1.2 times as
// much and c 1.5 times, so both intervals exclude 1 whatever the drift.
func TestSummaryLeader(t *testing.T) {
	got := summaryOf(t, summaryCorpus(t, []string{"a", "b", "c"},
		map[string][]float64{"a": {3, 3, 3, 3, 3}, "b": {3.6, 3.6, 3.6, 3.6, 3.6}, "c": {4.5, 4.5, 4.5, 4.5, 4.5}},
		map[string][]float64{"a": {1, 1, 1, 1, 1}, "b": {1.2, 1.3, 1.1, 1.2, 1.25}, "c": {1, 1, 1, 1, 1}}))
	if !strings.Contains(got, "| CPU per request, one at 500 requests/s, within 5 trials | stack + database: a (postgresql) uses the least, 133 µs; next b (postgresql) ×1.20 (1.18–1.22), last c (postgresql) ×1.38 (1.37–1.38);") {
		t.Errorf("the leader and the next are not named with the ratio:\n%s", got)
	}
	golden(t, "summary/leader.md", got)
}

// A tie: b is above a in some trials and below in others, so the
// interval of the within-trial ratio includes 1 and the summary says
// they tie; c is behind both.
func TestSummaryTie(t *testing.T) {
	got := summaryOf(t, summaryCorpus(t, []string{"a", "b", "c"},
		map[string][]float64{"a": {3, 3, 3, 3, 3}, "b": {3.3, 2.7, 3.15, 2.85, 3.06}, "c": {4.5, 4.5, 4.5, 4.5, 4.5}},
		map[string][]float64{"a": {1, 1, 1, 1, 1}, "b": {1, 1, 1, 1, 1}, "c": {1, 1, 1, 1, 1}}))
	if !strings.Contains(got, "ties for the lead with") {
		t.Errorf("no tie said:\n%s", got)
	}
	golden(t, "summary/tie.md", got)
}

// A flagged group: c ran in two trials only, and the caveat its tables
// print (fewer than three runs) stands beside the summary's sentence in
// the same words.
func TestSummaryFlagged(t *testing.T) {
	got := summaryOf(t, summaryCorpus(t, []string{"a", "b", "c"},
		map[string][]float64{"a": {3, 3, 3, 3, 3}, "b": {3.6, 3.6, 3.6, 3.6, 3.6}, "c": {4.5, 0, 4.5, 0, 0}},
		map[string][]float64{"a": {1, 1, 1, 1, 1}, "b": {1, 1, 1, 1, 1}, "c": {1, 0, 1, 0, 0}}))
	if !strings.Contains(got, "c (postgresql): 2 runs: a median and its spread need 3 or more; the spread shown is their min–max") {
		t.Errorf("the caveat of c's group is not beside the sentence:\n%s", got)
	}
	golden(t, "summary/flagged.md", got)
}

// A drift: a calibration before and after the trials says the machine's
// speed moved by 30%, so every group carries the drift caveat; beside
// the within-trial ratios the summary says they are robust to a drift
// the runs of a trial share.
func TestSummaryDrift(t *testing.T) {
	dir := summaryCorpus(t, []string{"a", "b", "c"},
		map[string][]float64{"a": {3, 3, 3, 3, 3}, "b": {3.6, 3.6, 3.6, 3.6, 3.6}, "c": {4.5, 4.5, 4.5, 4.5, 4.5}},
		map[string][]float64{"a": {1, 1, 1, 1, 1}, "b": {1, 1, 1, 1, 1}, "c": {1, 1, 1, 1, 1}})
	write(t, filepath.Join(dir, "calibration", "before.csv"), "utc,processes,ms\n2026-06-01T09:59:00Z,1,100\n")
	write(t, filepath.Join(dir, "calibration", "after.csv"), "utc,processes,ms\n2026-06-01T10:30:00Z,1,130\n")
	got := summaryOf(t, dir)
	for _, want := range []string{
		"every stack: 5 of 5 runs are covered by a calibration drift above 5% (the largest 30.0%): the machine's speed moved, so their figures are suspect",
		"the within-trial ratios are robust to a drift that the runs of a trial share; the medians are not",
		"next b (postgresql) ×1.15 (1.15–1.15)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	golden(t, "summary/drift.md", got)
}

// A split the findings report with its within-trial ratio, under a
// drift caveat: the footnote says the ratio is robust to the drift.
func TestFindingsDriftPaired(t *testing.T) {
	dir := summaryCorpus(t, []string{"a", "b", "c"},
		map[string][]float64{"a": {3, 3, 3, 3, 3}, "b": {7, 7, 7, 7, 7}, "c": {7.5, 7.5, 7.5, 7.5, 7.5}},
		map[string][]float64{"a": {1, 1, 1, 1, 1}, "b": {1, 1, 1, 1, 1}, "c": {1, 1, 1, 1, 1}})
	write(t, filepath.Join(dir, "calibration", "before.csv"), "utc,processes,ms\n2026-06-01T09:59:00Z,1,100\n")
	write(t, filepath.Join(dir, "calibration", "after.csv"), "utc,processes,ms\n2026-06-01T10:30:00Z,1,130\n")
	got := tableOf(t, dir, "findings.md")
	for _, want := range []string{
		"the dearest, c, costs 2.50 times what the cheapest, a, does, within trials ×2.50 (2.50–2.50, 5 trials)",
		": the within-trial ratios are robust to a drift that the runs of a trial share; the medians are not",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}
}

// The context names the machine where the records say it (a label such
// as machine or cpus), the dates and tools of the runs, and the title
// and first paragraph of the folder's README.
func TestContextBlock(t *testing.T) {
	dir := summaryCorpus(t, []string{"a", "b"},
		map[string][]float64{"a": {3, 3, 3, 3, 3}, "b": {3.6, 3.6, 3.6, 3.6, 3.6}},
		map[string][]float64{"a": {1, 1, 1, 1, 1}, "b": {1, 1, 1, 1, 1}})
	write(t, filepath.Join(dir, "README.md"), "# Two stacks on a laptop\n\nRecorded on a 4-core laptop, on battery.\n\n## Details\n\nMore.\n")
	text, err := os.ReadFile(filepath.Join(dir, "records.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	lines[0] += ",cpus"
	for i := 1; i < len(lines); i++ {
		lines[i] += ",4"
	}
	write(t, filepath.Join(dir, "records.csv"), strings.Join(lines, "\n")+"\n")
	db := filepath.Join(t.TempDir(), "s.duckdb")
	out := filepath.Join(t.TempDir(), "report")
	if r := wra(t, db, "--quiet", "analyze", "--out", out, dir); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "tables", "context.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		"| Runs | 10 runs, recorded on 2026-06-01, 10:00–10:09 UTC; tools, version where the tool printed it, and runs: harness records (10) |",
		"| Machine | as the records say: cpus 4 (10 runs) |",
		"| The corpus | Two stacks on a laptop: Recorded on a 4-core laptop, on battery. (",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %q:\n%s", want, got)
		}
	}
}

// A server that alone fails requests at two loads is one finding that
// lists both loads, not a finding per load.
func TestFindingsOneRowPerServer(t *testing.T) {
	var b strings.Builder
	b.WriteString("server,database,round,test,connections,requests_per_s,latency_p99_ms,responses_2xx,requests,errors,duration_s\n")
	for _, conns := range []int{16, 64} {
		for round := 1; round <= 3; round++ {
			for _, s := range []string{"a", "b", "c"} {
				errs := 0
				if s == "c" {
					errs = 10 * round
				}
				fmt.Fprintf(&b, "%s,postgresql,%d,ping,%d,%d,5,%d,30000,%d,10\n", s, round, conns, 3000, 30000-errs, errs)
			}
		}
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "records.csv"), b.String())
	got := tableOf(t, dir, "findings.csv")
	if n := strings.Count(got, "errors-in-one-server"); n != 1 {
		t.Errorf("%d errors-in-one-server findings, want one for c:\n%s", n, got)
	}
	want := "Only c (postgresql) failed requests at 2 loads: at ping (records, 16 connections), 60 of 90000 over 3 records runs, the other 2 servers none; at ping (records, 64 connections), 60 of 90000 over 3 records runs, the other 2 servers none: a fault of that server, not of the load."
	if !strings.Contains(got, want) {
		t.Errorf("findings lack %q:\n%s", want, got)
	}
}
