package analyze_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
)

// One server's fixed-rate ladders against two databases: the rounds of
// each database are one ladder, never pooled (mariadb holds 200+ in both
// rounds, postgresql 100 in both).
const twoDatabases = `server,database,test,round,target_rps,rps,latency_p95_ms,requests,errors
go,postgresql,page,1,100,100,20,1000,0
go,postgresql,page,1,200,200,70,2000,0
go,postgresql,page,2,100,100,25,1000,0
go,postgresql,page,2,200,199,80,2000,0
go,mariadb,page,1,100,100,10,1000,0
go,mariadb,page,1,200,200,30,2000,0
go,mariadb,page,2,100,100,12,1000,0
go,mariadb,page,2,200,200,35,2000,0
`

func TestFixedRateLaddersPerDatabase(t *testing.T) {
	st := newStore(t, nil, map[string]string{"steps/ladders.csv": twoDatabases})
	sec := section(t, run(t, st, analyze.DefaultOptions()), "ladders")
	fixed := table(t, sec, "Held-rate ladders from fixed-rate runs")
	if len(fixed.Rows) != 2 {
		t.Fatalf("%d ladder rows, want 2 (go on mariadb, go on postgresql): %v", len(fixed.Rows), fixed.Rows)
	}
	for i, want := range []struct{ db, held, each string }{{"mariadb", "200+", "200+, 200+"}, {"postgresql", "100", "100, 100"}} {
		// A fixed-rate series has the ladder's columns: the rate achieved
		// at the highest rate held is its runs' rps.
		if got := cell(t, fixed, i, "highest_held_achieved_rps"); got != want.held {
			t.Errorf("row %d (%s): achieved %v, want %s", i, want.db, got, want.held)
		}
		if got := cell(t, fixed, i, "database"); got != want.db {
			t.Errorf("row %d: database %v, want %s", i, got, want.db)
		}
		if got := cell(t, fixed, i, "highest_held_rps"); got != want.held {
			t.Errorf("row %d (%s): highest held %v, want %s", i, want.db, got, want.held)
		}
		if got := cell(t, fixed, i, "each_run"); got != want.each {
			t.Errorf("row %d (%s): runs %v, want %s", i, want.db, got, want.each)
		}
	}
	// The macros name the database of each ladder run, and ladder_figures
	// (wra table --metric highest_held_rps) has the same ladder runs.
	rows := query(t, st, `SELECT l.database, count(*), count(f.run_id) FROM ladders l
LEFT JOIN ladder_figures() f ON f.run_id = l.server || ' ' || l.run AND f.database IS NOT DISTINCT FROM l.database
WHERE l.kind = 'fixed-rate' GROUP BY 1 ORDER BY 1`)
	if len(rows) != 2 || store.Text(rows[0][0]) != "mariadb" || store.Text(rows[1][0]) != "postgresql" {
		t.Fatalf("ladders by database: %v, want mariadb and postgresql", rows)
	}
	for _, r := range rows {
		if n, _ := store.Int(r[1]); n != 2 {
			t.Errorf("%v: %d ladder runs, want 2", r[0], n)
		}
		if n, _ := store.Int(r[2]); n != 2 {
			t.Errorf("%v: %d ladder runs in ladder_figures, want 2", r[0], n)
		}
	}
	steps := query(t, st, `SELECT count(*) FROM ladder_steps WHERE kind = 'fixed-rate' AND database IS NULL`)
	if n, _ := store.Int(steps[0][0]); n != 0 {
		t.Errorf("%d fixed-rate steps without their database", n)
	}
	// The ladder plot names test, tool, load and database: one entry
	// per row of the table, for both rounds.
	var chart *report.LadderChart
	for _, f := range sec.Figures {
		if f.Name == "ladders-fixed-rate" {
			chart = f.Figure.(*report.LadderChart)
		}
	}
	if chart == nil {
		t.Fatalf("no ladders-fixed-rate figure in %+v", sec.Figures)
	}
	var labels []string
	for _, s := range chart.Series {
		labels = append(labels, s.Label)
	}
	want := []string{"go: page, records, 100–200 requests/s, mariadb", "go: page, records, 100–200 requests/s, mariadb",
		"go: page, records, 100–200 requests/s, postgresql", "go: page, records, 100–200 requests/s, postgresql"}
	if !slices.Equal(labels, want) {
		t.Errorf("ladder series %q, want %q", labels, want)
	}
}

// Without a database label the ladders table is laid out as before: no
// database column, and the legend names no database.
func TestLaddersWithoutDatabase(t *testing.T) {
	st := ladderStore(t)
	sec := section(t, run(t, st, analyze.DefaultOptions()), "ladders")
	for _, d := range sec.Tables {
		if slices.ContainsFunc(d.Columns, func(c report.Column) bool { return c.Name == "database" }) {
			t.Errorf("%s has a database column, though no run names a database", d.Title)
		}
	}
	for _, f := range sec.Figures {
		for _, s := range f.Figure.(*report.LadderChart).Series {
			if s.Label != "go2: page, records, 100–400 requests/s" && f.Name == "ladders-fixed-rate" {
				t.Errorf("%s: series %q, want go2: page, records, 100–400 requests/s", f.Name, s.Label)
			}
		}
	}
}

