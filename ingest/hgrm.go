package ingest

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// HdrHistogram percentile distributions (.hgrm files) come in three
// layouts that share their rows: Value, Percentile (a fraction from 0 to
// 1), TotalCount and 1/(1-Percentile).
//
//   - C (hdr_percentiles_print, wrk2's detailed spectrum) and Go
//     (hdrhistogram-go PercentilesPrint): a "Value Percentile TotalCount
//     1/(1-Percentile)" header, the last row ends in "inf", and a footer of
//     "#[Mean = …, StdDeviation = …]", "#[Max = …, Total count = …]" and
//     "#[Buckets = …, SubBuckets = …]".
//   - Java (AbstractHistogram.outputPercentileDistribution and
//     HistogramLogProcessor): the same header and footer; the last row has
//     no 1/(1-Percentile) column.
//   - CSV (Java and C with useCsvFormat/CSV): a header
//     "Value","Percentile","TotalCount","1/(1-Percentile)" (quoted by Java,
//     not by C), rows of four fields, a last 1/(1-Percentile) of
//     "Infinity" (Java) or "inf" (C), and no footer.
//   - vegeta report -type=hdrplot: a "Value(ms) Percentile TotalCount
//     1/(1-Percentile)" header and no footer (read as vegeta-hdrplot).
//
// The file does not say its value unit: the tools that write .hgrm files
// for latencies scale to milliseconds (wrk2, HistogramLogProcessor's
// default, vegeta's Value(ms)), so values are read as milliseconds unless
// a unit label (manifest or --label unit=ns|us|ms|s) says otherwise.

func init() {
	register(&Format{Name: "hdrhistogram", Priority: 60, Detect: detectHgrm, Read: readHgrm})
	register(&Format{Name: "vegeta-hdrplot", Priority: 40, Detect: detectVegetaHdrplot, Read: readVegetaHdrplot})
}

// hgrmHeader reports which header a line is: "plain", "csv", "vegeta" or "".
func hgrmHeader(l string) string {
	f := strings.Fields(l)
	switch {
	case len(f) == 4 && f[0] == "Value" && f[1] == "Percentile" && f[2] == "TotalCount" && f[3] == "1/(1-Percentile)":
		return "plain"
	case len(f) == 4 && f[0] == "Value(ms)" && f[1] == "Percentile" && f[2] == "TotalCount" && f[3] == "1/(1-Percentile)":
		return "vegeta"
	case strings.TrimSpace(l) == `"Value","Percentile","TotalCount","1/(1-Percentile)"`, // Java
		strings.TrimSpace(l) == `Value,Percentile,TotalCount,1/(1-Percentile)`: // C
		return "csv"
	}
	return ""
}

// detectHgrm claims a file whose first non-blank line is an HdrHistogram
// header: a wrk2 report, whose spectrum follows other lines, is not one.
func detectHgrm(head []byte) bool {
	k := hgrmFirstHeader(head)
	return k == "plain" || k == "csv"
}

func detectVegetaHdrplot(head []byte) bool { return hgrmFirstHeader(head) == "vegeta" }

func hgrmFirstHeader(head []byte) string {
	kind := ""
	hasLine(head, func(l string) bool {
		if l == "" {
			return false
		}
		kind = hgrmHeader(l)
		return true
	})
	return kind
}

func readHgrm(in *Input, sink model.Sink) error {
	exp := 0
	if u, ok := sinkLabel(sink, "unit"); ok {
		e, err := unitExpMS(u)
		if err != nil {
			return Errorf(in.Name, 0, 0, "label unit=%q: %v", u, err)
		}
		exp = e
	}
	return readHgrmAs(in, sink, "hdrhistogram", exp)
}

func readVegetaHdrplot(in *Input, sink model.Sink) error {
	return readHgrmAs(in, sink, "vegeta", 0)
}

// readHgrmAs reads the percentile distributions of a file, one run each
// (readReports: distributions one after another are runs of their own);
// tool names the runs' tool and exp the power of ten from the values'
// unit to ms.
func readHgrmAs(in *Input, sink model.Sink, tool string, exp int) error {
	return readReports(in, sink, &reportFormat{
		tool:   "HdrHistogram",
		first:  "the Value Percentile TotalCount 1/(1-Percentile) header",
		begins: func(t string) bool { return hgrmHeader(t) != "" },
		read:   func(l *Lines, _ model.Sink) (*model.Run, error) { return readHgrmDistribution(l, tool, exp) },
		body:   isHdrRow,
	})
}

