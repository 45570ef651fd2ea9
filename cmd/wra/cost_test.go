package main

import (
	"bytes"
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

// checkedExample is the README's worked example: 0.4 ms × 1000/s / 0.6 =
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
	// hand) from ingest/testdata/records: no run has a target rate, so all 6
	// runs count: median cpu_server_s / responses_2xx = 6.578110586163437e-05 s,
	// cpu_postgres_s / responses_2xx = 8.110004901993627e-05 s, median p50
	// 3.353 ms; memory_waiting.csv, both passes pooled, MiB against
	// concurrency: slope 0.03499490489130435 GiB per 1000, base
	// 0.009515115489130433 GiB. At 1000/s with a 20 ms wait: 1000 × 23.353 ms
	// = 23.353 in flight, 0.010332351503057063 GiB; stack 3.27576258555921,
	// database 3.9942314809312083, total 7.269994066490418 $/month (Fargate
	// x86, the GB price × 2^30/10^9).
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
		"latency_ms":      3.353,
		"in_flight":       23.353,
		"stack_gib":       0.010332351503057063,
		"stack_usd_month": 3.27576258555921,
		"db_usd_month":    3.9942314809312083,
		"total_usd_month": 7.269994066490418,
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
		if want := 3.9942314809312083 + 2*0.004445*1.073741824*730; math.Abs(got-want) > 1e-12 || row["db_gib"] != "2" {
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

func TestCostProviders(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.duckdb")
	r := wra(t, db, "cost", "--list-providers", "--format", "markdown")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "cost/providers.markdown", r.stdout)
	book := filepath.Join(t.TempDir(), "prices.toml")
	copyTree(t, filepath.Dir(book), map[string]string{"prices.toml": "../../cost/testdata/prices.toml"})
	r = wra(t, db, "cost", "--list-providers", "--prices", book, "--format", "csv")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	got := strings.ReplaceAll(r.stdout, book, "PRICES.toml")
	golden(t, "cost/providers_book.csv", got)

	// A preset: Fargate prices memory per GB; 0.5 GiB = 0.5 × 0.004445 × 2^30/10^9
	// $/hour. (2/3 × 0.04048 + 0.5 × 0.00477278240768) × 730 = 21.4423322…
	r = wra(t, db, "cost", "--cpu-ms", "0.4", "--mem-gib", "0.5", "--provider", "aws-fargate-x86", "--format", "csv", "--quiet")
	row := csvRow(csvRecords(t, r.stdout), 1)
	if v, _ := strconv.ParseFloat(row["total_usd_month"], 64); math.Abs(v-(2.0/3*0.04048+0.5*0.00477278240768)*730) > 1e-12 {
		t.Errorf("Fargate total = %s", row["total_usd_month"])
	}
	// A provider from the price book.
	r = wra(t, db, "cost", "--cpu-ms", "1", "--mem-gib", "1", "--rps", "600", "--provider", "example-vps", "--prices", book, "--format", "csv", "--quiet")
	row = csvRow(csvRecords(t, r.stdout), 1)
	// 1 ms × 600 / 0.6 = 1 vCPU × 0.0035 + 1 GiB × 0.0009 = 0.0044 × 730 = 3.212.
	if v, _ := strconv.ParseFloat(row["total_usd_month"], 64); math.Abs(v-3.212) > 1e-12 || row["provider"] != "example-vps" {
		t.Errorf("price book row = %v", row)
	}
}

func TestCostErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.duckdb")
	bad := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(bad, []byte("[provider.x]\nvcpu_hour_usd = -1\ngib_hour_usd = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := []string{"cost", "--cpu-ms", "0.4", "--mem-gib", "0.5"}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{append(cli, "--util", "1.5"), exitUsage, "wra: --util: utilisation 1.5 must be in (0, 1]\n"},
		{append(cli, "--util", "0"), exitUsage, "wra: --util: utilisation 0 must be in (0, 1]\n"},
		{append(cli, "--rps", "-10"), exitUsage, "wra: --rps: rps -10 must be a finite number >= 0\n"},
		{append(cli, "--wait", "-5ms"), exitUsage, "wra: --wait: wait -5ms must be >= 0\n"},
		{append(cli, "--provider", "azure"), exitUsage, `wra: --provider: unknown provider "azure"; known providers: aws-fargate-x86, aws-fargate-arm64, gcp-cloud-run, gcp-n2, gcp-e2` + "\n"},
		{[]string{"cost", "--cpu-ms", "0"}, exitUsage, "wra: --cpu-ms must be > 0: the stack's CPU milliseconds per request\n"},
		{[]string{"cost", "--cpu-ms", "-1"}, exitUsage, "wra: --cpu-ms: CPU per request (s) -0.001 must be a finite number > 0\n"},
		{[]string{"cost", "--mem-gib", "1"}, exitUsage, "--mem-gib needs --cpu-ms"},
		{append(cli, "--mem-slope-gib-per-1000", "0.1"), exitUsage, "give --mem-gib (fixed) or --mem-slope-gib-per-1000 with --mem-base-gib, not both"},
		{append(cli, "--db-mem-gib", "-1"), exitUsage, "wra: --db-mem-gib: database memory (GiB) -1 must be a finite number >= 0\n"},
		{append(cli, "--mem-slope-gib-per-1000", "-0.1"), exitUsage, "give --mem-gib (fixed) or"},
		{[]string{"cost", "--cpu-ms", "1", "--mem-slope-gib-per-1000", "-0.1"}, exitUsage, "wra: --mem-slope-gib-per-1000: memory slope (GiB per 1000 in flight) -0.1 must be a finite number >= 0\n"},
		{append(cli, "--vcpu-hour", "-1"), exitUsage, "wra: price: vcpu_hour_usd must be a finite number >= 0, got -1\n"},
		{append(cli, "--sweep", "rps=10..1"), exitUsage, `wra: --sweep: sweep "rps=10..1": end 1 is below start 10`},
		{append(cli, "--plot", "x.svg"), exitUsage, "--plot draws a sweep"},
		{append(cli, "--sweep", "rps=1..10", "--plot", "x.pdf"), exitUsage, `--plot "x.pdf": the file name must end in .svg or .png`},
		{append(cli, "--sweep", "rps=1..10", "--budget", "10"), exitUsage, "give --budget or --sweep, not both"},
		{append(cli, "--budget", "-3"), exitUsage, "wra: --budget: budget ($/month) -3 must be a finite number >= 0\n"},
		{append(cli, "--prices", bad), exitError, bad + ":2:17: provider.x.vcpu_hour_usd: must be a finite number >= 0, got -1\n"},
		{append(cli, "--prices", "/does/not/exist.toml"), exitError, "--prices: open /does/not/exist.toml: no such file or directory"},
		{[]string{"cost"}, exitError, "no store at " + db + ": run wra ingest first, or give the stack's numbers with --cpu-ms\n"},
	} {
		r := wra(t, db, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("wra %v: exit %d, stderr %q; want exit %d and %q", tc.args, r.code, r.stderr, tc.code, tc.msg)
		}
		if r.code != 0 && r.stdout != "" {
			t.Errorf("wra %v failed but printed %q", tc.args, r.stdout)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a failed cost command created a store")
	}
	// A budget below the fixed memory cost is a note, not a failure of the others.
	r := wra(t, db, append(cli, "--budget", "1", "--format", "table")...)
	if r.code != 0 || !strings.Contains(r.stdout, "stack: the budget does not cover its memory at 0 requests/s (1.74 $/month)") {
		t.Errorf("low budget: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestCostMatchesAnalyze checks that wra cost and the cost table of wra
// analyze price the same store alike. The sample records have no target
// rate, so the test gives them one (100 × connections: two fixed rates per
// stack, the higher one priced).
func TestCostMatchesAnalyze(t *testing.T) {
	dir := samplesDir(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := wra(t, db, "sql", "--write", "UPDATE runs SET target_rps = connections * 100"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	out := filepath.Join(t.TempDir(), "report")
	if r := wra(t, db, "--quiet", "--format", "csv", "analyze", "--no-ingest", "--test", "ping", "--wait", "20ms", "--rps", "1500", "--out", out); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	tables, _ := filepath.Glob(filepath.Join(out, "tables", "cost*.csv"))
	if len(tables) != 1 {
		t.Fatalf("analyze wrote cost tables %v, want one", tables)
	}
	b, err := os.ReadFile(tables[0])
	if err != nil {
		t.Fatal(err)
	}
	want := csvRecords(t, string(b))
	r := wra(t, db, "--quiet", "cost", "--test", "ping", "--wait", "20ms", "--rps", "1500", "--format", "csv")
	if r.code != 0 {
		t.Fatalf("cost: exit %d: %s", r.code, r.stderr)
	}
	got := csvRecords(t, r.stdout)
	if len(got) != len(want) || len(got) < 3 {
		t.Fatalf("cost has %d rows, analyze %d:\n%s\n%s", len(got)-1, len(want)-1, r.stdout, b)
	}
	for i := 1; i < len(got); i++ {
		g, w := csvRow(got, i), csvRow(want, i)
		if g["server"] != w["server"] {
			t.Errorf("row %d: server %s, analyze %s (both sort by total)", i, g["server"], w["server"])
			continue
		}
		for _, col := range []string{"stack_vcpu", "stack_gib", "stack_usd_month", "total_usd_month"} {
			x, _ := strconv.ParseFloat(g[col], 64)
			y, _ := strconv.ParseFloat(w[col], 64)
			if math.Abs(x-y) > 1e-12*math.Abs(y) || y == 0 {
				t.Errorf("%s %s: cost %s, analyze %s", g["server"], col, g[col], w[col])
			}
		}
	}
}
