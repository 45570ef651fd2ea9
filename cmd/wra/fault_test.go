package main

// Fault tests run the real wra binary in a child process and hurt it:
// SIGKILL and SIGINT mid-ingest, two writers at once, a full disk. They
// run when WRA_FAULT_TESTS=1 (CI sets it); they take about a minute and
// the disk-full test needs root to mount a small tmpfs.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var wraBin string

func faultTests(t *testing.T) {
	t.Helper()
	if os.Getenv("WRA_FAULT_TESTS") != "1" {
		t.Skip("fault tests run with WRA_FAULT_TESTS=1")
	}
	if wraBin == "" {
		bin := filepath.Join(os.TempDir(), fmt.Sprintf("wra-fault-%d", os.Getpid()))
		out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		wraBin = bin
		t.Cleanup(func() {})
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if wraBin != "" {
		os.Remove(wraBin)
	}
	os.Exit(code)
}

// bigCorpus is a folder that takes a few seconds to ingest: many small
// real records and some large k6 streams.
func bigCorpus(t *testing.T) (dir string, files int) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "big")
	rec, err := os.ReadFile("../../ingest/testdata/records/records.csv")
	if err != nil {
		t.Fatal(err)
	}
	nd, err := os.ReadFile("../../ingest/testdata/k6/k6_constant_go2_ping_points.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files++
	}
	for i := 0; i < 300; i++ {
		// Each copy has its own first time stamp, so each is a file of its own.
		b := bytes.Replace(rec, []byte("2026-11-29T18:56:57Z"), []byte(fmt.Sprintf("2026-11-29T17:%02d:%02dZ", i/60, i%60)), 1)
		write(fmt.Sprintf("records/r%03d.csv", i), b)
	}
	for i := 0; i < 6; i++ {
		write(fmt.Sprintf("k6/points%d.ndjson", i), append(append([]byte{}, nd...), []byte(fmt.Sprintf(`{"metric":"http_reqs","type":"Point","data":{"time":"2026-11-29T18:52:%02d.000000000Z","value":1,"tags":{"status":"200"}}}`+"\n", i))...))
	}
	return dir, files
}

