package main

import (
	"cmp"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// recordsStore ingests the harness records (3 rounds per server, test and
// connections) into a fresh store.
func recordsStore(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bench")
	copyTree(t, dir, map[string]string{"records.csv": "../../ingest/testdata/records/records.csv"})
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	return db
}

// The medians of requests_per_s per server and connections, computed here
// from the CSV itself, are what wra table prints.
func TestTableRecordsMedians(t *testing.T) {
	db := recordsStore(t)
	r := wra(t, db, "--format", "csv", "table", "--metric", "rps", "--row", "server", "--col", "connections", "--where", "test = 'db'")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	f, err := os.Open("../../ingest/testdata/records/records.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	vals := map[string][]float64{}
	var servers, conns []string
	for _, rec := range recs[1:] {
		if rec[col["test"]] != "db" {
			continue
		}
		s, c := rec[col["server"]], rec[col["connections"]]
		x, err := strconv.ParseFloat(rec[col["requests_per_s"]], 64)
		if err != nil {
			t.Fatal(err)
		}
		vals[s+"/"+c] = append(vals[s+"/"+c], x)
		if !slices.Contains(servers, s) {
			servers = append(servers, s)
		}
		if !slices.Contains(conns, c) {
			conns = append(conns, c)
		}
	}
	slices.SortFunc(conns, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
	// Without an order in the manifest, rows follow the median of the
	// first column, highest requests/s first.
	median := func(s string) float64 { v := slices.Clone(vals[s+"/"+conns[0]]); slices.Sort(v); return v[len(v)/2] }
	slices.SortFunc(servers, func(a, b string) int { return cmp.Compare(median(b), median(a)) })
	want := "server," + strings.Join(conns, ",") + "\n"
	for _, s := range servers {
		want += s
		for _, c := range conns {
			v := vals[s+"/"+c]
			if len(v) != 3 {
				t.Fatalf("%s at %s: %d rounds in the CSV, the test expects 3", s, c, len(v))
			}
			slices.Sort(v)
			want += "," + strconv.FormatFloat(v[1], 'f', -1, 64)
		}
		want += "\n"
	}
	if r.stdout != want {
		t.Errorf("got\n%s\nwant\n%s", r.stdout, want)
	}
	if !strings.HasPrefix(r.stdout, "server,16,64\n") {
		t.Errorf("header: %q", strings.SplitN(r.stdout, "\n", 2)[0])
	}
}

// The two published layouts of records, in every format.
func TestTableFormats(t *testing.T) {
	db := recordsStore(t)
	layouts := map[string][]string{
		"rps_p99":  {"--cell", "{rps} ({latency_p99_ms})", "--row", "server", "--col", "connections", "--where", "test = 'ping'"},
		"cpu":      {"--cell", "{cpu_user_us} + {cpu_kernel_us}; {cpu_db_us}", "--row", "server", "--col", "test", "--where", "connections = 64"},
		"spread":   {"--metric", "latency_p99_ms", "--row", "test", "--col", "server", "--where", "connections = 16", "--spread"},
		"sort_rps": {"--metric", "rps", "--row", "server,connections", "--where", "test = 'ping'", "--sort", "rps"},
	}
	for name, args := range layouts {
		for _, f := range []string{"table", "csv", "json", "markdown", "html"} {
			r := wra(t, db, append([]string{"--format", f, "table"}, args...)...)
			if r.code != 0 {
				t.Fatalf("%s --format %s: exit %d: %s", name, f, r.code, r.stderr)
			}
			golden(t, "table/"+name+"."+f, r.stdout)
			if f == "csv" {
				golden(t, "table/"+name+".csv.stderr", r.stderr)
			}
		}
	}
}

func TestTableRefusals(t *testing.T) {
	db := recordsStore(t)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--metric", "nope", "--row", "server"}, 2, `no metric "nope": the metrics are`},
		{[]string{"--metric", "rps", "--row", "nope"}, 2, `no column or label "nope"`},
		{[]string{"--metric", "rps", "--cell", "{rps}"}, 2, "give --metric, --cell or --figure, not two of them"},
		{[]string{"--metric", "rps", "--figure", "a={rps}"}, 2, "give --metric, --cell or --figure, not two of them"},
		{[]string{"--figure", "rps"}, 2, `--figure "rps": expected TITLE=TEMPLATE`},
		{[]string{"--row", "server"}, 2, "give --metric M"},
		{[]string{"--cell", "{rps", "--row", "server"}, 2, "is not closed"},
		{[]string{"--metric", "rps", "--where", "test = 'db'; DROP TABLE runs"}, 2, "--where"},
		{[]string{"--metric", "rps", "--where", "no_such_column = 1"}, 2, "no_such_column"},
		{[]string{"--metric", "rps", "--where", "test = 'nothing'"}, 1, "no runs to lay out"},
	} {
		r := wra(t, db, append([]string{"table"}, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, r.code, r.stderr, c.code, c.msg)
		}
	}
	// The store is untouched by the refused DROP.
	if r := wra(t, db, "--format", "csv", "sql", "SELECT count(*) AS n FROM runs"); r.stdout != "n\n48\n" {
		t.Errorf("runs after the refusals: %q", r.stdout)
	}
}

// The same records kept twice, as two experiments the manifest labels
// {date}_{variant}: each table names its variant and holds 3 rounds per
// cell, never 6.
func TestTableTwoVariants(t *testing.T) {
	dir := variantsFolder(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	r := wra(t, db, "--format", "table", "table", "--metric", "rps", "--row", "server", "--col", "connections", "--where", "test = 'db'", "--spread")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "table/variants.table", r.stdout)
	for _, want := range []string{": date 2026-11-05, variant no-auth\n", ": date 2026-11-06, variant jwt\n", "split by date, variant"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	r = wra(t, db, "--format", "csv", "table", "--metric", "rps", "--row", "server", "--col", "connections", "--where", "test = 'db'", "--spread")
	cells := 0
	for _, line := range strings.Split(r.stdout, "\n") {
		f := strings.Split(line, ",")
		if len(f) != 9 || f[0] == "server" {
			continue
		}
		for _, rounds := range []string{f[4], f[8]} {
			cells++
			if rounds != "3" {
				t.Errorf("a cell of %s rounds, want 3: %s", rounds, line)
			}
		}
	}
	if cells != 8 {
		t.Errorf("%d cells, want 8 (2 variants x 2 servers x 2 connections):\n%s", cells, r.stdout)
	}
}

// variantsFolder is the same records kept twice, as two experiments a
// manifest pattern {date}_{variant}.csv labels.
func variantsFolder(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "variants")
	copyTree(t, dir, map[string]string{
		"2026-11-05_no-auth.csv": "../../ingest/testdata/records/records.csv",
		"2026-11-06_jwt.csv":     "../../ingest/testdata/records/records.csv",
		"wra.toml":               "testdata/table/variants.toml",
	})
	return dir
}

// A statistic the tool printed is a figure of wra table (a column of
// run_figures from run_reported): bombardier's Reqs/sec mean of its
// text report (22636.22) and of its JSON (2577.06511389266), by tool.
func TestTableReportedFigure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bench")
	copyTree(t, dir, map[string]string{
		"text.txt":  "../../ingest/testdata/bombardier/bombardier_default_go2_ping.txt",
		"json.json": "../../ingest/testdata/bombardier/bombardier_json_go1_wait5.json",
	})
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	r := wra(t, db, "--format", "csv", "table", "--metric", "reported_rps_mean", "--row", "source")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"bench/json.json,2577.06511389266", "bench/text.txt,22636.22"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	r = wra(t, db, "--format", "table", "table", "--cell", "{reported_rps_mean:,.0f}", "--row", "source")
	if r.code != 0 || !strings.Contains(r.stdout, "22,636") {
		t.Errorf("--cell: exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
	}
}
