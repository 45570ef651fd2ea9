package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/report"
)

// Raw folders as people commit them, without a manifest: no group pools
// runs of different URLs, headings, request names or settings, and a run
// whose every request failed ranks last.
func TestNoManifestShapes(t *testing.T) {
	groups := func(t *testing.T, db, where string) []map[string]string {
		t.Helper()
		r := wra(t, db, "--format", "csv", "sql", `SELECT g.group_id, g.server, g.variant, count(*) AS runs, list(r.source_line ORDER BY r.source_line)::VARCHAR AS lines
			FROM run_groups g JOIN runs r USING (run_id) WHERE `+where+` GROUP BY ALL ORDER BY lines`)
		if r.code != 0 {
			t.Fatalf("sql: exit %d: %s", r.code, r.stderr)
		}
		return csvRows(t, r.stdout)
	}
	world := filepath.Join("testdata", "world")

	t.Run("urls in one file", func(t *testing.T) {
		// one bombardier file of four endpoints, three of them at 500
		// connections: four groups, none of them a round of another
		dir := filepath.Join(t.TempDir(), "results")
		copyTree(t, dir, map[string]string{"nest.txt": filepath.Join(world, "saltyaom-bun-http-framework-benchmark/repo/results/node/nest.txt")})
		db := ingested(t, dir)
		gs := groups(t, db, "TRUE")
		if len(gs) != 4 {
			t.Fatalf("%d groups, want 4 (one per endpoint): %v", len(gs), gs)
		}
		for _, g := range gs {
			if g["runs"] != "1" || g["server"] != "nest" || !strings.Contains(g["variant"], "endpoint=") {
				t.Errorf("group %v: want one run of server nest (its file) named by its endpoint", g)
			}
		}
		r := wra(t, db, "--format", "csv", "sql", "SELECT count(*) AS n FROM run_medians WHERE passes > 1")
		if rows := csvRows(t, r.stdout); len(rows) != 1 || rows[0]["n"] != "0" {
			t.Errorf("run_medians pools runs: %v", rows)
		}
	})

	t.Run("headings and failed runs", func(t *testing.T) {
		// twelve wrk reports under ### headings, a prompt and a command
		// between each heading and its report; three got an error status
		// for every request
		dir := filepath.Join(t.TempDir(), "writeup")
		copyTree(t, dir, map[string]string{"README.md": filepath.Join(world, "tao-yi-my-benchmark/repo/README.md")})
		db := ingested(t, dir)
		gs := groups(t, db, "TRUE")
		if len(gs) != 12 {
			t.Fatalf("%d groups, want 12 stacks: %v", len(gs), gs)
		}
		out := filepath.Join(t.TempDir(), "report")
		if r := wra(t, db, "--quiet", "analyze", "--no-ingest", "--out", out); r.code != 0 {
			t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "tables", "ranking-no-test-wrk-c400.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows := csvRows(t, string(b))
		if len(rows) != 12 || rows[0]["server"] != "golang fiber" || rows[0]["rank"] != "1" {
			t.Fatalf("ranking: %v", rows)
		}
		for i, row := range rows[9:] {
			if row["rank"] != "" || !strings.Contains("golang graphql,express graphql,apollo server", row["server"]) {
				t.Errorf("row %d: %v, want the three stacks whose every request failed, last and unranked", 10+i, row)
			}
		}
	})

	t.Run("settings only a command line shows", func(t *testing.T) {
		// a README of 36 wrk reports named in prose: two of light-java at
		// the same URL, one with pipeline depth 16, one with 50 (the
		// echoed command's script arguments)
		dir := filepath.Join(t.TempDir(), "writeup")
		copyTree(t, dir, map[string]string{"README.md": filepath.Join(world, "networknt-microservices-framework-benchmark/repo/README.md")})
		db := ingested(t, dir)
		gs := groups(t, db, "r.source_line IN (54, 73)")
		if len(gs) != 2 {
			t.Fatalf("the light-java runs of depth 16 and 50: %v, want two groups", gs)
		}
		// stacks on ports of their own are told apart by the port
		gs = groups(t, db, "r.source_line IN (233, 253)")
		if len(gs) != 2 || !strings.Contains(gs[0]["variant"]+gs[1]["variant"], "target=localhost:3000") {
			t.Errorf("runs at :3000 and :4567: %v, want two groups told apart by their target", gs)
		}
	})

	t.Run("request names", func(t *testing.T) {
		// Locust's statistics: 16 request names and the Aggregated row
		dir := filepath.Join(t.TempDir(), "locust")
		copyTree(t, dir, map[string]string{"results_stats.csv": "../../ingest/testdata/locust/odoo-locust-2025/results_stats.csv"})
		db := ingested(t, dir)
		r := wra(t, db, "--format", "csv", "sql", `SELECT (SELECT count(*) FROM run_groups) AS groups, (SELECT count(*) FROM run_parts) AS parts,
			(SELECT requests_total FROM run_medians) AS requests`)
		if rows := csvRows(t, r.stdout); len(rows) != 1 || rows[0]["groups"] != "1" || rows[0]["parts"] != "16" || rows[0]["requests"] != "225" {
			t.Errorf("locust: %v, want the Aggregated row as the run (225 requests) and its 16 names as parts", rows)
		}
	})
}

// The same reports give the same report however they are filed: twelve
// wrk reports under twelve headings of one README, and the same twelve as
// twelve files named after the headings, give the same groups, ranking,
// summary and findings.
func TestSameReportsHoweverFiled(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "world", "tao-yi-my-benchmark", "repo", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(t.TempDir(), "writeup")
	write(t, filepath.Join(one, "README.md"), string(src))
	many := filepath.Join(t.TempDir(), "writeup")
	n := 0
	for _, part := range strings.Split(string(src), "\n### ")[1:] {
		name, body, _ := strings.Cut(part, "\n")
		if !strings.Contains(body, "Running 10s test") {
			continue // the Summary
		}
		write(t, filepath.Join(many, name+".txt"), body)
		n++
	}
	if n != 12 {
		t.Fatalf("%d reports split out, want 12", n)
	}
	tables := func(dir string) map[string]string {
		out := filepath.Join(t.TempDir(), "report")
		if r := wra(t, filepath.Join(t.TempDir(), "s.duckdb"), "--quiet", "analyze", "--out", out, dir); r.code != 0 {
			t.Fatalf("analyze %s: exit %d: %s", dir, r.code, r.stderr)
		}
		got := map[string]string{}
		for _, name := range []string{"summary.csv", "findings.csv", "ranking-no-test-wrk-c400.csv"} {
			b, err := os.ReadFile(filepath.Join(out, "tables", name))
			if err != nil {
				t.Fatal(err)
			}
			got[name] = string(b)
		}
		return got
	}
	a, b := tables(one), tables(many)
	for name, text := range a {
		// the runs are cited by file and line: the same reports, other
		// files; compare what the tables say of the stacks
		strip := func(s string) string {
			var lines []string
			for _, l := range strings.Split(s, "\n") {
				if i := strings.Index(l, "writeup/"); i >= 0 {
					l = l[:i]
				}
				lines = append(lines, l)
			}
			return strings.Join(lines, "\n")
		}
		if strip(text) != strip(b[name]) {
			t.Errorf("%s differs:\none file:\n%s\ntwelve files:\n%s", name, text, b[name])
		}
	}
	if !strings.Contains(a["ranking-no-test-wrk-c400.csv"], "golang fiber") || !strings.Contains(a["summary.csv"], "golang fiber") {
		t.Errorf("ranking or summary does not name the stacks:\n%s\n%s", a["ranking-no-test-wrk-c400.csv"], a["summary.csv"])
	}
}

// oneFigureEndpointsAndParts is TestOneFigureEverySurface's check of the
// four endpoints of one bombardier file and of Locust's aggregate with
// its request names, in the store db and the report read reads.
func oneFigureEndpointsAndParts(t *testing.T, db string, read func(name string) []map[string]string) {
	t.Helper()
	// Four endpoints of one file: a group each, the same requests/s in
	// run_medians, the ranking, wra table and wra compare.
	r := wra(t, db, "--format", "csv", "sql", `SELECT g.variant, m.passes, m.rps_median, m.requests_total
		FROM run_medians m JOIN (SELECT DISTINCT group_id, variant FROM run_groups) g USING (group_id)
		WHERE m.tool = 'bombardier' ORDER BY g.variant`)
	eps := csvRows(t, r.stdout)
	if len(eps) != 4 {
		t.Fatalf("bombardier groups: %v, want one per endpoint", eps)
	}
	byEndpoint := map[string]float64{}
	for _, e := range eps {
		if e["passes"] != "1" {
			t.Errorf("endpoint group %v: want one run", e)
		}
		byEndpoint[strings.TrimPrefix(e["variant"], "endpoint=")] = num(t, e["rps_median"])
	}
	ranked := 0
	// bombardier prints no method: the command line above the POST gives it
	for _, name := range []string{"ranking-no-test-bombardier-endpoint-c500.csv", "ranking-no-test-bombardier-endpoint-id-1-name-bun-c500.csv",
		"ranking-no-test-bombardier-endpoint-post-json-c500.csv", "ranking-no-test-bombardier-endpoint-video-c10.csv"} {
		for _, row := range read(name) {
			ranked++
			found := false
			for ep, rps := range byEndpoint {
				if num(t, row["rps"]) == rps && strings.HasSuffix(name, report.Slug("endpoint", ep)+"-c"+map[bool]string{true: "10", false: "500"}[ep == "/video"]+".csv") {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %v has no endpoint group of its requests/s %v", name, row, byEndpoint)
			}
		}
	}
	if ranked != 4 {
		t.Errorf("%d ranked rows of the four endpoints, want 4", ranked)
	}
	r = wra(t, db, "--format", "csv", "table", "--metric", "rps", "--row", "server", "--col", "endpoint", "--where", "tool = 'bombardier'")
	for _, row := range csvRows(t, r.stdout) {
		for ep, rps := range byEndpoint {
			if got := num(t, row[ep]); got != rps {
				t.Errorf("wra table: nest at %s: rps %v, run_medians says %v", ep, got, rps)
			}
		}
	}
	r = wra(t, db, "--format", "csv", "compare", "--by", "endpoint", "--base", "/", "--vs", "/id/1?name=bun", "--metric", "rps")
	if rows := csvRows(t, r.stdout); len(rows) != 1 || num(t, rows[0]["base_median"]) != byEndpoint["/"] || num(t, rows[0]["vs_median"]) != byEndpoint["/id/1?name=bun"] {
		t.Errorf("compare by endpoint: %v (exit %d: %s)", rows, r.code, r.stderr)
	}

	// A report's aggregate row is the run, never pooled with its parts:
	// Locust's Aggregated row of 225 requests.
	r = wra(t, db, "--format", "csv", "sql", `SELECT passes, requests_total FROM run_medians WHERE tool = 'locust'`)
	if rows := csvRows(t, r.stdout); len(rows) != 1 || rows[0]["passes"] != "1" || rows[0]["requests_total"] != "225" {
		t.Errorf("locust in run_medians: %v, want the Aggregated row alone (225 requests)", rows)
	}
}
