package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wra-bench/wra/model"
)

// IsExport reports whether dir holds a wra export (its manifest).
func IsExport(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, ExportManifest))
	return err == nil && fi.Mode().IsRegular()
}

// ImportExport loads the tables of a Parquet export (wra export
// --parquet) into the store, which must hold no runs: each table by its
// columns' names, the hive partition columns of a partitioned one left
// out (they are its run's, in runs); the store's own bookkeeping (the
// wra_ tables: migrations, generation, definitions) and its prices stay
// its own, and its generation is raised. The views are the store's own,
// computed from the tables as for any store. A CSV export is refused:
// its text cells may carry the apostrophe that keeps spreadsheets from
// running them, so it does not read back as stored.
func (s *Store) ImportExport(ctx context.Context, dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, ExportManifest))
	if err != nil {
		return err
	}
	var info ExportInfo
	if err := json.Unmarshal(b, &info); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, ExportManifest), err)
	}
	if info.Format != "parquet" {
		return fmt.Errorf("%s: a %s export; export the store with --parquet to compare it", dir, info.Format)
	}
	if info.SchemaVersion > SchemaVersion() {
		return fmt.Errorf("%s: an export of schema version %d, newer than this wra's %d", dir, info.SchemaVersion, SchemaVersion())
	}
	if !model.ScannablePath(dir) {
		return fmt.Errorf("%s: DuckDB cannot read a folder whose path has a backslash and one of *, ? and [ in it; rename or move it", dir)
	}
	if n, err := s.scalar(ctx, `SELECT count(*) FROM runs`); err != nil {
		return err
	} else if integer(n) != 0 {
		return fmt.Errorf("%s: the store already holds %d runs; import an export into an empty store", dir, integer(n))
	}
	// One transaction: an import that fails at any table leaves the store
	// as empty as it was.
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, f := range info.Files {
		if f.Kind != "table" || strings.HasPrefix(f.Name, "wra_") || f.Name == "prices" {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		src := "read_parquet(" + sqlString(scanPath(path)) + ")"
		sel := "*"
		if len(f.PartitionBy) > 0 {
			// An empty partitioned table is an empty folder. (Not
			// filepath.Glob: a folder named corpus[1].parquet is a
			// pattern to it, as to DuckDB's scanners: scanPath.)
			entries, err := os.ReadDir(path)
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s: the export lists %s, which is not there", dir, f.Path)
			}
			if err != nil {
				return err
			}
			if len(entries) == 0 {
				continue
			}
			src = "read_parquet(" + sqlString(scanPath(path)+string(filepath.Separator)+filepath.Join("**", "*.parquet")) + ", hive_partitioning = true)"
			quoted := make([]string, len(f.PartitionBy))
			for i, c := range f.PartitionBy {
				quoted[i] = quoteIdent(c)
			}
			sel = "* EXCLUDE (" + strings.Join(quoted, ", ") + ")"
		} else if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: the export lists %s, which is not there", dir, f.Path)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO "+quoteIdent(f.Name)+" BY NAME SELECT "+sel+" FROM "+src); err != nil {
			return fmt.Errorf("%s: importing %s: %w", dir, f.Path, s.outOfMemory(err))
		}
	}
	if _, err := tx.ExecContext(ctx, bumpSQL); err != nil {
		return err
	}
	return tx.Commit()
}
