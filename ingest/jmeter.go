package ingest

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
)

// Apache JMeter writes its samples to a JTL file, CSV with a header by
// default (jmeter.save.saveservice.output_format=csv, print_field_names=
// true): one row per sample, in the order the samples ended, with the
// columns its saveservice settings chose. The default ones since 3.1:
//
//	timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,
//	success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,
//	IdleTime,Connect
//
// timeStamp is the sample's start in epoch milliseconds, elapsed its time
// in ms. A Transaction Controller that does not generate a parent sample
// writes a row of its own with the responseMessage "Number of samples in
// transaction : N, number of failing samples : M"; embedded resources are
// rows labelled "<parent>-0", "<parent>-1" … beside their parent's.
//
// The HTML dashboard (jmeter -g file.jtl -o dir) writes statistics.json:
// an object of per-label statistics and their "Total".

func init() {
	register(&Format{Name: "jmeter-jtl-csv", Priority: 15, Detect: detectJTLCSV, Read: readJTLCSV, Bulk: true, PassBeforeScan: true})
	register(&Format{Name: "jmeter-statistics-json", Priority: 40, Detect: detectJMeterStatistics, Read: readJMeterStatistics})
}

// jtlPercents are the percentiles computed for each label.
var jtlPercents = []float64{50, 90, 95, 99, 99.9}

// jtlPercentMethod names them.
const jtlPercentMethod = "Hyndman-Fan type 6 (Apache Commons Math Percentile, LEGACY estimation, as JMeter's dashboard), over every sample of the label"

// jtlTransactionPrefix starts the responseMessage of a Transaction
// Controller's own row (TransactionController.java).
const jtlTransactionPrefix = "Number of samples in transaction : "

// detectJTLCSV claims a CSV whose header has JMeter's timeStamp, elapsed,
// label and success columns, or a headerless JTL (jtlHeaderless).
func detectJTLCSV(head []byte) bool {
	h := headerFields(head, nil)
	return h["timestamp"] && h["elapsed"] && h["label"] && h["success"] || jtlHeaderless(head) > 0
}

// jtlDefaultColumns are the columns JMeter writes by default (3.1 on), in
// the order it writes them; a JTL written with print_field_names=false
// has no header and these columns.
var jtlDefaultColumns = []string{"timeStamp", "elapsed", "label", "responseCode", "responseMessage", "threadName",
	"dataType", "success", "failureMessage", "bytes", "sentBytes", "grpThreads", "allThreads", "URL", "Latency",
	"IdleTime", "Connect"}

// jtlFixedColumns is how many of jtlDefaultColumns start every headerless
// JTL of JMeter's default settings, whatever its version: JMeter writes
// its columns in one fixed order, and before 3.1 the defaults differed
// only after success (bytes without failureMessage, no sentBytes, URL,
// IdleTime or Connect).
const jtlFixedColumns = 8

// jtlHeaderless returns the number of fields of a headerless JTL's first
// row, or 0 when head does not start with one: at least jtlFixedColumns
// fields, a timeStamp of epoch milliseconds (12 or 13 digits: 2001 to
// 2286), a whole elapsed and a success of true or false.
func jtlHeaderless(head []byte) int {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	r := csv.NewReader(bytes.NewReader(line))
	r.LazyQuotes = true
	rec, err := r.Read()
	if err != nil || len(rec) < jtlFixedColumns {
		return 0
	}
	digits := func(s string) bool {
		return s != "" && strings.Trim(s, "0123456789") == ""
	}
	if n := len(rec[0]); n < 12 || n > 13 || !digits(rec[0]) || !digits(rec[1]) || rec[7] != "true" && rec[7] != "false" {
		return 0
	}
	return len(rec)
}

// jtlKind tells a Transaction Controller's own sample by its response
// message; a sample nested in another (XML) is a subsample.
func jtlKind(msg string, nested bool) string {
	switch {
	case strings.HasPrefix(msg, jtlTransactionPrefix):
		return "transaction"
	case nested:
		return "subsample"
	}
	return "sampler"
}

