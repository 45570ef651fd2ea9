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
	db := ingested(t, dir)
	out := filepath.Join(t.TempDir(), "report")
	if r := wra(t, db, "--quiet", "analyze", "--no-ingest", "--out", out); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "tables", "summary.md"))
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
