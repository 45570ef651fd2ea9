package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// screen is what a pseudo-terminal shows, read as it comes. It answers
// the line editor's question of where the cursor is (DSR, ESC [ 6 n) as
// a terminal does: at the start of a line, where the shell asks it.
type screen struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	seen int           // bytes before it are matched already
	more chan struct{} // a token when more has come
}

func readScreen(f *os.File) *screen {
	s := &screen{more: make(chan struct{}, 1)}
	go func() {
		b := make([]byte, 4096)
		answered := 0
		for {
			n, err := f.Read(b)
			s.mu.Lock()
			s.buf.Write(b[:n])
			asked := bytes.Count(s.buf.Bytes(), []byte("\x1b[6n"))
			s.mu.Unlock()
			for ; answered < asked; answered++ {
				f.WriteString("\x1b[1;1R")
			}
			select {
			case s.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// expect waits until want appears after what was matched before; the
// limit only turns a shell that never shows it into a failure.
func (s *screen) expect(t *testing.T, want string) {
	t.Helper()
	limit := time.After(60 * time.Second)
	for {
		s.mu.Lock()
		got := s.buf.String()
		i := strings.Index(got[s.seen:], want)
		if i >= 0 {
			s.seen += i + len(want)
		}
		s.mu.Unlock()
		if i >= 0 {
			return
		}
		select {
		case <-s.more:
		case <-limit:
			t.Fatalf("the terminal never showed %q; it shows:\n%q", want, got[s.seen:])
		}
	}
}

// TestSQLShell runs wra sql on a pseudo-terminal, as a user at a
// terminal does, and types into it: a statement over two lines, the
// listing of the tables, the documented columns of one (\d, .schema),
// Ctrl-D. Each step waits for the prompt or the
// output it expects; the history file is the one docs/commands.md names.
func TestSQLShell(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.duckdb")
	if r := wra(t, db, "ingest", "../../ingest/testdata/records/records.csv"); r.code != 0 {
		t.Fatalf("ingest: exit %d\n%s", r.code, r.stderr)
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 50, Cols: 200}); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	e := &env{stdin: tty, stdout: tty, stderr: tty, stdinTTY: true, stdoutTTY: true, stderrTTY: true,
		getenv: func(k string) string {
			if k == "XDG_STATE_HOME" {
				return state
			}
			return ""
		}}
	code := make(chan int, 1)
	go func() { code <- run(context.Background(), e, []string{"--db", db, "--format", "csv", "sql"}) }()
	sc := readScreen(ptmx)
	type0 := func(s string) {
		if _, err := ptmx.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	sc.expect(t, "(read-only); .help for the commands")
	sc.expect(t, "wra> ")
	type0("SELECT count(*) AS runs,\r")
	sc.expect(t, " ...> ")
	type0("min(tool) AS tool FROM runs;\r")
	sc.expect(t, "runs,tool\r\n48,records\r\n")
	sc.expect(t, "wra> ")
	type0(".tables\r")
	sc.expect(t, "name,kind,columns,parameters,comment\r\n")
	sc.expect(t, "runs,table,")
	sc.expect(t, "cpu_per_request,view,")
	sc.expect(t, "wra> ")
	type0("\\d runs\r")
	sc.expect(t, "column,type,comment\r\n")
	sc.expect(t, "rps,DOUBLE,\"requests / duration, requests/s\"\r\n")
	sc.expect(t, "wra> ")
	type0(".schema runs\r")
	sc.expect(t, "-- table runs: one row per load-tool report or harness record\r\n")
	sc.expect(t, "--   duration_s           DOUBLE     length of the run, seconds\r\n")
	sc.expect(t, "CREATE TABLE runs(")
	sc.expect(t, "wra> ")
	type0("SELECT nope;\r")
	sc.expect(t, "Error: ")
	sc.expect(t, "wra> ")
	type0("\x04") // Ctrl-D
	if c := <-code; c != 0 {
		t.Fatalf("exit %d", c)
	}
	b, err := os.ReadFile(filepath.Join(state, "wra", "sql_history"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "SELECT count(*) AS runs, min(tool) AS tool FROM runs;\n.tables\n\\d runs\n.schema runs\nSELECT nope;\n"; string(b) != want {
		t.Errorf("history file:\n%q\nwant\n%q", b, want)
	}
}
