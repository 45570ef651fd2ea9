package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Fixed-rate rounds of go3 on two databases: on postgresql the rounds
// hold 100, 200 and 100 requests/s (p95 70, 45 and 55 ms at 200: only
// round 2 is under 50 ms); on mysql every round holds every rate.
const ladderRecords = `server,database,test,round,target_rps,rps,latency_p95_ms,requests,errors
go3,postgresql,page,1,100,100,20,1000,0
go3,postgresql,page,1,200,200,70,2000,0
go3,postgresql,page,1,400,390,150,4000,0
go3,postgresql,page,2,100,100,25,1000,0
go3,postgresql,page,2,200,199,45,2000,0
go3,postgresql,page,2,400,395,90,4000,0
go3,postgresql,page,3,100,100,30,1000,0
go3,postgresql,page,3,200,200,55,2000,0
go3,postgresql,page,3,400,380,120,4000,100
go3,mysql,page,1,100,100,10,1000,0
go3,mysql,page,1,200,200,12,2000,0
go3,mysql,page,2,100,100,11,1000,0
go3,mysql,page,2,200,200,13,2000,0
go3,mysql,page,3,100,100,10,1000,0
go3,mysql,page,3,200,200,14,2000,0
`

// ladderTableStore holds ladders of the three kinds: a k6 capture tagged
// with its steps kept as three rounds of go1 (test db, postgresql), the
// per-step p95 of three k6 summary exports of go2 (one run each), and
// the fixed-rate rounds of go3.
func ladderTableStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(t.TempDir(), "l.duckdb")
	ingest := func(path string, labels ...string) {
		args := []string{"--quiet", "ingest"}
		for _, l := range labels {
			args = append(args, "--label", l)
		}
		if r := wra(t, db, append(args, path)...); r.code != 0 {
			t.Fatalf("ingest %s: exit %d: %s", path, r.code, r.stderr)
		}
	}
	for round := 1; round <= 3; round++ {
		p := filepath.Join(dir, "go1", "db-p"+strconv.Itoa(round)+".ndjson.gz")
		copyTree(t, filepath.Dir(p), map[string]string{filepath.Base(p): "../../stats/testdata/k6_ladder_go1_db_points.ndjson.gz"})
		ingest(p, "server=go1", "database=postgresql", "test=db", "round="+strconv.Itoa(round))
	}
	for _, s := range []struct{ file, test, database string }{
		{"k6_ladder_go1_db_summary_export.json", "db", "mysql"},
		{"k6_ladder_go1_wait10_summary_export.json", "wait", "mysql"},
		{"k6_ladder_go2_wait5_summary_export.json", "wait", "postgresql"},
	} {
		p := filepath.Join(dir, "go2", s.file)
		copyTree(t, filepath.Dir(p), map[string]string{s.file: "../../report/testdata/" + s.file})
		ingest(p, "server=go2", "database="+s.database, "test="+s.test, "round=1")
	}
	p := filepath.Join(dir, "go3", "ladder.csv")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(ladderRecords), 0o644); err != nil {
		t.Fatal(err)
	}
	ingest(p)
	return db
}

// The highest held rate per test (rows) and database (columns), in every
// format: the median of the ladder runs by the rule of wra analyze's
// ladders section, + when still holding, every run listed when they
// differ; in csv and json the median, still_holding and the runs.
func TestTableHighestHeld(t *testing.T) {
	db := ladderTableStore(t)
	args := []string{"table", "--metric", "highest_held_rps", "--row", "test", "--col", "database"}
	for _, f := range []string{"table", "csv", "json", "markdown", "html"} {
		r := wra(t, db, append([]string{"--format", f}, args...)...)
		if r.code != 0 {
			t.Fatalf("--format %s: exit %d: %s", f, r.code, r.stderr)
		}
		golden(t, "table/highest_held."+f, r.stdout)
		if f == "csv" {
			golden(t, "table/highest_held.csv.stderr", r.stderr)
		}
	}
	r := wra(t, db, append([]string{"--format", "markdown"}, append(args, "--where", "server = 'go3'")...)...)
	for _, want := range []string{"| page | 200+ | 100 (100, 200, 100) |", "p95 < 50 ms, errors < 1%, ≥ 95% of the rate achieved"} {
		if !strings.Contains(strings.ReplaceAll(r.stdout, "&lt;", "<"), want) {
			t.Errorf("go3 lacks %q:\n%s", want, r.stdout)
		}
	}
	r = wra(t, db, append([]string{"--format", "csv"}, append(args, "--where", "server = 'go3'")...)...)
	if want := "test,mysql,mysql_still_holding,mysql_runs,postgresql,postgresql_still_holding,postgresql_runs\npage,200,true,3,100,false,3\n"; r.stdout != want {
		t.Errorf("go3 csv:\n%s\nwant\n%s", r.stdout, want)
	}
	// As people publish a ladder: the rate achieved at the highest step
	// held (199 at the 200 step of round 2).
	achieved := []string{"table", "--metric", "highest_held_achieved_rps", "--row", "test", "--col", "database", "--where", "server = 'go3'"}
	r = wra(t, db, append([]string{"--format", "markdown"}, achieved...)...)
	if want := "| page | 200+ | 100 (100, 199, 100) |"; r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("go3 achieved lacks %q: exit %d\n%s%s", want, r.code, r.stdout, r.stderr)
	}
	// --p95 passes to ladders(p95_ms := …): under 100 ms round 1 holds
	// 200 and round 2 holds 400 (still holding), so the median is 200.
	r = wra(t, db, append([]string{"--format", "csv"}, append(args, "--where", "server = 'go3' AND database = 'postgresql'", "--p95", "100")...)...)
	if want := "test,postgresql,postgresql_still_holding,postgresql_runs\npage,200,false,3\n"; r.stdout != want {
		t.Errorf("--p95 100:\n%s\nwant\n%s", r.stdout, want)
	}
}
