package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

type exportOptions struct {
	parquet string
	csv     string
	replace bool
}

func (o *exportOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.parquet, "parquet", "", "write Parquet files into this new folder")
	cmd.Flags().StringVar(&o.csv, "csv", "", "write CSV files (with a header line) into this new folder")
	cmd.Flags().BoolVar(&o.replace, "replace", false, "replace the folder when it holds an earlier wra export")
}

func newExportCmd(e *env, g *globals) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export (--parquet DIR | --csv DIR)",
		Short: "Write every table and view of the store as Parquet or CSV files",
		Long: `Write every table of the store, and every view as its own file, into a
new folder that DuckDB, Spark, Trino, ClickHouse and pandas read as it is:

    DIR/runs.parquet, DIR/calibration.parquet, …   one file per table
    DIR/samples/tool=k6/server=go-pgx/data_0.parquet  samples, hive-partitioned
    DIR/views/cpu_per_request.parquet, …           one file per view
    DIR/_wra_export.json                           what was written, with row counts

samples, the one table that grows with the length of the runs, is
partitioned by its run's tool and server (taken from runs; the two
columns come back from the folder names); the other tables are small
and stay one file each. Types are those every reader knows: JSON and
UUID become VARCHAR, unsigned and 128-bit integers BIGINT, timestamps
TIMESTAMP in microseconds. CSV text cells that begin with =, +, -, @,
a tab or a carriage return get a leading apostrophe, so that a
spreadsheet does not run them; Parquet keeps every value as stored.

The folder is written beside DIR under a temporary name and renamed
into place at the end: a failed export leaves no half folder. See
the README (Export) for querying the files on Spark, Trino, ClickHouse
and pandas.`,
		Example: `  wra export --parquet corpus.parquet
  wra sql "SELECT count(*) FROM read_parquet('corpus.parquet/samples/**/*.parquet', hive_partitioning = true)"
  wra export --csv corpus.csv --replace`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd.Context(), e, g, o)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

// exportManifest is the file _wra_export.json: what an export holds.
// Spark, Hive and Trino skip files whose names begin with an underscore.
const exportManifest = "_wra_export.json"

// exportedFile is one table or view in an export.
type exportedFile struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // table or view
	Path string `json:"path"` // below the export folder: a file, or a folder of partitions
	// PartitionBy names the hive partition columns, in folder order.
	PartitionBy []string `json:"partition_by,omitempty"`
	Rows        int64    `json:"rows"`
}

type exportInfo struct {
	Format        string         `json:"format"`
	SchemaVersion int            `json:"schema_version"`
	Files         []exportedFile `json:"files"`
}

// partitioned are the tables written hive-partitioned by their run's
// tool and server.
var partitioned = map[string]bool{"samples": true}

var partitionColumns = []string{"tool", "server"}

func runExport(ctx context.Context, e *env, g *globals, o *exportOptions) error {
	format, dir := "parquet", o.parquet
	switch {
	case o.parquet != "" && o.csv != "":
		return usagef("give --parquet DIR or --csv DIR, not both")
	case o.csv != "":
		format, dir = "csv", o.csv
	case o.parquet == "":
		return usagef("give --parquet DIR or --csv DIR")
	}
	dir = filepath.Clean(dir)
	old, err := checkExportTarget(dir, o.replace)
	if err != nil {
		return err
	}
	outFormat, err := g.outputFormat(e)
	if err != nil {
		return err
	}
	st, err := g.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	info, err := exportStore(ctx, st.DB(), tmp, format)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, exportManifest), append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if old {
		// The earlier export is moved aside, the new one renamed into
		// place, then the earlier one removed.
		aside := tmp + ".old"
		if err := os.Rename(dir, aside); err != nil {
			return err
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(aside, dir)
			return err
		}
		os.RemoveAll(aside)
	} else if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	done = true
	d := &report.Data{Columns: report.Columns("name", "kind", "rows", "path")}
	var total int64
	for _, f := range info.Files {
		d.Rows = append(d.Rows, []any{f.Name, f.Kind, f.Rows, filepath.ToSlash(filepath.Join(dir, f.Path))})
		total += f.Rows
	}
	if !g.quiet {
		fmt.Fprintf(e.stderr, "wra: exported %d tables and views (%d rows) as %s to %s\n", len(info.Files), total, format, dir)
	}
	return report.Write(e.stdout, d, outFormat)
}

// checkExportTarget refuses to write over anything but an earlier export,
// and that only with --replace. It reports whether dir exists.
func checkExportTarget(dir string, replace bool) (bool, error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("%s exists and is not a folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, exportManifest)); err != nil {
		return false, fmt.Errorf("%s exists and is not a wra export (it has no %s); choose a new folder", dir, exportManifest)
	}
	if !replace {
		return false, usagef("%s holds an earlier export; give --replace to replace it", dir)
	}
	return true, nil
}

