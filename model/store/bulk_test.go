package store_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/ingest/ingesttest"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
)

const k6Testdata = "../../ingest/testdata/k6/"

func openStore(t testing.TB, dir string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(dir, "t.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestK6BulkMatchesGoReader loads each k6 point stream twice: through
// the store's DuckDB scanner (SQL aggregates) and through the Go
// streaming reader into a Collector (Go aggregates). The two are
// independent implementations of the same mapping and must agree. A
// gzipped CSV, which no capture is, is one of them gzipped here.
func TestK6BulkMatchesGoReader(t *testing.T) {
	files := []string{
		"k6_constant_go2_ping_points.ndjson",
		"k6_constant_err_points.ndjson",
		"k6_ladder_points.ndjson.gz",
		"k6_constant_go2_ping_points.csv",
		"k6_constant_err_points.csv",
		"k6_ladder_csv_points.csv",
		"k6_constant_err_points.csv.gz",
	}
	gzDir := t.TempDir()
	csv, err := os.ReadFile(k6Testdata + "k6_constant_err_points.csv")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(csv)
	zw.Close()
	if err := os.WriteFile(filepath.Join(gzDir, "k6_constant_err_points.csv.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, t.TempDir())
	ctx := context.Background()
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			path := k6Testdata + f
			if _, err := os.Stat(path); err != nil {
				path = filepath.Join(gzDir, f)
			}
			res, err := ingest.Ingest(ctx, s, []string{path}, ingest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if fr := res.Files[0]; fr.Status != ingest.Loaded || fr.Err != nil {
				t.Fatalf("ingest: %v %v", fr.Status, fr.Err)
			}
			var c model.Collector
			if _, err := ingest.ReadFile(path, &c); err != nil {
				t.Fatal(err)
			}
			want := c.Runs[0]
			id := store.RunID(f, 0)
			var (
				requests, errs, ok2xx, non2xx, bytesRead               int64
				rps, p50, p90, p95, p99, p999, mean, stdev, maxMS, dur float64
			)
			err = store.SQLDB(s).QueryRow(`SELECT requests, errors, responses_2xx, non_2xx, bytes_read, rps, latency_p50_ms, latency_p90_ms,
				latency_p95_ms, latency_p99_ms, latency_p999_ms, latency_mean_ms, latency_stdev_ms, latency_max_ms, duration_s
				FROM runs WHERE run_id = ?`, id).Scan(&requests, &errs, &ok2xx, &non2xx, &bytesRead, &rps, &p50, &p90, &p95, &p99, &p999, &mean, &stdev, &maxMS, &dur)
			if err != nil {
				t.Fatal(err)
			}
			ints := []struct {
				name      string
				got, want int64
			}{{"requests", requests, want.Requests.V}, {"errors", errs, want.Errors.V}, {"responses_2xx", ok2xx, want.Responses2xx.V},
				{"non_2xx", non2xx, want.Non2xx.V}, {"bytes_read", bytesRead, want.BytesRead.V}}
			for _, c := range ints {
				if c.got != c.want {
					t.Errorf("%s: store %d, Go reader %d", c.name, c.got, c.want)
				}
			}
			floats := []struct {
				name      string
				got, want float64
			}{{"rps", rps, want.RPS.V}, {"p50", p50, want.LatencyP50MS.V}, {"p90", p90, want.LatencyP90MS.V}, {"p95", p95, want.LatencyP95MS.V},
				{"p99", p99, want.LatencyP99MS.V}, {"p99.9", p999, want.LatencyP999MS.V}, {"mean", mean, want.LatencyMeanMS.V},
				{"stdev", stdev, want.LatencyStdevMS.V}, {"max", maxMS, want.LatencyMaxMS.V}, {"duration_s", dur, want.DurationS.V}}
			for _, c := range floats {
				if math.Abs(c.got-c.want) > 1e-9*math.Max(1, math.Abs(c.want)) {
					t.Errorf("%s: store %v, Go reader %v", c.name, c.got, c.want)
				}
			}
			// Requests with no status (k6's 0, or none) are counted apart.
			var noResponse string
			if err := store.SQLDB(s).QueryRow(`SELECT labels->>'no_response' FROM runs WHERE run_id = ?`, id).Scan(&noResponse); err != nil {
				t.Fatal(err)
			}
			if noResponse != want.Labels["no_response"] {
				t.Errorf("no_response: store %s, Go reader %s", noResponse, want.Labels["no_response"])
			}
			var n int
			var sum float64
			if err := store.SQLDB(s).QueryRow(`SELECT count(*), sum(value) FROM samples WHERE run_id = ?`, id).Scan(&n, &sum); err != nil {
				t.Fatal(err)
			}
			var goSum float64
			for _, p := range c.Samples[0] {
				goSum += p.Value
			}
			if n != len(c.Samples[0]) || math.Abs(sum-goSum) > 1e-6 {
				t.Errorf("samples: store %d (sum %v), Go reader %d (sum %v)", n, sum, len(c.Samples[0]), goSum)
			}
			// The same points, with the same tags, status and time
			// (microseconds, as the column keeps them). The store keeps
			// no insertion order: both sides are sorted alike.
			sortSamples(c.Samples[0])
			rows, err := store.SQLDB(s).Query(`SELECT ts, metric, value, status, tags::VARCHAR FROM samples WHERE run_id = ?
				ORDER BY ts, metric, value, tags::VARCHAR LIMIT 500`, id)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for i := 0; rows.Next(); i++ {
				var p model.Sample
				var st sql.NullInt64
				var tags sql.NullString
				if err := rows.Scan(&p.TS, &p.Metric, &p.Value, &st, &tags); err != nil {
					t.Fatal(err)
				}
				w := c.Samples[0][i]
				if !p.TS.Equal(w.TS) || p.Metric != w.Metric || p.Value != w.Value || st.Valid != w.Status.Valid || st.Int64 != w.Status.V || tags.String != w.Tags {
					t.Fatalf("sample %d: store %v %s %v %v %s, Go reader %v %s %v %v %s", i, p.TS, p.Metric, p.Value, st, tags.String, w.TS, w.Metric, w.Value, w.Status, w.Tags)
				}
			}
		})
	}
}

// TestK6BulkErrorNamesLine breaks one line of a real stream: the load
// fails with the file and line of the break, and nothing of the file is
// kept.
func TestK6BulkErrorNamesLine(t *testing.T) {
	src, err := os.ReadFile(k6Testdata + "k6_constant_go2_ping_points.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	csvSrc, err := os.ReadFile(k6Testdata + "k6_constant_go2_ping_points.csv")
	if err != nil {
		t.Fatal(err)
	}
	replaceLine := func(b []byte, n int, with string) []byte {
		lines := strings.SplitAfter(string(b), "\n")
		lines[n-1] = with + "\n"
		return []byte(strings.Join(lines, ""))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(replaceLine(src, 5000, `{"metric":"http_reqs","type":"Point","data":{"time":"2026-11-29T18:51:42Z","value":1,"tags":{`))
	zw.Close()
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"cut.ndjson", replaceLine(src, 5000, `{"metric":"http_reqs","type":"Point","data":{"time":"2026-11-29T18:51:42Z","value":1,"tags":{`),
			"cut.ndjson:5000: not a JSON object: unexpected end of JSON input"},
		{"cut.ndjson.gz", gz.Bytes(), "cut.ndjson.gz:5000: not a JSON object: unexpected end of JSON input"},
		{"type.ndjson", replaceLine(src, 7001, `{"type":"Sample","metric":"x","data":{"time":"2026-11-29T18:51:42Z","value":1}}`),
			`type.ndjson:7001: type "Sample": want a k6 Metric or Point line`},
		{"novalue.ndjson", replaceLine(src, 12, `{"metric":"http_reqs","type":"Point","data":{"time":"2026-11-29T18:51:42Z","tags":null}}`),
			"novalue.ndjson:12: Point line of http_reqs without data.time or data.value"},
		{"badtime.ndjson", replaceLine(src, 14050, `{"metric":"vus","type":"Point","data":{"time":"yesterday","value":1,"tags":null}}`),
			`badtime.ndjson:14050: data.time "yesterday": want an RFC 3339 time`},
		{"value.csv", replaceLine(csvSrc, 9000, `http_reqs,1795978302,one,,,,true,,GET,x,HTTP/1.1,steady,,200,,,x,,`),
			`value.csv:9000:22: metric_value "one": want a number`},
		{"fields.csv", replaceLine(csvSrc, 3, `http_reqs,1795978302,1.000000`),
			`fields.csv:3:1: wrong number of fields: expected 19 as in the header (a truncated row?)`},
	}
	dir := t.TempDir()
	s := openStore(t, t.TempDir())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			if err := os.WriteFile(p, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := ingest.Ingest(context.Background(), s, []string{p}, ingest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			fr := res.Files[0]
			if fr.Status != ingest.Failed || fr.Err == nil || fr.Err.Error() != c.want {
				t.Fatalf("got %v %v\nwant failed: %s", fr.Status, fr.Err, c.want)
			}
			var n int
			if err := store.SQLDB(s).QueryRow(`SELECT (SELECT count(*) FROM samples) + (SELECT count(*) FROM runs) + (SELECT count(*) FROM ingested_files)`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("%d rows kept after a failed load, want 0", n)
			}
		})
	}
}

func sortSamples(ps []model.Sample) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		switch {
		case !a.TS.Equal(b.TS):
			return a.TS.Before(b.TS)
		case a.Metric != b.Metric:
			return a.Metric < b.Metric
		case a.Value != b.Value:
			return a.Value < b.Value
		}
		return a.Tags < b.Tags
	})
}

