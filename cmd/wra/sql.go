package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

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
		Short: "Run SQL against the store",
		Long: `Run SQL against the store and print the result in --format.

The store opens read-only unless --write is given. The tables and views
are documented in the README; DuckDB's SQL applies, including
read_parquet, read_csv and read_json over files.`,
		Example: `  wra sql "SELECT server, round, cpu_server_s FROM runs ORDER BY 1, 2"
  wra sql --format markdown -f questions/cpu.sql
  echo "SELECT * FROM cpu_per_request" | wra sql --format json -`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSQL(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runSQL(ctx context.Context, e *env, g *globals, o *sqlOptions, args []string) error {
	var query string
	switch {
	case o.file != "" && len(args) > 0:
		return usagef("give a query or -f FILE, not both")
	case o.file != "":
		b, err := os.ReadFile(o.file)
		if err != nil {
			return err
		}
		query = string(b)
	case len(args) == 1 && args[0] == "-":
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return err
		}
		query = string(b)
	case len(args) == 1:
		query = args[0]
	default:
		return usagef("give a query, -f FILE, or - to read it from stdin")
	}
	if strings.TrimSpace(query) == "" {
		return usagef("the query is empty")
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
	t, err := st.Query(ctx, query)
	if err != nil {
		return fmt.Errorf("%v\nquery: %s", err, strings.TrimSpace(query))
	}
	if o.write {
		// The store may have changed: cached analyses must not be re-used.
		if err := st.Bump(ctx); err != nil {
			return err
		}
	}
	return report.Write(e.stdout, tableData(t), format)
}
