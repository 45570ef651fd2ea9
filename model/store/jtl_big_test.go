package store_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/wra-bench/wra/ingest"
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
// few milliseconds, with GOGC=20): the samples stream to the store as they are read,
// and what Go keeps is each sample's elapsed time (8 bytes) for the
// label's percentiles.
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
	if err := db.QueryRow(`SELECT count(*), count(DISTINCT run_id), count_if(status = 500), ` +
		`count_if(json_extract_string(tags, '$.success') = 'false') FROM samples WHERE metric = 'http_req_duration'`).Scan(&n, &runs, &mismatched, &failed); err != nil {
		t.Fatal(err)
	}
	if n != jtlBigRows || runs != 3 || mismatched != jtlBigRows/50 || failed != jtlBigRows/50 {
		t.Errorf("samples: %d rows in %d runs, %d of status 500, %d not successful; want %d in 3, %d, %d",
			n, runs, mismatched, failed, jtlBigRows, jtlBigRows/50, jtlBigRows/50)
	}
	// Each run's requests and errors are its samples'.
	if err := db.QueryRow(`SELECT count(*) FROM runs r WHERE requests IS DISTINCT FROM (SELECT count(*) FROM samples s WHERE s.run_id = r.run_id) ` +
		`OR errors IS DISTINCT FROM (SELECT count_if(json_extract_string(tags, '$.success') = 'false') FROM samples s WHERE s.run_id = r.run_id) ` +
		`OR json_extract_string(labels, '$.request_name') IS DISTINCT FROM (SELECT any_value(json_extract_string(tags, '$.label')) FROM samples s WHERE s.run_id = r.run_id)`).Scan(&mismatched); err != nil {
		t.Fatal(err)
	}
	if mismatched != 0 {
		t.Errorf("%d runs whose requests, errors or label are not their samples'", mismatched)
	}
	// Holding the rows would take more than the file; holding their
	// elapsed times takes 4 MB (8 MB while a slice grows).
	if limit := size / 4; grew > limit {
		t.Errorf("the Go heap grew by %d bytes while loading, want at most a quarter of the %d-byte file", grew, size)
	}
}
