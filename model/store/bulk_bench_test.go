package store_test

// BenchmarkK6BigSeries measures how fast a big k6 point stream loads into
// the store and how much memory that takes, against two anchors measured
// in the same run on the same file: DuckDB's own INSERT INTO samples
// SELECT ... FROM read_json/read_csv of the same columns, and jq.
//
//	CGO_ENABLED=1 go test ./model/store -run '^$' -bench K6BigSeries -benchtime 1x
//
// The files (>= 500 MB each, WRA_BENCH_MB to change) are generated from
// the real capture k6_constant_go2_ping_points.ndjson / .csv, repeated
// with shifted timestamps, into a temporary folder, or into WRA_BENCH_DIR
// where they are kept between runs. Every load runs in a child process
// (this test binary again), so that its wall time and peak RSS
// (ru_maxrss) are its own.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
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
			in.Format, in.TimeFormat = "k6-csv", "s"
			in.Columns = strings.Split("metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata", ",")
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
	mb := int64(512)
	if v := os.Getenv("WRA_BENCH_MB"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		mb = n
	}
	target := mb << 20
	ndjson := filepath.Join(dir, fmt.Sprintf("k6_big_%dmb.ndjson", mb))
	gz := ndjson + ".gz"
	csvFile := filepath.Join(dir, fmt.Sprintf("k6_big_%dmb.csv", mb))
	if err := genK6NDJSON(k6Testdata+"k6_constant_go2_ping_points.ndjson", ndjson, gz, target); err != nil {
		b.Fatal(err)
	}
	if err := genK6CSV(k6Testdata+"k6_constant_go2_ping_points.csv", csvFile, target); err != nil {
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
			var wra, duck, jq measured
			for i := 0; i < b.N; i++ {
				wra = child(b, "wra", dir, c.file)
				duck = child(b, c.duck, dir, c.file)
				if c.jq != "" && jqErr == nil {
					jq = runMeasured(b, exec.Command("sh", "-c", c.jq, "sh", c.file))
				}
			}
			b.StopTimer()
			size := float64(st.Size()) / (1 << 20)
			b.ReportMetric(size/wra.seconds, "wra-MB/s")
			b.ReportMetric(wra.rssMB, "wra-peak-RSS-MB")
			b.ReportMetric(size/duck.seconds, "duckdb-MB/s")
			b.ReportMetric(duck.rssMB, "duckdb-peak-RSS-MB")
			b.ReportMetric(duck.seconds/wra.seconds, "speed-vs-duckdb")
			// On a shared machine the wall times carry the other jobs'
			// load; the CPU seconds of each load are steadier.
			b.ReportMetric(wra.cpu, "wra-cpu-s")
			b.ReportMetric(duck.cpu, "duckdb-cpu-s")
			b.ReportMetric(duck.cpu/wra.cpu, "cpu-vs-duckdb")
			if jq.seconds > 0 {
				b.ReportMetric(size/jq.seconds, "jq-MB/s")
				b.ReportMetric(jq.seconds/wra.seconds, "speed-vs-jq")
				b.ReportMetric(jq.cpu, "jq-cpu-s")
			}
			b.ReportMetric(size, "content-MB")
		})
	}
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
// the second column).
func genK6CSV(src, dst string, target int64) error {
	if st, err := os.Stat(dst); err == nil && st.Size() >= target {
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
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(head)
	w.WriteByte('\n')
	written := int64(len(head) + 1)
	var buf []byte
	for k := int64(0); written < target; k++ {
		for _, r := range rows {
			if len(r) == 0 {
				continue
			}
			i := bytes.IndexByte(r, ',')
			j := bytes.IndexByte(r[i+1:], ',')
			ts, err := strconv.ParseInt(string(r[i+1:i+1+j]), 10, 64)
			if err != nil {
				return err
			}
			buf = append(buf[:0], r[:i+1]...)
			buf = strconv.AppendInt(buf, ts+k*11, 10)
			buf = append(buf, r[i+1+j:]...)
			w.Write(buf)
			written += int64(len(buf))
		}
	}
	return w.Flush()
}
