package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model/store"
)

// ingestFolder writes files (path: text) into a new folder, ingests it
// strictly into a new store and returns the store's connection.
func ingestFolder(t *testing.T, files map[string]string) *sql.DB {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "corpus")
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "s.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := ingest.Ingest(ctx, st, []string{dir}, ingest.Options{Strict: true}); err != nil {
		t.Fatal(err)
	}
	return store.SQLDB(st)
}

// records is a harness records CSV of one fixed-rate run per line: server,
// round, utc, CPU seconds.
const recordsHeader = "utc,server,database,round,test,connections,target_rps,requests_per_s,latency_p95_ms,responses_2xx,requests,errors,cpu_server_s,duration_s\n"

// The roles of labels: a trial label is a block and no factor, so the
// runs of one stack in five trials are one group of five replicates in
// five blocks; a label the manifest sets is a factor; one the manifest
// names in replicates is a replicate.
func TestRunGroupsRoles(t *testing.T) {
	var b strings.Builder
	b.WriteString(recordsHeader)
	for trial := 1; trial <= 5; trial++ {
		for _, server := range []string{"a", "b"} {
			b.WriteString("2026-06-01T10:0" + string(rune('0'+trial)) + ":00Z," + server + ",postgresql,1,one,16,500,500,2,30000,30000,0,3,60\n")
		}
	}
	files := map[string]string{
		"wra.toml": `replicates = ["pass"]

[[files]]
pattern = "t{trial}/{variant}/records.csv"
labels = { pass = "1" }
`,
	}
	// The same records under trials 1 and 2 and variants x and y: the
	// trial and the pass are in the path and the manifest; the variant
	// tells experiments apart.
	for _, p := range []string{"t1/x", "t2/x", "t1/y"} {
		files[p+"/records.csv"] = b.String()
	}
	db := ingestFolder(t, files)
	rows, err := db.Query(`SELECT server, variant, count(*), count(DISTINCT block), count(DISTINCT replicate), any_value(replicate), any_value(block)
		FROM run_groups GROUP BY group_id, server, variant ORDER BY server, variant`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var server, variant, replicate, block string
		var n, blocks, replicates int
		if err := rows.Scan(&server, &variant, &n, &blocks, &replicates, &replicate, &block); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %s %d %d %d", server, variant, n, blocks, replicates))
		if !strings.Contains(replicate, "pass=1") || !strings.HasPrefix(block, "trial=") {
			t.Errorf("%s %s: replicate %q, block %q; want pass=1 in the replicate and trial=N as the block", server, variant, replicate, block)
		}
	}
	// Per server and variant: x has 5 rounds in each of 2 trials (10
	// runs, 2 blocks); y has 5 in trial 1. Each records file repeats
	// round 1, so within a trial the runs share one replicate.
	want := []string{"a variant=x 10 2 1", "a variant=y 5 1 1", "b variant=x 10 2 1", "b variant=y 5 1 1"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("groups:\n got %q\nwant %q", got, want)
	}
	var keys string
	if err := db.QueryRow(`SELECT string_agg(DISTINCT labels->>'label_keys', '|') FROM runs`).Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if keys != "variant" {
		t.Errorf("label_keys %q, want only variant (trial is a block, pass a replicate)", keys)
	}
}

// A run without a start time is covered by the calibration pair its
// calibration label names, or by a pair in its folder or above it; the
// group's caveat says so in the words every surface prints.
func TestRunCalibrationWithoutStartTime(t *testing.T) {
	ab, err := os.ReadFile("../../ingest/testdata/ab/ab_keepalive_go2_ping_n10000_c20.txt")
	if err != nil {
		t.Fatal(err)
	}
	calib := func(ms string) string { return "utc,processes,ms\n2026-06-01T10:00:00Z,1," + ms + "\n" }
	files := map[string]string{
		"wra.toml": `[[files]]
pattern = "tools/{server}/ping.txt"
labels = { calibration = "tools" }

[[files]]
pattern = "calibration/{series}-{phase}.csv"
`,
		"tools/go2/ping.txt":            string(ab),
		"calibration/tools-before.csv":  calib("1000"),
		"calibration/tools-after.csv":   calib("1300"),
		"near/ping.txt":                 string(ab),
		"near/calibration-before.csv":   calib("1000"),
		"near/calibration-after.csv":    calib("1010"),
		"calibration/ladder-before.csv": calib("1000"),
		"calibration/ladder-after.csv":  calib("2000"),
	}
	db := ingestFolder(t, files)
	got := map[string]string{}
	rows, err := db.Query(`SELECT r.source, c.calibration, c.covered_by, round(c.drift_pct, 3) FROM run_calibration c JOIN runs r USING (run_id) ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var src, pair, by string
		var pct float64
		if err := rows.Scan(&src, &pair, &by, &pct); err != nil {
			t.Fatal(err)
		}
		got[src] += fmt.Sprintf("%s %s %g;", pair, by, pct)
	}
	want := map[string]string{
		"corpus/tools/go2/ping.txt": "corpus/calibration/tools-*.csv label 30;",
		"corpus/near/ping.txt":      "corpus/near/calibration-*.csv folder 1;",
	}
	for src, w := range want {
		if got[src] != w {
			t.Errorf("%s: covered by %q, want %q", src, got[src], w)
		}
	}
	var caveat string
	if err := db.QueryRow(`SELECT caveat FROM group_caveats g JOIN run_groups r USING (group_id) WHERE r.source = 'corpus/tools/go2/ping.txt' AND kind = 'drift'`).Scan(&caveat); err != nil {
		t.Fatal(err)
	}
	if want := "1 of 1 runs are covered by a calibration drift above 5% (the largest 30.0%): the machine's speed moved, so their figures are suspect"; caveat != want {
		t.Errorf("caveat %q, want %q", caveat, want)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM group_caveats g JOIN run_groups r USING (group_id) WHERE r.source = 'corpus/near/ping.txt' AND kind = 'drift'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("a drift of 1%% under the 5%% tolerance gave %d drift caveats (%v)", n, err)
	}
}