// readJTLCSV reads a JMeter JTL CSV, with its header or without
// (jtlHeaderless: the default columns by position): each label is a run
// (a Transaction Controller's rows a run of their own, label
// sample_kind=transaction), in the order of its first sample, with its
// statistics computed from its samples: requests the samples, errors
// those with success=false, responses_2xx and non_2xx from numeric
// response codes (label no_response: the codes JMeter writes for no
// answer, "Non HTTP response code: …"), rps the samples over the time
// from the earliest start to the latest end (as the dashboard's
// throughput), latency mean, max and percentiles (jtlPercentMethod) of
// elapsed. Each sample is a row of the sink's samples in its label's
// run (jtlLabels.sample): a model.BulkSink inserts them with its own CSV
// scanner once the file has been read, any other sink gets each as it
// is read. What is held until the end is each sample's elapsed time, 8
// bytes, for the percentiles.
func readJTLCSV(in *Input, sink model.Sink) error {
	b, bulk := sink.(model.BulkSink)
	bulk = bulk && in.Path != "" && !in.Transcoded
	samples := sink
	if bulk {
		samples = nil // the store's scanner inserts them
	}
	ls, t, err := scanJTLCSV(in, samples)
	if err != nil {
		return err
	}
	if bulk {
		var res *model.BulkResult
		err := model.ErrBulkUnsupported
		if !ls.lone {
			bi := &model.BulkInput{Name: in.Name, Path: in.Path, Format: "jmeter-jtl-csv", Gzip: in.Gzip,
				Columns: t.header, NoHeader: t.noHeader, Runs: ls.bulkRuns()}
			res, err = in.bulkSamples(b, 0, bi)
		}
		switch {
		case errors.Is(err, model.ErrBulkUnsupported):
			// Read again, each sample to the sink: the sink has no
			// scanner, or the file is one its scanner refuses (lone).
			err := readAgain(in, func(in *Input) (err error) {
				ls, _, err = scanJTLCSV(in, sink)
				return err
			})
			if err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("%s: %w", in.Name, err)
		case res.Rows != ls.samples:
			return Errorf(in.Name, 0, 0, "JMeter JTL: DuckDB's CSV scanner read %d samples where wra's reader read %d", res.Rows, ls.samples)
		}
	}
	return ls.store(sink)
}

// scanJTLCSV reads the samples of a JTL CSV into their labels' runs,
// each to samples' samples where that is not nil; t is the table read,
// its header (lower case) the columns of the file.
func scanJTLCSV(in *Input, samples model.Sink) (*jtlLabels, *csvTable, error) {
	br := bufio.NewReader(in.R)
	head, _ := br.Peek(HeadBytes)
	in2 := *in
	in2.R = br
	defer func() {
		// What the table said of the file goes to the file's input.
		in.warnings, in.escaped, in.broken = in2.warnings, in2.escaped, in2.broken
	}()
	var t *csvTable
	var err error
	if n := jtlHeaderless(head); n > 0 {
		cols := make([]string, n)
		for i := range cols {
			if i < jtlFixedColumns || n == len(jtlDefaultColumns) {
				cols[i] = jtlDefaultColumns[i]
			} else {
				cols[i] = "column " + strconv.Itoa(i+1) // not known without the header
			}
		}
		t = newCSVTableColumns(&in2, cols)
	} else if t, err = newCSVTableSep(&in2, nil, jtlDelimiter(head)); err != nil {
		return nil, nil, err
	}
	for _, c := range []string{"timestamp", "elapsed", "label", "success"} {
		if !t.has(c) {
			return nil, nil, Errorf(in.Name, 1, 0, "JMeter JTL: the header has no %s column", c)
		}
	}
	ls := newJTLLabels(samples)
	ls.codes = t.has("responsecode")
	threaded := false // a sample with a thread name or a response code was read
	// DuckDB's scanner is given a comma-separated file with epoch times:
	// a tab-delimited one is stored by the Go reader.
	ls.lone = t.r.Comma != ','
	err = t.each("JMeter JTL", func(int) error {
		for _, f := range t.rec {
			ls.lone = ls.lone || strings.IndexByte(f, '\r') >= 0
		}
		s := jtlSample{label: t.rec[t.index["label"]], line: t.line, bytes: -1} // the label as written: JMeter keeps its spaces
		msg, _ := t.str("responsemessage")
		s.kind = jtlKind(msg, false)
		var err error
		if s.ts, err = ls.timestamp(t); err != nil {
			return err
		}
		if s.ms, err = jtlWhole(t, "elapsed", "milliseconds"); err != nil {
			return err
		}
		if s.ts > math.MaxInt64-s.ms {
			return t.errAt("elapsed", "%d ms after a start of %d overflows", s.ms, s.ts)
		}
		v, _ := t.str("success")
		if s.success, err = jtlBool(v); err != nil {
			return t.errAt("success", "%v", err)
		}
		s.code, _ = t.str("responsecode")
		s.thread, _ = t.str("threadname")
		threaded = threaded || s.thread != "" || s.code != ""
		if b, ok, err := t.int("bytes"); err != nil {
			return err
		} else if ok && b >= 0 {
			s.bytes = b
		}
		s.threads, _, _ = t.int("allthreads")
		return ls.add(&s)
	})
	if err == nil && t.has("threadname") && t.has("responsecode") && !threaded {
		// Every sampler of JMeter runs in a thread, which it names, and
		// writes a response code ("Non HTTP response code: …" where
		// nothing answered): rows with neither are the PerfMon plugin's
		// Metrics Collector (a host's CPU, memory, disk written as
		// samples), no requests.
		return ls, t, &SkipError{File: in.Name, Reason: "a JTL of no sampler's thread and no response code (every threadName and responseCode empty): the PerfMon Metrics Collector's host metrics, not a report of requests"}
	}
	return ls, t, err
}

