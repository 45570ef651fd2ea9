package main

// Fault tests run the real wra binary in a child process and hurt it:
// SIGKILL and SIGINT mid-ingest, two writers at once, a full disk. They
// run when WRA_FAULT_TESTS=1 (CI sets it); the disk-full test needs root
// to mount a small tmpfs. A test never waits for the clock: the child,
// run with WRA_TEST_HOLD (testhold.go), says on stderr when it holds a
// transaction open, and the test signals it then.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// child is a wra process the test hurts: its standard input releases a
// WRA_TEST_HOLD, and its standard error is read line by line, so that the
// test acts when the child says where it is, never after a sleep.
type child struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string   // stderr, a line at a time, closed at its end
	done   chan struct{} // closed when stderr has been read to its end
	mu     sync.Mutex
	stderr strings.Builder
}

// startChild starts wra with args; hold, when not empty, is its
// WRA_TEST_HOLD.
func startChild(t *testing.T, hold string, args ...string) *child {
	t.Helper()
	c := &child{t: t, cmd: exec.Command(wraBin, args...), lines: make(chan string, 1024), done: make(chan struct{})}
	c.cmd.Env = os.Environ()
	if hold != "" {
		c.cmd.Env = append(c.cmd.Env, "WRA_TEST_HOLD="+hold)
	}
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	errPipe, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.done)
		defer close(c.lines)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			c.mu.Lock()
			c.stderr.WriteString(sc.Text() + "\n")
			c.mu.Unlock()
			select {
			case c.lines <- sc.Text():
			default: // nobody waits for lines this far on
			}
		}
	}()
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			c.cmd.Process.Kill()
			c.wait()
		}
	})
	return c
}

// await reads the child's stderr until a line starts with prefix and
// returns that line. The time limit only bounds a hung test.
func (c *child) await(prefix string) string {
	c.t.Helper()
	limit := time.After(5 * time.Minute)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("the child ended without saying %q; stderr:\n%s", prefix, c.errText())
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-limit:
			c.t.Fatalf("the child did not say %q in 5 minutes; stderr:\n%s", prefix, c.errText())
		}
	}
}

// holding waits until the child says it holds a transaction open and
// returns the sources of that transaction.
func (c *child) holding() []string {
	c.t.Helper()
	l := c.await("wra: test hold: ")
	_, what, _ := strings.Cut(l, "before COMMIT: ")
	f := strings.Fields(what)
	if len(f) < 2 {
		c.t.Fatalf("hold line without sources: %q", l)
	}
	return f[1:]
}

func (c *child) errText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// wait waits for the child to end and returns how: its exit code, or the
// signal that ended it.
func (c *child) wait() (code int, sig syscall.Signal) {
	<-c.done
	c.cmd.Wait()
	ws := c.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return -1, ws.Signal()
	}
	return ws.ExitStatus(), 0
}

// absent fails the test unless no row of the sources is in the store.
func absent(t *testing.T, db string, sources []string) {
	t.Helper()
	q := fmt.Sprintf(`SELECT (SELECT count(*) FROM ingested_files WHERE source IN (%[1]s)) + (SELECT count(*) FROM runs WHERE source IN (%[1]s))`, sqlList(sources))
	out, errs, code := runBin(t, "--db", db, "sql", "--format", "csv", q)
	if code != 0 {
		t.Fatalf("query: exit %d: %s", code, errs)
	}
	if n := out[strings.LastIndexByte(strings.TrimSpace(out), '\n')+1:]; strings.TrimSpace(n) != "0" {
		t.Errorf("the transaction the fault hit left %s rows of %v in the store", strings.TrimSpace(n), sources)
	}
}

func sqlList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return strings.Join(q, ", ")
}

// TestFaultKilledMidIngest kills wra three times while a transaction is
// open: the walker loads the point streams one by one and then the small
// files in one batch, so the kills land in the third stream's bulk load,
// in the second of those left, and in the batch. Each kill must find the child holding the transaction (a child that
// finished first fails the test); the store must open, every file in it
// must be whole, and the files of the transaction must be absent.
func TestFaultKilledMidIngest(t *testing.T) {
	faultTests(t)
	dir, files := bigCorpus(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	for _, hold := range []string{"bulk:3", "bulk:2", "small:1"} {
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