// The spectra of one server at one rate against two databases are two
// lines, each named by test, tool, load and database; wrk2's uncorrected
// spectrum (-U) is a line of its own under the same name.
func TestSpectrumLegend(t *testing.T) {
	st := newStore(t, nil, map[string]string{
		"wra.toml":                         "[[files]]\npattern = \"wrk2/{server}/{database}/{test}-r{target_rps}.txt\"\n",
		"wrk2/go/postgresql/one-r1000.txt": "@../../ingest/testdata/wrk2/wrk2_U_go2_wait5_R1000.txt",
		"wrk2/go/mariadb/one-r1000.txt":    "@../../ingest/testdata/wrk2/wrk2_latency_nginx_static_R5000.txt",
	})
	sec := section(t, run(t, st, analyze.DefaultOptions()), "spectra")
	if len(sec.Figures) != 1 {
		t.Fatalf("%d spectrum plots, want 1 (one at 1,000 requests/s)", len(sec.Figures))
	}
	type line struct {
		label, server string
		corrected     bool
	}
	var got []line
	for _, sp := range sec.Figures[0].Figure.(*report.SpectrumChart).Spectra {
		got = append(got, line{sp.Label, sp.Server, sp.Corrected})
	}
	want := []line{
		{"go: one, wrk2, 1,000 requests/s, mariadb", "go", true},
		{"go: one, wrk2, 1,000 requests/s, postgresql", "go", true},
		{"go: one, wrk2, 1,000 requests/s, postgresql", "go", false},
	}
	if !slices.Equal(got, want) {
		t.Errorf("spectra %+v, want %+v", got, want)
	}
}

// A k6 summary that kept each step's p95 but not its failures nor its
// requests (thresholds on http_req_duration{step:N} only), of a run that
// failed 10.2% of its requests: the steps' failures and achieved rates
// are unknown, the rule is applied to the p95 alone, and the footnote
// says so with the whole run's rate. The summary is the real one of
// model/store/testdata/views/k6steps/late with its step failure and
// request sub-metrics taken out.
func TestSummaryLadderUnknownFigures(t *testing.T) {
	b, err := os.ReadFile("../../model/store/testdata/views/k6steps/late/k6_ladder_fail_late_summary_export.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	metrics := doc["metrics"].(map[string]any)
	for k := range metrics {
		if strings.HasPrefix(k, "http_req_failed{") || strings.HasPrefix(k, "http_reqs{") {
			delete(metrics, k)
		}
	}
	b, err = json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	st := newStore(t, map[string]string{"server": "late", "test": "wait"}, map[string]string{"k6/late_summary_export.json": string(b)})
	sec := section(t, run(t, st, analyze.DefaultOptions()), "ladders")
	d := table(t, sec, "Held-rate ladders from k6 summaries")
	if len(d.Rows) != 1 {
		t.Fatalf("%d rows, want 1: %v", len(d.Rows), d.Rows)
	}
	// p95 alone: every step held (the run's 10.2% would fail them all).
	if got := cell(t, d, 0, "highest_held_rps"); got != "120+" {
		t.Errorf("highest held %v, want 120+", got)
	}
	if got := cell(t, d, 0, "highest_held_achieved_rps"); got != "–" {
		t.Errorf("achieved %v, want – (unknown)", got)
	}
	if got := cell(t, d, 0, "rule"); got != "p95 < 50 ms, errors < 1%, ≥ 95% of the rate achieved" {
		t.Errorf("rule %q", got)
	}
	notes := strings.Join(d.Notes, "\n")
	for _, want := range []string{
		"4 of 4 steps have no failure count of their own (the summary kept no http_req_failed{step:N}): they are judged without the error rule; the whole run failed 10.20% of its requests",
		"4 of 4 steps have no achieved rate (no http_reqs{step:N} count, or no stages label to time the step): they are judged without the achieved-rate rule",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// Without an order in the manifest, rows follow their figure, not the
// alphabet: the ladder that held more comes first (within its test), and
// the server whose memory grows least; the footnote says so.
func TestRowsFollowTheirFigure(t *testing.T) {
	const ladders = `server,database,test,round,target_rps,rps,latency_p95_ms,requests,errors
alpha,postgresql,page,1,100,100,20,1000,0
alpha,postgresql,page,1,200,200,70,2000,0
beta,postgresql,page,1,100,100,10,1000,0
beta,postgresql,page,1,200,200,30,2000,0
`
	memory := "server,pass,concurrency,wait_ms,memory_mb\n"
	for _, s := range []struct {
		name  string
		slope float64
	}{{"alpha", 0.05}, {"beta", 0.01}} {
		for pass := 1; pass <= 3; pass++ {
			for _, c := range []int{0, 1000, 2000} {
				memory += fmt.Sprintf("%s,%d,%d,100,%g\n", s.name, pass, c, 10+s.slope*float64(c)+float64(pass)*0.1)
			}
		}
	}
	st := newStore(t, nil, map[string]string{"steps/ladders.csv": ladders, "memory/series.csv": memory})
	res := run(t, st, analyze.DefaultOptions())
	fixed := table(t, section(t, res, "ladders"), "Held-rate ladders from fixed-rate runs")
	mem := table(t, section(t, res, "memory"), "Memory growth")
	for _, tc := range []struct {
		d    *report.Data
		note string
	}{{fixed, "rows in order of their median highest step held, highest first"}, {mem, "rows in order of their median pass slope, lowest first"}} {
		if got := []any{cell(t, tc.d, 0, "server"), cell(t, tc.d, 1, "server")}; !slices.Equal(got, []any{"beta", "alpha"}) {
			t.Errorf("%s: rows %v, want beta then alpha", tc.d.Title, got)
		}
		if !strings.Contains(strings.Join(tc.d.Notes, "\n"), tc.note) {
			t.Errorf("%s: notes lack %q: %v", tc.d.Title, tc.note, tc.d.Notes)
		}
	}
}
