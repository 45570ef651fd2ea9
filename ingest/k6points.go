package ingest

// k6 point streams: --out json (NDJSON of Metric and Point lines) and
// --out csv. A sink with a bulk loader (the DuckDB store) gets the file
// to scan with its own reader; any other sink gets the points one by one
// from the streaming Go reader below, which computes the same summary.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

func init() {
	register(&Format{Name: "k6-ndjson", Priority: 20, Detect: detectK6NDJSON, Read: readK6NDJSON, Bulk: true})
	register(&Format{Name: "k6-csv", Priority: 20, Detect: detectK6CSV, Read: readK6CSV, Bulk: true})
}

// k6Percentiles are the percentiles wra computes from k6 points, with
// k6's own definition (linear interpolation between closest ranks).
var k6Percentiles = []float64{0, 50, 90, 95, 99, 99.9, 100}

// k6LatencyMetric is the metric whose percentiles make the run's latency.
const k6LatencyMetric = "http_req_duration"

func detectK6NDJSON(head []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte("\n"))
	line = bytes.TrimSpace(line)
	if !bytes.HasPrefix(line, []byte("{")) || !bytes.Contains(line, []byte(`"data"`)) {
		return false
	}
	return bytes.Contains(line, []byte(`"type":"Metric"`)) || bytes.Contains(line, []byte(`"type":"Point"`))
}

func detectK6CSV(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	return bytes.HasPrefix(bytes.TrimSpace(line), []byte("metric_name,timestamp,metric_value"))
}

// k6Bulk hands the file to the sink's own scanner. done is false when the
// sink is not a BulkSink; when it is one that has no scanner, the Go
// reader scan streams the points. When the scanner fails, scan without a
// sink looks for the first malformed line to name it.
func k6Bulk(in *Input, sink model.Sink, bi *model.BulkInput, scan func(*Input, func(*model.Sample) error) error) (done bool, err error) {
	b, ok := sink.(model.BulkSink)
	if !ok || in.Path == "" || in.Transcoded {
		return false, nil
	}
	drained := false
	if in.Gzip && !in.Bounded {
		// The store's scanner decompresses the file itself, past the
		// limit that open puts on R (MaxExpansion): R is read through
		// alongside the scan, so that a gzip bomb stops the load at that
		// limit. BulkSamples returns only once the check has. A file
		// too small to expand past its limit (Bounded) needs no
		// such read: DEFLATE's bound holds it.
		drain := in.R
		bi.Check = func(ctx context.Context) error {
			drained = true
			return k6DrainLines(&ctxReader{ctx: ctx, r: drain})
		}
	}
	// goScan is scan over the file, from a fresh reader if the check has
	// read R.
	goScan := func(in *Input, emit func(*model.Sample) error) error {
		if drained {
			return readAgain(in, func(in *Input) error { return scan(in, emit) })
		}
		return scan(in, emit)
	}
	res, err := in.bulkSamples(b, 0, bi)
	if errors.Is(err, model.ErrBulkUnsupported) {
		return true, k6StreamPoints(in, sink, goScan)
	}
	if errors.Is(err, ErrTooLarge) || errors.Is(err, model.ErrBulkAbandoned) {
		// The check's, already placed at its line; or no verdict on the
		// file, which is read again alone.
		return true, err
	}
	if err != nil {
		if serr := goScan(in, nil); serr != nil {
			return true, serr
		}
		return true, fmt.Errorf("%s: %w", in.Name, err)
	}
	r, err := k6PointsRun(in.Name, res)
	if err != nil {
		return true, err
	}
	return true, sink.Run(r)
}

// readAgain calls read with in read from the start of its file again.
func readAgain(in *Input, read func(*Input) error) error {
	o, err := open(in.Path, in.Name)
	if err != nil {
		return err
	}
	defer o.close()
	fresh := *in
	fresh.R = o.R
	return read(&fresh)
}

