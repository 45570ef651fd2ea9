package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/wra-bench/wra/data/harness/internal/record"
)

var (
	recordShort = flag.Bool("record", false, "run the short recording (minutes; needs wrk2, ab, bombardier, k6, node, npm and PostgreSQL)")
	wraFlag     = flag.String("wra", "", "a wra binary (default: built from the repository)")
	wraBin      string
)

// TestMain builds wra from the repository for the tests that run it,
// unless -wra names one.
func TestMain(m *testing.M) {
	flag.Parse()
	wraBin = *wraFlag
	var dir string
	if wraBin == "" {
		dir, _ = os.MkdirTemp("", "wra-harness-test-")
		wraBin = filepath.Join(dir, "wra")
		cmd := exec.Command("go", "build", "-o", wraBin, "./cmd/wra")
		cmd.Dir = filepath.Join("..", "..", "..", "..")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			os.Stderr.Write(out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

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
	if code := run([]string{"-dry-run", "-max-drift", "0"}, env, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "-max-drift must be above 0") {
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
	if code := run([]string{"-out", t.TempDir(), "-src", "../..", "-wra", wraBin}, env, io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "wrk2 (-wrk2, $WRK2 or wrk2 on PATH): not found") {
		t.Errorf("no wrk2: exit %d, stderr %q", code, stderr.String())
	}
}

// The dry run is wra record --plan --dry-run of the plan the flags make:
// the same for the same seed, every cell once per trial, and it needs
// neither -out nor any tool.
func TestDryRun(t *testing.T) {
	env := func(string) string { return "" }
	dry := func(seed string) string {
		args := []string{"-dry-run", "-short", "-servers", "go-pq,node-mysql", "-trials", "3", "-cell", "5s", "-seed", seed, "-src", "../..", "-wra", wraBin}
		var stdout, stderr bytes.Buffer
		if code := run(args, env, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
		return stdout.String()
	}
	a, b, c := dry("11"), dry("11"), dry("12")
	if a != b || a == c {
		t.Errorf("seed 11 twice gave the same dry run: %v; seeds 11 and 12 gave other orders: %v", a == b, a != c)
	}
	if !strings.Contains(a, ": 20 cells per trial, 3 trials, orders drawn from seed 11\n") ||
		strings.Count(a, "fixed-rate-one node-mysql r=250 c=16: ") != 3 ||
		!strings.Contains(a, "-t2 -c16 -d15s -R250 -U 'http://127.0.0.1:18088/db/one?id=42'") {
		t.Errorf("dry run:\n%s", a)
	}
}

// -plan names the plan; -short is -plan short.
func TestPlanFlag(t *testing.T) {
	env := func(string) string { return "" }
	for _, c := range []struct {
		args  []string
		cells int
	}{
		{[]string{"-plan", "compact"}, 60},
		{[]string{"-plan", "short"}, 80},
		{[]string{"-short"}, 80},
		{nil, 128},
	} {
		var stdout bytes.Buffer
		var stderr bytes.Buffer
		if code := run(append([]string{"-dry-run", "-seed", "3", "-src", "../..", "-wra", wraBin}, c.args...), env, &stdout, &stderr); code != 0 {
			t.Log(stderr.String())
			t.Fatalf("%v: exit %d", c.args, code)
		}
		if want := fmt.Sprintf(": %d cells per trial", c.cells); !strings.Contains(stdout.String(), want) {
			t.Errorf("%v: no %q in\n%s", c.args, want, tail(stdout.String(), 600))
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
	if code := run([]string{"-short", "-out", out, "-src", "../..", "-timeout", "15m", "-wra", wraBin}, os.Getenv, io.Discard, &log); code != 0 {
		t.Fatalf("record exited %d:\n%s", code, tail(log.String(), 4000))
	}
	plan := record.Short()

	var got []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		got = append(got, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	count := map[string]int{}
	for _, f := range got {
		top, _, _ := strings.Cut(f, "/")
		count[top]++
		p := filepath.Join(out, f)
		switch {
		case strings.HasPrefix(f, "wrk2/"):
			mustContain(t, f, readFile(t, p), "Requests/sec:", "Recorded Latency")
		case strings.Contains(f, "/ab/"), strings.HasPrefix(f, "waiting/"):
			mustContain(t, f, readFile(t, p), "Complete requests:")
		case strings.Contains(f, "/bombardier/"):
			mustContain(t, f, readFile(t, p), "Bombarding http://127.0.0.1:", "HTTP codes:", "Latency Distribution")
		case strings.Contains(f, "/k6/"):
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
	n := len(plan.Servers) * plan.Trials
	for top, want := range map[string]int{"wrk2": n, "tools": n * 6, "waiting": n * 2, "ladder": n * 2, "calibration": 2 * (plan.Trials + 1)} {
		if count[top] != want {
			t.Errorf("%s/: %d files, want %d", top, count[top], want)
		}
	}
	rows := readCSV(t, filepath.Join(out, "records", "fixed-rate.csv"))
	if n := len(plan.Servers) * plan.Trials * len(plan.Fixed.Tests[0].Rates); len(rows) != n+1 {
		t.Errorf("records: %d rows, want %d", len(rows)-1, n)
	}
	col := index(rows[0])
	for _, r := range rows[1:] {
		for _, c := range []string{"requests_per_s", "cpu_server_s", "cpu_db_s", "working_set_mb", "private_mb", "startup_s", "loadgen_cpu_s"} {
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
	mc := index(mem[0])
	for _, r := range mem[1:] {
		conc, _ := strconv.Atoi(r[mc["concurrency"]])
		if r[mc["requests"]] != strconv.Itoa(conc*plan.Waiting.RequestsPerConn) {
			t.Errorf("memory row %v: requests %s, want %d", r, r[mc["requests"]], conc*plan.Waiting.RequestsPerConn)
		}
		if v, err := strconv.ParseFloat(r[mc["rss_mb"]], 64); err != nil || v <= 0 {
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
	if sched := readCSV(t, filepath.Join(out, "trials.csv")); len(sched) != 1+n*10 {
		t.Errorf("trials.csv: %d runs, want %d", len(sched)-1, n*10)
	}
	var m map[string]any
	if _, err := toml.DecodeFile(filepath.Join(out, "wra.toml"), &m); err != nil {
		t.Errorf("wra.toml: %v", err)
	}
	mustContain(t, "README.md", readFile(t, filepath.Join(out, "README.md")), "## Machine", "CPUs:", "| wrk2 |", "## Exact commands")
	checkIngest(t, out)
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
	cmd := exec.Command(wraBin, "--db", filepath.Join(t.TempDir(), "w.duckdb"), "--format", "csv", "ingest", "--strict", "--list", dir)
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