// jtlDelimiter is the field separator of a JTL's header line: a tab
// where the line has tabs and no comma (jmeter.save.saveservice.
// default_delimiter=\t, a documented setting), else a comma.
func jtlDelimiter(head []byte) rune {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if bytes.IndexByte(line, '\t') >= 0 && bytes.IndexByte(line, ',') < 0 {
		return '\t'
	}
	return ','
}

// jtlTimeLayouts are the timestamp_format patterns of JMeter's
// documentation and of common use (SimpleDateFormat's yyyy/MM/dd
// HH:mm:ss.SSS and the like), as Go layouts.
var jtlTimeLayouts = []string{"2006/01/02 15:04:05.000", "2006-01-02 15:04:05.000", "2006/01/02 15:04:05", "2006-01-02 15:04:05",
	"2006-01-02T15:04:05.000Z0700", "2006-01-02T15:04:05.000", "2006-01-02T15:04:05", "01/02/2006 15:04:05.000", "02/01/2006 15:04:05.000"}

// timestamp reads a sample's timeStamp: epoch milliseconds (JMeter's
// default), or a time formatted by jmeter.save.saveservice.
// timestamp_format. A formatted time carries no time zone: its
// differences give the run's duration and rate, but no start; one of
// no layout read gives neither. The figures that need no time (counts,
// latencies) are kept either way; the file is warned once.
func (ls *jtlLabels) timestamp(t *csvTable) (int64, error) {
	v, _ := t.str("timestamp")
	if n, msg := jtlWholeText(v, false, "epoch milliseconds"); msg == "" && ls.timeFormat == "" {
		return n, nil
	}
	if ls.timeFormat == "" {
		if !strings.ContainsAny(v, "/-: ") {
			return 0, t.errAt("timestamp", "expected epoch milliseconds or a formatted time, found %q", clipQuote(v))
		}
		ls.timeFormat = "unread"
		for _, l := range jtlTimeLayouts {
			if _, err := time.Parse(l, v); err == nil {
				ls.timeFormat = l
				break
			}
		}
		if t.in != nil {
			if ls.timeFormat == "unread" {
				t.in.warn("line %d: timeStamp %q is a formatted time of no layout wra reads (jmeter.save.saveservice.timestamp_format): the runs keep their counts and latencies, no duration, rate or start", t.line, clipQuote(v))
			} else {
				t.in.warn("line %d: timeStamp %q is a formatted time (jmeter.save.saveservice.timestamp_format, read as %s) with no time zone: the runs keep their duration and rate, no start; their samples are not stored (no instant to store them at)", t.line, clipQuote(v), ls.timeFormat)
			}
		}
		ls.sink = nil  // no instant to store a sample at
		ls.lone = true // nor for DuckDB's scanner to cast
	}
	if ls.timeFormat == "unread" {
		return 0, nil
	}
	ts, err := time.Parse(ls.timeFormat, v)
	if err != nil {
		return 0, t.errAt("timestamp", "expected a time of the file's layout %s, found %q", ls.timeFormat, clipQuote(v))
	}
	return ts.UnixMilli(), nil
}

