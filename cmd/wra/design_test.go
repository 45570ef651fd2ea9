package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// designCorpus writes records shaped like a published write-up: two runs
// of one benchmark told apart by a manifest label (run: plain, jwt), two
// servers each against two databases, three rounds of each at 500
// requests/s, every group with figures of its own, so that a surface that
// pools two groups prints a number neither has; and one k6 run kept as
// its point stream and its summary.
func designCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for ri, run := range []string{"plain", "jwt"} {
		var b strings.Builder
		b.WriteString("utc,server,database,round,test,connections,target_rps,requests_per_s,latency_p95_ms,latency_p99_ms,responses_2xx,requests,errors,cpu_server_s,cpu_db_s,working_set_mb,private_mb,duration_s\n")
		minute := 0
		for si, server := range []string{"a", "b"} {
			for di, db := range []string{"postgresql", "mariadb"} {
				for round := 1; round <= 3; round++ {
					n := 500 * 60
					j := []float64{0.97, 1, 1.05}[round-1]
					base := float64((1 + si) * (1 + 2*di) * (1 + 3*ri))
					fmt.Fprintf(&b, "2026-06-0%dT10:%02d:00Z,%s,%s,%d,one,16,500,%.2f,%.3f,%.3f,%d,%d,0,%.4f,%.4f,%d,%d,60\n",
						1+ri, minute, server, db, round, 500*j, 2*j, (5+10*float64(di)+20*float64(ri)+3*float64(si))*j, n, n,
						float64(n)*0.0001*base*j, float64(n)*0.00005*float64((1+di)*(1+ri))*j*(1+0.5*float64(si)),
						50+10*si+30*di+100*ri+round, 40+10*si+30*di+100*ri-round)
					minute++
				}
			}
		}
		write(t, filepath.Join(dir, run, "records.csv"), b.String())
	}
	copyTree(t, dir, map[string]string{
		"k6/go2/ping-p1.ndjson": "../../ingest/testdata/k6/k6_constant_go2_ping_points.ndjson",
		"k6/go2/ping-p1.json":   "../../ingest/testdata/k6/k6_constant_go2_ping_summary_export.json",
		// four endpoints of one stack in one file (bombardier), and a
		// report of many requests with their aggregate (Locust)
		"bombardier/nest.txt":      "testdata/world/saltyaom-bun-http-framework-benchmark/repo/results/node/nest.txt",
		"locust/results_stats.csv": "../../ingest/testdata/locust/odoo-locust-2025/results_stats.csv",
	})
	write(t, filepath.Join(dir, "wra.toml"), `[[files]]
pattern = "{run}/records.csv"

[[files]]
pattern = "k6/{server}/{test}-p{round}.ndjson"

[[files]]
pattern = "k6/{server}/{test}-p{round}.json"
`)
	return dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// One figure, one number, on every surface: the groups of run_groups are
