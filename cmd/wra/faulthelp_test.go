package main

// The child processes of the fault tests, and what the tests ask of the
// store after a fault.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

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
