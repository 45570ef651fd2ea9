package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/cmd/wra/internal/record"
)

// wraBinary builds the wra binary the tests run as a child (the fault
// tests' wraBin, which TestMain removes).
func wraBinary(t *testing.T) string {
	t.Helper()
	if wraBin == "" {
		bin := filepath.Join(os.TempDir(), fmt.Sprintf("wra-record-%d", os.Getpid()))
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		wraBin = bin
	}
	return wraBin
}

// interruptPlan is a plan of two loads on the spin server: quick (ab)
// and long (wrk for a minute), one trial, in the order the first seed
// that puts quick first draws.
func interruptPlan(t *testing.T) (plan string, seed uint64) {
	t.Helper()
	ab, wrk, spin := tool(t, "ab"), tool(t, "wrk"), spinServer(t)
	port := freePort(t)
	text := fmt.Sprintf(`trials = 1
[calibration]
repeat = 1
file_mib = 8
processes = [1]

[[stacks]]
server = "spin"
server_cmd = "%s -addr 127.0.0.1:%s"
url = "http://127.0.0.1:%s"

[[loads]]
name = "quick"
path = "/spin?us=100"
command = ["%s", "-n", "300", "-c", "2", "{url}"]
duration = "1s"

[[loads]]
name = "long"
path = "/spin?us=100"
command = ["%s", "-t1", "-c2", "-d60s", "{url}"]
duration = "60s"
`, spin, port, port, ab, wrk)
	plan = filepath.Join(t.TempDir(), "plan.toml")
	if err := os.WriteFile(plan, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := record.ReadPlan(plan)
	if err != nil {
		t.Fatal(err)
	}
	for seed = 1; p.DrawTrials(seed)[0].Cells[0].Load.Name != "quick"; seed++ {
	}
	return plan, seed
}

// TestRecordPlanInterrupted interrupts a recording in its second cell,
// when the child says it has begun it: the child exits 130, the first
// cell's files are there and the second's are not, and the folder loads
// with wra ingest --strict.
func TestRecordPlanInterrupted(t *testing.T) {
	needRecording(t)
	plan, seed := interruptPlan(t)
	out := filepath.Join(t.TempDir(), "rec")
	wraBinary(t)
	c := startChild(t, "", "record", "--plan", plan, "--seed", fmt.Sprint(seed), "--out", out)
	c.await("wra: trial 1/1, cell 2/2: long spin")
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code, sig := c.wait(); code != exitInterrupted {
		t.Fatalf("exit %d (signal %v), want %d; stderr:\n%s", code, sig, exitInterrupted, c.errText())
	}
	for _, want := range []string{"quick/t1/spin/quick.txt", "records/quick.csv", "trials.csv", "wra.toml", "calibration/trial-1-before.csv"} {
		if _, err := os.Stat(filepath.Join(out, want)); err != nil {
			t.Errorf("%s: %v", want, err)
		}
	}
	for _, gone := range []string{"long", "records/long.csv", ".wra-record", "calibration/trial-1-after.csv"} {
		if _, err := os.Stat(filepath.Join(out, gone)); err == nil {
			t.Errorf("%s is there after the interrupt of the cell that writes it", gone)
		}
	}
	if rows := readCSV(t, filepath.Join(out, record.TrialsFile)); len(rows) != 1 || rows[0]["load"] != "quick" {
		t.Errorf("trials.csv: %v, want the quick run alone", rows)
	}
	r := wra(t, filepath.Join(t.TempDir(), "wra.duckdb"), "ingest", "--strict", out)
	if r.code != 0 {
		t.Errorf("wra ingest --strict of the interrupted recording: exit %d\n%s", r.code, r.stderr)
	}
}

// TestRecordInterrupted interrupts a single run once wra says its load
// runs: exit 130, and nothing of the run in the folder.
func TestRecordInterrupted(t *testing.T) {
	needRecording(t)
	wrk, spin := tool(t, "wrk"), spinServer(t)
	port := freePort(t)
	out := filepath.Join(t.TempDir(), "rec")
	wraBinary(t)
	c := startChild(t, "", "record", "--server", "spin", "--server-cmd", spin+" -addr 127.0.0.1:"+port,
		"--out", out, "--", wrk, "-t1", "-c2", "-d60s", "http://127.0.0.1:"+port+"/spin?us=100")
	c.await("wra: load running: ")
	start := time.Now()
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code, sig := c.wait(); code != exitInterrupted {
		t.Fatalf("exit %d (signal %v), want %d; stderr:\n%s", code, sig, exitInterrupted, c.errText())
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("wra took %s to end after the interrupt: the load ran on", d)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 0 {
		t.Errorf("the interrupted run left %v in the folder", entries)
	}
}

// TestRecordDryRunSeed: the same seed prints the same trials, another
// seed other orders.
func TestRecordDryRunSeed(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "plan.toml")
	os.WriteFile(plan, []byte(`trials = 3
[[stacks]]
server = "a"
server_target = "pid:{pid}"
url = "http://127.0.0.1:9000"
[[stacks]]
server = "b"
server_target = "unit:b.service"
url = "http://127.0.0.1:9001"
[[loads]]
name = "fixed"
command = "wrk2 -t1 -c{connections} -d10s -R{rate} {url}"
rates = [100, 200, 400]
connections = [8, 16]
`), 0o644)
	dry := func(seed string) string {
		r := wra(t, filepath.Join(t.TempDir(), "x.duckdb"), "record", "--plan", plan, "--out", "out", "--dry-run", "--seed", seed)
		if r.code != 0 {
			t.Fatalf("--dry-run: exit %d\n%s", r.code, r.stderr)
		}
		return r.stdout
	}
	a, b, c := dry("42"), dry("42"), dry("43")
	if a != b {
		t.Errorf("seed 42 printed two different dry runs:\n%s\n%s", a, b)
	}
	if a == c {
		t.Error("seeds 42 and 43 printed the same orders")
	}
	for _, want := range []string{"12 cells per trial, 3 trials, orders drawn from seed 42", "fixed b r=400 c=16: wrk2 -t1 -c16 -d10s -R400 http://127.0.0.1:9001"} {
		if !strings.Contains(a, want) {
			t.Errorf("the dry run lacks %q:\n%s", want, a)
		}
	}
}
