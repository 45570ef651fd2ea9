package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// checkedExample is the worked example of docs/cost.md: 0.4 ms × 1000/s / 0.6 =
// 2/3 vCPU × 0.04048 × 730 = 19.70; 0.5 GiB × 0.004445 × 730 = 1.62; 21.32 $/month.
var checkedExample = []string{"cost", "--rps", "1000", "--cpu-ms", "0.4", "--mem-gib", "0.5", "--util", "0.6",
	"--vcpu-hour", "0.04048", "--gib-hour", "0.004445"}

func TestCostCheckedExampleFormats(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.duckdb")
	for _, f := range []string{"table", "csv", "json", "markdown", "html"} {
		r := wra(t, db, append(checkedExample, "--format", f)...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", f, r.code, r.stderr)
		}
		golden(t, "cost/checked."+f, r.stdout)
		golden(t, "cost/checked."+f+".stderr", r.stderr)
		if f == "table" || f == "markdown" || f == "html" {
			if !strings.Contains(r.stdout, "21.32") || !strings.Contains(r.stdout, "not a bill") {
				t.Errorf("%s: no 21.32 or no 'not a bill' note:\n%s", f, r.stdout)
			}
		} else if !strings.Contains(r.stderr, "not a bill") {
			t.Errorf("%s: the 'not a bill' note is not on stderr: %q", f, r.stderr)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a command-line estimate created a store")
	}

	// The CSV holds the exact figures: (2/3 × 0.04048 + 0.5 × 0.004445) × 730
	// = 2558723/120000 = 21.3226916… (Python fractions), in float64 arithmetic.
	r := wra(t, db, append(checkedExample, "--format", "csv")...)
	rec := csvRecords(t, r.stdout)
	if len(rec) != 2 {
		t.Fatalf("%d CSV records", len(rec))
	}
	row := csvRow(rec, 1)
	total, _ := strconv.ParseFloat(row["total_usd_month"], 64)
	vcpu, _ := strconv.ParseFloat(row["stack_vcpu"], 64)
	if math.Abs(total-21.322691666666667) > 1e-12 || fmt.Sprintf("%.2f", total) != "21.32" {
		t.Errorf("total_usd_month = %s", row["total_usd_month"])
	}
	if math.Abs(vcpu-2.0/3) > 1e-15 {
		t.Errorf("stack_vcpu = %s", row["stack_vcpu"])
	}
	if row["db_usd_month"] != "" || row["database"] != "" || row["provider"] != "custom" {
		t.Errorf("row = %v (no database: empty database figures; both prices given: provider custom)", row)
	}

	// JSON parses, numbers as numbers.
	r = wra(t, db, append(checkedExample, "--format", "json")...)
	var js []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || len(js) != 1 {
		t.Fatalf("JSON: %v: %s", err, r.stdout)
	}
	if v, ok := js[0]["total_usd_month"].(float64); !ok || math.Abs(v-21.322691666666667) > 1e-12 {
		t.Errorf("JSON total_usd_month = %v", js[0]["total_usd_month"])
	}
	// --quiet keeps stderr empty for machine formats.
	if r := wra(t, db, append(checkedExample, "--format", "csv", "--quiet")...); r.stderr != "" {
		t.Errorf("--quiet: stderr %q", r.stderr)
	}
}

func csvRecords(t *testing.T, s string) [][]string {
	t.Helper()
	rec, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v\n%s", err, s)
	}
	return rec
}

func csvRow(rec [][]string, i int) map[string]string {
	m := map[string]string{}
	for j, k := range rec[0] {
		m[k] = rec[i][j]
	}
	return m
}

