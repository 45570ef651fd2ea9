package store_test

// BenchmarkIngestCopy measures whether ingest keeps a flat rate as the
// store grows: it loads a copy of a corpus into an empty store, then
// WRA_BENCH_COPIES copies (4 unless set) more without timing them, then
// one copy again into the store that holds them, and reports both times
// and their ratio (1 is a flat rate: what a file costs does not depend
// on what the store holds):
//
//	CGO_ENABLED=1 go test ./model/store -run '^$' -bench IngestCopy -benchtime 1x
//
// The corpus is the repository's data/ folder, or WRA_BENCH_DATA. Each
// copy is a folder of hard links to it (copies where a link cannot be
// made) named copyNN, so that its files are new sources of the store, in
// a temporary folder or in WRA_BENCH_DIR where they are kept between
// runs. CPU times (user + system of this process) are reported beside
// the wall times: on a shared machine they are the steadier.

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model/store"
)

// corpusCopy returns a folder named name below base that holds the
// corpus src, made once.
func corpusCopy(b *testing.B, src, base, name string) string {
	b.Helper()
	dir := filepath.Join(base, name)
	done := filepath.Join(base, name+".complete")
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	os.RemoveAll(dir)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if os.Link(p, dst) == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// ingestCopy ingests dir into the store at db and returns the wall and
// CPU time it took, the store's opening and closing included (as wra
// ingest runs), and the files it loaded.
func ingestCopy(b *testing.B, db, dir string) (wall, cpu time.Duration, files int) {
	b.Helper()
	t0, c0 := time.Now(), cpuTime()
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	res, err := ingest.Ingest(context.Background(), s, []string{dir}, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Status == ingest.Failed {
			b.Fatalf("%s: %v", f.Source, f.Err)
		}
	}
	return time.Since(t0), cpuTime() - c0, res.Count(ingest.Loaded)
}

func BenchmarkIngestCopy(b *testing.B) {
	src := os.Getenv("WRA_BENCH_DATA")
	if src == "" {
		src = "../../data"
	}
	n, err := envInt("WRA_BENCH_COPIES", 4)
	if err != nil || n < 1 {
		b.Fatalf("WRA_BENCH_COPIES: %v, want a count of copies", err)
	}
	base := os.Getenv("WRA_BENCH_DIR")
	if base == "" {
		base = b.TempDir()
	}
	copies := make([]string, n+1)
	for i := range copies {
		copies[i] = corpusCopy(b, src, base, fmt.Sprintf("copy%02d", i))
	}
	var first, last, firstCPU, lastCPU time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db := filepath.Join(b.TempDir(), "copies.duckdb")
		b.StartTimer()
		w, c, loaded := ingestCopy(b, db, copies[0])
		if loaded == 0 {
			b.Fatalf("%s: no file loaded", copies[0])
		}
		first, firstCPU = first+w, firstCPU+c
		b.StopTimer()
		for _, dir := range copies[1:n] {
			ingestCopy(b, db, dir)
		}
		b.StartTimer()
		w, c, again := ingestCopy(b, db, copies[n])
		if again != loaded {
			b.Fatalf("%s: %d files loaded, the first copy %d", copies[n], again, loaded)
		}
		last, lastCPU = last+w, lastCPU+c
	}
	b.ReportMetric(first.Seconds()/float64(b.N), "s/first-copy")
	b.ReportMetric(last.Seconds()/float64(b.N), "s/copy-after-N")
	b.ReportMetric(last.Seconds()/first.Seconds(), "after-N/first")
	b.ReportMetric(firstCPU.Seconds()/float64(b.N), "cpu-s/first-copy")
	b.ReportMetric(lastCPU.Seconds()/float64(b.N), "cpu-s/copy-after-N")
	b.ReportMetric(lastCPU.Seconds()/firstCPU.Seconds(), "cpu-after-N/first")
	b.ReportMetric(float64(n), "N")
}
