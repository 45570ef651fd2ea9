package shell

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

// script is a lineReader that types its lines; errInterrupt stands for
// Ctrl-C. It records the prompt each line was typed at, and history.
type script struct {
	lines   []any // string or error
	prompts []string
	prompt  string
	history []string
}

func (s *script) SetPrompt(p string)           { s.prompt = p }
func (s *script) SaveToHistory(h string) error { s.history = append(s.history, h); return nil }
func (s *script) Readline() (string, error) {
	if len(s.lines) == 0 {
		return "", io.EOF
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	s.prompts = append(s.prompts, s.prompt)
	if err, ok := l.(error); ok {
		return "", err
	}
	return l.(string), nil
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "t.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestLoop(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	lr := &script{lines: []any{
		"SELECT 1 AS a,", errInterrupt, // dropped
		"SELECT 2 AS b", ";",
		"CREATE MACRO twice(x) AS x * 2;",
		".format json", "SELECT twice(21) AS c;",
		`\d twice`, ".schema twice",
		".format csv", `\d calibration`, ".schema calibration", ".tables drift",
		".format nope", ".bogus", "SELECT nope;",
		".quit", "SELECT 'never';",
	}}
	var out, errOut bytes.Buffer
	s := &session{st: st, out: &out, err: &errOut, format: report.CSV}
	if err := s.loop(ctx, lr); err != nil {
		t.Fatal(err)
	}
	wantOut := `b
2
[
  {"c": 42}
]
[
  {"macro": "twice", "parameters": "x", "definition": "CREATE MACRO twice(x) AS (x * 2);"}
]
CREATE MACRO twice(x) AS (x * 2);
table calibration: timings of a fixed CPU job before and after a benchmark
column,type,comment
source,VARCHAR,"the file, its path below the ingested folder starting with its name"
phase,VARCHAR,before or after the benchmark
utc,TIMESTAMP,"when the timing was taken, UTC"
processes,BIGINT,processes running the fixed CPU job at once
ms,DOUBLE,"wall time of the fixed CPU job, ms"
source_line,INTEGER,the line of the file the row was read from
-- table calibration: timings of a fixed CPU job before and after a benchmark
--   source       VARCHAR    the file, its path below the ingested folder starting with its name
--   phase        VARCHAR    before or after the benchmark
--   utc          TIMESTAMP  when the timing was taken, UTC
--   processes    BIGINT     processes running the fixed CPU job at once
--   ms           DOUBLE     wall time of the fixed CPU job, ms
--   source_line  INTEGER    the line of the file the row was read from
CREATE TABLE calibration("source" VARCHAR NOT NULL, phase VARCHAR NOT NULL, utc TIMESTAMP, processes BIGINT NOT NULL, ms DOUBLE NOT NULL, source_line INTEGER);
name,kind,columns,parameters,comment
calibration_drift,view,13,,"calibration drift per pair and process count, flagged beyond 5%"
calibration_drift,table macro,,tolerance,"calibration drift per pair and process count, flagged beyond the tolerance given"
`
	if out.String() != wantOut {
		t.Errorf("out:\n%s\nwant:\n%s", out.String(), wantOut)
	}
	for _, want := range []string{"Error: --format must be one of", "Error: unknown command .bogus: .help lists the commands", `Error: Binder Error: Referenced column "nope" was not found`} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("errors:\n%s\nwant a line with %q", errOut.String(), want)
		}
	}
	wantPrompts := []string{Prompt, MorePrompt, Prompt, MorePrompt}
	if !reflect.DeepEqual(lr.prompts[:4], wantPrompts) {
		t.Errorf("prompts %q, want %q first", lr.prompts[:4], wantPrompts)
	}
	if len(lr.lines) != 1 {
		t.Errorf(".quit left %d lines unread, want 1", len(lr.lines))
	}
	wantHistory := []string{"SELECT 2 AS b ;", "CREATE MACRO twice(x) AS x * 2;", ".format json", "SELECT twice(21) AS c;", `\d twice`, ".schema twice",
		".format csv", `\d calibration`, ".schema calibration", ".tables drift", ".format nope", ".bogus", "SELECT nope;", ".quit"}
	if !reflect.DeepEqual(lr.history, wantHistory) {
		t.Errorf("history\n%q\nwant\n%q", lr.history, wantHistory)
	}
}