// isHdrRow reports whether a trimmed line reads as a spectrum row: four
// numbers, the last of them possibly inf.
func isHdrRow(t string) bool {
	f := strings.Fields(t)
	if len(f) != 4 {
		return false
	}
	for _, x := range f {
		if _, err := strconv.ParseFloat(x, 64); err != nil {
			return false
		}
	}
	return true
}

// readHgrmDistribution reads one percentile distribution from its header
// to its last row and footer. requests is the footer's Total count, else
// the last row's TotalCount; mean, stdev and max come from the footer
// (vegeta's hdrplot has none, and its last row, at percentile 1, is the
// maximum). A distribution whose rows are complete (up to the row of
// 1/(1-Percentile) inf) but whose footer was left out is stored with what
// it has: requests and max from its last row, no mean and deviation, and
// a warning label that says so.
func readHgrmDistribution(l *Lines, tool string, exp int) (*model.Run, error) {
	r := &model.Run{Tool: tool}
	l.Scan()
	kind := hgrmHeader(strings.TrimSpace(l.Text()))
	r.Line = l.Line()
	footer := false
	rows := hdrRows{endAtOne: kind == "vegeta"}
	var total model.Opt[int64]
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" {
			continue
		}
		if hgrmHeader(t) != "" {
			if !rows.done {
				return nil, l.Errorf(1, "truncated HdrHistogram distribution: the next one starts here before the row of 1/(1-Percentile) inf")
			}
			l.Unread()
			break
		}
		if strings.HasPrefix(t, "#[") {
			if kind == "vegeta" || kind == "csv" {
				return nil, l.Errorf(1, "unexpected footer line in a %s distribution", kind)
			}
			if err := hgrmFooter(l, r, exp, &total); err != nil {
				return nil, err
			}
			footer = true
			continue
		}
		if footer {
			// The distribution ended with its footer.
			l.Unread()
			break
		}
		f := posFields(l.Text())
		if kind == "csv" {
			f = csvPosFields(l.Text())
		}
		if len(f) == 3 && kind != "plain" {
			return nil, l.Errorf(1, "expected Value, Percentile, TotalCount and 1/(1-Percentile), found %q", clipLine(t))
		}
		if err := rows.add(l, f); err != nil {
			return nil, err
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	end := l.Line() + 1
	switch {
	case len(rows.rows) == 0:
		return nil, Errorf(l.in.Name, end, 0, "truncated HdrHistogram distribution: header without rows")
	case !rows.done && kind == "plain" && !footer:
		return nil, Errorf(l.in.Name, end, 0, "truncated HdrHistogram distribution: expected rows up to the one of 1/(1-Percentile) inf and the #[Mean, #[Max and #[Buckets footer")
	case !rows.done && kind != "plain":
		return nil, Errorf(l.in.Name, end, 0, "truncated HdrHistogram distribution: expected rows up to percentile 1")
	case kind == "plain" && !footer:
		runLabel(r, "warning", "the HdrHistogram distribution has no #[Mean, #[Max and #[Buckets footer: no mean and standard deviation; requests and max are its last row's")
	}
	for _, row := range rows.rows {
		d, ok := row.value.shift(exp)
		if !ok {
			return nil, Errorf(l.in.Name, r.Line, 0, "Value %v does not fit in milliseconds", row.value.float())
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: row.pct, LatencyMS: d.float(), Count: model.Some(row.count)})
	}
	last := r.Percentiles[len(r.Percentiles)-1]
	switch {
	case total.Valid:
		r.Requests = total
	case last.Percentile == 100 || rows.done:
		r.Requests = last.Count
	}
	if !r.LatencyMaxMS.Valid && (last.Percentile == 100 || rows.done) {
		r.LatencyMaxMS = model.Some(last.LatencyMS)
	}
	if kind == "vegeta" {
		runLabel(r, "percentile_method", "vegeta t-digest (compression 100)")
	}
	spectrumColumns(r)
	return r, nil
}

