package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/cmd/wra/internal/shell"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

type sqlOptions struct {
	file  string
	write bool
}

func (o *sqlOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&o.file, "file", "f", "", "read the query from a file")
	cmd.Flags().BoolVar(&o.write, "write", false, "open the store for writing (the default is read-only)")
}

func newSQLCmd(e *env, g *globals) *cobra.Command {
	o := &sqlOptions{}
	cmd := &cobra.Command{
		Use:   "sql [QUERY | -f FILE | -]",
		Short: "Run SQL against the store, or open a SQL shell on it",
		Long: `Run SQL against the store and print the result in --format.

With no query on a terminal, open a shell: statements end with a
semicolon and may span lines; .tables, .schema [NAME] and \d [NAME] list
the tables, views and macros with their columns; .format sets the
format; .help lists the commands; .quit or Ctrl-D leaves. History is
kept in $WRA_SQL_HISTORY, else $XDG_STATE_HOME/wra/sql_history, else
~/.local/state/wra/sql_history.

The store opens read-only unless --write is given, and then only queries
run (SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE): a statement
that could write the store, a file (COPY ... TO, EXPORT DATABASE), attach
a database, install or load an extension or change a setting is refused
before anything runs. The tables and views are documented in docs/store.md;
DuckDB's SQL applies, including read_parquet, read_csv and read_json over
files.`,
		Example: `  wra sql "SELECT server, round, cpu_server_s FROM runs ORDER BY 1, 2"
  wra sql --format markdown -f questions/cpu.sql
  echo "SELECT * FROM cpu_per_request" | wra sql --format json -
  wra sql                      # the shell, on a terminal`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSQL(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runSQL(ctx context.Context, e *env, g *globals, o *sqlOptions, args []string) error {
	tty, interactive := e.stdin.(*os.File)
	interactive = interactive && e.stdinTTY && o.file == "" && len(args) == 0
	var query string
	if !interactive {
		var err error
		if query, err = sqlQuery(e, o, args); err != nil {
			return err
		}
	}
	format, err := g.outputFormat(e)
	if err != nil {
		return err
	}
	st, err := g.openStore(ctx, !o.write)
	if err != nil {
		return err
	}
	defer st.Close()
	var t *store.Table
	if interactive {
		err = runShell(ctx, e, g, st, format, tty, o.write)
	} else if t, err = sqlSession(st, o.write).Query(ctx, query); err != nil {
		if errors.As(err, new(*store.ReadOnlyError)) {
			err = fmt.Errorf("%w; wra sql --write runs it", err)
		}
		err = fmt.Errorf("%w\nquery: %s", err, strings.TrimSpace(query))
	}
	if o.write {
		// The store may have changed: cached analyses must not be re-used.
		if berr := st.Bump(ctx); err == nil {
			err = berr
		}
	}
	if err != nil || t == nil {
		return err
	}
	return report.Write(e.stdout, tableData(t), format)
}

// readOnlySession runs only queries: the store is open read-only, and a
// statement that could write a file, attach a database, load an
// extension or change a setting is refused before it runs.
type readOnlySession struct{ *store.Store }

func (r readOnlySession) Query(ctx context.Context, query string, args ...any) (*store.Table, error) {
	return r.QueryReadOnly(ctx, query, args...)
}

// sqlSession is what wra sql and its shell run statements on: the store
// itself with --write, else a read-only session of it.
func sqlSession(st *store.Store, write bool) shell.Store {
	if write {
		return st
	}
	return readOnlySession{st}
}

// sqlQuery is the query of wra sql: its argument, -f FILE, or stdin.
func sqlQuery(e *env, o *sqlOptions, args []string) (string, error) {
	var query string
	switch {
	case o.file != "" && len(args) > 0:
		return "", usagef("give a query or -f FILE, not both")
	case o.file != "":
		b, err := os.ReadFile(o.file)
		if err != nil {
			return "", err
		}
		query = string(b)
	case len(args) == 1 && args[0] == "-":
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return "", err
		}
		query = string(b)
	case len(args) == 1:
		query = args[0]
	default:
		return "", usagef("give a query, -f FILE, or - to read it from stdin")
	}
	if strings.TrimSpace(query) == "" {
		return "", usagef("the query is empty")
	}
	return query, nil
}