// k6DrainLines reads r to its end; an error of the input (the gzip
// limit) is placed at the line where it stopped.
func k6DrainLines(r io.Reader) error {
	buf := make([]byte, 256<<10)
	lines := 0
	for {
		n, err := r.Read(buf)
		lines += bytes.Count(buf[:n], []byte{'\n'})
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && se.Line == 0 {
				se.Line = lines + 1
			}
			return err
		}
	}
}

// k6PointsRun builds the run row from the summary of a point stream.
// requests is the sum of http_reqs, errors the sum of http_req_failed
// (1 for every request k6 counts as failed), responses_2xx and non_2xx
// count http_reqs points by their status tag (no_response: status 0 or
// none). The duration is from the first to the last point, and rps is
// requests over it; latencies are computed from http_req_duration.
func k6PointsRun(name string, res *model.BulkResult) (*model.Run, error) {
	reqs := res.Metric("http_reqs")
	if reqs == nil {
		return nil, Errorf(name, 0, 0, "no http_reqs points: a k6 point stream of an HTTP test has them")
	}
	r := &model.Run{Tool: "k6", Line: 1, Labels: map[string]string{}}
	n := int64(math.Round(reqs.Sum))
	r.Requests = model.Some(n)
	r.Responses2xx = model.Some(reqs.Status2xx)
	r.Non2xx = model.Some(reqs.StatusOther)
	r.Labels["no_response"] = strconv.FormatInt(reqs.StatusNone, 10)
	if f := res.Metric("http_req_failed"); f != nil {
		r.Errors = model.Some(int64(math.Round(f.Sum)))
	}
	if !res.First.IsZero() {
		r.StartedAt = model.Some(res.First.UTC())
		d := res.Last.Sub(res.First).Seconds()
		r.DurationS = model.Some(d)
		if d > 0 {
			r.RPS = model.Some(float64(n) / d)
		}
	}
	r.Labels["duration_from"] = "first to last point"
	if d := res.Metric(k6LatencyMetric); d != nil && d.Count > 0 {
		r.LatencyMeanMS = model.Some(d.Sum / float64(d.Count))
		r.LatencyStdevMS = d.Stdev
		r.LatencyMaxMS = model.Some(d.Max)
		if len(d.Quantiles) == len(k6Percentiles) {
			for i, p := range k6Percentiles {
				q := d.Quantiles[i]
				r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: q})
				switch p {
				case 50:
					r.LatencyP50MS = model.Some(q)
				case 90:
					r.LatencyP90MS = model.Some(q)
				case 95:
					r.LatencyP95MS = model.Some(q)
				case 99:
					r.LatencyP99MS = model.Some(q)
				case 99.9:
					r.LatencyP999MS = model.Some(q)
				}
			}
		}
	}
	if d := res.Metric("data_received"); d != nil {
		r.BytesRead = model.Some(int64(math.Round(d.Sum)))
	}
	for _, k := range []string{"dropped_iterations", "iterations"} {
		if m := res.Metric(k); m != nil {
			r.Labels[k] = k6Num(m.Sum)
		}
	}
	r.Labels["points"] = strconv.FormatInt(res.Rows, 10)
	applyExecutorLabel(r)
	return r, nil
}

// k6PointStats accumulates the summary of a point stream in Go, the same
// numbers the store computes by SQL.
type k6PointStats struct {
	rows        int64
	first, last time.Time
	m           map[string]*k6MetricAcc
}

type k6MetricAcc struct {
	model.MetricStats
	mean, m2 float64 // Welford
	values   []float64
}

