package ingest

import (
	"encoding/csv"
	"encoding/json"
	"errors"
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
	register(&Format{Name: "hey", Priority: 40, Detect: detectHey, Read: readHey})
	register(&Format{Name: "hey-csv", Priority: 40, Detect: detectHeyCSV, Read: readHeyCSV})
}

func detectHey(head []byte) bool {
	summary, total, rate := false, false, false
	hasLine(head, func(l string) bool {
		switch {
		case l == "Summary:":
			summary = true
		case summary && strings.HasPrefix(l, "Total:") && strings.HasSuffix(l, " secs"):
			total = true
		case summary && strings.HasPrefix(l, "Requests/sec:"):
			rate = true
		}
		return summary && total && rate
	})
	return summary && total && rate
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

// heySecsMS parses hey's "0.0026 secs" (or " NaN secs") into milliseconds;
// ok is false for NaN, which hey prints when no request was answered.
func heySecsMS(s string) (float64, bool, error) {
	v, found := strings.CutSuffix(strings.TrimSpace(s), " secs")
	if !found {
		return 0, false, errors.New(`expected "N secs"`)
	}
	v = strings.TrimSpace(v)
	if v == "NaN" {
		return 0, false, nil
	}
	ms, err := decimalMS(v, 3)
	if err != nil {
		return 0, false, errors.New(`expected "N secs" with N >= 0`)
	}
	return ms, true, nil
}

// readHey reads hey's text report. requests are every status count plus
// every error count; rps is the printed Requests/sec, which hey computes
// as all requests over Total (the same definition as requests /
// duration_s, with more digits than Total's four decimals). Latency
// columns come from the answered requests only, and stay NULL when none
// was answered (hey then prints NaN and zeros).
func readHey(in *Input, sink model.Sink) error {
	l := NewLines(in)
	r := &model.Run{Tool: "hey"}
	const (
		start = iota
		summary
		histogram
		distribution
		details
		statuses
		errs
	)
	state := start
	var codes, errCounts map[string]int64
	var histCount int64
	var total, rate, average bool
	var slowest float64
	for l.Scan() {
		t := l.Text()
		tt := strings.TrimSpace(t)
		if tt == "" {
			continue
		}
		key, val, _ := strings.Cut(tt, ":")
		switch tt {
		case "Summary:":
			if state != start {
				return l.Errorf(1, "a second hey report starts here: a file holds one report")
			}
			r.Line = l.Line()
			state = summary
			continue
		case "Response time histogram:":
			state = histogram
			continue
		case "Latency distribution:":
			state = distribution
			continue
		case "Details (average, fastest, slowest):":
			state = details
			continue
		case "Status code distribution:":
			state = statuses
			codes = map[string]int64{}
			continue
		case "Error distribution:":
			if codes == nil {
				return l.Errorf(1, "hey report: Error distribution before the Status code distribution")
			}
			state = errs
			errCounts = map[string]int64{}
			continue
		}
		switch state {
		case start:
			return l.Errorf(1, "hey report: expected \"Summary:\", found %q", clipLine(tt))
		case summary:
			switch key {
			case "Total":
				ms, ok, err := heySecsMS(val)
				if err != nil || !ok {
					return l.Errorf(strings.Index(t, ":")+2, "hey Total: expected \"N secs\", found %q", strings.TrimSpace(val))
				}
				r.DurationS = model.Some(ms / 1000)
				total = true
			case "Slowest", "Fastest", "Average":
				ms, ok, err := heySecsMS(val)
				if err != nil {
					return l.Errorf(strings.Index(t, ":")+2, "hey %s: %v, found %q", key, err, strings.TrimSpace(val))
				}
				switch key {
				case "Slowest":
					slowest = ms
				case "Average":
					if ok {
						r.LatencyMeanMS = model.Some(ms)
					}
					average = true
				}
			case "Requests/sec":
				v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
				if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
					return l.Errorf(strings.Index(t, ":")+2, "hey Requests/sec: expected a number, found %q", strings.TrimSpace(val))
				}
				r.RPS = model.Some(v)
				rate = true
			case "Total data":
				n, ok := strings.CutSuffix(strings.TrimSpace(val), " bytes")
				b, err := strconv.ParseInt(n, 10, 64)
				if !ok || err != nil || b < 0 {
					return l.Errorf(strings.Index(t, ":")+2, "hey Total data: expected \"N bytes\", found %q", strings.TrimSpace(val))
				}
				r.BytesRead = model.Some(b)
			case "Size/request":
			case "Note":
				// "Note:  Distributions are for first 1000000 results."
				runLabel(r, "distribution_note", strings.TrimSpace(val))
			default:
				return l.Errorf(1, "hey Summary: unexpected line %q", clipLine(tt))
			}
		case histogram:
			// "0.012 [4903]	|∎∎∎": hey's own buckets, not kept.
			_, rest, ok := strings.Cut(tt, " [")
			cnt, _, found := strings.Cut(rest, "]")
			n, err := strconv.ParseInt(cnt, 10, 64)
			if !ok || !found || err != nil || n < 0 {
				return l.Errorf(1, "hey histogram: expected \"mark [count] |bars\", found %q", clipLine(tt))
			}
			// Its counts add up to the responses; they check that the
			// Status code distribution was not cut short.
			histCount += n
		case distribution:
			// hey prints its format string's "%%" literally: "10%% in 0.0004 secs".
			p, v, ok := strings.Cut(tt, "%% in ")
			if !ok {
				p, v, ok = strings.Cut(tt, "% in ")
			}
			pc, err := strconv.ParseFloat(p, 64)
			if !ok || err != nil || pc < 0 || pc > 100 {
				return l.Errorf(1, "hey Latency distribution: expected \"P%%%% in N secs\", found %q", clipLine(tt))
			}
			ms, valid, err := heySecsMS(v)
			if err != nil || !valid {
				return l.Errorf(strings.Index(t, " in ")+5, "hey Latency distribution: expected \"N secs\", found %q", v)
			}
			r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: pc, LatencyMS: ms})
		case details:
			switch key {
			case "DNS+dialup", "DNS-lookup", "req write", "resp wait", "resp read":
			default:
				return l.Errorf(1, "hey Details: unexpected line %q", clipLine(tt))
			}
		case statuses:
			// "[200]	5000 responses"
			code, rest, ok := strings.Cut(strings.TrimPrefix(tt, "["), "]")
			c, err1 := strconv.Atoi(code)
			cnt, found := strings.CutSuffix(strings.TrimSpace(rest), " responses")
			n, err2 := strconv.ParseInt(cnt, 10, 64)
			if !strings.HasPrefix(tt, "[") || !ok || !found || err1 != nil || c < 0 || err2 != nil || n < 0 {
				return l.Errorf(1, "hey Status code distribution: expected \"[code] N responses\", found %q", clipLine(tt))
			}
			codes[code] += n
		case errs:
			// "[100]	Get ...: connection refused"
			cnt, msg, ok := strings.Cut(strings.TrimPrefix(tt, "["), "]")
			n, err := strconv.ParseInt(cnt, 10, 64)
			if !strings.HasPrefix(tt, "[") || !ok || err != nil || n < 0 {
				return l.Errorf(1, "hey Error distribution: expected \"[N] error\", found %q", clipLine(tt))
			}
			errCounts[strings.TrimSpace(msg)] += n
		}
	}
	if err := l.Err(); err != nil {
		return err
	}
	switch {
	case state == start:
		return Errorf(in.Name, l.Line()+1, 0, "empty hey report: expected \"Summary:\"")
	case !total || !rate || !average:
		return Errorf(in.Name, l.Line()+1, 0, "truncated hey report: expected Total, Average and Requests/sec in the Summary")
	case codes == nil:
		return Errorf(in.Name, l.Line()+1, 0, "truncated hey report: expected \"Status code distribution:\"")
	}
	var n2xx, non2xx, nerr int64
	for c, n := range codes {
		if code, _ := strconv.Atoi(c); code >= 200 && code < 300 {
			n2xx += n
		} else {
			non2xx += n
		}
	}
	for _, n := range errCounts {
		nerr += n
	}
	if _, capped := r.Labels["distribution_note"]; histCount > 0 && !capped && histCount != n2xx+non2xx {
		return Errorf(in.Name, l.Line()+1, 0, "truncated hey report: the Status code distribution counts %d responses, the Response time histogram %d", n2xx+non2xx, histCount)
	}
	if n2xx+non2xx+nerr == 0 {
		return Errorf(in.Name, r.Line, 0, "hey report counts no request: no status code and no error")
	}
	r.Requests = model.Some(n2xx + non2xx + nerr)
	r.Responses2xx = model.Some(n2xx)
	r.Non2xx = model.Some(non2xx)
	r.Errors = model.Some(nerr)
	if len(codes) > 0 {
		runLabel(r, "status_codes", countsJSON(codes))
	}
	if len(errCounts) > 0 {
		runLabel(r, "errors_breakdown", countsJSON(errCounts))
	}
	if r.LatencyMeanMS.Valid {
		r.LatencyMaxMS = model.Some(slowest)
	} else if len(r.Percentiles) > 0 {
		return Errorf(in.Name, r.Line, 0, "hey report: a Latency distribution with a NaN Average")
	}
	runLabel(r, "percentile_method", "hey nearest rank: sorted[i] for the first i with i*100/n >= p (integer division)")
	spectrumColumns(r)
	return sink.Run(r)
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
