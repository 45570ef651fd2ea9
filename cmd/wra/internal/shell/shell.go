// Package shell is wra's interactive SQL shell, the one `wra sql` opens
// on a terminal: a prompt, statements over several lines ending at a
// semicolon, history kept across sessions in a file, and commands in the
// manner of duckdb, sqlite3 and psql that list the store's tables, views
// and macros with their columns. Results are written by report.Write in
// any of its formats. It reads the store through Store, which
// *store.Store is; the line editing is github.com/ergochat/readline on
// the terminal it is given.
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

// Store is what the shell runs statements on.
type Store interface {
	Query(ctx context.Context, query string, args ...any) (*store.Table, error)
	Relations(ctx context.Context) ([]store.Relation, error)
}

// Prompts: of a new statement, and of the next line of one.
const (
	Prompt     = "wra> "
	MorePrompt = " ...> "
)

// HistoryPath is the file the shell keeps its history in:
// $WRA_SQL_HISTORY when set, else $XDG_STATE_HOME/wra/sql_history, else
// ~/.local/state/wra/sql_history (XDG's default state folder); "" when
// there is no home either.
func HistoryPath(getenv func(string) string) string {
	if p := getenv("WRA_SQL_HISTORY"); p != "" {
		return p
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "wra", "sql_history")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "wra", "sql_history")
	}
	return ""
}

// lineReader is the line editor: readline on a terminal, a script in
// tests of the loop.
type lineReader interface {
	Readline() (string, error)
	SetPrompt(string)
	SaveToHistory(string) error
}

// errInterrupt is what a lineReader returns for Ctrl-C.
var errInterrupt = errors.New("interrupt")

// session is one run of the shell.
type session struct {
	st       Store
	out, err io.Writer
	format   report.Format
	split    splitter
	// interrupts stop the statement running when one comes (Options).
	interrupts <-chan os.Signal
}

// loop reads and runs statements and commands until .quit or the end of
// the input (Ctrl-D).
func (s *session) loop(ctx context.Context, lr lineReader) error {
	for {
		if s.split.empty() {
			lr.SetPrompt(Prompt)
		} else {
			lr.SetPrompt(MorePrompt)
		}
		line, err := lr.Readline()
		switch {
		case errors.Is(err, errInterrupt):
			// Ctrl-C drops the statement being typed, as psql does.
			s.split.reset()
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.split.empty() {
			if cmd := strings.TrimSpace(line); strings.HasPrefix(cmd, ".") || strings.HasPrefix(cmd, `\`) {
				s.split.reset()
				lr.SaveToHistory(cmd)
				quit, err := s.command(ctx, cmd)
				if err != nil {
					fmt.Fprintf(s.err, "Error: %v\n", err)
				}
				if quit {
					return nil
				}
				continue
			}
		}
		stmts, history := s.split.add(line)
		if history != "" {
			lr.SaveToHistory(history)
		}
		for _, q := range stmts {
			if err := s.run(ctx, q); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				fmt.Fprintf(s.err, "Error: %v\n", err)
			}
		}
	}
}

// errStatementInterrupted is a statement that Ctrl-C stopped.
var errStatementInterrupted = errors.New("interrupted")

// run runs one statement and prints its rows; an interrupt while it runs
// stops it.
func (s *session) run(ctx context.Context, q string) error {
	qctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if s.interrupts != nil {
		for len(s.interrupts) > 0 {
			<-s.interrupts // one that came between statements
		}
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-s.interrupts:
				cancel()
			case <-done:
			}
		}()
	}
	t, err := s.st.Query(qctx, q)
	if err != nil && qctx.Err() != nil && ctx.Err() == nil {
		return errStatementInterrupted
	}
	if err != nil {
		return err
	}
	if len(t.Columns) == 0 || len(t.Rows) == 0 && len(t.Columns) == 1 && t.Columns[0].Name == "Count" {
		// A statement that makes or drops something: DuckDB answers
		// with an empty Count, which the shell does not print.
		return nil
	}
	return report.Write(s.out, &report.Data{Columns: report.Columns(t.Names()...), Rows: t.Rows}, s.format)
}