// hgrmFooter reads "#[Mean = a, StdDeviation = b]", "#[Max = c, Total
// count = n]" or "#[Buckets = x, SubBuckets = y]".
func hgrmFooter(l *Lines, r *model.Run, exp int, total *model.Opt[int64]) error {
	kvs, err := hdrFooter(l)
	if err != nil {
		return err
	}
	for _, kv := range kvs {
		d, nan, err := hdrFooterNumber(l, kv)
		if err != nil {
			return err
		}
		if nan { // the mean and deviation of an empty histogram
			continue
		}
		ms := func(dst *model.Opt[float64]) error {
			x, ok := d.shift(exp)
			if !ok {
				return l.Errorf(kv.col, "footer %s: %q does not fit in milliseconds", kv.key, kv.value)
			}
			*dst = model.Some(x.float())
			return nil
		}
		switch kv.key {
		case "Mean":
			err = ms(&r.LatencyMeanMS)
		case "StdDeviation":
			err = ms(&r.LatencyStdevMS)
		case "Max":
			err = ms(&r.LatencyMaxMS)
		case "Total count":
			n, perr := strconv.ParseInt(kv.value, 10, 64)
			if perr != nil {
				return l.Errorf(kv.col, "footer %s: expected a count >= 0, found %q", kv.key, kv.value)
			}
			*total = model.Some(n)
		case "Buckets", "SubBuckets":
			runLabel(r, "hdr_"+strings.ToLower(kv.key), kv.value)
		default:
			return l.Errorf(strings.Index(l.Text(), kv.key)+1, "footer: unknown field %q", kv.key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// spectrumLevels are the percentile columns of runs.
var spectrumLevels = []struct {
	p   float64
	col func(r *model.Run) *model.Opt[float64]
}{
	{50, func(r *model.Run) *model.Opt[float64] { return &r.LatencyP50MS }},
	{90, func(r *model.Run) *model.Opt[float64] { return &r.LatencyP90MS }},
	{95, func(r *model.Run) *model.Opt[float64] { return &r.LatencyP95MS }},
	{99, func(r *model.Run) *model.Opt[float64] { return &r.LatencyP99MS }},
	{99.9, func(r *model.Run) *model.Opt[float64] { return &r.LatencyP999MS }},
}

// spectrumColumns fills the unset p50 … p99.9 columns from the run's
// spectrum: from the row printed at that percentile, or, where the
// spectrum has no row there (an HdrHistogram spectrum has 99.0625 but not
// 99), from the rows on either side when both print the same value, which
// the percentile between them then has too. Otherwise the column stays
// NULL: no value is interpolated.
func spectrumColumns(r *model.Run) {
	ps := r.Percentiles
	for _, lv := range spectrumLevels {
		dst := lv.col(r)
		if dst.Valid {
			continue
		}
		i, found := slices.BinarySearchFunc(ps, lv.p, func(p model.Percentile, t float64) int {
			switch {
			case math.Abs(p.Percentile-t) < 1e-9:
				return 0
			case p.Percentile < t:
				return -1
			}
			return 1
		})
		switch {
		case found:
			*dst = model.Some(ps[i].LatencyMS)
		case i > 0 && i < len(ps) && ps[i-1].LatencyMS == ps[i].LatencyMS:
			*dst = model.Some(ps[i].LatencyMS)
		}
	}
}

// sortPercentiles orders a spectrum by percentile.
func sortPercentiles(ps []model.Percentile) {
	slices.SortStableFunc(ps, func(a, b model.Percentile) int {
		switch {
		case a.Percentile < b.Percentile:
			return -1
		case a.Percentile > b.Percentile:
			return 1
		}
		return 0
	})
}

// sinkLabel returns a label that the manifest or the command line sets for
// the file being read, for readers whose reading depends on one (the value
// unit of an .hgrm file, the duration of a bombardier text report).
func sinkLabel(sink model.Sink, key string) (string, bool) {
	if g, ok := sink.(*guardSink); ok {
		sink = g.Sink
	}
	ls, ok := sink.(*labelSink)
	if !ok {
		return "", false
	}
	if v, ok := ls.override[key]; ok {
		return v, true
	}
	v, ok := ls.manifest[key]
	return v, ok
}