// TestK6BulkGzipBomb loads a gzipped k6 stream of valid points that
// expands past the limit (MaxExpansion times its size, at least
// MinExpansionLimit): DuckDB's scanner would read it all, so the check
// read alongside it must stop the load with ErrTooLarge, and nothing of
// the file is kept. Two streams under the limit load, with the SHA-256 of
// their bytes in ingested_files and runs: one large enough to be checked,
// hashed from the check's reads of it, and one too small to pass its
// limit whatever it holds (ingest.WithinLimit), which is not read for the
// check, hashed from a read of its own.
func TestK6BulkGzipBomb(t *testing.T) {
	src, err := os.ReadFile(k6Testdata + "k6_constant_go2_ping_points.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	var point []byte
	for _, l := range lines {
		if bytes.Contains(l, []byte(`"type":"Point"`)) && bytes.Contains(l, []byte(`"http_req_duration"`)) {
			point = l
			break
		}
	}
	value := regexp.MustCompile(`"value":[0-9.eE+-]+`)
	if !value.Match(point) {
		t.Fatalf("no value in %s", point)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	// write writes the stream's first 100 lines, then points to size
	// bytes or more, as gzip members of 4 MiB of points each (a gzip
	// reader reads on from one member to the next as one stream): copies
	// of one member, or, when varied, members of their own whose points
	// each have a value of their own, which compress about 37 to 1.
	write := func(name string, size int64, varied bool) string {
		out := ingesttest.Gzip(bytes.Join(lines[:100], nil))
		var member []byte
		for n := int64(0); n < size; n += 4 << 20 {
			if member == nil || varied {
				var chunk []byte
				for len(chunk) < 4<<20 {
					if varied {
						chunk = append(chunk, value.ReplaceAll(point, fmt.Appendf(nil, `"value":%d.%06d`, rng.IntN(1000), rng.IntN(1e6)))...)
					} else {
						chunk = append(chunk, point...)
					}
				}
				member = ingesttest.Gzip(chunk)
			}
			out = append(out, member...)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const size = ingest.MinExpansionLimit + 64<<20
	bomb := write("bomb.ndjson.gz", size, false)
	if st, _ := os.Stat(bomb); ingest.ExpansionLimit(st.Size()) >= size || ingest.WithinLimit(st.Size()) {
		t.Fatalf("%d bytes compressed: not a bomb", st.Size())
	}
	s := openStore(t, t.TempDir())
	res, err := ingest.Ingest(context.Background(), s, []string{bomb}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fr := res.Files[0]; fr.Status != ingest.Failed || !errors.Is(fr.Err, ingest.ErrTooLarge) {
		t.Fatalf("bomb: %v %v, want failed with ErrTooLarge", fr.Status, fr.Err)
	}
	var n int
	if err := store.SQLDB(s).QueryRow(`SELECT (SELECT count(*) FROM samples) + (SELECT count(*) FROM runs) + (SELECT count(*) FROM ingested_files)`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d rows kept after the bomb, want 0", n)
	}

	checked := write("checked.ndjson.gz", 96<<20, true)
	small := write("small.ndjson.gz", 4<<20, false)
	for _, c := range []struct {
		path   string
		within bool
	}{{checked, false}, {small, true}} {
		st, _ := os.Stat(c.path)
		if ingest.WithinLimit(st.Size()) != c.within {
			t.Fatalf("%s: %d bytes compressed, within its limit whatever it holds: %v, want %v", c.path, st.Size(), !c.within, c.within)
		}
		s := openStore(t, t.TempDir())
		res, err = ingest.Ingest(context.Background(), s, []string{c.path}, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if fr := res.Files[0]; fr.Status != ingest.Loaded {
			t.Fatalf("%s: %v %v", c.path, fr.Status, fr.Err)
		}
		b, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("%x", sha256.Sum256(b))
		var inFiles, inRuns string
		if err := store.SQLDB(s).QueryRow(`SELECT (SELECT source_sha256 FROM ingested_files), (SELECT any_value(source_sha256) FROM runs)`).Scan(&inFiles, &inRuns); err != nil {
			t.Fatal(err)
		}
		if inFiles != want || inRuns != want {
			t.Errorf("%s: hashes: ingested_files %s, runs %s, want %s", c.path, inFiles, inRuns, want)
		}
	}
}

// TestK6BulkStatsRepeat loads one stream of some 360,000 points, several
// row groups that DuckDB's threads aggregate in no fixed order, into
// three stores: the mean and the standard deviation of the latency must
// be the same to the last bit each time (they are exact sums, not
// floating-point sums in the order the threads finish).
func TestK6BulkStatsRepeat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and loads an 80 MB stream three times")
	}
	dir := t.TempDir()
	nd := filepath.Join(dir, "k6.ndjson")
	if err := genK6NDJSON(k6Testdata+"k6_constant_go2_ping_points.ndjson", nd, nd+".gz", 80<<20); err != nil {
		t.Fatal(err)
	}
	var first [2]float64
	for i := range 3 {
		s := openStore(t, t.TempDir())
		res, err := ingest.Ingest(context.Background(), s, []string{nd}, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if fr := res.Files[0]; fr.Status != ingest.Loaded {
			t.Fatalf("load %d: %v %v", i, fr.Status, fr.Err)
		}
		var got [2]float64
		var n int64
		if err := store.SQLDB(s).QueryRow(`SELECT latency_mean_ms, latency_stdev_ms, (SELECT count(*) FROM samples) FROM runs`).Scan(&got[0], &got[1], &n); err != nil {
			t.Fatal(err)
		}
		if n < 250_000 {
			t.Fatalf("%d points: too few to span several row groups", n)
		}
		if i == 0 {
			first = got
			continue
		}
		if math.Float64bits(got[0]) != math.Float64bits(first[0]) || math.Float64bits(got[1]) != math.Float64bits(first[1]) {
			t.Errorf("load %d: mean %v, stdev %v; first load: mean %v, stdev %v", i, got[0], got[1], first[0], first[1])
		}
	}
}
