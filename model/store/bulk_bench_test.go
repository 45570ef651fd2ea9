package store_test

// BenchmarkK6BigSeries measures how fast a big k6 point stream loads into
// the store and how much memory that takes, against DuckDB's own INSERT
// INTO samples SELECT ... FROM read_json/read_csv of the same columns on
// the same file, measured in the same run (and jq, once, when it is on
// the PATH):
//
//	CGO_ENABLED=1 go test ./model/store -run '^$' -bench K6BigSeries -benchtime 1x
//
// Each input is loaded WRA_BENCH_REPS times (5 unless set) by wra and as
// often by DuckDB, alternately, each pair in the other order from the
// pair before, so that a slow minute of a shared machine falls on both;
// the ratios reported are the medians of the pairs' ratios, wra's time
// over DuckDB's (below 1, wra is the faster).
//
// The files (>= 500 MB each, WRA_BENCH_MB to change) are generated from a
// real capture, repeated with shifted timestamps, into a temporary
// folder, or into WRA_BENCH_DIR where they are kept between runs: by
// default k6_constant_go2_ping_points.ndjson / .csv of the test data,
// else the NDJSON capture in WRA_BENCH_NDJSON and the CSV capture (with
// k6's default Unix-second timestamps) in WRA_BENCH_CSV. Every load runs
// in a child process (this test binary again), so that its wall time, CPU
// time and peak RSS (ru_maxrss) are its own.

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/stats"
)

const benchChildEnv = "WRA_BULK_BENCH_CHILD"

