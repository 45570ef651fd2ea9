package main

// Fault tests run the real wra binary in a child process and hurt it:
// SIGKILL and SIGINT mid-ingest, two writers at once, a full disk. They
// run when WRA_FAULT_TESTS=1 (CI sets it); the disk-full test needs root
// to mount a small tmpfs. A test never waits for the clock: the child,
// run with WRA_TEST_HOLD (testhold.go), says on stderr when it holds a
// transaction open, and the test signals it then.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
	if helperTreeCPU() {
		return
	}
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
	// Two groups of streams: one full (the walker's 16) and two more.
	for i := 0; i < 18; i++ {
		write(fmt.Sprintf("k6/points%02d.ndjson", i), append(append([]byte{}, nd...), []byte(fmt.Sprintf(`{"metric":"http_reqs","type":"Point","data":{"time":"2026-11-29T18:52:%02d.000000000Z","value":1,"tags":{"status":"200"}}}`+"\n", i))...))
	}
	return dir, files
}

// TestFaultKilledMidIngest kills wra three times while a transaction is
// open: the walker loads the point streams in groups of up to 16, each
// in one transaction, and then the small files in one batch, so the
// kills land in the second group's bulk load (the first stored), in the
// group of those left, and in the batch. Each kill must find the child holding the transaction (a child that
// finished first fails the test); the store must open, every file in it
// must be whole, and the files of the transaction must be absent.
func TestFaultKilledMidIngest(t *testing.T) {
	faultTests(t)
	dir, files := bigCorpus(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	for _, hold := range []string{"bulk:2", "bulk:1", "small:1"} {
		c := startChild(t, hold, "--db", db, "--quiet", "ingest", dir)
		held := c.holding()
		c.cmd.Process.Signal(syscall.SIGKILL)
		if code, sig := c.wait(); sig != syscall.SIGKILL {
			t.Fatalf("hold %s: the child ended with exit %d before the kill reached it", hold, code)
		}
		n := consistent(t, db)
		absent(t, db, held)
		t.Logf("killed in transaction %s of %d files: %d of %d files in the store, all whole", hold, len(held), n, files)
	}
	_, errs, code := runBin(t, "--db", db, "ingest", dir)
	if code != 0 {
		t.Fatalf("ingest after the kills: exit %d: %s", code, errs)
	}
	if n := consistent(t, db); n != files {
		t.Errorf("after the last ingest %d files stored, want %d", n, files)
	}
}

// TestFaultInterrupted interrupts wra inside a transaction: it must roll
// the transaction back, say what it had loaded, and exit 130.
func TestFaultInterrupted(t *testing.T) {
	faultTests(t)
	dir, _ := bigCorpus(t)
	for _, hold := range []string{"small:1", "bulk:2"} {
		t.Run(hold, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.duckdb")
			c := startChild(t, hold, "--db", db, "ingest", dir)
			held := c.holding()
			c.cmd.Process.Signal(syscall.SIGINT)
			code, sig := c.wait()
			if sig != 0 || code != exitInterrupted {
				t.Fatalf("after SIGINT: exit %d, signal %v; want exit %d; stderr %s", code, sig, exitInterrupted, c.errText())
			}
			errs := c.errText()
			if !strings.Contains(errs, "wra: interrupted after") || !strings.Contains(errs, "wra: interrupted\n") {
				t.Errorf("stderr should say what was loaded and that it was interrupted: %q", errs)
			}
			consistent(t, db)
			absent(t, db, held)
		})
	}
}

// TestFaultTwoWriters: while one wra holds the store in a transaction, a
// second fails at once naming the first's process, and a third with a
// lock timeout waits until the first has finished; nothing is lost or
// doubled.
func TestFaultTwoWriters(t *testing.T) {
	faultTests(t)
	dir, files := bigCorpus(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	first := startChild(t, "any:1", "--db", db, "--quiet", "ingest", dir)
	first.holding()
	_, errs, code := runBin(t, "--db", db, "ingest", dir)
	want := fmt.Sprintf("is in use by process %d", first.cmd.Process.Pid)
	if code != exitError || !strings.Contains(errs, want) {
		t.Errorf("second writer: exit %d, stderr %q; want exit 1 and %q", code, errs, want)
	}
	// With a lock timeout the third writer waits for the first: it says
	// so, and only then is the first let go.
	third := startChild(t, "", "--db", db, "--lock-timeout", "10m", "ingest", dir)
	if l := third.await("wra: store "); !strings.Contains(l, want+"; waiting up to 10m0s") {
		t.Errorf("waiting writer says %q, want it to name process %d and its wait", l, first.cmd.Process.Pid)
	}
	first.stdin.Close()
	if code, sig := first.wait(); code != 0 || sig != 0 {
		t.Fatalf("first writer: exit %d, signal %v: %s", code, sig, first.errText())
	}
	if code, sig := third.wait(); code != 0 || sig != 0 {
		t.Fatalf("waiting writer: exit %d, signal %v: %s", code, sig, third.errText())
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
