package record

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"context"

	"github.com/wra-bench/wra/data/harness/internal/proc"
	"github.com/wra-bench/wra/data/harness/servers/api"
)

// The headers of the project's sample harness files (records/records.csv
// and records/memory_waiting.csv of the sample set, calibration/*.csv).
const (
	sampleRecordsHeader     = "utc,server,round,test,connections,requests_per_s,latency_p50_ms,latency_p99_ms,responses_2xx,errors,cpu_server_s,cpu_postgres_s,working_set_mb,private_mb,startup_s,cpu_server_user_s,cpu_server_kernel_s"
	sampleMemoryHeader      = "server,pass,concurrency,wait_ms,rss_mb,requests,cpu_s"
	sampleCalibrationHeader = "utc,processes,ms"
)

func TestHeadersMatchSamples(t *testing.T) {
	// The sample's columns, with the server's database beside the server
	// and cpu_postgres_s under the name of any database (wra reads both as
	// cpu_db_s).
	sample := strings.Replace(strings.Replace(sampleRecordsHeader, ",cpu_postgres_s,", ",cpu_db_s,", 1), "server,", "server,database,", 1)
	if got := strings.Join(recordsHeader, ","); !strings.HasPrefix(got, sample+",") {
		t.Errorf("records header %s does not start with the sample's columns %s", got, sample)
	}
	if got := strings.Join(memoryHeader, ","); got != sampleMemoryHeader {
		t.Errorf("memory header %s", got)
	}
	if got := strings.Join(calibrationHeader, ","); got != sampleCalibrationHeader {
		t.Errorf("calibration header %s", got)
	}
}

func TestWriteCSV(t *testing.T) {
	dir := t.TempDir()
	utc := time.Date(2026, 11, 29, 20, 19, 9, 500, time.UTC)
	rec := recordRow{
		UTC: utc, Server: "go-pgx", Database: PostgreSQL, Round: 1, Trial: 1, Test: "one", Connections: 16, RPS: 500.04, P50MS: 1.66, P99MS: 18.56,
		Responses2xx: 5497, Errors: 3, Non2xx: 2, Requests: 5499,
		CPUServer: proc.CPU{User: 70, Kernel: 72}, CPUDB: proc.CPU{User: 62, Kernel: 32},
		Memory: proc.Memory{RSSKiB: 17992, PrivateKiB: 16656}, StartupS: 0.175631616,
		TargetRPS: 500, Threads: 2, DurationS: 15, Report: "wrk2/t1/go-pgx/one-r500-c16.txt",
	}
	p := filepath.Join(dir, "r.csv")
	if err := writeCSV(p, recordsHeader, []recordRow{rec}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// By hand: 142 ticks = 1.42 s, 94 ticks = 0.94 s, 17992 KiB = 17.5703125 MiB,
	// 16656 KiB = 16.265625 MiB; shortest exact decimals, no padding.
	want := strings.Join(recordsHeader, ",") + "\n" +
		"2026-11-29T20:19:09Z,go-pgx,postgresql,1,one,16,500.04,1.66,18.56,5497,3,1.42,0.94,17.5703125,16.265625,0.175631616,0.7,0.72,500,0.62,0.32,2,15,5499,2,true,wrk2/t1/go-pgx/one-r500-c16.txt,1\n"
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	mem := memoryRow{Server: "node-pg", Pass: 2, Concurrency: 800, WaitMS: 1000, PeakRSSKiB: 70000, Requests: 1600, CPUTicks: 19}
	if got, want := strings.Join(mem.fields(), ","), "node-pg,2,800,1000,68.359375,1600,0.19"; got != want {
		t.Errorf("memory row %s, want %s", got, want)
	}
	cal := calibrationRow{UTC: utc, Processes: 2, MS: 1357}
	if got, want := strings.Join(cal.fields(), ","), "2026-11-29T20:19:09Z,2,1357"; got != want {
		t.Errorf("calibration row %s, want %s", got, want)
	}
}

// The bodies the harness expects from every server are what the Go API
// answers over a table filled the way PostgreSQL is filled.
func TestExpectedBodiesMatchAPI(t *testing.T) {
	h := api.Handler(formulaStore{})
	for _, e := range []Endpoint{Ping, DBOne, DBPage, Wait10} {
		want, err := expectedBody(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", e.Path, nil))
		if rec.Code != 200 || rec.Body.String() != string(want) {
			t.Errorf("%s: API %d %s, harness expects %s", e.Path, rec.Code, rec.Body, want)
		}
	}
	if _, err := expectedBody("/other"); err == nil {
		t.Error("no error for an unknown path")
	}
}

// formulaStore computes rows as pg.load inserts them: name 'item-' || id,
// price_cents (id * 7) % 10000.
type formulaStore struct{}

func (formulaStore) row(id int64) api.Item {
	return api.Item{ID: id, Name: "item-" + strconv.FormatInt(id, 10), PriceCents: id * 7 % 10000}
}

func (f formulaStore) One(_ context.Context, id int64) (api.Item, error) { return f.row(id), nil }

func (f formulaStore) Page(_ context.Context, after int64, limit int) ([]api.Item, error) {
	var out []api.Item
	for i := int64(1); i <= int64(limit); i++ {
		out = append(out, f.row(after+i))
	}
	return out, nil
}
