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

// readHgrmAs reads one percentile distribution; tool names the run's tool.
// requests is the footer's Total count, else the last row's TotalCount;
// mean, stdev and max come from the footer (vegeta's hdrplot has none, and
// its last row, at percentile 1, is the maximum).
func readHgrmAs(in *Input, sink model.Sink, tool string, exp int) error {
	l := NewLines(in)
	r := &model.Run{Tool: tool}
	kind := ""
	var lastCount int64 = -1
	sawInf, footer := false, false
	var total model.Opt[int64]
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if t == "" {
			continue
		}
		if kind == "" {
			kind = hgrmHeader(t)
			if kind == "" {
				return l.Errorf(1, "HdrHistogram distribution: expected the Value Percentile TotalCount 1/(1-Percentile) header, found %q", clipLine(t))
			}
			r.Line = l.Line()
			continue
		}
		if hgrmHeader(t) != "" {
			return l.Errorf(1, "a second percentile distribution starts here: a file holds one")
		}
		if strings.HasPrefix(t, "#[") {
			if kind == "vegeta" || kind == "csv" {
				return l.Errorf(1, "unexpected footer line in a %s distribution", kind)
			}
			if err := hgrmFooter(l, t, r, exp, &total); err != nil {
				return err
			}
			footer = true
			continue
		}
		if footer {
			return l.Errorf(1, "unexpected line %q after the #[ footer", clipLine(t))
		}
		if sawInf {
			return l.Errorf(1, "unexpected row after the percentile 1 row")
		}
		var f []string
		if kind == "csv" {
			f = strings.Split(t, ",")
		} else {
			f = strings.Fields(t)
		}
		if len(f) != 4 && !(len(f) == 3 && kind == "plain") {
			return l.Errorf(1, "expected Value, Percentile, TotalCount and 1/(1-Percentile), found %q", clipLine(t))
		}
		v, err1 := decimalMS(strings.TrimSpace(f[0]), exp)
		q, err2 := strconv.ParseFloat(f[1], 64)
		n, err3 := strconv.ParseInt(f[2], 10, 64)
		switch {
		case err1 != nil:
			return l.Errorf(hgrmCol(l.Text(), f, 0), "Value: expected a number >= 0, found %q", f[0])
		case err2 != nil || !(q >= 0 && q <= 1):
			return l.Errorf(hgrmCol(l.Text(), f, 1), "Percentile: expected a fraction from 0 to 1, found %q", f[1])
		case err3 != nil || n < 0:
			return l.Errorf(hgrmCol(l.Text(), f, 2), "TotalCount: expected a count >= 0, found %q", f[2])
		case n < lastCount:
			return l.Errorf(hgrmCol(l.Text(), f, 2), "TotalCount %d is below the previous row's %d", n, lastCount)
		}
		if k := len(r.Percentiles); k > 0 && (q*100 < r.Percentiles[k-1].Percentile-1e-9 || v < r.Percentiles[k-1].LatencyMS) {
			return l.Errorf(1, "rows out of order: percentile and value must not decrease")
		}
		if len(f) == 4 {
			inv := strings.TrimSpace(f[3])
			if inv == "inf" || inv == "Infinity" {
				sawInf = true
			} else if _, err := strconv.ParseFloat(inv, 64); err != nil {
				return l.Errorf(hgrmCol(l.Text(), f, 3), "1/(1-Percentile): expected a number or inf, found %q", f[3])
			}
		} else {
			sawInf = true // Java prints the percentile 1 row without its last column
		}
		if q == 1 {
			sawInf = true
		}
		lastCount = n
		pct := q * 100
		if !strings.ContainsAny(f[1], "eE") {
			pct, _ = strconv.ParseFloat(strings.TrimSpace(f[1])+"e2", 64) // a decimal shift: 0.55 is 55, not 55.00000000000001
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: pct, LatencyMS: v, Count: model.Some(n)})
	}
	if err := l.Err(); err != nil {
		return err
	}
	switch {
	case kind == "":
		return Errorf(in.Name, l.Line()+1, 0, "empty HdrHistogram distribution: expected its header")
	case len(r.Percentiles) == 0:
		return Errorf(in.Name, l.Line()+1, 0, "truncated HdrHistogram distribution: header without rows")
	case kind == "plain" && !footer:
		return Errorf(in.Name, l.Line()+1, 0, "truncated HdrHistogram distribution: expected the #[Mean, #[Max and #[Buckets footer")
	case kind != "plain" && !sawInf:
		return Errorf(in.Name, l.Line()+1, 0, "truncated HdrHistogram distribution: expected rows up to percentile 1")
	}
	last := r.Percentiles[len(r.Percentiles)-1]
	switch {
	case total.Valid:
		r.Requests = total
	case last.Percentile == 100:
		r.Requests = last.Count
	}
	if !r.LatencyMaxMS.Valid && last.Percentile == 100 {
		r.LatencyMaxMS = model.Some(last.LatencyMS)
	}
	if kind == "vegeta" {
		runLabel(r, "percentile_method", "vegeta t-digest (compression 100)")
	}
	spectrumColumns(r)
	return sink.Run(r)
}

// hgrmFooter reads "#[Mean = a, StdDeviation = b]", "#[Max = c, Total
// count = n]" or "#[Buckets = x, SubBuckets = y]".
func hgrmFooter(l *Lines, t string, r *model.Run, exp int, total *model.Opt[int64]) error {
	body, ok := strings.CutSuffix(strings.TrimPrefix(t, "#["), "]")
	if !ok {
		return l.Errorf(1, `footer: expected "#[Name = value, Name = value]", found %q`, clipLine(t))
	}
	for _, kv := range strings.Split(body, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.Join(strings.Fields(k), " "), strings.TrimSpace(v)
		if !ok {
			return l.Errorf(1, `footer: expected "Name = value", found %q`, strings.TrimSpace(kv))
		}
		bad := func() error {
			return l.Errorf(strings.Index(t, v)+1, "footer %s: expected a number >= 0, found %q", k, v)
		}
		x, err := decimalMS(v, exp)
		if err != nil {
			if v == "NaN" || v == "nan" { // the mean and deviation of an empty histogram
				continue
			}
			return bad()
		}
		switch k {
		case "Mean":
			r.LatencyMeanMS = model.Some(x)
		case "StdDeviation":
			r.LatencyStdevMS = model.Some(x)
		case "Max":
			r.LatencyMaxMS = model.Some(x)
		case "Total count":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return bad()
			}
			*total = model.Some(n)
		case "Buckets", "SubBuckets":
			runLabel(r, "hdr_"+strings.ToLower(k), v)
		default:
			return l.Errorf(strings.Index(t, k)+1, "footer: unknown field %q", k)
		}
	}
	return nil
}

// hgrmCol is the 1-based column of field i of a row.
func hgrmCol(line string, f []string, i int) int {
	off := 0
	for j := 0; j <= i; j++ {
		k := strings.Index(line[off:], f[j])
		if k < 0 {
			return 0
		}
		if j == i {
			return off + k + 1
		}
		off += k + len(f[j])
	}
	return 0
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