func TestCostFromStore(t *testing.T) {
	dir := samplesDir(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := wra(t, db, "cost", "--rps", "1000", "--wait", "20ms", "--format", "table")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "cost/store.table", r.stdout)

	// go-gmp1 / db, worked independently in Python (statistics.median, OLS by
	// hand) from ingest/testdata/records: no run has a target rate, so the
	// stack is priced from one group at full speed, the one with the most
	// runs and then the most connections, 64 (never the 6 runs of two
	// connection counts pooled): median cpu_server_s / responses_2xx =
	// 6.233661773577317e-05 s, cpu_postgres_s / responses_2xx =
	// 6.0995070747189616e-05 s, median p50 4.984 ms; memory_waiting.csv,
	// both passes pooled, MiB against concurrency: slope
	// 0.03499490489130435 GiB per 1000, base 0.009515115489130433 GiB. At
	// 1000/s with a 20 ms wait: 1000 × 24.984 ms = 24.984 in flight,
	// 0.010389428192934782 GiB; stack 3.106318111708705, database
	// 3.004047897679587, total 6.110366009388292 $/month (Fargate x86, the
	// GB price × 2^30/10^9).
	r = wra(t, db, "cost", "--rps", "1000", "--wait", "20ms", "--server", "go-gmp1", "--test", "db", "--format", "csv")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rec := csvRecords(t, r.stdout)
	if len(rec) != 2 {
		t.Fatalf("want one row:\n%s", r.stdout)
	}
	row := csvRow(rec, 1)
	for col, want := range map[string]float64{
		"latency_ms":      4.984,
		"in_flight":       24.984,
		"stack_gib":       0.010389428192934782,
		"stack_usd_month": 3.106318111708705,
		"db_usd_month":    3.004047897679587,
		"total_usd_month": 6.110366009388292,
	} {
		got, err := strconv.ParseFloat(row[col], 64)
		if err != nil || math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("%s = %q, want %v", col, row[col], want)
		}
	}

	// --db-mem-gib adds a fixed database memory to the stacks with a database:
	// 2 GiB × 0.004445 × 2^30/10^9 × 730 on top of the database's CPU.
	r = wra(t, db, "cost", "--rps", "1000", "--wait", "20ms", "--server", "go-gmp1", "--db-mem-gib", "2", "--format", "csv", "--quiet")
	for i, rec := range csvRecords(t, r.stdout)[1:] {
		row := csvRow(csvRecords(t, r.stdout), i+1)
		if row["test"] != "db" {
			if row["db_gib"] != "" {
				t.Errorf("%v: a stack without a database got database memory", rec)
			}
			continue
		}
		got, _ := strconv.ParseFloat(row["db_usd_month"], 64)
		if want := 3.004047897679587 + 2*0.004445*1.073741824*730; math.Abs(got-want) > 1e-12 || row["db_gib"] != "2" {
			t.Errorf("database with 2 GiB: %v, want db_usd_month %v", row, want)
		}
	}

	// The price book is recorded in the store.
	r = wra(t, db, "sql", "--format", "csv", "SELECT provider, vcpu_hour_usd, gib_hour_usd, strftime(as_of, '%Y-%m-%d') AS as_of FROM prices ORDER BY provider")
	golden(t, "cost/store_prices.csv", r.stdout)

	// Budget and sweep from the store.
	r = wra(t, db, "cost", "--budget", "5", "--test", "ping", "--format", "markdown")
	if r.code != 0 {
		t.Fatalf("budget: exit %d: %s", r.code, r.stderr)
	}
	golden(t, "cost/store_budget.markdown", r.stdout)
	svg := filepath.Join(t.TempDir(), "cost.svg")
	r = wra(t, db, "cost", "--sweep", "rps=100..10000", "--test", "ping", "--plot", svg, "--format", "csv")
	if r.code != 0 {
		t.Fatalf("sweep: exit %d: %s", r.code, r.stderr)
	}
	golden(t, "cost/store_sweep.csv", r.stdout)
	b1, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"request rate (requests/s)", "cost (US$ per month)", "go-gmp1 / ping", "nginx / ping"} {
		if !bytes.Contains(b1, []byte(s)) {
			t.Errorf("the SVG lacks %q", s)
		}
	}
	// Deterministic bytes, SVG and PNG.
	wra(t, db, "cost", "--sweep", "rps=100..10000", "--test", "ping", "--plot", svg, "--format", "csv")
	if b2, _ := os.ReadFile(svg); !bytes.Equal(b1, b2) {
		t.Error("the SVG differs between two runs")
	}
	png := filepath.Join(t.TempDir(), "cost.png")
	var pngs [][]byte
	for range 2 {
		if r := wra(t, db, "cost", "--sweep", "rps=0..2000:500", "--plot", png, "--quiet"); r.code != 0 {
			t.Fatal(r.stderr)
		}
		b, _ := os.ReadFile(png)
		pngs = append(pngs, b)
	}
	if !bytes.HasPrefix(pngs[0], []byte("\x89PNG")) || !bytes.Equal(pngs[0], pngs[1]) {
		t.Error("the PNG is not a PNG or differs between two runs")
	}

	// A server without CPU data.
	r = wra(t, db, "cost", "--server", "apache")
	if r.code != exitError || !strings.Contains(r.stderr, `server "apache" has no CPU per request data`) {
		t.Errorf("unknown server: exit %d, %q", r.code, r.stderr)
	}
}

// wra cost only reads the store: it prices a store whose file the user
// can only read, and the file's bytes are the same after.
func TestCostReadsOnly(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", samplesDir(t)); r.code != 0 {
		t.Fatal(r.stderr)
	}
	sum := func() [32]byte {
		b, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		return sha256.Sum256(b)
	}
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	before := sum()
	for _, args := range [][]string{{"cost", "--rps", "1000"}, {"cost", "--budget", "5"}, {"cost", "--sweep", "rps=100..1000"}} {
		if r := wra(t, db, append(args, "--format", "csv")...); r.code != 0 || r.stdout == "" {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	if sum() != before {
		t.Error("wra cost changed the store's bytes")
	}
}
