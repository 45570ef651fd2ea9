package store_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
)

// folderStreams lists the k6 NDJSON point streams (.ndjson.gz) below a
// folder, in lexical order.
func folderStreams(tb testing.TB, dir string) []string {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ndjson.gz") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		tb.Fatalf("%s: no .ndjson.gz streams (%v)", dir, err)
	}
	return files
}

// folderInsertSQL is DuckDB's own load of a folder's k6 streams: the
// statement wra runs for one stream, as DuckDB runs it by default, over
// every stream of the folder at once, each row keeping its file's name.
func folderInsertSQL(tb testing.TB, dir string) string {
	q, err := store.DefaultInsertSQL(&model.BulkInput{Path: "@FILES@", Format: "k6-ndjson", Gzip: true})
	if err != nil {
		tb.Fatal(err)
	}
	files := folderStreams(tb, dir)
	lits := make([]string, len(files))
	for i, f := range files {
		lits[i] = "'" + strings.ReplaceAll(f, "'", "''") + "'"
	}
	q = strings.Replace(q, "SELECT ?,", "SELECT filename,", 1)
	return strings.Replace(q, "'@FILES@',", "["+strings.Join(lits, ", ")+"], filename = true,", 1)
}
