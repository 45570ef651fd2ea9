package ingest

import (
	"math"
	"strconv"
	"strings"
)

// The rows and footers of an HdrHistogram percentile spectrum, as every
// library prints them (C hdr_percentiles_print, which wrk2 uses; Java and
// .NET outputPercentileDistribution; Go PercentilesPrint; vegeta's
// hdrplot), shared by the wrk2 and .hgrm readers.
//
// A row is Value, Percentile (a fraction from 0 to 1), TotalCount and
// 1/(1-Percentile); none of the first three goes down from a row to the
// next. The spectrum ends at the row whose 1/(1-Percentile) is infinite
// ("inf", "Infinity"), or that Java and .NET print without that column:
// with millions of counts several rows before it print their percentile
// as 1.000000 (0.9999996 to six decimals), so a percentile of 1 does not
// end it. vegeta's hdrplot, which caps 1/(1-Percentile), ends at its
// percentile 1 row.

// hdrRow is one row of a spectrum: the value as printed (its unit is the
// reader's to say), the percentile in percent and the total count.
type hdrRow struct {
	value exactDecimal
	pct   float64
	count int64
}

// hdrRows reads the rows of one spectrum in order.
type hdrRows struct {
	rows []hdrRow
	// endAtOne ends the spectrum at its percentile 1 row (vegeta).
	endAtOne bool
	// done is set by the last row.
	done bool
}

// add reads one row from its fields.
func (h *hdrRows) add(l *Lines, f []posField) error {
	if h.done {
		return l.Errorf(1, "unexpected row after the spectrum's last row (the row whose 1/(1-Percentile) is inf)")
	}
	if len(f) != 4 && len(f) != 3 {
		return l.Errorf(1, "expected a spectrum row \"<Value> <Percentile> <TotalCount> <1/(1-Percentile)>\", found %q", clipQuote(strings.TrimSpace(l.Text())))
	}
	var prev hdrRow
	if n := len(h.rows); n > 0 {
		prev = h.rows[n-1]
	}
	value, ok := parseExactDecimal(f[0].text)
	if !ok || len(h.rows) > 0 && value.float() < prev.value.float() {
		return l.Errorf(f[0].col, "Value: expected a number >= 0, not below the row above, found %q", f[0].text)
	}
	pct, ok := hdrPercent(f[1].text)
	if !ok || pct < prev.pct {
		return l.Errorf(f[1].col, "Percentile: expected a fraction from 0 to 1, not below the row above, found %q", f[1].text)
	}
	n, err := strconv.ParseInt(f[2].text, 10, 64)
	switch {
	case err != nil || n < 0:
		return l.Errorf(f[2].col, "TotalCount: expected a count >= 0, found %q", f[2].text)
	case len(h.rows) > 0 && n < prev.count:
		return l.Errorf(f[2].col, "TotalCount %d is below the previous row's %d", n, prev.count)
	}
	if len(f) == 3 {
		h.done = true // Java and .NET print the last row without its last column
	} else {
		inv := f[3].text
		x, err := strconv.ParseFloat(inv, 64)
		switch {
		case inv == "inf" || math.IsInf(x, 1) && err == nil:
			h.done = true
		case err != nil || x < 1:
			return l.Errorf(f[3].col, "1/(1-Percentile): expected a number >= 1 or inf, found %q", inv)
		}
	}
	if h.endAtOne && pct == 100 {
		h.done = true
	}
	h.rows = append(h.rows, hdrRow{value: value, pct: pct, count: n})
	return nil
}

// hdrPercent reads a percentile fraction ("0.990625", "1.000000000000",
// "9.9e-01") as percent, moving the decimal point of a decimal.
func hdrPercent(s string) (float64, bool) {
	if d, ok := parseExactDecimal(s); ok {
		d, ok = d.shift(2)
		pct := d.float()
		return pct, ok && pct <= 100
	}
	if !strings.ContainsAny(s, "eE") {
		return 0, false
	}
	q, err := strconv.ParseFloat(s, 64)
	return q * 100, err == nil && q >= 0 && q <= 1
}

// hdrKV is one "Name = value" of a footer, with the value's column.
type hdrKV struct {
	key, value string
	col        int
}

// hdrFooter reads a footer line "#[Mean = a, StdDeviation = b]",
// "#[Max = c, Total count = n]" or "#[Buckets = x, SubBuckets = y]".
func hdrFooter(l *Lines) ([]hdrKV, error) {
	line := l.Text()
	t := strings.TrimSpace(line)
	body, ok := strings.CutSuffix(strings.TrimPrefix(t, "#["), "]")
	if !ok || !strings.HasPrefix(t, "#[") {
		return nil, l.Errorf(1, `footer: expected "#[Name = value, Name = value]", found %q`, clipQuote(t))
	}
	var out []hdrKV
	off := strings.Index(line, "#[") + 2
	for _, kv := range strings.Split(body, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, l.Errorf(off+1, `footer: expected "Name = value", found %q`, strings.TrimSpace(kv))
		}
		vcol := off + len(k) + 1 + strings.Index(v, strings.TrimSpace(v)) + 1
		out = append(out, hdrKV{key: strings.Join(strings.Fields(k), " "), value: strings.TrimSpace(v), col: vcol})
		off += len(kv) + 1
	}
	return out, nil
}

// hdrFooterNumber reads a footer value; nan is false for the NaN that an
// empty histogram prints as its mean and deviation.
func hdrFooterNumber(l *Lines, kv hdrKV) (d exactDecimal, nan bool, err error) {
	if isPrintedNaN(kv.value) {
		return d, true, nil
	}
	d, ok := parseExactDecimal(kv.value)
	if !ok {
		return d, false, l.Errorf(kv.col, "footer %s: expected a number >= 0, found %q", kv.key, kv.value)
	}
	return d, false, nil
}

// csvPosFields splits a CSV row of numbers at its commas and keeps the
// columns of the fields.
func csvPosFields(s string) []posField {
	var out []posField
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			f := s[start:i]
			lead := len(f) - len(strings.TrimLeft(f, " \t"))
			out = append(out, posField{strings.TrimSpace(f), start + lead + 1})
			start = i + 1
		}
	}
	return out
}