// jtlBool reads a success field.
func jtlBool(v string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("expected true or false, found %q", clipQuote(v))
}

// jtlWhole reads a whole number >= 0 of a JTL column.
func jtlWhole(t *csvTable, col, what string) (int64, error) {
	v, _ := t.str(col)
	n, msg := jtlWholeText(v, col == "timestamp", what)
	if msg != "" {
		return 0, t.errAt(col, "%s", msg)
	}
	return n, nil
}

// jtlWholeText reads a JTL time: a whole number >= 0, or the message
// that says what was found instead.
func jtlWholeText(v string, timestamp bool, what string) (int64, string) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		hint := ""
		if timestamp && strings.ContainsAny(v, "/-: ") {
			hint = " (a formatted time: set jmeter.save.saveservice.timestamp_format=ms)"
		}
		return 0, fmt.Sprintf("expected %s, a whole number >= 0, found %q%s", what, clipQuote(v), hint)
	}
	return n, ""
}

// jmeterStat is one entry of the dashboard's statistics.json.
type jmeterStat struct {
	Transaction *string  `json:"transaction"`
	SampleCount *int64   `json:"sampleCount"`
	ErrorCount  *int64   `json:"errorCount"`
	ErrorPct    *float64 `json:"errorPct"`
	Mean        *float64 `json:"meanResTime"`
	Median      *float64 `json:"medianResTime"`
	Min         *float64 `json:"minResTime"`
	Max         *float64 `json:"maxResTime"`
	Pct1        *float64 `json:"pct1ResTime"`
	Pct2        *float64 `json:"pct2ResTime"`
	Pct3        *float64 `json:"pct3ResTime"`
	Throughput  *float64 `json:"throughput"`
	ReceivedKBs *float64 `json:"receivedKBytesPerSec"`
	SentKBs     *float64 `json:"sentKBytesPerSec"`
}

// detectJMeterStatistics claims a JSON object whose entries are the
// dashboard's statistics: an entry with transaction, sampleCount and
// meanResTime.
func detectJMeterStatistics(head []byte) bool {
	keys, ok := jsonKeys(head)
	if !ok {
		return false
	}
	for _, v := range keys {
		if v == nil {
			continue
		}
		var e map[string]json.RawMessage
		if json.Unmarshal(v, &e) != nil {
			return false
		}
		_, a := e["transaction"]
		_, b := e["sampleCount"]
		_, c := e["meanResTime"]
		return a && b && c
	}
	return false
}

// jmeterPctLevels says which percentiles pct1ResTime … are: the file
// does not, and these are JMeter's defaults (aggregate_rpt_pct1..3).
const jmeterPctLevels = "pct1ResTime, pct2ResTime, pct3ResTime read as 90, 95, 99: JMeter's defaults (aggregate_rpt_pct1..3), which the file does not state"

