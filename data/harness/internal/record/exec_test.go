package record

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunStdoutByteForByte(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.txt")
	var log bytes.Buffer
	_, err := run(context.Background(), command{Name: "sh", Args: []string{"-c", `printf 'a\r\nb \n'; echo warn >&2`},
		Stdout: out, Timeout: 10 * time.Second}, &log)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "a\r\nb \n" {
		t.Errorf("stdout %q", b)
	}
	if !strings.Contains(log.String(), "  | warn\n") {
		t.Errorf("stderr not in the log: %q", log.String())
	}
}

func TestRunExitCodes(t *testing.T) {
	ctx := context.Background()
	c := command{Name: "sh", Args: []string{"-c", "exit 99"}, Timeout: 10 * time.Second}
	if _, err := run(ctx, c, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "exit code 99") {
		t.Errorf("exit 99 not accepted: err = %v", err)
	}
	c.OK = []int{99}
	res, err := run(ctx, c, &bytes.Buffer{})
	if err != nil || res.ExitCode != 99 {
		t.Errorf("exit 99 accepted: %+v, %v", res, err)
	}
	if _, err := run(ctx, command{Name: "/nonexistent/tool", Timeout: time.Second}, &bytes.Buffer{}); err == nil {
		t.Error("missing binary: no error")
	}
	if _, err := run(ctx, command{Name: "true"}, &bytes.Buffer{}); err == nil {
		t.Error("no timeout: no error")
	}
}

// A command past its time limit is killed; the message says so.
func TestRunTimeLimit(t *testing.T) {
	_, err := run(context.Background(), command{Name: "sh", Args: []string{"-c", "exec sleep 60"},
		Timeout: 300 * time.Millisecond}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "killed after its 300ms time limit") {
		t.Fatalf("err = %v, want a time limit error", err)
	}
}

// A command that is stopped is killed with everything it started. The
// command says (through a FIFO) when its background child runs, and only
// then is it stopped: the kill always finds the child there to kill.
func TestRunStopKillsGroup(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pids := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // the command holds it open for writing
		if err != nil {
			pids <- ""
			return
		}
		defer f.Close()
		line, _ := bufio.NewReader(f).ReadString('\n')
		pids <- line
		cancel()
	}()
	_, err := run(ctx, command{Name: "sh", Args: []string{"-c", "sleep 60 & echo $!; wait"},
		Stdout: fifo, Timeout: time.Hour}, &bytes.Buffer{})
	if err == nil {
		t.Fatal("a stopped command: no error")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(<-pids))
	if err != nil {
		t.Fatalf("the command's child pid: %v", err)
	}
	// The orphaned sleep is gone, or a zombie waiting for init to reap
	// it. The time limit only bounds a hung test.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("background child %d still running: %s", pid, st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestCommandString(t *testing.T) {
	c := command{Name: "wrk2", Args: []string{"-t2", "-R500", "http://127.0.0.1:1/db/page?after=100&limit=20", "it's"}}
	want := `wrk2 -t2 -R500 'http://127.0.0.1:1/db/page?after=100&limit=20' 'it'\''s'`
	if got := c.String(); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got := shellQuote(""); got != "''" {
		t.Errorf("shellQuote(\"\") = %s", got)
	}
}
