package store_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
)

// jtlBigRows is the size of the JTL of TestJTLBigStreamsSamples.
const jtlBigRows = 500_000

// writeBigJTL writes a JTL CSV of JMeter's default columns with n
// samples of three labels, every 50th a failure answered 500.
func writeBigJTL(t testing.TB, path string, n int) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect")
	labels := []string{"GET /items", "POST /orders", "GET /items/{id}"}
	for i := range n {
		code, msg, ok := 200, "OK", true
		if i%50 == 49 {
			code, msg, ok = 500, "Internal Server Error", false
		}
		fmt.Fprintf(w, "%d,%d,%s,%d,%s,Thread Group 1-%d,text,%t,,%d,120,16,16,http://localhost:8080/items,%d,0,%d\n",
			1700000000000+int64(i)*2, 1+i%97, labels[i%3], code, msg, 1+i%16, ok, 1500+i%7, i%97, i%5)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestJTLBigStreamsSamples loads a JTL of 500,000 samples: every sample
// lands in samples, in the run of its label, and the Go heap stays far
// below the file's size while it loads (runtime.MemStats, sampled every
// few milliseconds, with GOGC=20): the Go reader keeps each sample's
// elapsed time (8 bytes) for its label's percentiles, and DuckDB's CSV
// scanner inserts the rows.
func TestJTLBigStreamsSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and loads a JTL of 500,000 samples")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "results.jtl")
	size := writeBigJTL(t, path, jtlBigRows)
	s := openStore(t, dir)

	// A collection at every fifth growth keeps HeapAlloc near the live
	// heap, so that garbage does not pass for memory held.
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
		}
	}()
	start := time.Now()
	res, err := ingest.Ingest(context.Background(), s, []string{path}, ingest.Options{})
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if fr := res.Files[0]; fr.Status != ingest.Loaded || fr.Err != nil || fr.Format != "jmeter-jtl-csv" {
		t.Fatalf("%v %v %s", fr.Status, fr.Err, fr.Format)
	}
	grew := int64(peak) - int64(base.HeapAlloc)
	t.Logf("%d samples, %.1f MiB of JTL, loaded in %v; Go heap grew by %.1f MiB at most",
		jtlBigRows, float64(size)/(1<<20), time.Since(start).Round(time.Millisecond), float64(grew)/(1<<20))

	db := store.SQLDB(s)
	var n, runs, mismatched, failed int
	if err := db.QueryRow(`SELECT count(*), count(DISTINCT run_id), count_if(status = 500), `+
		`count_if(json_extract_string(tags, '$.success') = 'false') FROM samples WHERE metric = 'http_req_duration'`).Scan(&n, &runs, &mismatched, &failed); err != nil {
		t.Fatal(err)
	}
	if n != jtlBigRows || runs != 3 || mismatched != jtlBigRows/50 || failed != jtlBigRows/50 {
		t.Errorf("samples: %d rows in %d runs, %d of status 500, %d not successful; want %d in 3, %d, %d",
			n, runs, mismatched, failed, jtlBigRows, jtlBigRows/50, jtlBigRows/50)
	}
	// Each run's requests and failures (errors + non_2xx, each failed
	// sample once) are its samples'.
	if err := db.QueryRow(`SELECT count(*) FROM runs r WHERE requests IS DISTINCT FROM (SELECT count(*) FROM samples s WHERE s.run_id = r.run_id) ` +
		`OR errors + non_2xx IS DISTINCT FROM (SELECT count_if(json_extract_string(tags, '$.success') = 'false') FROM samples s WHERE s.run_id = r.run_id) ` +
		`OR json_extract_string(labels, '$.request_name') IS DISTINCT FROM (SELECT any_value(json_extract_string(tags, '$.label')) FROM samples s WHERE s.run_id = r.run_id)`).Scan(&mismatched); err != nil {
		t.Fatal(err)
	}
	if mismatched != 0 {
		t.Errorf("%d runs whose requests, failures or label are not their samples'", mismatched)
	}
	// Holding the rows would take more than the file; holding their
	// elapsed times takes 4 MB (8 MB while a slice grows).
	if limit := size / 4; grew > limit {
		t.Errorf("the Go heap grew by %d bytes while loading, want at most a quarter of the %d-byte file", grew, size)
	}
}

