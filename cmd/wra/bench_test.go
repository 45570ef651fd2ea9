package main

// Benchmarks of wra analyze on a corpus and of wra's start-up.
//
//	CGO_ENABLED=1 go test ./cmd/wra -run '^$' -bench 'Analyze|Startup' -benchtime 5x
//
// BenchmarkAnalyze reads WRA_BENCH_CORPUS (../../data unless set: the
// shipped corpus with its wra.toml), ingests it once into a new store,
// then times wra analyze in process: "warm" with the report folder
// removed before each run (every file hashed and found unchanged, the
// whole analysis, every table and plot written), "unchanged" with the
// report of the last run in place (re-used). BenchmarkStartup runs the
// wra binary at WRA_BIN (built with go build when unset) with --help and
// version, and reports the wall and the CPU time of each.

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func benchWRA(b *testing.B, args ...string) {
	b.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	if code := run(context.Background(), e, args); code != exitOK && code != exitPartial {
		b.Fatalf("wra %v: exit %d\n%s", args, code, errb.String())
	}
}

// cpuNow is the user + system time of this process so far.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkAnalyze(b *testing.B) {
	corpus := os.Getenv("WRA_BENCH_CORPUS")
	if corpus == "" {
		corpus = "../../data"
	}
	if _, err := os.Stat(filepath.Join(corpus, "wra.toml")); err != nil {
		b.Skipf("no corpus: %v (set WRA_BENCH_CORPUS)", err)
	}
	dir := b.TempDir()
	db := filepath.Join(dir, "bench.duckdb")
	out := filepath.Join(dir, "report")
	args := []string{"--db", db, "--quiet", "analyze", "--format", "csv", "--out", out, corpus}
	benchWRA(b, args...) // ingest, first analysis
	for _, c := range []struct {
		name  string
		fresh bool
	}{{"warm", true}, {"unchanged", false}} {
		b.Run(c.name, func(b *testing.B) {
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				if c.fresh {
					b.StopTimer()
					if err := os.RemoveAll(out); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				c0 := cpuNow()
				benchWRA(b, args...)
				cpu += cpuNow() - c0
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// benchBinary is the wra binary at WRA_BIN, else one built with go build.
func benchBinary(b *testing.B) string {
	b.Helper()
	if bin := os.Getenv("WRA_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(b.TempDir(), "wra")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func BenchmarkStartup(b *testing.B) {
	bin := benchBinary(b)
	for _, args := range [][]string{{"--help"}, {"version"}} {
		b.Run(strings.Join(args, " "), func(b *testing.B) {
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(bin, args...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", args, err, out)
				}
				ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkPeakMemory runs the wra binary at WRA_BIN (built with go build
// when unset) and reports the peak resident set of each run, the
// kernel's own count (maxrss of the finished child), beside its wall
// time:
//
//	WRA_BENCH_CORPUS=/path/to/corpus WRA_BENCH_MAX_RSS_MIB=800 \
//	  CGO_ENABLED=1 go test ./cmd/wra -run '^$' -bench PeakMemory -benchtime 1x
//
// "ingest" loads WRA_BENCH_CORPUS (../../data unless set) into a new
// store; "analyze" is wra analyze --no-ingest into a new report folder;
// "compare" a compare of two servers (WRA_BENCH_COMPARE, "go-pgx go-pq"
// unless set). WRA_BENCH_DB names a store already ingested, to measure
// analyze and compare alone on a large one. With WRA_BENCH_MAX_RSS_MIB
// set, a run whose peak is above it fails the benchmark.
func BenchmarkPeakMemory(b *testing.B) {
	bin := benchBinary(b)
	maxMiB := math.Inf(1)
	if v := os.Getenv("WRA_BENCH_MAX_RSS_MIB"); v != "" {
		var err error
		if maxMiB, err = strconv.ParseFloat(v, 64); err != nil {
			b.Fatalf("WRA_BENCH_MAX_RSS_MIB=%q: not a number", v)
		}
	}
	// peak runs wra with args and gives its peak resident set in MiB.
	peak := func(b *testing.B, args ...string) float64 {
		b.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "WRA_DB=")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("wra %v: %v\n%s", args, err, out)
		}
		return float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024 // KiB on Linux
	}
	measure := func(b *testing.B, each func(i int) []string) {
		var worst float64
		for i := 0; i < b.N; i++ {
			worst = math.Max(worst, peak(b, each(i)...))
		}
		b.ReportMetric(worst, "peak-MiB")
		if worst > maxMiB {
			b.Errorf("peak resident set %.0f MiB, above WRA_BENCH_MAX_RSS_MIB %g", worst, maxMiB)
		}
	}
	dir := b.TempDir()
	db := os.Getenv("WRA_BENCH_DB")
	if db == "" {
		corpus := os.Getenv("WRA_BENCH_CORPUS")
		if corpus == "" {
			corpus = "../../data"
		}
		if _, err := os.Stat(filepath.Join(corpus, "wra.toml")); err != nil {
			b.Skipf("no corpus: %v (set WRA_BENCH_CORPUS or WRA_BENCH_DB)", err)
		}
		db = filepath.Join(dir, "bench.duckdb")
		b.Run("ingest", func(b *testing.B) {
			measure(b, func(i int) []string {
				b.StopTimer()
				for _, f := range []string{db, db + ".wal"} {
					if err := os.RemoveAll(f); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				return []string{"--db", db, "--quiet", "ingest", corpus}
			})
		})
	}
	b.Run("analyze", func(b *testing.B) {
		measure(b, func(i int) []string {
			return []string{"--db", db, "--quiet", "analyze", "--no-ingest", "--format", "csv", "--out", filepath.Join(dir, "report-"+strconv.Itoa(i))}
		})
	})
	sides := strings.Fields(os.Getenv("WRA_BENCH_COMPARE"))
	if len(sides) != 2 {
		sides = []string{"go-pgx", "go-pq"}
	}
	b.Run("compare", func(b *testing.B) {
		measure(b, func(int) []string {
			return []string{"--db", db, "--format", "csv", "compare", "--by", "server", "--base", sides[0], "--vs", sides[1]}
		})
	})
}