func runBin(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(wraBin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// consistent checks that every ingested file has exactly its rows and no
// row lacks its file; it returns the number of files ingested.
func consistent(t *testing.T, db string) int {
	t.Helper()
	if _, err := os.Stat(db); os.IsNotExist(err) {
		return 0 // killed before the store was created: nothing to check
	}
	const q = `
WITH c AS (
    SELECT source, count(*) AS n FROM runs GROUP BY 1
    UNION ALL SELECT r.source, count(*) FROM latency_percentiles p JOIN runs r USING (run_id) GROUP BY 1
    UNION ALL SELECT r.source, count(*) FROM samples s JOIN runs r USING (run_id) GROUP BY 1
    UNION ALL SELECT source, count(*) FROM memory_series GROUP BY 1
    UNION ALL SELECT source, count(*) FROM calibration GROUP BY 1),
t AS (SELECT source, sum(n) AS n FROM c GROUP BY 1)
SELECT (SELECT count(*) FROM ingested_files f FULL JOIN t USING (source) WHERE f.rows IS DISTINCT FROM t.n) AS bad,
       (SELECT count(*) FROM samples WHERE run_id NOT IN (SELECT run_id FROM runs)) AS orphans,
       (SELECT count(*) FROM ingested_files) AS files`
	out, errs, code := runBin(t, "--db", db, "sql", "--format", "csv", q)
	if code != 0 {
		t.Fatalf("the store does not open after the fault: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	f := strings.Split(lines[len(lines)-1], ",")
	if f[0] != "0" || f[1] != "0" {
		t.Fatalf("store inconsistent after the fault: %d files with missing or extra rows, %s orphan samples", atoi(f[0]), f[1])
	}
	return atoi(f[2])
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func TestFaultKilledMidIngest(t *testing.T) {
	faultTests(t)
	dir, files := bigCorpus(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	for _, after := range []time.Duration{1 * time.Second, 2500 * time.Millisecond, 4 * time.Second} {
		cmd := exec.Command(wraBin, "--db", db, "--quiet", "ingest", dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		n := consistent(t, db)
		t.Logf("killed after %v: %d of %d files in the store, all whole", after, n, files)
	}
	_, errs, code := runBin(t, "--db", db, "ingest", dir)
	if code != 0 {
		t.Fatalf("ingest after the kills: exit %d: %s", code, errs)
	}
	if n := consistent(t, db); n != files {
		t.Errorf("after the last ingest %d files stored, want %d", n, files)
	}
}

func TestFaultInterrupted(t *testing.T) {
	faultTests(t)
	dir, _ := bigCorpus(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	cmd := exec.Command(wraBin, "--db", db, "ingest", dir)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT, want %d; stderr %s", code, exitInterrupted, errb.String())
	}
	if !strings.Contains(errb.String(), "wra: interrupted after") || !strings.Contains(errb.String(), "wra: interrupted\n") {
		t.Errorf("stderr should say what was loaded and that it was interrupted: %q", errb.String())
	}
	consistent(t, db)
}

func TestFaultTwoWriters(t *testing.T) {
	faultTests(t)
	dir, files := bigCorpus(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	first := exec.Command(wraBin, "--db", db, "--quiet", "ingest", dir)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	_, errs, code := runBin(t, "--db", db, "ingest", dir)
	want := fmt.Sprintf("is in use by process %d", first.Process.Pid)
	if code != exitError || !strings.Contains(errs, want) {
		t.Errorf("second writer: exit %d, stderr %q; want exit 1 and %q", code, errs, want)
	}
	// With a lock timeout the second writer waits for the first.
	_, errs, code = runBin(t, "--db", db, "--lock-timeout", "120s", "ingest", dir)
	if code != 0 {
		t.Fatalf("waiting writer: exit %d: %s", code, errs)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first writer: %v", err)
	}
	if n := consistent(t, db); n != files {
		t.Errorf("%d files stored, want %d: nothing lost or doubled", n, files)
	}
	// Readers work once no writer holds the store.
	if _, errs, code := runBin(t, "--db", db, "sql", "SELECT count(*) FROM runs"); code != 0 {
		t.Errorf("reader: exit %d: %s", code, errs)
	}
}

func TestFaultDiskFull(t *testing.T) {
	faultTests(t)
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", mnt).CombinedOutput(); err != nil {
		if os.Geteuid() != 0 {
			t.Skipf("mounting a tmpfs needs root: %v %s", err, out)
		}
		t.Fatalf("mount tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", "-l", mnt).Run()
	db := filepath.Join(mnt, "s.duckdb")
	small := filepath.Join(t.TempDir(), "small")
	copyTree(t, small, map[string]string{"records.csv": "../../ingest/testdata/records/records.csv"})
	if _, errs, code := runBin(t, "--db", db, "ingest", small); code != 0 {
		t.Fatalf("first ingest: %s", errs)
	}
	before := consistent(t, db)
	big := filepath.Join(t.TempDir(), "bigk6")
	nd, err := os.ReadFile("../../ingest/testdata/k6/k6_constant_go2_ping_points.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(big, 0o755)
	for i := 0; i < 8; i++ {
		b := bytes.ReplaceAll(nd, []byte(`"value":1,`), []byte(fmt.Sprintf(`"value":%d,`, i+1)))
		os.WriteFile(filepath.Join(big, fmt.Sprintf("p%d.ndjson", i)), b, 0o644)
	}
	_, errs, code := runBin(t, "--db", db, "ingest", big)
	if code == 0 {
		t.Fatalf("ingest into a full disk succeeded; stderr %s", errs)
	}
	if !strings.Contains(strings.ToLower(errs), "no space left") && !strings.Contains(strings.ToLower(errs), "disk") {
		t.Errorf("error does not say the disk is full: %q", errs)
	}
	exec.Command("mount", "-o", "remount,size=64m", mnt).Run()
	if after := consistent(t, db); after < before {
		t.Errorf("files in the store went from %d to %d", before, after)
	}
	out, _, _ := runBin(t, "--db", db, "sql", "--format", "csv", "SELECT count(*) FROM runs WHERE source = 'small/records.csv'")
	if !strings.HasSuffix(strings.TrimSpace(out), "\n48") {
		t.Errorf("the first file's runs after the disk filled: %q, want 48", out)
	}
}
