package ingest

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
)

// hey (rakyll/hey, tested with v0.1.5) prints a text summary, or with -o
// csv one row per answered request (times in seconds, four decimals).
// Requests that failed appear only in the text report's Error
// distribution; hey's Requests/sec counts every request, failed or not,
// over the Total time.

func init() {
	register(&Format{Name: "hey-csv", Priority: 40, Detect: detectHeyCSV, Read: readHeyCSV})
}

const heyCSVHeader = "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read"

func detectHeyCSV(head []byte) bool {
	h := string(head)
	if i := strings.IndexByte(h, '\n'); i >= 0 {
		h = h[:i]
	}
	h = strings.TrimSuffix(h, "\r")
	return h == heyCSVHeader || h == heyCSVHeader+",status-code,offset"
}

// heyPercentiles computes hey's latency distribution from latencies sorted
// ascending, as hey's requester/report.go does: for each p in 10, 25, 50,
// 75, 90, 95, 99 the first sorted value whose index i has i*100/n >= p
// (integer division); hey omits a percentile whose value is 0.
func heyPercentiles(sorted []float64) []model.Percentile {
	pctls := []int{10, 25, 50, 75, 90, 95, 99}
	data := make([]float64, len(pctls))
	j := 0
	for i := 0; i < len(sorted) && j < len(pctls); i++ {
		if i*100/len(sorted) >= pctls[j] {
			data[j] = sorted[i]
			j++
		}
	}
	var out []model.Percentile
	for i, p := range pctls {
		if data[i] > 0 {
			out = append(out, model.Percentile{Percentile: float64(p), LatencyMS: data[i]})
		}
	}
	return out
}

// readHeyCSV reads hey -o csv: one sample per row (metric
// http_req_duration in ms, the status, and the phase times of the row as
// tags in seconds, as printed), and one run computed from the rows with
// hey's own percentile definition (heyPercentiles), so its p50 … p99 are
// what hey's text report prints for the same requests. hey writes only
// answered requests to the CSV: errors stays NULL, requests counts the
// rows. hey records each request's offset from the start of the run but
// not the start itself, so ts is that offset counted from the Unix epoch,
// and duration_s is the end of the last request (offset + response-time).
func readHeyCSV(in *Input, sink model.Sink) error {
	cr := csv.NewReader(in.R)
	cr.ReuseRecord = true
	hdr, err := cr.Read()
	if err == io.EOF {
		return Errorf(in.Name, 1, 0, "empty file: expected hey's CSV header")
	}
	if err != nil {
		return csvError(in.Name, err, strings.Count(heyCSVHeader, ",")+1)
	}
	hdr = slices.Clone(hdr)
	withStatus := len(hdr) == 8
	if strings.Join(hdr, ",") != heyCSVHeader && strings.Join(hdr, ",") != heyCSVHeader+",status-code,offset" {
		return Errorf(in.Name, 1, 1, "expected hey's CSV header %q", heyCSVHeader+",status-code,offset")
	}
	r := &model.Run{Tool: "hey", Line: 1}
	names := []string{"dns_dialup_s", "dns_s", "request_write_s", "response_delay_s", "response_read_s"}
	var lats []float64
	var sum, sumTenths, end float64
	tenthsOnly := true
	var n2xx, non2xx int64
	codes := map[string]int64{}
	tags := map[string]string{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return csvError(in.Name, err, len(hdr))
		}
		if rec[0] == "response-time" {
			ln, _ := cr.FieldPos(0)
			return Errorf(in.Name, ln, 1, "a second hey CSV starts here: a file holds one run")
		}
		vals := make([]float64, len(rec))
		for i, f := range rec {
			if i == 6 {
				continue
			}
			v, err := decimalMS(f, 3)
			if err != nil {
				ln, col := cr.FieldPos(i)
				return Errorf(in.Name, ln, col, "%s: expected seconds >= 0, found %q", hdr[i], f)
			}
			vals[i] = v
		}
		s := model.Sample{Metric: "http_req_duration", Value: vals[0]}
		for i, k := range names {
			tags[k] = rec[i+1]
		}
		if withStatus {
			code, err := strconv.ParseInt(rec[6], 10, 64)
			if err != nil || code < 100 || code > 999 {
				ln, col := cr.FieldPos(6)
				return Errorf(in.Name, ln, col, "status-code: expected an HTTP status, found %q", rec[6])
			}
			s.Status = model.Some(code)
			codes[rec[6]]++
			if code >= 200 && code < 300 {
				n2xx++
			} else {
				non2xx++
			}
			s.TS = time.Unix(0, 0).UTC().Add(time.Duration(math.Round(vals[7] * 1e6)))
			end = max(end, vals[7]+vals[0])
		}
		b, _ := json.Marshal(tags) // a map of strings always encodes
		s.Tags = string(b)
		if err := sink.Sample(0, &s); err != nil {
			return err
		}
		lats = append(lats, s.Value)
		tenths := math.Round(s.Value * 10)
		if math.Abs(s.Value*10-tenths) > 1e-6 {
			tenthsOnly = false
		}
		sum += s.Value
		sumTenths += tenths
	}
	if len(lats) == 0 {
		return Errorf(in.Name, 2, 0, "hey CSV has a header but no rows: hey writes only answered requests, so a run where every request failed leaves no numbers here")
	}
	r.Requests = model.Some(int64(len(lats)))
	if withStatus {
		r.Responses2xx = model.Some(n2xx)
		r.Non2xx = model.Some(non2xx)
		runLabel(r, "status_codes", countsJSON(codes))
		if end > 0 {
			d := end / 1000
			if tenthsOnly {
				d = math.Round(end*10) / 1e4
			}
			r.DurationS = model.Some(d)
			r.RPS = model.Some(float64(len(lats)) / d)
			runLabel(r, "rps_basis", "answered requests / end of the last request (offset + response-time)")
		}
	}
	runLabel(r, "errors_note", "hey -o csv lists only answered requests")
	if tenthsOnly {
		// hey prints four decimals of seconds: whole tenths of a
		// millisecond add up exactly.
		r.LatencyMeanMS = model.Some(sumTenths / float64(10*len(lats)))
	} else {
		r.LatencyMeanMS = model.Some(sum / float64(len(lats)))
	}
	slices.Sort(lats)
	r.LatencyMaxMS = model.Some(lats[len(lats)-1])
	r.Percentiles = heyPercentiles(lats)
	runLabel(r, "percentile_method", "hey nearest rank: sorted[i] for the first i with i*100/n >= p (integer division)")
	spectrumColumns(r)
	return sink.Run(r)
}