// TestBulkBenchChild is the child process of BenchmarkK6BigSeries: it
// loads one file one way and exits. It does nothing in a normal test run.
func TestBulkBenchChild(t *testing.T) {
	spec := os.Getenv(benchChildEnv)
	if spec == "" {
		t.Skip("only run by BenchmarkK6BigSeries")
	}
	mode, rest, _ := strings.Cut(spec, ":")
	dbPath, file, _ := strings.Cut(rest, ":")
	ctx := context.Background()
	s, err := store.Open(ctx, dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	switch mode {
	case "wra":
		res, err := ingest.Ingest(ctx, s, []string{file}, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if fr := res.Files[0]; fr.Err != nil || fr.Status != ingest.Loaded {
			t.Fatalf("%v %v", fr.Status, fr.Err)
		}
		fmt.Printf("rows %d\n", res.Rows())
	case "duckdb-json", "duckdb-json-gz", "duckdb-csv":
		// The same INSERT ... SELECT ... FROM read_json/read_csv that
		// wra runs, as DuckDB runs it by default: no hashing, detection
		// or summary around it, DuckDB's default settings, and none of
		// the read options wra adds.
		in := &model.BulkInput{Path: file, Format: "k6-ndjson", Gzip: mode == "duckdb-json-gz"}
		if mode == "duckdb-csv" {
			header, err := csvHeader(file)
			if err != nil {
				t.Fatal(err)
			}
			in.Format, in.TimeFormat, in.Columns = "k6-csv", "s", header
		}
		q, err := store.DefaultInsertSQL(in)
		if err != nil {
			t.Fatal(err)
		}
		q = strings.Replace(q, "SELECT ?,", "SELECT 'x',", 1)
		n, err := store.ExecInTransaction(ctx, s, q)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("rows %d\n", n)
	case "wra-folder":
		res, err := ingest.Ingest(ctx, s, []string{file}, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if n := res.Count(ingest.Failed); n > 0 {
			t.Fatalf("%d files failed", n)
		}
		fmt.Printf("rows %d\n", res.Rows())
	case "duckdb-folder":
		n, err := store.ExecInTransaction(ctx, s, folderInsertSQL(t, file))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("rows %d\n", n)
	default:
		t.Fatalf("unknown mode %q", mode)
	}
}

// measured is one child run.
type measured struct {
	seconds float64 // wall time
	cpu     float64 // user + system seconds of the process (and its children)
	rssMB   float64
	out     string
}

func runMeasured(b *testing.B, cmd *exec.Cmd) measured {
	b.Helper()
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v\n%s", cmd.Args, err, out.String())
	}
	el := time.Since(start).Seconds()
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	return measured{seconds: el, cpu: cpu, rssMB: float64(ru.Maxrss) / 1024, out: out.String()}
}

func child(b *testing.B, mode, dir, file string) measured {
	db := filepath.Join(dir, mode+".duckdb")
	os.Remove(db)
	os.Remove(db + ".wal")
	defer os.Remove(db)
	cmd := exec.Command(os.Args[0], "-test.run=^TestBulkBenchChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), benchChildEnv+"="+mode+":"+db+":"+file)
	m := runMeasured(b, cmd)
	if !strings.Contains(m.out, "rows ") {
		b.Fatalf("%s: no rows reported:\n%s", mode, m.out)
	}
	return m
}

func BenchmarkK6BigSeries(b *testing.B) {
	dir := os.Getenv("WRA_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	mb, err := envInt("WRA_BENCH_MB", 512)
	if err != nil {
		b.Fatal(err)
	}
	reps, err := envInt("WRA_BENCH_REPS", 5)
	if err != nil || reps < 1 {
		b.Fatalf("WRA_BENCH_REPS: %v, want a count of 1 or more", err)
	}
	target := mb << 20
	srcNDJSON := cmp.Or(os.Getenv("WRA_BENCH_NDJSON"), k6Testdata+"k6_constant_go2_ping_points.ndjson")
	srcCSV := cmp.Or(os.Getenv("WRA_BENCH_CSV"), k6Testdata+"k6_constant_go2_ping_points.csv")
	ndjson := filepath.Join(dir, fmt.Sprintf("k6_big_%dmb%s.ndjson", mb, sourceTag(b, srcNDJSON)))
	gz := ndjson + ".gz"
	csvFile := filepath.Join(dir, fmt.Sprintf("k6_big_%dmb%s.csv", mb, sourceTag(b, srcCSV)))
	if err := genK6NDJSON(srcNDJSON, ndjson, gz, target); err != nil {
		b.Fatal(err)
	}
	if err := genK6CSV(srcCSV, csvFile, target, 0); err != nil {
		b.Fatal(err)
	}
	_, jqErr := exec.LookPath("jq")
	cases := []struct {
		name, file, duck, jq string
	}{
		{"ndjson", ndjson, "duckdb-json", `jq -c 'select(.type=="Point")' "$1" > /dev/null`},
		{"ndjson.gz", gz, "duckdb-json-gz", `gzip -dc "$1" | jq -c 'select(.type=="Point")' > /dev/null`},
		{"csv", csvFile, "duckdb-csv", ""},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			// MB/s are of the NDJSON or CSV content (for .gz: as
			// decompressed); rows are the same for all three.
			st, err := os.Stat(strings.TrimSuffix(c.file, ".gz"))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			var wra, duck []measured
			var jq measured
			for i := 0; i < b.N; i++ {
				wra, duck = alternate(int(reps), func() measured { return child(b, "wra", dir, c.file) },
					func() measured { return child(b, c.duck, dir, c.file) })
				if c.jq != "" && jqErr == nil {
					jq = runMeasured(b, exec.Command("sh", "-c", c.jq, "sh", c.file))
				}
			}
			b.StopTimer()
			size := float64(st.Size()) / (1 << 20)
			reportVsDuckDB(b, wra, duck, size)
			wall := func(m measured) float64 { return m.seconds }
			if jq.seconds > 0 {
				b.ReportMetric(size/jq.seconds, "jq-MB/s")
				b.ReportMetric(jq.cpu, "jq-cpu-s")
				b.ReportMetric(stats.Median(pick(wra, wall))/jq.seconds, "wall-vs-jq")
			}
			b.Logf("%s, wra's time over DuckDB's by pair: wall %s, CPU %s", c.name, fmtRatios(ratios(wra, duck, wall)), fmtRatios(ratios(wra, duck, func(m measured) float64 { return m.cpu })))
		})
	}
}

// alternate runs a and b n times each, in pairs, each pair in the other
// order from the one before, so that a slow minute of a shared machine
// falls on both.
func alternate(n int, a, b func() measured) (as, bs []measured) {
	for r := range n {
		if r%2 == 0 {
			as = append(as, a())
			bs = append(bs, b())
		} else {
			bs = append(bs, b())
			as = append(as, a())
		}
	}
	return as, bs
}

func pick(ms []measured, f func(measured) float64) []float64 {
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = f(m)
	}
	return v
}

// ratios are wra's figures over DuckDB's, pair by pair.
func ratios(wra, duck []measured, f func(measured) float64) []float64 {
	v := make([]float64, len(wra))
	for i := range wra {
		v[i] = f(wra[i]) / f(duck[i])
	}
	return v
}

// reportVsDuckDB reports the medians of wra's loads and DuckDB's, of the
// ratios of their pairs, and their peak RSS; sizeMB is the content's.
func reportVsDuckDB(b *testing.B, wra, duck []measured, sizeMB float64) {
	wall := func(m measured) float64 { return m.seconds }
	cpu := func(m measured) float64 { return m.cpu }
	rss := func(m measured) float64 { return m.rssMB }
	b.ReportMetric(stats.Median(ratios(wra, duck, wall)), "wall-vs-duckdb")
	// On a shared machine the wall times carry the other jobs'
	// load; the CPU seconds of each load are steadier.
	b.ReportMetric(stats.Median(ratios(wra, duck, cpu)), "cpu-vs-duckdb")
	b.ReportMetric(stats.Median(pick(wra, wall)), "wra-s")
	b.ReportMetric(stats.Median(pick(duck, wall)), "duckdb-s")
	b.ReportMetric(sizeMB/stats.Median(pick(wra, wall)), "wra-MB/s")
	b.ReportMetric(sizeMB/stats.Median(pick(duck, wall)), "duckdb-MB/s")
	b.ReportMetric(stats.Median(pick(wra, cpu)), "wra-cpu-s")
	b.ReportMetric(stats.Median(pick(duck, cpu)), "duckdb-cpu-s")
	b.ReportMetric(slices.Max(pick(wra, rss)), "wra-peak-RSS-MB")
	b.ReportMetric(slices.Max(pick(duck, rss)), "duckdb-peak-RSS-MB")
	b.ReportMetric(float64(len(wra)), "pairs")
	b.ReportMetric(sizeMB, "content-MB")
}

func fmtRatios(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strings.Join(parts, " ")
}

// envInt is the integer in an environment variable, or def when unset.
func envInt(name string, def int64) (int64, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return n, nil
}

// sourceTag tells generated files of another capture than the default
// apart: empty for the test data's, else a hash of the capture.
func sourceTag(b *testing.B, src string) string {
	if strings.HasPrefix(src, k6Testdata) {
		return ""
	}
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	return fmt.Sprintf("_%x", sha256.Sum256(data))[:9]
}

// csvHeader is the first line of a k6 CSV file (gzipped when its name
// ends in .gz), split into its columns.
func csvHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r = zr
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("%s: no header line: %w", path, err)
	}
	return strings.Split(strings.TrimRight(line, "\r\n"), ","), nil
}