func (p *k6PointStats) add(s *model.Sample) {
	if p.m == nil {
		p.m = map[string]*k6MetricAcc{}
	}
	a := p.m[s.Metric]
	if a == nil {
		a = &k6MetricAcc{MetricStats: model.MetricStats{Metric: s.Metric, Min: s.Value, Max: s.Value}}
		p.m[s.Metric] = a
	}
	a.Count++
	a.Sum += s.Value
	a.Min = min(a.Min, s.Value)
	a.Max = max(a.Max, s.Value)
	d := s.Value - a.mean
	a.mean += d / float64(a.Count)
	a.m2 += d * (s.Value - a.mean)
	switch st := s.Status; {
	case st.Valid && st.V >= 200 && st.V <= 299:
		a.Status2xx++
	case st.Valid && st.V >= 1:
		a.StatusOther++
	default:
		a.StatusNone++
	}
	if s.Metric == k6LatencyMetric {
		a.values = append(a.values, s.Value)
	}
	if p.rows == 0 || s.TS.Before(p.first) {
		p.first = s.TS
	}
	if p.rows == 0 || s.TS.After(p.last) {
		p.last = s.TS
	}
	p.rows++
}

func (p *k6PointStats) result() *model.BulkResult {
	out := &model.BulkResult{Rows: p.rows, First: p.first, Last: p.last}
	for _, a := range p.m {
		st := a.MetricStats
		if a.values != nil {
			if a.Count > 1 {
				st.Stdev = model.Some(math.Sqrt(a.m2 / float64(a.Count)))
			}
			sort.Float64s(a.values)
			for _, pc := range k6Percentiles {
				st.Quantiles = append(st.Quantiles, stats.Quantile(a.values, pc/100))
			}
		}
		out.Metrics = append(out.Metrics, st)
	}
	sort.Slice(out.Metrics, func(i, j int) bool { return out.Metrics[i].Metric < out.Metrics[j].Metric })
	return out
}

// --- NDJSON ---

// readK6NDJSON reads k6's --out json stream: {"type":"Metric",...}
// declarations and {"type":"Point","metric":...,"data":{"time","value",
// "tags"}} samples, one per line.
func readK6NDJSON(in *Input, sink model.Sink) error {
	bi := &model.BulkInput{Name: in.Name, Path: in.Path, Format: "k6-ndjson", Gzip: in.Gzip,
		QuantileMetrics: []string{k6LatencyMetric}, Percentiles: k6Percentiles}
	if done, err := k6Bulk(in, sink, bi, scanK6NDJSON); done {
		return err
	}
	return k6StreamPoints(in, sink, scanK6NDJSON)
}

// k6StreamPoints is the Go path: every point goes to the sink, and the
// run row is built from the same summary the store computes.
func k6StreamPoints(in *Input, sink model.Sink, scan func(*Input, func(*model.Sample) error) error) error {
	var st k6PointStats
	if err := scan(in, func(s *model.Sample) error {
		st.add(s)
		return sink.Sample(0, s)
	}); err != nil {
		return err
	}
	r, err := k6PointsRun(in.Name, st.result())
	if err != nil {
		return err
	}
	return sink.Run(r)
}

type k6Line struct {
	Type   *string `json:"type"`
	Metric *string `json:"metric"`
	Data   *struct {
		Name  *string          `json:"name"`
		Time  *string          `json:"time"`
		Value *json.Number     `json:"value"`
		Tags  *json.RawMessage `json:"tags"`
	} `json:"data"`
}

