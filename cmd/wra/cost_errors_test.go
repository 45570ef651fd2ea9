package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

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
		// one load of none: nothing to price, as wra analyze --rps 0 says
		{append(cli, "--rps", "0"), exitUsage, "wra: --rps: rps 0 must be > 0\n"},
		{[]string{"analyze", "--no-ingest", "--rps", "0"}, exitUsage, "wra: --rps: rps 0 must be > 0\n"},
		{[]string{"analyze", "--no-ingest", "--util", "0"}, exitUsage, "wra: --util: utilisation 0 must be in (0, 1]\n"},
		// a drift of 0 would flag every pair: the tolerance is a fraction above 0
		{[]string{"analyze", "--no-ingest", "--drift", "0"}, exitUsage, `wra: --drift "0": expected a fraction above 0, such as 0.05, found "0"`},
		{[]string{"findings", "--drift", "-1"}, exitUsage, `wra: --drift "-1": expected a fraction above 0, such as 0.05, found "-1"`},
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
		{append(cli, "--prices", "/does/not/exist.toml"), exitError, "--prices: /does/not/exist.toml: no such file or directory"},
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
