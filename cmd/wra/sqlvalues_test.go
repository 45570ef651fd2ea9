package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestSQLValuesExact checks that the store gives back the CSV's values:
// each printed number is the shortest decimal of the same double.
func TestSQLValuesExact(t *testing.T) {
	dir := samplesDir(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := wra(t, db, "sql", "--format", "csv", "SELECT server, round, cpu_server_s FROM runs ORDER BY 1,2")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	// The same rows, read from the CSV with encoding/csv.
	f, err := os.Open("../../ingest/testdata/records/records.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		server string
		round  int
		cpu    string
	}
	var rows []row
	for _, rec := range recs[1:] {
		n, _ := strconv.Atoi(rec[2])
		v, _ := strconv.ParseFloat(rec[10], 64)
		rows = append(rows, row{rec[1], n, strconv.FormatFloat(v, 'f', -1, 64)})
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if lines[0] != "server,round,cpu_server_s" || len(lines) != len(rows)+1 {
		t.Fatalf("output has %d lines, header %q", len(lines), lines[0])
	}
	// ORDER BY server, round leaves ties in any order: compare as multisets per key.
	var got, want []string
	for _, l := range lines[1:] {
		got = append(got, l)
	}
	for _, r := range rows {
		want = append(want, r.server+","+strconv.Itoa(r.round)+","+r.cpu)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("values differ:\n got %v\nwant %v", got, want)
	}
	if !strings.Contains(r.stdout, "go-gmp1,1,1.9\n") {
		t.Errorf("1.90 in the CSV should print as 1.9:\n%s", r.stdout)
	}
}

func TestSQLFormats(t *testing.T) {
	dir := samplesDir(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatal(r.stderr)
	}
	const q = `SELECT server, pass, concurrency, memory_mb, wait_ms IS NULL AS no_wait, '=1+2' AS formula, '<b>|x' AS markup
		FROM memory_series WHERE concurrency >= 200 ORDER BY server, pass, concurrency LIMIT 4`
	for _, f := range []string{"table", "csv", "json", "markdown", "html"} {
		r := wra(t, db, "sql", "--format", f, q)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", f, r.code, r.stderr)
		}
		golden(t, "sql."+f, r.stdout)
	}
}

// TestSQLWideNumbers: sums are HUGEINT and DECIMAL columns are exact
// decimals; JSON prints both as numbers and CSV as plain numbers, with
// every digit, also beyond 2^53.
func TestSQLWideNumbers(t *testing.T) {
	db := ingestedSamples(t)
	want := wra(t, db, "sql", "--format", "csv", "SELECT sum(responses_2xx)::BIGINT::VARCHAR FROM runs")
	n := strings.TrimSpace(strings.SplitN(want.stdout, "\n", 2)[1])
	if _, err := strconv.ParseInt(n, 10, 64); err != nil || n == "0" {
		t.Fatalf("sum of requests: %q", want.stdout)
	}
	const q = `SELECT sum(responses_2xx) AS requests, 9007199254740993::HUGEINT AS big, 12.50::DECIMAL(9,2) AS d FROM runs`
	r := wra(t, db, "sql", "--format", "json", q)
	if got := "[\n  {\"requests\": " + n + ", \"big\": 9007199254740993, \"d\": 12.5}\n]\n"; r.stdout != got {
		t.Errorf("json: %s, want %s", r.stdout, got)
	}
	r = wra(t, db, "sql", "--format", "csv", q)
	if got := "requests,big,d\n" + n + ",9007199254740993,12.5\n"; r.stdout != got {
		t.Errorf("csv: %q, want %q", r.stdout, got)
	}
}
