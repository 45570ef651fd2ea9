package store_test

// Benchmarks of a folder of many small reports, where the walker and the
// store meet: the first ingest into a new store, and a second ingest of
// the unchanged folder, which must only hash the files.
//
//	CGO_ENABLED=1 go test ./model/store -run '^$' -bench 'IngestSmallReports|ReingestUnchanged' -benchtime 1x
//
// The folder holds WRA_BENCH_FILES files (10000 unless set): copies, in
// turn, of the real wrk2, ab and bombardier captures of ingest/testdata,
// each ending in its own run of blank space so that every file has its
// own hash, as a folder of distinct reports does. It is made in a
// temporary folder, or in WRA_BENCH_DIR where it is kept between runs.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model/store"
)

// smallReports are the captures copied into the folder: complete reports
// of wrk2, ab and bombardier (not the error-only ones).
var smallReports = []string{
	"wrk2/wrk2_U_go2_wait5_R1000.txt",
	"wrk2/wrk2_latency_nginx_static_R5000.txt",
	"wrk2/wrk2_non2xx_go1_err5pct_R1500.txt",
	"wrk2/wrk2_plain_go2_ping_R2000.txt",
	"wrk2/wrk2_short_6s_go1_ping_R500.txt",
	"ab/ab_S_d_l_go2_ping_n500_c5.txt",
	"ab/ab_keepalive_go2_ping_n10000_c20.txt",
	"ab/ab_non2xx_go1_err5pct_n4000_c8.txt",
	"ab/ab_plain_nginx_static_n5000_c10.txt",
	"ab/ab_post_go2_echo.txt",
	"bombardier/bombardier_default_go2_ping.txt",
	"bombardier/bombardier_json_go1_wait5.json",
	"bombardier/bombardier_json_n2000_err5pct.json",
	"bombardier/bombardier_latencies_nginx_static.txt",
	"bombardier/bombardier_rate800_go2_ping.txt",
}

// smallReportsDir returns a folder of n small reports, made once.
func smallReportsDir(b *testing.B) (string, int) {
	b.Helper()
	files, err := envInt("WRA_BENCH_FILES", 10000)
	if err != nil || files < 1 {
		b.Fatalf("WRA_BENCH_FILES: %v, want a count of files", err)
	}
	n := int(files)
	base := os.Getenv("WRA_BENCH_DIR")
	if base == "" {
		base = b.TempDir()
	}
	dir := filepath.Join(base, fmt.Sprintf("small_reports_%d", n))
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); err == nil {
		return dir, n
	}
	srcs := make([][]byte, len(smallReports))
	for i, p := range smallReports {
		data, err := os.ReadFile(filepath.Join("../../ingest/testdata", p))
		if err != nil {
			b.Fatal(err)
		}
		srcs[i] = data
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		k := i % len(srcs)
		name := smallReports[k]
		ext := filepath.Ext(name)
		// 100 files a folder, as a harness writes passes into folders.
		sub := filepath.Join(dir, fmt.Sprintf("%03d", i/100))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		// Spaces then newlines: i as a pair (i mod 64, i div 64) makes
		// every file's bytes its own; every reader ignores trailing
		// blank space.
		data := append(append([]byte{}, srcs[k]...), strings.Repeat(" ", i%64)+strings.Repeat("\n", 1+i/64)...)
		f := filepath.Join(sub, fmt.Sprintf("%s_%05d%s", strings.TrimSuffix(filepath.Base(name), ext), i, ext))
		if err := os.WriteFile(f, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir, n
}

// ingestAll ingests dir into the store and checks that every file ended
// with the status want.
func ingestAll(b *testing.B, s *store.Store, dir string, n int, want ingest.Status) {
	b.Helper()
	res, err := ingest.Ingest(context.Background(), s, []string{dir}, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Files) != n || res.Count(want) != n {
		for _, f := range res.Files {
			if f.Status != want {
				b.Fatalf("%d files, %d %s; %s: %s %s %v", len(res.Files), res.Count(want), want, f.Source, f.Status, f.Reason, f.Err)
			}
		}
		b.Fatalf("%d files, want %d", len(res.Files), n)
	}
}

// cpuTime is the user + system time of this process so far: on a shared
// machine, steadier than the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report gives the per-ingest wall and CPU time and the files per second.
func report(b *testing.B, n int, cpu time.Duration) {
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/ingest")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/ingest")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

func BenchmarkIngestSmallReports(b *testing.B) {
	dir, n := smallReportsDir(b)
	db := filepath.Join(b.TempDir(), "small.duckdb")
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		os.Remove(db)
		os.Remove(db + ".wal")
		b.StartTimer()
		c0 := cpuTime()
		s, err := store.Open(context.Background(), db, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ingestAll(b, s, dir, n, ingest.Loaded)
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
	}
	report(b, n, cpu)
}

func BenchmarkReingestUnchanged(b *testing.B) {
	dir, n := smallReportsDir(b)
	db := filepath.Join(b.TempDir(), "small.duckdb")
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ingestAll(b, s, dir, n, ingest.Loaded)
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	c0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// As wra ingest runs it: open the store, walk, close.
		s, err := store.Open(context.Background(), db, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ingestAll(b, s, dir, n, ingest.Unchanged)
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	report(b, n, cpuTime()-c0)
}