// genK6NDJSON writes copies of a real k6 NDJSON capture, each shifted in
// time past the previous one, until the file reaches target bytes; and
// the same content gzipped. An existing file of the right size is kept.
func genK6NDJSON(src, dst, gzDst string, target int64) error {
	if st, err := os.Stat(gzDst); err == nil && st.Size() > 0 {
		if st, err := os.Stat(dst); err == nil && st.Size() >= target {
			return nil
		}
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer f.Close()
	g, err := os.Create(gzDst)
	if err != nil {
		return err
	}
	defer g.Close()
	zw, _ := gzip.NewWriterLevel(g, gzip.BestSpeed)
	w := bufio.NewWriterSize(f, 1<<20)
	zb := bufio.NewWriterSize(zw, 1<<20)
	key := []byte(`"time":"`)
	var written int64
	var buf []byte
	for k := 0; written < target; k++ {
		shift := time.Duration(k) * 11 * time.Second
		for _, l := range lines {
			buf = buf[:0]
			if i := bytes.Index(l, key); i >= 0 {
				j := bytes.IndexByte(l[i+len(key):], '"')
				t, err := time.Parse(time.RFC3339Nano, string(l[i+len(key):i+len(key)+j]))
				if err != nil {
					return err
				}
				buf = append(buf, l[:i+len(key)]...)
				buf = t.Add(shift).AppendFormat(buf, time.RFC3339Nano)
				buf = append(buf, l[i+len(key)+j:]...)
			} else {
				buf = append(buf, l...)
			}
			w.Write(buf)
			zb.Write(buf)
			written += int64(len(buf))
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := zb.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// genK6CSV does the same for a k6 CSV capture (integer Unix seconds in
// the second column), its first copy from spans of 11 s later than the
// capture, until target bytes of CSV are written; gzipped when dst ends
// in .gz (and then written again even when it exists).
func genK6CSV(src, dst string, target, from int64) error {
	gzipped := strings.HasSuffix(dst, ".gz")
	if st, err := os.Stat(dst); err == nil && st.Size() >= target && !gzipped {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	head, body, _ := bytes.Cut(data, []byte("\n"))
	rows := bytes.SplitAfter(body, []byte("\n"))
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer f.Close()
	var out io.Writer = f
	var zw *gzip.Writer
	if gzipped {
		zw = gzip.NewWriter(f)
		out = zw
	}
	w := bufio.NewWriterSize(out, 1<<20)
	w.Write(head)
	w.WriteByte('\n')
	written := int64(len(head) + 1)
	var buf []byte
	for k := from; written < target; k++ {
		for _, r := range rows {
			if len(r) == 0 {
				continue
			}
			i := bytes.IndexByte(r, ',')
			j := bytes.IndexByte(r[i+1:], ',')
			if i < 0 || j < 0 {
				return fmt.Errorf("%s: a row of fewer than three columns: %q", src, r)
			}
			ts, err := strconv.ParseInt(string(r[i+1:i+1+j]), 10, 64)
			if err != nil {
				return fmt.Errorf("%s: the timestamp %q is not in integer Unix seconds (k6's default): %w", src, r[i+1:i+1+j], err)
			}
			buf = append(buf[:0], r[:i+1]...)
			buf = strconv.AppendInt(buf, ts+k*11, 10)
			buf = append(buf, r[i+1+j:]...)
			w.Write(buf)
			written += int64(len(buf))
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return err
		}
	}
	return f.Close()
}
