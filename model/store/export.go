package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ExportManifest is the file of an export that says what it holds. Spark,
// Hive and Trino skip files whose names begin with an underscore.
const ExportManifest = "_wra_export.json"

// ExportFormats are the formats Export writes.
var ExportFormats = []string{"parquet", "csv"}

// ExportedFile is one table or view in an export.
type ExportedFile struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // table or view
	Path string `json:"path"` // below the export folder: a file, or a folder of partitions
	// PartitionBy names the hive partition columns, in folder order.
	PartitionBy []string `json:"partition_by,omitempty"`
	Rows        int64    `json:"rows"`
}

// ExportInfo is what an export holds: the content of its manifest.
type ExportInfo struct {
	Format        string         `json:"format"`
	SchemaVersion int            `json:"schema_version"`
	Files         []ExportedFile `json:"files"`
}

// ErrEarlierExport is a folder that holds an earlier export, which Export
// replaces only when told to.
var ErrEarlierExport = errors.New("holds an earlier export; give --replace to replace it")

// partitioned are the tables written hive-partitioned by their run's
// tool and server.
var partitioned = map[string]bool{"samples": true}

var partitionColumns = []string{"tool", "server"}

// Export writes every table of the store, and every view as its own file,
// into the new folder dir, in format (parquet or csv), with the manifest.
// The folder is written beside dir under a temporary name and renamed
// into place at the end, so that a failed export leaves no half folder.
// Export refuses to write over anything but an earlier export, and over
// that only with replace.
func (s *Store) Export(ctx context.Context, dir, format string, replace bool) (*ExportInfo, error) {
	if format != "parquet" && format != "csv" {
		return nil, fmt.Errorf("export format must be one of %s, not %q", strings.Join(ExportFormats, ", "), format)
	}
	dir = filepath.Clean(dir)
	old, err := checkExportTarget(dir, replace)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	info, err := s.exportInto(ctx, tmp, format)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, ExportManifest), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, err
	}
	if old {
		// The earlier export is moved aside, the new one renamed into
		// place, then the earlier one removed.
		aside := tmp + ".old"
		if err := os.Rename(dir, aside); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(aside, dir)
			return nil, err
		}
		os.RemoveAll(aside)
	} else if err := os.Rename(tmp, dir); err != nil {
		return nil, err
	}
	done = true
	return info, nil
}

// checkExportTarget reports whether dir exists, and refuses a dir that is
// not an earlier export, or is one while replace is not given.
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
	if _, err := os.Stat(filepath.Join(dir, ExportManifest)); err != nil {
		return false, fmt.Errorf("%s exists and is not a wra export (it has no %s); choose a new folder", dir, ExportManifest)
	}
	if !replace {
		return false, fmt.Errorf("%s %w", dir, ErrEarlierExport)
	}
	return true, nil
}

// exportInto writes every table and view into dir.
func (s *Store) exportInto(ctx context.Context, dir, format string) (*ExportInfo, error) {
	info := &ExportInfo{Format: format, SchemaVersion: SchemaVersion()}
	rels, err := s.relations(ctx)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(filepath.Join(dir, "views"), 0o755); err != nil {
		return nil, err
	}
	for _, r := range rels {
		cols, err := s.describe(ctx, quoteIdent(r.name))
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", r.kind, r.name, err)
		}
		f := ExportedFile{Name: r.name, Kind: r.kind, Path: r.name + "." + format}
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
		if f.Rows, err = s.exec(ctx, fmt.Sprintf("COPY (%s) TO %s (%s)", query, sqlString(path), opts)); err != nil {
			return nil, fmt.Errorf("exporting %s %s: %w", r.kind, r.name, err)
		}
		info.Files = append(info.Files, f)
	}
	return info, nil
}

type relation struct{ name, kind string }

// relations lists the store's tables, then its views, each by name.
func (s *Store) relations(ctx context.Context) ([]relation, error) {
	var out []relation
	err := s.eachNamed(ctx, `SELECT table_name, CASE table_type WHEN 'VIEW' THEN 'view' ELSE 'table' END AS kind
		FROM information_schema.tables
		WHERE table_catalog = current_database() AND table_schema = 'main'
		ORDER BY table_type = 'VIEW', table_name`, nil, func(row namedRow) error {
		out = append(out, relation{row.text("table_name"), row.text("kind")})
		return nil
	})
	return out, err
}

type columnType struct{ name, typ string }

// describe returns the columns of a relation or a query, as DuckDB's
// DESCRIBE names their types.
func (s *Store) describe(ctx context.Context, from string) ([]columnType, error) {
	var out []columnType
	err := s.eachNamed(ctx, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+from+")", nil, func(row namedRow) error {
		out = append(out, columnType{row.text("column_name"), row.text("column_type")})
		return nil
	})
	return out, err
}

// ExportType is the type a column of DuckDB type typ is exported with:
// the type itself where Parquet readers other than DuckDB know it, else
// the nearest one they do. "" keeps the column's type.
func ExportType(typ string) string {
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
// own name, cast where ExportType says; in CSV, text that a spreadsheet
// would run as a formula gets a leading apostrophe.
func exportColumns(cols []columnType, prefix, format string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		ref := prefix + quoteIdent(c.name)
		typ := c.typ
		if t := ExportType(c.typ); t != "" {
			ref, typ = "CAST("+ref+" AS "+t+")", t
		}
		if format == "csv" && typ == "VARCHAR" {
			ref = "CASE WHEN regexp_matches(" + ref + `, '^[=+\-@\t\r]') THEN '''' || ` + ref + " ELSE " + ref + " END"
		}
		parts[i] = ref + " AS " + quoteIdent(c.name)
	}
	return strings.Join(parts, ", ")
}