// scanK6NDJSON checks every line and hands each Point to emit (nil only
// checks). Blank lines are skipped, as DuckDB's reader skips them.
func scanK6NDJSON(in *Input, emit func(*model.Sample) error) error {
	l := NewLines(in)
	for l.Scan() {
		text := strings.TrimSpace(l.Text())
		if text == "" {
			continue
		}
		var v k6Line
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return l.Errorf(0, "not a JSON object: %v", k6JSONMsg(err))
		}
		if v.Type == nil {
			return l.Errorf(0, "no \"type\": want a k6 Metric or Point line")
		}
		switch *v.Type {
		case "Metric":
			if v.Data == nil || v.Data.Name == nil {
				return l.Errorf(0, "Metric line without data.name")
			}
			continue
		case "Point":
		default:
			return l.Errorf(0, "type %q: want a k6 Metric or Point line", *v.Type)
		}
		if v.Metric == nil || *v.Metric == "" {
			return l.Errorf(0, "Point line without metric")
		}
		if v.Data == nil || v.Data.Time == nil || v.Data.Value == nil {
			return l.Errorf(0, "Point line of %s without data.time or data.value", *v.Metric)
		}
		ts, err := time.Parse(time.RFC3339Nano, *v.Data.Time)
		if err != nil {
			return l.Errorf(0, "data.time %q: want an RFC 3339 time", *v.Data.Time)
		}
		val, err := strconv.ParseFloat(v.Data.Value.String(), 64)
		if err != nil {
			return l.Errorf(0, "data.value %s: want a number", v.Data.Value.String())
		}
		s := &model.Sample{TS: ts.UTC().Truncate(time.Microsecond), Metric: *v.Metric, Value: val}
		if v.Data.Tags != nil && string(*v.Data.Tags) != "null" {
			var tags map[string]string
			if err := json.Unmarshal(*v.Data.Tags, &tags); err != nil {
				return l.Errorf(0, "data.tags: want an object of strings: %v", k6JSONMsg(err))
			}
			s.Tags = string(*v.Data.Tags)
			if st, err := strconv.ParseInt(strings.TrimSpace(tags["status"]), 10, 32); err == nil {
				s.Status = model.Some(st)
			}
		}
		if emit != nil {
			if err := emit(s); err != nil {
				return err
			}
		}
	}
	return l.Err()
}

