package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/wra-bench/wra/data/harness/internal/record"
	"github.com/wra-bench/wra/data/harness/internal/toolout"
)

var (
	recordShort = flag.Bool("record", false, "run the short recording (minutes; needs wrk2, ab, bombardier, k6, node, npm and PostgreSQL)")
	wraBin      = flag.String("wra", "", "a wra binary: also check that `wra ingest --strict` loads the short corpus")
)

func TestUsage(t *testing.T) {
	var stderr bytes.Buffer
	env := func(string) string { return "" }
	if code := run(nil, env, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "-out is required") {
		t.Errorf("no -out: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"-out", t.TempDir(), "-nope"}, env, io.Discard, &stderr); code != 2 {
		t.Errorf("unknown flag: exit %d", code)
	}
	stderr.Reset()
	if code := run([]string{"-check-noise", "-max-drift", "0"}, env, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "-max-drift must be above 0") {
		t.Errorf("-max-drift 0: exit %d, stderr %q", code, stderr.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-dry-run", "-trials", "0"}, "-trials must be at least 1"},
		{[]string{"-dry-run", "-cell", "1500ms"}, "-cell must be whole seconds above 0"},
		{[]string{"-dry-run", "-wait-calm", "-1s"}, "-wait-calm must be 0"},
		{[]string{"-dry-run", "-servers", "go-pgx,rust"}, `unknown server "rust"`},
		{[]string{"-dry-run", "-plan", "tiny"}, `-plan "tiny": the plans are full, compact, short`},
		{[]string{"-dry-run", "-plan", "compact", "-short"}, "-short is -plan short"},
	} {
		stderr.Reset()
		if code := run(c.args, env, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
	stderr.Reset()
	// No wrk2 anywhere: the recording refuses to start and names what is missing.
	if code := run([]string{"-out", t.TempDir(), "-src", "../.."}, env, io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "wrk2 (-wrk2, $WRK2 or wrk2 on PATH): not found") {
		t.Errorf("no wrk2: exit %d, stderr %q", code, stderr.String())
	}
}

// The dry run prints the trials of the plan the flags make, the same for
// the same seed, and needs neither -out nor any tool.
func TestDryRun(t *testing.T) {
	env := func(string) string { return "" }
	args := []string{"-dry-run", "-short", "-servers", "go-pq,node-mysql", "-trials", "3", "-cell", "5s", "-seed", "11"}
	var stdout, stderr bytes.Buffer
	if code := run(args, env, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	plan := record.Short()
	plan.Servers = []string{"go-pq", "node-mysql"}
	plan.Trials = 3
	plan.Fixed.Duration = 15 * time.Second
	var want bytes.Buffer
	if err := record.WriteTrials(&want, plan, 11); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", stdout.String(), want.String())
	}
	if !strings.HasPrefix(stdout.String(), "plan short, servers go-pq, node-mysql: 20 cells per trial, 3 trials, orders drawn from seed 11\n") ||
		strings.Count(stdout.String(), "fixed-rate node-mysql one r=250\n") != 3 {
		t.Errorf("dry run:\n%s", stdout.String())
	}
}

// -plan names the plan; -short is -plan short.
func TestPlanFlag(t *testing.T) {
	env := func(string) string { return "" }
	for _, c := range []struct {
		args []string
		plan record.Plan
	}{
		{[]string{"-plan", "compact"}, record.Compact()},
		{[]string{"-plan", "short"}, record.Short()},
		{[]string{"-short"}, record.Short()},
		{[]string{"-short", "-plan", "short"}, record.Short()},
		{nil, record.Full()},
	} {
		var stdout, want bytes.Buffer
		if code := run(append([]string{"-dry-run", "-seed", "3"}, c.args...), env, &stdout, io.Discard); code != 0 {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		if err := record.WriteTrials(&want, c.plan, 3); err != nil {
			t.Fatal(err)
		}
		if stdout.String() != want.String() {
			t.Errorf("%v: got\n%s\nwant plan %s", c.args, tail(stdout.String(), 300), c.plan.Name)
		}
	}
}

func TestInvocation(t *testing.T) {
	got := invocation("/opt/wrk2/wrk", []string{"-wrk2", "/opt/wrk2/wrk", "-out", ".."})
	if want := "WRK2=/path/to/wrk2 go run ./cmd/record -wrk2 $WRK2 -out .."; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// An argument with a space or a quote is one word again when pasted.
	got = invocation("/opt/wrk2/wrk", []string{"-wrk2=/opt/wrk2/wrk", "-wrk2-source", "giltene/wrk2 44a94c1", "-out", "it's"})
	if want := `WRK2=/path/to/wrk2 go run ./cmd/record -wrk2=$WRK2 -wrk2-source 'giltene/wrk2 44a94c1' -out 'it'\''s'`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestShortRecording records the short plan and checks every file:
//
//	WRK2=/path/to/wrk2 go test ./cmd/record -run ShortRecording -record [-wra /path/to/wra] -timeout 20m
func TestShortRecording(t *testing.T) {
	if !*recordShort {
		t.Skip("pass -record (and WRK2=/path/to/wrk2) to run the short recording")
	}
	out := t.TempDir()
	var log bytes.Buffer
	if code := run([]string{"-short", "-out", out, "-src", "../..", "-timeout", "15m"}, os.Getenv, io.Discard, &log); code != 0 {
		t.Fatalf("record exited %d:\n%s", code, tail(log.String(), 4000))
	}
	plan := record.Short()

	var got []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if rel != "README.md" && rel != "wra.toml" && rel != "trials.csv" {
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if want := record.PlannedFiles(plan); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range got {
		p := filepath.Join(out, f)
		switch {
		case strings.HasPrefix(f, "wrk2/"):
			w, err := toolout.ParseWrk2(readFile(t, p))
			if err != nil || !w.HasSpectrum || w.Requests == 0 {
				t.Errorf("%s: %+v, %v", f, w, err)
			}
		case strings.HasPrefix(f, "tools/ab/"), strings.HasPrefix(f, "waiting/"):
			a, err := toolout.ParseAB(readFile(t, p))
			if err != nil || a.Complete == 0 {
				t.Errorf("%s: %+v, %v", f, a, err)
			}
		case strings.HasPrefix(f, "tools/bombardier/"):
			mustContain(t, f, readFile(t, p), "Bombarding http://127.0.0.1:", "HTTP codes:", "Latency Distribution")
		case strings.HasPrefix(f, "tools/k6/"):
			mustContain(t, f, readFile(t, p), "http_reqs", "http_req_duration", "THRESHOLDS")
		case strings.HasSuffix(f, ".ndjson.gz"):
			checkNDJSON(t, p, plan.Ladder.Steps)
		case strings.HasSuffix(f, ".summary.json"):
			var s struct {
				Metrics map[string]map[string]any `json:"metrics"`
			}
			if err := json.Unmarshal(readFile(t, p), &s); err != nil || s.Metrics["http_reqs"]["count"] == nil {
				t.Errorf("%s: summary export without http_reqs: %v", f, err)
			}
		}
	}
	rows := readCSV(t, filepath.Join(out, "records", "fixed-rate.csv"))
	if n := len(plan.Servers) * plan.Trials * len(plan.Fixed.Tests[0].Rates); len(rows) != n+1 {
		t.Errorf("records: %d rows, want %d", len(rows)-1, n)
	}
	col := index(rows[0])
	for _, r := range rows[1:] {
		for _, c := range []string{"requests_per_s", "cpu_server_s", "cpu_db_s", "working_set_mb", "private_mb", "startup_s"} {
			if v, err := strconv.ParseFloat(r[col[c]], 64); err != nil || v <= 0 {
				t.Errorf("records %s: %s = %q, want > 0", r[col["report"]], c, r[col[c]])
			}
		}
		if _, err := os.Stat(filepath.Join(out, r[col["report"]])); err != nil {
			t.Errorf("records: report %s: %v", r[col["report"]], err)
		}
		if tr := r[col["trial"]]; tr != r[col["round"]] || !strings.HasPrefix(r[col["report"]], "wrk2/t"+tr+"/") {
			t.Errorf("records %s: trial %s, round %s", r[col["report"]], tr, r[col["round"]])
		}
	}
	mem := readCSV(t, filepath.Join(out, "memory", "waiting.csv"))
	if n := len(plan.Servers) * plan.Trials * len(plan.Waiting.Concurrencies); len(mem) != n+1 {
		t.Errorf("memory: %d rows, want %d", len(mem)-1, n)
	}
	for _, r := range mem[1:] {
		conc, _ := strconv.Atoi(r[2])
		if r[5] != strconv.Itoa(conc*plan.Waiting.RequestsPerConn) {
			t.Errorf("memory row %v: requests %s, want %d", r, r[5], conc*plan.Waiting.RequestsPerConn)
		}
		if v, err := strconv.ParseFloat(r[4], 64); err != nil || v <= 0 {
			t.Errorf("memory row %v: rss_mb", r)
		}
	}
	for _, f := range got {
		if strings.HasPrefix(f, "calibration/") {
			if c := readCSV(t, filepath.Join(out, f)); len(c) != 1+plan.Calibration.Reps*len(plan.Calibration.Processes) {
				t.Errorf("%s: %d rows", f, len(c)-1)
			}
		}
	}
	if sched := readCSV(t, filepath.Join(out, "trials.csv")); len(sched) != 1+plan.Trials*len(plan.Cells()) {
		t.Errorf("trials.csv: %d runs, want %d", len(sched)-1, plan.Trials*len(plan.Cells()))
	}
	var m map[string]any
	if _, err := toml.DecodeFile(filepath.Join(out, "wra.toml"), &m); err != nil {
		t.Errorf("wra.toml: %v", err)
	}
	mustContain(t, "README.md", readFile(t, filepath.Join(out, "README.md")), "## Machine", "CPUs:", "| wrk2 |", "## Exact commands")
	if *wraBin != "" {
		checkIngest(t, out)
	}
}

func checkNDJSON(t *testing.T, p string, steps []int) {
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	stepsSeen := map[string]int{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var l struct {
			Type   string `json:"type"`
			Metric string `json:"metric"`
			Data   struct {
				Tags map[string]string `json:"tags"`
			} `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || (l.Type != "Point" && l.Type != "Metric") {
			t.Fatalf("%s:%d: %v %q", p, n, err, sc.Text())
		}
		if l.Type == "Point" && l.Metric == "http_req_duration" {
			stepsSeen[l.Data.Tags["step"]]++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	for _, s := range steps {
		if stepsSeen[strconv.Itoa(s)] == 0 {
			t.Errorf("%s: no http_req_duration point tagged step=%d (seen %v)", p, s, stepsSeen)
		}
	}
}

func checkIngest(t *testing.T, dir string) {
	cmd := exec.Command(*wraBin, "--db", filepath.Join(t.TempDir(), "w.duckdb"), "--format", "csv", "ingest", "--strict", "--list", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("wra ingest: %v\n%s", err, stderr.String())
	}
	rows, err := csv.NewReader(&stdout).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("wra ingest --list: %v %q", err, stdout.String())
	}
	col := index(rows[0])
	for _, r := range rows[1:] {
		if r[col["status"]] != "loaded" {
			t.Errorf("wra ingest: %v", r)
		}
	}
	if n := len(record.PlannedFiles(record.Short())); len(rows)-1 != n {
		t.Errorf("wra ingest listed %d files, want %d", len(rows)-1, n)
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readCSV(t *testing.T, p string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(readFile(t, p))).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", p, err)
	}
	return rows
}

func index(header []string) map[string]int {
	m := map[string]int{}
	for i, h := range header {
		m[h] = i
	}
	return m
}

func mustContain(t *testing.T, name string, b []byte, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !bytes.Contains(b, []byte(s)) {
			t.Errorf("%s lacks %q", name, s)
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// Without -wrk2 and $WRK2, wrk2 is the first executable wrk2 on PATH
// (tools.sh installs it as /usr/local/bin/wrk2).
func TestLookPathIn(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(a, "wrk2"), []byte("not executable"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, "wrk2"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := strings.Join([]string{"", a, b}, string(os.PathListSeparator))
	if got, want := lookPathIn("wrk2", path), filepath.Join(b, "wrk2"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := lookPathIn("wrk2", a); got != "" {
		t.Errorf("no executable wrk2: got %q", got)
	}
	if got := lookPathIn("wrk2", ""); got != "" {
		t.Errorf("empty PATH: got %q", got)
	}
}