// TestJTLBulkMatchesGoReader loads JTL CSVs into the store, whose CSV
// scanner inserts their samples, and reads them with the Go reader into
// a Collector: the samples are the same rows, in the same runs (by label
// and kind), with the same tags in the same order (jsonPairs). The files are those of
// the test data and small ones of the shapes where two CSV readers could
// differ: blank lines, CRLF, no final newline, quoted fields with commas,
// quotes and newlines, spaces around fields, an empty label, no header.
func TestJTLBulkMatchesGoReader(t *testing.T) {
	const d = "../../ingest/testdata/wild/jmeter/"
	files := []string{d + "perfaction-2020-one-label-100-samples.jtl", d + "http-jmeter-report-2019-non-http-failures.jtl.gz",
		d + "tdc2020-transaction-controller-embedded-resources.jtl", d + "jenkins-perf-plugin-2014-headerless-10-columns.jtl",
		d + "jmeterresult-2020-13000-samples.jtl.gz"}
	h := "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes\n"
	r1 := "1597798959524,205,A,200,OK,T 1-1,text,true,,1613\n"
	r2 := "1597798959525,7,\"B, \"\"q\"\" <&>\",500,\"multi\nline\",T 1-2,text,false,\"x\ny\",10\n"
	tmp := t.TempDir()
	for _, c := range []struct{ name, body string }{
		{"blank-lines.jtl", h + r1 + "\n" + r2 + "\n\n"},
		{"crlf.jtl", "timeStamp,elapsed,label,success\r\n1597798959524,205,A,true\r\n1597798959525,3,A,false\r\n"},
		{"no-final-newline.jtl", h + r1 + r2[:len(r2)-1]},
		{"spaces.jtl", "timeStamp,elapsed,label,responseCode,threadName,success\n 1597798959524 , 5 , A ,200 , T 1 , true \n"},
		{"empty-label.jtl", h + "1597798959524,205,,Non HTTP response code: x,OK,,text,false,,1613\n"},
		{"headerless.jtl", r1 + "1597798959526,9,A,204,\"Number of samples in transaction : 1, number of failing samples : 0\",T 1-1,text,true,,1\n"},
	} {
		p := filepath.Join(tmp, c.name)
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { compareJTLSamples(t, file) })
	}
}

func compareJTLSamples(t *testing.T, file string) {
	c := &model.Collector{}
	if f, err := ingest.ReadFile(file, c); err != nil || f.Name != "jmeter-jtl-csv" {
		t.Fatalf("%v %v", f, err)
	}
	var want []string
	for _, r := range c.Runs {
		for _, s := range c.Samples[r.Index] {
			status := "NULL"
			if s.Status.Valid {
				status = strconv.FormatInt(s.Status.V, 10)
			}
			want = append(want, fmt.Sprintf("%s|%s|%d|%s|%v|%s|%s", r.Labels["request_name"], r.Labels["sample_kind"],
				s.TS.UnixMicro(), s.Metric, s.Value, status, jsonPairs(t, s.Tags)))
		}
	}
	s := openStore(t, t.TempDir())
	res, err := ingest.Ingest(context.Background(), s, []string{file}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fr := res.Files[0]; fr.Status != ingest.Loaded || fr.Err != nil {
		t.Fatalf("%v %v", fr.Status, fr.Err)
	}
	rows, err := store.SQLDB(s).Query(`SELECT r.labels->>'request_name', r.labels->>'sample_kind', epoch_us(s.ts), s.metric, s.value, ` +
		`coalesce(s.status::VARCHAR, 'NULL'), s.tags::VARCHAR FROM samples s JOIN runs r USING (run_id)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var label, kind, metric, status, tags string
		var ts int64
		var v float64
		if err := rows.Scan(&label, &kind, &ts, &metric, &v, &status, &tags); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s|%s|%d|%s|%v|%s|%s", label, kind, ts, metric, v, status, jsonPairs(t, tags)))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d samples in the store, %d read by the Go reader", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("sample %d of the sorted rows:\nstore %s\nGo    %s", i, got[i], want[i])
		}
	}
}

// jsonPairs is a JSON object of strings as its keys and values in
// order, each quoted as Go quotes it: the two writers of tags escape a
// control character with other hex digits (\u000e, \u000E).
func jsonPairs(t *testing.T, doc string) string {
	var kv []string
	d := json.NewDecoder(strings.NewReader(doc))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return strings.Join(kv, " ")
		}
		if err != nil {
			t.Fatalf("tags %s: %v", doc, err)
		}
		if v, ok := tok.(string); ok {
			kv = append(kv, strconv.Quote(v))
		}
	}
}

// FuzzJTLBulk loads into the store every input that the Go reader reads
// as a JTL CSV, and checks that DuckDB's CSV scanner inserts the samples
// the Go reader reads (compareJTLSamples). Seeds: the JTL CSVs of the
// test data, each whole and cut at a row's end and inside a row, and
// CSVs of other tools.
func FuzzJTLBulk(f *testing.F) {
	const d = "../../ingest/testdata/"
	for _, name := range []string{"wild/jmeter/perfaction-2020-one-label-100-samples.jtl", "wild/jmeter/tdc2020-transaction-controller-embedded-resources.jtl",
		"wild/jmeter/jenkins-perf-plugin-2014-headerless-10-columns.jtl", "wild/jmeter/http-jmeter-report-2019-non-http-failures.jtl.gz",
		"k6/k6_constant_err_points.csv", "hey/hey_csv_err10pct.csv"} {
		data, err := os.ReadFile(d + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		if strings.HasSuffix(name, ".gz") {
			continue
		}
		f.Add(data[:len(data)/2])
		if i := bytes.LastIndexByte(data[:len(data)/2], '\n'); i > 0 {
			f.Add(data[:i+1])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.jtl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if f, err := ingest.ReadFile(p, &model.Collector{}); err != nil || f.Name != "jmeter-jtl-csv" {
			return
		}
		compareJTLSamples(t, p)
	})
}
