package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
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
	d, err := queryTable(ctx, st.DB(), query)
	if err != nil {
		return fmt.Errorf("%v\nquery: %s", err, strings.TrimSpace(query))
	}
	if o.write {
		// The store may have changed: cached analyses must not be re-used.
		if err := st.Bump(ctx); err != nil {
			return err
		}
	}
	return report.Write(e.stdout, d, format)
}

// queryTable runs a query and returns its rows as a table.
func queryTable(ctx context.Context, db *sql.DB, query string, args ...any) (*report.Data, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	d := &report.Data{Columns: report.Columns(cols...)}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			vals[i] = cellValue(v)
		}
		d.Rows = append(d.Rows, vals)
	}
	return d, rows.Err()
}

// cellValue turns a DuckDB value into one the report writers know.
func cellValue(v any) any {
	switch x := v.(type) {
	case nil, string, bool, int64, float64, time.Time:
		return x
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		return json.Number(fmt.Sprint(x))
	case float32:
		return float64(x)
	case duckdb.Decimal:
		return json.Number(x.String())
	case []byte:
		return string(x)
	case duckdb.UUID:
		return x.String()
	case *duckdb.UUID:
		return x.String()
	}
	if b, err := json.Marshal(jsonable(v)); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}

// jsonable converts DuckDB's nested values (maps with non-string keys) for
// encoding/json.
func jsonable(v any) any {
	switch x := v.(type) {
	case duckdb.Map:
		m := make(map[string]any, len(x))
		for k, val := range x {
			m[fmt.Sprint(k)] = jsonable(val)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, val := range x {
			m[k] = jsonable(val)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = jsonable(val)
		}
		return out
	}
	return v
}
