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
	"os"
	"os/exec"
	"path/filepath"
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

func BenchmarkStartup(b *testing.B) {
	bin := os.Getenv("WRA_BIN")
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "wra")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
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