// k6JSONMsg shortens an encoding/json error for a message.
func k6JSONMsg(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// --- CSV ---

// k6CSVFixed are the leading columns of every k6 CSV version.
var k6CSVFixed = []string{"metric_name", "timestamp", "metric_value"}

// k6CSVHead reads the header and the time format (from the first row) of
// a k6 CSV stream.
func k6CSVHead(in *Input, head []byte) ([]string, string, error) {
	cr := csv.NewReader(bytes.NewReader(head))
	cr.FieldsPerRecord = -1
	cols, err := cr.Read()
	if err != nil {
		return nil, "", Errorf(in.Name, 1, 0, "k6 CSV header: %v", err)
	}
	for i, c := range k6CSVFixed {
		if i >= len(cols) || cols[i] != c {
			return nil, "", Errorf(in.Name, 1, 0, "k6 CSV header must start with %s", strings.Join(k6CSVFixed, ","))
		}
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if c == "" || seen[c] {
			return nil, "", Errorf(in.Name, 1, 0, "k6 CSV header: column %q empty or twice", c)
		}
		seen[c] = true
	}
	row, err := cr.Read()
	if err != nil || len(row) < len(k6CSVFixed) {
		// No whole row in the head: the Go reader names the problem.
		return cols, "", nil
	}
	return cols, k6CSVTimeFormat(row[1]), nil
}

// k6CSVTimeFormat tells k6's timeFormat option from one timestamp: unix
// (seconds, the default), unix_milli, unix_micro, unix_nano, rfc3339.
func k6CSVTimeFormat(v string) string {
	if strings.ContainsAny(v, "T-:") {
		return "rfc3339"
	}
	switch n := len(strings.TrimPrefix(v, "-")); {
	case n <= 11:
		return "s"
	case n <= 14:
		return "ms"
	case n <= 17:
		return "us"
	}
	return "ns"
}

// readK6CSV reads k6's --out csv stream.
func readK6CSV(in *Input, sink model.Sink) error {
	// Peek at the header and the first row through a buffer that then
	// stays the input's reader, whatever reader the caller gave.
	br := bufio.NewReaderSize(in.R, HeadBytes)
	in.R = br
	if head, _ := br.Peek(HeadBytes); len(head) > 0 {
		cols, tf, err := k6CSVHead(in, head)
		if err != nil {
			return err
		}
		if tf != "" {
			bi := &model.BulkInput{Name: in.Name, Path: in.Path, Format: "k6-csv", Gzip: in.Gzip, Columns: cols, TimeFormat: tf,
				QuantileMetrics: []string{k6LatencyMetric}, Percentiles: k6Percentiles}
			if done, err := k6Bulk(in, sink, bi, scanK6CSV); done {
				return err
			}
		}
	}
	return k6StreamPoints(in, sink, scanK6CSV)
}

// scanK6CSV checks every row and hands each point to emit (nil only
// checks). The tags JSON holds the non-empty tag columns in header order,
// then extra_tags (k=v&k=v) in their order; metadata is not a tag.
func scanK6CSV(in *Input, emit func(*model.Sample) error) error {
	cr := csv.NewReader(in.R)
	cr.ReuseRecord = true
	cols, err := cr.Read()
	if err == io.EOF {
		return Errorf(in.Name, 1, 0, "empty file: want a k6 CSV header")
	}
	if err != nil {
		return csvError(in.Name, err, 0)
	}
	cols = append([]string(nil), cols...)
	if _, _, err := k6CSVHead(in, []byte(strings.Join(cols, ",")+"\n")); err != nil {
		return err
	}
	statusCol, extraCol := -1, -1
	for i, c := range cols {
		switch c {
		case "status":
			statusCol = i
		case "extra_tags":
			extraCol = i
		}
	}
	tf := ""
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(in.Name, err, len(cols))
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(cols) {
			return Errorf(in.Name, line, 0, "%d fields, want %d as in the header", len(rec), len(cols))
		}
		if rec[0] == "" {
			return Errorf(in.Name, line, 1, "empty metric_name")
		}
		if tf == "" {
			tf = k6CSVTimeFormat(rec[1])
		}
		ts, err := k6CSVTime(rec[1], tf)
		if err != nil {
			_, col := cr.FieldPos(1)
			return Errorf(in.Name, line, col, "timestamp %q: %v", rec[1], err)
		}
		val, err := strconv.ParseFloat(rec[2], 64)
		if err != nil {
			_, col := cr.FieldPos(2)
			return Errorf(in.Name, line, col, "metric_value %q: want a number", rec[2])
		}
		s := &model.Sample{TS: ts, Metric: rec[0], Value: val}
		if statusCol >= 0 {
			if st, err := strconv.ParseInt(strings.TrimSpace(rec[statusCol]), 10, 32); err == nil {
				s.Status = model.Some(st)
			}
		}
		buf.Reset()
		buf.WriteByte('{')
		n := 0
		add := func(k, v string) error {
			if v == "" {
				return nil
			}
			if n > 0 {
				buf.WriteByte(',')
			}
			n++
			enc.Encode(k)
			buf.Truncate(buf.Len() - 1)
			buf.WriteByte(':')
			enc.Encode(v)
			buf.Truncate(buf.Len() - 1)
			return nil
		}
		for i := 3; i < len(cols); i++ {
			if cols[i] == "extra_tags" || cols[i] == "metadata" {
				continue
			}
			if err := add(cols[i], rec[i]); err != nil {
				return err
			}
		}
		if extraCol >= 0 && rec[extraCol] != "" {
			for _, kv := range strings.Split(rec[extraCol], "&") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					continue
				}
				if err := add(k, v); err != nil {
					return err
				}
			}
		}
		buf.WriteByte('}')
		if n > 0 {
			s.Tags = buf.String()
		} else {
			s.Tags = "{}"
		}
		if emit != nil {
			if err := emit(s); err != nil {
				return err
			}
		}
	}
}

func k6CSVTime(v, tf string) (time.Time, error) {
	if tf == "rfc3339" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return time.Time{}, errors.New("want an RFC 3339 time like the first row's")
		}
		return t.UTC().Truncate(time.Microsecond), nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, errors.New("want a whole Unix time like the first row's")
	}
	switch tf {
	case "s":
		return time.Unix(n, 0).UTC(), nil
	case "ms":
		return time.UnixMilli(n).UTC(), nil
	case "us":
		return time.UnixMicro(n).UTC(), nil
	}
	return time.Unix(0, n).UTC().Truncate(time.Microsecond), nil
}
