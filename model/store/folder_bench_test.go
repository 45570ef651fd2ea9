package store_test

// BenchmarkK6Folder measures how fast a folder of k6 point streams loads
// into a new store, against DuckDB's own load of the same files: one
// INSERT INTO samples SELECT ... FROM read_json over every .ndjson.gz of
// the folder, each row keeping its file's name, with DuckDB's default
// settings, measured in the same run:
//
//	CGO_ENABLED=1 go test ./model/store -run '^$' -bench K6Folder -benchtime 1x
//
// The folder is data/ladder (30 streams of a k6 ladder, 44 MB gzipped,
// 6.8 million points) unless WRA_BENCH_FOLDER names another (of .csv.gz
// streams, with DuckDB's read_csv, when it has no .ndjson.gz); wra
// ingests the whole folder (its summaries too). As for BenchmarkK6BigSeries,
// every load runs in a child process, WRA_BENCH_REPS times each (5
// unless set), in alternating pairs, and the ratios reported are the
// medians of the pairs' ratios, wra's over DuckDB's.

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
)

// folderStreams lists the k6 point streams below a folder, in lexical
// order: its gzipped NDJSON streams (.ndjson.gz), or, when it has none,
// its gzipped CSV streams (.csv.gz).
func folderStreams(tb testing.TB, dir string) []string {
	tb.Helper()
	byExt := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		for _, ext := range []string{".ndjson.gz", ".csv.gz"} {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) {
				byExt[ext] = append(byExt[ext], p)
			}
		}
		return err
	})
	files := byExt[".ndjson.gz"]
	if len(files) == 0 {
		files = byExt[".csv.gz"]
	}
	if err != nil || len(files) == 0 {
		tb.Fatalf("%s: no .ndjson.gz or .csv.gz streams (%v)", dir, err)
	}
	return files
}

// folderInsertSQL is DuckDB's own load of a folder's k6 streams: the
// statement wra runs for one stream, as DuckDB runs it by default, over
// every stream of the folder at once, each row keeping its file's name.
// CSV streams are read with the header of the first, and must have
// k6's default timestamps, Unix seconds.
func folderInsertSQL(tb testing.TB, dir string) string {
	files := folderStreams(tb, dir)
	in := &model.BulkInput{Path: "@FILES@", Format: "k6-ndjson", Gzip: true}
	if strings.HasSuffix(files[0], ".csv.gz") {
		cols, err := csvHeader(files[0])
		if err != nil {
			tb.Fatal(err)
		}
		in.Format, in.TimeFormat, in.Columns = "k6-csv", "s", cols
	}
	q, err := store.DefaultInsertSQL(in)
	if err != nil {
		tb.Fatal(err)
	}
	lits := make([]string, len(files))
	for i, f := range files {
		lits[i] = "'" + strings.ReplaceAll(f, "'", "''") + "'"
	}
	q = strings.Replace(q, "SELECT ?,", "SELECT filename,", 1)
	return strings.Replace(q, "'@FILES@',", "["+strings.Join(lits, ", ")+"], filename = true,", 1)
}

func BenchmarkK6Folder(b *testing.B) {
	benchFolder(b, cmp.Or(os.Getenv("WRA_BENCH_FOLDER"), "../../data/ladder"))
}

// BenchmarkK6CSVFolder is BenchmarkK6Folder on a folder of 30 gzipped k6
// CSV streams that it writes first, each the capture
// k6_constant_go2_ping_points.csv repeated to 23 MB of CSV (16 copies,
// 6.7 million points in all), every copy later than the one before, in
// WRA_BENCH_DIR when it is set (written again each time), else in a
// temporary folder:
//
//	CGO_ENABLED=1 go test ./model/store -run '^$' -bench K6CSVFolder -benchtime 1x
func BenchmarkK6CSVFolder(b *testing.B) {
	dir := filepath.Join(cmp.Or(os.Getenv("WRA_BENCH_DIR"), b.TempDir()), "k6-csv-folder")
	const files, copies = 30, 16
	src := k6Testdata + "k6_constant_go2_ping_points.csv"
	st, err := os.Stat(src)
	if err != nil {
		b.Fatal(err)
	}
	for i := range files {
		p := filepath.Join(dir, fmt.Sprintf("s%d", i/10), fmt.Sprintf("srv%d", i%10), "points.csv.gz")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := genK6CSV(src, p, (copies-1)*st.Size()+1, int64(i*copies)); err != nil {
			b.Fatal(err)
		}
	}
	benchFolder(b, dir)
}

// benchFolder times the ingest of the folder dir against DuckDB's own
// load of its streams (folderInsertSQL), in alternating pairs.
func benchFolder(b *testing.B, dir string) {
	reps, err := envInt("WRA_BENCH_REPS", 5)
	if err != nil || reps < 1 {
		b.Fatalf("WRA_BENCH_REPS: %v, want a count of 1 or more", err)
	}
	var size int64
	for _, f := range folderStreams(b, dir) {
		st, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	tmp := b.TempDir()
	var wra, duck []measured
	for i := 0; i < b.N; i++ {
		wra, duck = alternate(int(reps), func() measured { return child(b, "wra-folder", tmp, dir) },
			func() measured { return child(b, "duckdb-folder", tmp, dir) })
	}
	b.StopTimer()
	// MB/s of the streams as they are on disk (gzipped).
	reportVsDuckDB(b, wra, duck, float64(size)/(1<<20))
	b.Logf("wra's time over DuckDB's by pair: wall %s, CPU %s", fmtRatios(ratios(wra, duck, func(m measured) float64 { return m.seconds })),
		fmtRatios(ratios(wra, duck, func(m measured) float64 { return m.cpu })))
}