// readJMeterStatistics reads the dashboard's statistics.json: a run per
// entry in file order, "Total" the row of all samples (aggregated=true).
// requests sampleCount, errors errorCount, rps throughput, latencies the
// ms figures, p90/p95/p99 pct1..3ResTime (jmeterPctLevels).
func readJMeterStatistics(in *Input, sink model.Sink) error {
	var all map[string]jmeterStat
	doc, _, err := readJSONDoc(in, &all, "JMeter statistics JSON")
	if err != nil {
		return err
	}
	// The entries in file order, each with its line.
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.Token() // {, checked by decodeJSON
	var runs []*model.Run
	for dec.More() {
		off := dec.InputOffset()
		tok, _ := dec.Token()
		name, _ := tok.(string)
		var skip json.RawMessage
		dec.Decode(&skip)
		line, _ := jsonLineCol(doc, off+int64(len(doc[off:])-len(bytes.TrimLeft(doc[off:], " \t\r\n,"))))
		e := all[name]
		if e.SampleCount == nil || e.ErrorCount == nil || e.Mean == nil {
			return Errorf(in.Name, line, 0, "JMeter statistics.json: entry %q lacks sampleCount, errorCount or meanResTime", name)
		}
		if *e.SampleCount < 0 || *e.ErrorCount < 0 {
			return Errorf(in.Name, line, 0, "JMeter statistics.json: entry %q has a negative count", name)
		}
		for _, x := range []*float64{e.Mean, e.Median, e.Min, e.Max, e.Pct1, e.Pct2, e.Pct3, e.Throughput} {
			if x != nil && *x < 0 {
				return Errorf(in.Name, line, 0, "JMeter statistics.json: entry %q has a negative time or rate %v", name, *x)
			}
		}
		r := &model.Run{Tool: "jmeter", Line: line, Index: len(runs)}
		runLabel(r, "request_name", name)
		if name == "Total" {
			runLabel(r, "aggregated", "true")
		}
		r.Requests = model.Some(*e.SampleCount)
		r.Errors = model.Some(*e.ErrorCount)
		if e.Throughput != nil {
			r.RPS = model.Some(*e.Throughput)
		}
		if *e.SampleCount > 0 {
			for _, f := range []struct {
				x   *float64
				dst *model.Opt[float64]
			}{{e.Mean, &r.LatencyMeanMS}, {e.Median, &r.LatencyP50MS}, {e.Max, &r.LatencyMaxMS},
				{e.Pct1, &r.LatencyP90MS}, {e.Pct2, &r.LatencyP95MS}, {e.Pct3, &r.LatencyP99MS}} {
				if f.x != nil {
					*f.dst = model.Some(*f.x)
				}
			}
			if e.Min != nil {
				runLabel(r, "latency_min_ms", fmtLabelNum(*e.Min))
			}
			for _, p := range []struct {
				at float64
				v  model.Opt[float64]
			}{{50, r.LatencyP50MS}, {90, r.LatencyP90MS}, {95, r.LatencyP95MS}, {99, r.LatencyP99MS}} {
				if p.v.Valid {
					r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p.at, LatencyMS: p.v.V})
				}
			}
			runLabel(r, "percentile_levels", jmeterPctLevels)
		}
		for _, l := range []struct {
			k string
			x *float64
		}{{"error_pct", e.ErrorPct}} {
			if l.x != nil {
				runLabel(r, l.k, fmtLabelNum(*l.x))
			}
		}
		// JMeter's KB is 1024 bytes (bytes / 1024 / seconds).
		for _, l := range []struct {
			k string
			x *float64
		}{{model.ReportedTransferBytesPerS, e.ReceivedKBs}, {model.ReportedSentBytesPerS, e.SentKBs}} {
			if l.x != nil {
				reported(r, l.k, scaledExact(*l.x, binaryBase))
			}
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return Errorf(in.Name, 1, 0, "JMeter statistics.json holds no entry")
	}
	for _, r := range runs {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}

// The Aggregate Report and Summary Report listeners save their tables
// ("Save Table Data", or JMeterPluginsCMD --generate-csv) as CSV: a row
// per label and a TOTAL row. Aggregate Report: Label, # Samples,
// Average, Median, 90% Line, 95% Line, 99% Line, Min, Max, Error %,
// Throughput, Received KB/sec, Sent KB/sec; Summary Report: Label,
// # Samples, Average, Min, Max, Std. Dev., Error %, Throughput, Received
// KB/sec, Sent KB/sec, Avg. Bytes. Times are whole ms, Throughput per
// second; the decimals follow the locale of the JMeter that saved them
// ("0,000%", ",16005").

func init() {
	register(&Format{Name: "jmeter-aggregate-csv", Priority: 15, Detect: detectJMeterTable, Read: readJMeterTable})
}

// jmeterTablePercentMethod names how the Aggregate Report computes its
// "N% Line" columns (StatCalculator.getPercentPoint).
const jmeterTablePercentMethod = "JMeter StatCalculator: the smallest sample whose cumulative count reaches round(n × p) (nearest rank)"

func detectJMeterTable(head []byte) bool {
	h := headerFields(head, nil)
	return h["label"] && h["# samples"] && h["average"] && h["error %"] && h["throughput"]
}

// jmeterLinePercent reads a percentile column's name: "90% Line" (the
// level is aggregate_rpt_pct1..3, printed in the name).
func jmeterLinePercent(h string) (float64, bool) {
	num, ok := strings.CutSuffix(h, "% line")
	if !ok {
		return 0, false
	}
	p, err := strconv.ParseFloat(num, 64)
	return p, err == nil && p > 0 && p <= 100
}