func TestHistoryPath(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"WRA_SQL_HISTORY": "/h/x", "XDG_STATE_HOME": "/s", "HOME": "/home/u"}, "/h/x"},
		{map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/home/u"}, "/s/wra/sql_history"},
		{map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/wra/sql_history"},
		{nil, ""},
	} {
		if got := HistoryPath(func(k string) string { return tc.env[k] }); got != filepath.FromSlash(tc.want) {
			t.Errorf("%v: %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestCompleter(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	c := &completer{ctx: ctx, st: st}
	for _, tc := range []struct {
		line string
		want []string
		n    int
	}{
		{"SELECT * FROM cpu_per", []string{"_request"}, 7},
		{"SELECT latency_p9", []string{"0_ms", "5_ms", "9_ms", "99_ms", "7_5_ms", "8_ms", "9_99_ms", "9_999_ms", "9_ms_median", "9_ms_min", "9_ms_max", "5_ms_median"}, 10},
		{".ta", []string{"bles"}, 3},
		{".format ma", []string{"rkdown"}, 2},
		{"SELECT x FROM nothing_like", nil, 12},
	} {
		got, n := c.Do([]rune(tc.line), len([]rune(tc.line)))
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
		}
		if !reflect.DeepEqual(gs, tc.want) || n != tc.n {
			t.Errorf("%q: %q, %d; want %q, %d", tc.line, gs, n, tc.want, tc.n)
		}
	}
}

// TestPlain runs the shell without line editing, as on TERM=dumb: the
// prompts are printed, lines are read whole, history is kept.
func TestPlain(t *testing.T) {
	st := openStore(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		io.WriteString(w, "SELECT 1 AS a,\n2 AS b;\n.format json\n")
		w.Close() // Ctrl-D
	}()
	hist := filepath.Join(t.TempDir(), "state", "wra", "sql_history")
	var out, errOut bytes.Buffer
	if err := Run(context.Background(), st, r, &out, &errOut, Options{Format: report.CSV, HistoryFile: hist, Plain: true}); err != nil {
		t.Fatal(err)
	}
	if want := "wra>  ...> a,b\n1,2\nwra> wra> "; out.String() != want {
		t.Errorf("out %q, want %q", out.String(), want)
	}
	b, err := os.ReadFile(hist)
	if want := "SELECT 1 AS a, 2 AS b;\n.format json\n"; err != nil || string(b) != want {
		t.Errorf("history %q (%v), want %q", b, err, want)
	}
}

// startedStore tells when a statement has started.
type startedStore struct {
	Store
	started chan<- string
}

func (s startedStore) Query(ctx context.Context, q string, args ...any) (*store.Table, error) {
	s.started <- q
	return s.Store.Query(ctx, q, args...)
}

// TestInterruptStopsStatement sends an interrupt (Ctrl-C's SIGINT) once a
// long statement has started: the statement stops, and the shell runs
// the next one.
func TestInterruptStopsStatement(t *testing.T) {
	started := make(chan string)
	interrupts := make(chan os.Signal, 1)
	go func() {
		<-started // the long one
		interrupts <- os.Interrupt
		<-started // the next
	}()
	lr := &script{lines: []any{"SELECT count(*) FROM range(1000000000000000) t(i) WHERE i % 7 = 3;", "SELECT 42 AS x;"}}
	var out, errOut bytes.Buffer
	s := &session{st: startedStore{openStore(t), started}, out: &out, err: &errOut, format: report.CSV, interrupts: interrupts}
	if err := s.loop(context.Background(), lr); err != nil {
		t.Fatal(err)
	}
	if errOut.String() != "Error: interrupted\n" || out.String() != "x\n42\n" {
		t.Errorf("errors %q, out %q; want the first stopped and the second run", errOut.String(), out.String())
	}
}