// what the SQL views, the tables of wra analyze, wra table and wra
// compare summarise, so a group's total CPU per request, p95, p99,
// requests/s and highest working set are the same number everywhere, and
// no surface pools the two manifest runs or the two databases; a k6 run
// kept in two formats is one run; four endpoints in one file are four
// groups, and a report's aggregate row is its run, its request names its
// parts.
func TestOneFigureEverySurface(t *testing.T) {
	dir := designCorpus(t)
	db := ingested(t, dir)
	type key struct{ server, database, run string }
	type figs struct{ cpuTotal, p95, p99, rps, ws float64 }
	want := map[key]figs{}
	r := wra(t, db, "--format", "csv", "sql", `SELECT server, database, variant, passes, cpu_total_us_per_req_median, latency_p95_ms_median,
		latency_p99_ms_median, rps_median, working_set_mb_max FROM run_medians WHERE tool = 'records' ORDER BY ALL`)
	if r.code != 0 {
		t.Fatalf("sql: exit %d: %s", r.code, r.stderr)
	}
	for _, row := range csvRows(t, r.stdout) {
		if row["passes"] != "3" {
			t.Errorf("run_medians %v: %s passes, want 3 (a group is one server, database and run)", row, row["passes"])
		}
		k := key{row["server"], row["database"], strings.TrimPrefix(row["variant"], "run=")}
		want[k] = figs{num(t, row["cpu_total_us_per_req_median"]), num(t, row["latency_p95_ms_median"]), num(t, row["latency_p99_ms_median"]),
			num(t, row["rps_median"]), num(t, row["working_set_mb_max"])}
	}
	if len(want) != 8 {
		t.Fatalf("run_medians has %d groups of records, want 2 servers x 2 databases x 2 runs:\n%s", len(want), r.stdout)
	}
	// The numbers the corpus was made with: total = server + database CPU
	// of the median round, which no pooling of two groups gives.
	if got := want[key{"b", "mariadb", "jwt"}].cpuTotal; got != 2700 {
		t.Errorf("b on mariadb, jwt: total CPU %v µs, want 2700", got)
	}
	check := func(surface string, k key, what string, got, want float64) {
		t.Helper()
		if diff := got - want; diff > 1e-9*want || diff < -1e-9*want {
			t.Errorf("%s, %v: %s %v, run_medians says %v", surface, k, what, got, want)
		}
	}

	// wra analyze: the CPU, rounds and memory tables.
	out := filepath.Join(t.TempDir(), "report")
	if r := wra(t, db, "--quiet", "analyze", "--out", out, dir); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	read := func(name string) []map[string]string {
		b, err := os.ReadFile(filepath.Join(out, "tables", name))
		if err != nil {
			names, _ := filepath.Glob(filepath.Join(out, "tables", "*.csv"))
			t.Fatalf("%v; the tables are %v", err, names)
		}
		return csvRows(t, string(b))
	}
	for _, run := range []string{"plain", "jwt"} {
		rows := read("cpu-per-request-one-run-" + run + "-500rps.csv")
		if len(rows) != 4 {
			t.Errorf("CPU table of run %s: %d rows, want 4 (2 servers x 2 databases)", run, len(rows))
		}
		for _, row := range rows {
			k := key{row["server"], row["database"], run}
			check("analyze CPU table", k, "total CPU", num(t, row["total_cpu_us"]), want[k].cpuTotal)
			check("analyze CPU table", k, "p99", num(t, row["p99_ms"]), want[k].p99)
		}
		rows = read("rounds-one-records-run-" + run + ".csv")
		if len(rows) != 4 {
			t.Errorf("rounds table of run %s: %d rows, want 4", run, len(rows))
		}
		for _, row := range rows {
			k := key{row["server"], row["database"], run}
			check("analyze rounds table", k, "requests/s", num(t, row["rps"]), want[k].rps)
			check("analyze rounds table", k, "p99", num(t, row["p99_ms"]), want[k].p99)
		}
	}
	mem := read("memory-highest.csv")
	if len(mem) != 8 {
		t.Errorf("memory table: %d rows, want 8", len(mem))
	}
	for _, row := range mem {
		k := key{row["server"], row["database"], strings.TrimPrefix(row["variant"], "run=")}
		check("analyze memory table", k, "working set", num(t, row["working_set_mb"]), want[k].ws)
	}
	// one run, kept as stream and summary: a group of one, ranked (held or
	// not at its rate) as a single run, never a round of itself
	k6 := read("ranking-ping-k6-full-speed.csv")
	if len(k6) != 1 {
		t.Errorf("the k6 run kept as stream and summary: %v, want one row", k6)
	}

	// wra cost prices the same stacks, one per server, database and run,
	// with the same dollars and held as the cost table of wra analyze.
	costRows := read("cost.csv")
	if len(costRows) != 8 {
		t.Errorf("cost table: %d rows, want 8", len(costRows))
	}
	r = wra(t, db, "--format", "csv", "cost", "--rps", "1000")
	if r.code != 0 {
		t.Fatalf("cost: exit %d: %s", r.code, r.stderr)
	}
	priced := map[key]map[string]string{}
	for _, row := range csvRows(t, r.stdout) {
		priced[key{row["server"], row["database"], strings.TrimPrefix(row["variant"], "run=")}] = row
	}
	for _, row := range costRows {
		k := key{row["server"], row["database"], strings.TrimPrefix(row["variant"], "run=")}
		c, ok := priced[k]
		if !ok {
			t.Errorf("wra cost has no row for %v", k)
			continue
		}
		check("wra cost", k, "total $/month", num(t, c["total_usd_month"]), num(t, row["total_usd_month"]))
		if c["held"] != row["held"] {
			t.Errorf("%v: held %s in wra cost, %s in wra analyze", k, c["held"], row["held"])
		}
	}

	// wra table lays out the same cells.
	for _, m := range []struct {
		metric string
		get    func(figs) float64
	}{{"cpu_total_us", func(f figs) float64 { return f.cpuTotal }}, {"latency_p95_ms", func(f figs) float64 { return f.p95 }},
		{"latency_p99_ms", func(f figs) float64 { return f.p99 }}, {"rps", func(f figs) float64 { return f.rps }}} {
		r := wra(t, db, "--format", "csv", "table", "--metric", m.metric, "--row", "server,database", "--col", "run", "--where", "tool = 'records'")
		if r.code != 0 {
			t.Fatalf("table: exit %d: %s", r.code, r.stderr)
		}
		for _, row := range csvRows(t, r.stdout) {
			for _, run := range []string{"plain", "jwt"} {
				k := key{row["server"], row["database"], run}
				check("wra table", k, m.metric, num(t, row[run]), m.get(want[k]))
			}
		}
	}

	// wra compare: each side's median is its group's.
	r = wra(t, db, "--format", "csv", "compare", "--by", "run", "--base", "plain", "--vs", "jwt")
	if r.code != 0 {
		t.Fatalf("compare: exit %d: %s", r.code, r.stderr)
	}
	seen := 0
	for _, row := range csvRows(t, r.stdout) {
		if row["metric"] != "latency_p99_ms" && row["metric"] != "rps" {
			continue
		}
		seen++
		for side, run := range map[string]string{"base": "plain", "vs": "jwt"} {
			k := key{row["server"], row["database"], run}
			f := want[k].p99
			if row["metric"] == "rps" {
				f = want[k].rps
			}
			if row[side+"_n"] != "3" {
				t.Errorf("compare %v: %s runs on the %s side, want 3", k, row[side+"_n"], side)
			}
			check("wra compare", k, row["metric"], num(t, row[side+"_median"]), f)
		}
	}
	if seen != 8 {
		t.Errorf("compare: %d rows of rps and p99, want 2 metrics x 2 servers x 2 databases:\n%s", seen, r.stdout)
	}

	oneFigureEndpointsAndParts(t, db, read)
}