// jmeterLocaleNum reads a number as JMeter's DecimalFormat wrote it in
// the saving JVM's locale: "13.59071", or with a decimal comma "0,16"
// and ",16005" (the patterns have no grouping separator).
func jmeterLocaleNum(t *csvTable, col string) (float64, bool, error) {
	v, ok := t.str(col)
	if !ok {
		return 0, false, nil
	}
	v = strings.TrimSuffix(v, "%")
	if strings.Count(v, ",") == 1 && !strings.Contains(v, ".") {
		v = strings.Replace(v, ",", ".", 1)
	}
	x, err := decimalMS(v, 0)
	if err != nil {
		return 0, false, t.errAt(col, "expected a number >= 0, found %q", clipQuote(v))
	}
	return x, true, nil
}

// readJMeterTable reads an Aggregate or Summary Report CSV: a run per
// row, in file order, TOTAL the row of all samples (aggregated=true).
// requests is # Samples; errors # Samples × Error % where the printed
// three decimals give the count exactly (below 100000 samples), else
// NULL with label error_pct; rps Throughput; latency_mean_ms Average,
// latency_p50_ms Median, the N% Line columns the spectrum, Max, Std. Dev.
func readJMeterTable(in *Input, sink model.Sink) error {
	t, err := newCSVTable(in, nil)
	if err != nil {
		return err
	}
	for _, c := range []string{"label", "# samples", "average", "error %"} {
		if !t.has(c) {
			return Errorf(in.Name, 1, 0, "JMeter Aggregate/Summary Report CSV: the header has no %q column", c)
		}
	}
	var runs []*model.Run
	err = t.each("JMeter Aggregate/Summary Report CSV", func(i int) error {
		label := t.rec[t.index["label"]]
		r := &model.Run{Tool: "jmeter", Line: t.line, Index: i}
		runLabel(r, "request_name", label)
		if label == "TOTAL" {
			runLabel(r, "aggregated", "true")
		}
		n, ok, err := t.int("# samples")
		if err != nil || !ok || n < 0 {
			v, _ := t.str("# samples")
			return t.errAt("# samples", "expected a count, found %q", clipQuote(v))
		}
		r.Requests = model.Some(n)
		pct, ok, err := jmeterLocaleNum(t, "error %")
		if err != nil {
			return err
		}
		if ok {
			runLabel(r, "error_pct", fmtLabelNum(pct))
			if e := math.Round(float64(n) * pct / 100); n < 100000 && e <= float64(n) {
				r.Errors = model.Some(int64(e))
			}
		}
		for _, c := range []struct {
			col string
			dst *model.Opt[float64]
		}{{"average", &r.LatencyMeanMS}, {"median", &r.LatencyP50MS}, {"max", &r.LatencyMaxMS},
			{"std. dev.", &r.LatencyStdevMS}, {"throughput", &r.RPS}} {
			if x, ok, err := jmeterLocaleNum(t, c.col); err != nil {
				return err
			} else if ok && (c.col == "throughput" || n > 0) {
				*c.dst = model.Some(x)
			}
		}
		for _, c := range []struct {
			col, label string
			scale      uint64
		}{
			{"min", "latency_min_ms", 1}, {"avg. bytes", "average_bytes", 1},
			// JMeter's KB is 1024 bytes
			{"received kb/sec", model.ReportedTransferBytesPerS, binaryBase}, {"sent kb/sec", model.ReportedSentBytesPerS, binaryBase},
		} {
			if x, ok, err := jmeterLocaleNum(t, c.col); err != nil {
				return err
			} else if ok {
				runLabel(r, c.label, fmtLabelNum(scaledExact(x, c.scale)))
			}
		}
		for _, h := range t.header {
			p, ok := jmeterLinePercent(h)
			if !ok {
				continue
			}
			if x, ok, err := jmeterLocaleNum(t, h); err != nil {
				return err
			} else if ok && n > 0 {
				r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: x})
			}
		}
		if len(r.Percentiles) > 0 {
			sortPercentiles(r.Percentiles)
			spectrumColumns(r)
			runLabel(r, "percentile_method", jmeterTablePercentMethod)
		}
		runs = append(runs, r)
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range runs {
		if err := sink.Run(r); err != nil {
			return err
		}
	}
	return nil
}