// exportStore writes every table and view of db into dir.
func exportStore(ctx context.Context, db *sql.DB, dir, format string) (*exportInfo, error) {
	info := &exportInfo{Format: format, SchemaVersion: store.SchemaVersion()}
	rels, err := relations(ctx, db)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(filepath.Join(dir, "views"), 0o755); err != nil {
		return nil, err
	}
	for _, r := range rels {
		cols, err := describe(ctx, db, quoteIdent(r.name))
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", r.kind, r.name, err)
		}
		f := exportedFile{Name: r.name, Kind: r.kind, Path: r.name + "." + format}
		if r.kind == "view" {
			f.Path = "views/" + f.Path
		}
		query := "SELECT " + exportColumns(cols, "", format) + " FROM " + quoteIdent(r.name)
		opts := "FORMAT " + format
		if format == "csv" {
			opts += ", HEADER true"
		}
		if r.kind == "table" && partitioned[r.name] {
			// The run's tool and server, from runs; a row whose run is
			// missing keeps NULLs there (the folder __HIVE_DEFAULT_PARTITION__).
			f.Path, f.PartitionBy = r.name, partitionColumns
			query = "SELECT " + exportColumns(cols, "t.", format) + ", r.tool AS tool, r.server AS server FROM " +
				quoteIdent(r.name) + " t LEFT JOIN runs r USING (run_id)"
			opts += ", PARTITION_BY (tool, server)"
			if err := os.Mkdir(filepath.Join(dir, f.Path), 0o755); err != nil {
				return nil, err
			}
		}
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		res, err := db.ExecContext(ctx, fmt.Sprintf("COPY (%s) TO %s (%s)", query, quoteString(path), opts))
		if err != nil {
			return nil, fmt.Errorf("exporting %s %s: %w", r.kind, r.name, err)
		}
		if f.Rows, err = res.RowsAffected(); err != nil {
			return nil, err
		}
		info.Files = append(info.Files, f)
	}
	return info, nil
}

type relation struct{ name, kind string }

// relations lists the store's tables, then its views, each by name.
func relations(ctx context.Context, db *sql.DB) ([]relation, error) {
	rows, err := db.QueryContext(ctx, `SELECT table_name, CASE table_type WHEN 'VIEW' THEN 'view' ELSE 'table' END
		FROM information_schema.tables
		WHERE table_catalog = current_database() AND table_schema = 'main'
		ORDER BY table_type = 'VIEW', table_name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []relation
	for rows.Next() {
		var r relation
		if err := rows.Scan(&r.name, &r.kind); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

type columnType struct{ name, typ string }

// describe returns the columns of a relation or a query, as DuckDB's
// DESCRIBE names their types.
func describe(ctx context.Context, db *sql.DB, from string) ([]columnType, error) {
	rows, err := db.QueryContext(ctx, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+from+")")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []columnType
	for rows.Next() {
		var c columnType
		if err := rows.Scan(&c.name, &c.typ); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// exportType is the type a column is written with: the type itself where
// Parquet readers other than DuckDB know it, else the nearest one they
// do. "" keeps the column's type.
func exportType(typ string) string {
	switch typ {
	case "JSON", "UUID", "INTERVAL", "BIT", "BIGNUM", "VARINT", "TIME WITH TIME ZONE":
		return "VARCHAR"
	case "HUGEINT", "UHUGEINT", "UBIGINT", "UINTEGER":
		return "BIGINT"
	case "USMALLINT":
		return "INTEGER"
	case "UTINYINT":
		return "SMALLINT"
	case "TIMESTAMP_NS", "TIMESTAMP_MS", "TIMESTAMP_S":
		return "TIMESTAMP"
	}
	if strings.HasPrefix(typ, "ENUM(") {
		return "VARCHAR"
	}
	return ""
}

// exportColumns is the select list of an export: each column under its
// own name, cast where exportType says; in CSV, text that a spreadsheet
// would run as a formula gets a leading apostrophe.
func exportColumns(cols []columnType, prefix, format string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		ref := prefix + quoteIdent(c.name)
		typ := c.typ
		if t := exportType(c.typ); t != "" {
			ref, typ = "CAST("+ref+" AS "+t+")", t
		}
		if format == "csv" && typ == "VARCHAR" {
			ref = "CASE WHEN regexp_matches(" + ref + `, '^[=+\-@\t\r]') THEN '''' || ` + ref + " ELSE " + ref + " END"
		}
		parts[i] = ref + " AS " + quoteIdent(c.name)
	}
	return strings.Join(parts, ", ")
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
