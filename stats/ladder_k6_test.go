package stats

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"
)

// k6LadderRequests reads the http_req_duration points of a real k6 ladder
// capture (testdata/k6_ladder_go1_db_points.ndjson.gz: k6 v1.8.1,
// ramping-arrival-rate 1500,3000,6000,12000 rps, 1 s ramp + 3 s hold per
// step, every request tagged step=<rate>; see ladder.js in the capture
// set). A request failed when k6 tagged it expected_response=false, which
// is what k6's http_req_failed counts. The file keeps the capture's lines
// as k6 wrote them, but only the Metric lines and the Points of the
// metrics wra reads (7.6 MB gzipped whole, 1.9 MB so):
//
//	zcat capture.ndjson.gz | grep -E '^\{"type":"Metric"|^\{"metric":"(http_reqs|http_req_failed|http_req_duration|data_received|dropped_iterations|iterations|vus|vus_max)","type":"Point"' | gzip -9n
var k6LadderRequests = sync.OnceValues(func() ([]Request, error) {
	f, err := os.Open("testdata/k6_ladder_go1_db_points.ndjson.gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	prefix := []byte(`{"metric":"http_req_duration","type":"Point"`)
	var out []Request
	for sc.Scan() {
		if !bytes.HasPrefix(sc.Bytes(), prefix) {
			continue
		}
		var p struct {
			Data struct {
				Time  time.Time
				Value float64
				Tags  map[string]string
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, err
		}
		out = append(out, Request{
			TimeS:      float64(p.Data.Time.UnixNano()) / 1e9,
			DurationMS: p.Data.Value,
			Failed:     p.Data.Tags["expected_response"] != "true",
			Step:       p.Data.Tags["step"],
		})
	}
	return out, sc.Err()
})

// k6SummaryStepP95 reads k6's own per-step p(95) from the summary export
// written by the same run (--summary-export).
func k6SummaryStepP95(t *testing.T) map[string]float64 {
	t.Helper()
	b, err := os.ReadFile("testdata/k6_ladder_go1_db_points_summary_export.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Metrics map[string]map[string]any
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, step := range []string{"1500", "3000", "6000", "12000"} {
		out[step] = s.Metrics["http_req_duration{step:"+step+"}"]["p(95)"].(float64)
	}
	return out
}
