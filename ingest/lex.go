package ingest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// The lexing every reader shares: numbers printed with a unit, words with
// their columns, JSON and CSV errors placed at their line and column, and
// labels. A reader converts text to numbers only through these, so that
// "1.5ms" means the same to every reader and a conversion adds no rounding
// of its own: a decimal is moved to its unit by shifting its point, and
// turned into a float64 once, at the end.

// exactDecimal is an exact decimal number mant / 10^scale, so that unit
// conversions (us to ms, KB to bytes) add no binary rounding of their own.
type exactDecimal struct {
	mant  uint64
	scale int
}

// parseExactDecimal reads an unsigned decimal such as "619.77" or "12"
// (at most 18 significant digits, not counting zeros after the point
// that no other digit follows; no sign, no exponent).
func parseExactDecimal(s string) (exactDecimal, bool) {
	var d exactDecimal
	digits, dot, zeros := 0, false, 0 // zeros: after the point, not yet applied
	if s == "" || s == "." {
		return d, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && !dot:
			dot = true
		case c >= '0' && c <= '9':
			if digits == 0 && c == '0' {
				if dot {
					d.scale++
				}
				continue
			}
			if dot && c == '0' {
				zeros++
				continue
			}
			for ; zeros > 0; zeros-- {
				if digits++; digits > 18 {
					return d, false
				}
				d.mant *= 10
				d.scale++
			}
			digits++
			if digits > 18 {
				return d, false
			}
			d.mant = d.mant*10 + uint64(c-'0')
			if dot {
				d.scale++
			}
		default:
			return d, false
		}
	}
	return d, true
}

// mul multiplies by a whole factor; false on overflow.
func (d exactDecimal) mul(f uint64) (exactDecimal, bool) {
	hi, lo := bits.Mul64(d.mant, f)
	if hi != 0 || lo > 1e18 {
		return d, false
	}
	return exactDecimal{lo, d.scale}, true
}

// shift multiplies by 10^n (n may be negative).
func (d exactDecimal) shift(n int) (exactDecimal, bool) {
	for ; n > 0; n-- {
		if d.scale > 0 {
			d.scale--
			continue
		}
		var ok bool
		if d, ok = d.mul(10); !ok {
			return d, false
		}
	}
	d.scale -= n
	return d, true
}

// add adds two decimals exactly; false on overflow.
func (d exactDecimal) add(e exactDecimal) (exactDecimal, bool) {
	for d.scale < e.scale {
		var ok bool
		if d, ok = d.mul(10); !ok {
			return d, false
		}
		d.scale++
	}
	for e.scale < d.scale {
		var ok bool
		if e, ok = e.mul(10); !ok {
			return d, false
		}
		e.scale++
	}
	if d.mant+e.mant > 1e18 {
		return d, false
	}
	return exactDecimal{d.mant + e.mant, d.scale}, true
}

// float returns the nearest float64.
func (d exactDecimal) float() float64 {
	s := strconv.FormatUint(d.mant, 10)
	if d.scale > 0 {
		if len(s) <= d.scale {
			s = strings.Repeat("0", d.scale-len(s)+1) + s
		}
		s = s[:len(s)-d.scale] + "." + s[len(s)-d.scale:]
	}
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// splitUnit splits "619.77us" into "619.77" and "us".
func splitUnit(s string) (num, unit string) {
	i := len(s)
	for i > 0 && (s[i-1] < '0' || s[i-1] > '9') && s[i-1] != '.' {
		i--
	}
	return s[:i], s[i:]
}

// timeUnitExp is the power of ten from a time unit to milliseconds, for
// the units that are powers of ten of a second. Go prints microseconds
// as µs (U+00B5), and some tools as μs (U+03BC) or us.
var timeUnitExp = map[string]int{"ns": -6, "us": -3, "µs": -3, "μs": -3, "ms": 0, "s": 3}

// unitExpMS is the power of ten from a unit of timeUnitExp to milliseconds.
func unitExpMS(u string) (int, error) {
	if e, ok := timeUnitExp[u]; ok {
		return e, nil
	}
	return 0, fmt.Errorf("want one of ns, us, ms, s")
}

// timeMS converts one time with its unit, such as "619.77us", "7.59s" or
// "1.00m" (ns, us, µs, μs, ms, s, m, h), to an exact decimal of
// milliseconds.
func timeMS(s string) (exactDecimal, bool) {
	num, unit := splitUnit(s)
	d, ok := parseExactDecimal(num)
	if !ok {
		return d, false
	}
	if e, known := timeUnitExp[unit]; known {
		return d.shift(e)
	}
	switch unit {
	case "m":
		return d.mul(60000)
	case "h":
		return d.mul(3600000)
	}
	return d, false
}

// durationExactMS reads a duration printed with its unit: one time of
// timeMS, or Go's compound form such as "1m2.5s" or "2h0m0s". A bare "0"
// is zero: Go before 1.7 printed a zero duration so.
func durationExactMS(s string) (exactDecimal, bool) {
	if s == "0" {
		return exactDecimal{}, true
	}
	var sum exactDecimal
	if s == "" {
		return sum, false
	}
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		j := i
		for j < len(s) && !(s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		part, ok := timeMS(s[:j])
		if !ok {
			return sum, false
		}
		if sum, ok = sum.add(part); !ok {
			return sum, false
		}
		s = s[j:]
	}
	return sum, true
}

// durationMS converts a duration printed with its unit (see
// durationExactMS) to milliseconds.
func durationMS(s string) (float64, error) {
	d, ok := durationExactMS(s)
	if !ok {
		return 0, fmt.Errorf("expected a duration with its unit, found %q", s)
	}
	return d.float(), nil
}

// countValue converts a count printed with a decimal multiple, such as
// "2.64k", "1.00M" or "514.51" (k, M, G, T, P: powers of 1000).
func countValue(s string) (float64, bool) {
	num, unit := splitUnit(s)
	d, ok := parseExactDecimal(num)
	if !ok {
		return 0, false
	}
	n := strings.Index(" kMGTP", unit)
	if unit == "" {
		n = 0
	} else if n < 1 || len(unit) != 1 {
		return 0, false
	}
	d, ok = d.shift(3 * n)
	return d.float(), ok
}

// binaryBytes converts a byte size such as "3.40MB" or "650.71B" with
// binary multiples (K, M, G, T, P before the B: powers of 1024, as wrk's
// format_binary prints them) to bytes, rounded to the nearest byte.
func binaryBytes(s string) (int64, bool) {
	num, unit := splitUnit(s)
	d, ok := parseExactDecimal(num)
	if !ok || !strings.HasSuffix(unit, "B") {
		return 0, false
	}
	n := strings.Index(" KMGTP", strings.TrimSuffix(unit, "B"))
	if unit == "B" {
		n = 0
	} else if n < 1 || len(unit) != 2 {
		return 0, false
	}
	for ; n > 0; n-- {
		if d, ok = d.mul(1024); !ok {
			return 0, false
		}
	}
	v := math.Round(d.float())
	if v > math.MaxInt64/2 {
		return 0, false
	}
	return int64(v), true
}

// Unit bases of the sizes the tools print: a binary K is 1024 bytes
// (wrk, ab, bombardier, siege, JMeter, oha's KiB), a decimal k 1000 (k6,
// autocannon's pretty-bytes).
const (
	binaryBase  = 1024
	decimalBase = 1000
)

// sizeBytes reads a size such as "231.96KB", "7.5 MB", "38.28 MiB" or
// "650 B" (a space between number and unit allowed) in bytes, its unit
// K, M, G, T or P before the B (in either case, with or without the i of
// KiB) a power of base; the product is exact and turned into a float
// once. A reported figure keeps what was printed: no rounding to a byte.
func sizeBytes(s string, base uint64) (float64, bool) {
	num, unit := splitUnit(strings.ReplaceAll(s, " ", ""))
	if unit == "bytes" { // go-wrk below a KB
		unit = "B"
	}
	d, ok := parseExactDecimal(num)
	if !ok || !strings.HasSuffix(unit, "B") {
		return 0, false
	}
	prefix := strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "i")
	n := strings.Index("KMGTP", strings.ToUpper(prefix))
	if prefix == "" {
		n = -1
	} else if n < 0 || len(prefix) != 1 {
		return 0, false
	}
	for ; n >= 0; n-- {
		if d, ok = d.mul(base); !ok {
			return 0, false
		}
	}
	return d.float(), true
}

// reported keeps a statistic the tool printed under its name of the
// canonical set (model.ReportedFigures), as the shortest text that reads
// back exactly; a value that is not finite is no figure and is not kept.
func reported(r *model.Run, name string, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	runLabel(r, name, fmtLabelNum(v))
}

// percentName names a percentile in the names of the canonical set and of
// the tools' JSON keys: 50 is "p50", 2.5 "p2_5", 99.999 "p99_999".
func percentName(p float64) string {
	return "p" + strings.ReplaceAll(fmtLabelNum(p), ".", "_")
}

// scaledExact multiplies a number a tool printed by a whole scale (KB to
// bytes), exactly where its shortest decimal text allows, rounding once.
func scaledExact(x float64, scale uint64) float64 {
	if scale == 1 {
		return x
	}
	if d, ok := parseExactDecimal(fmtLabelNum(x)); ok {
		if d, ok = d.mul(scale); ok {
			return d.float()
		}
	}
	return x * float64(scale)
}

// ratioPct moves a ratio (vegeta's and oha's success, 0 to 1) to percent
// by its shortest decimal text, so that 0.9931 is 99.31 and not
// 99.30999999999999.
func ratioPct(x float64) (float64, bool) {
	d, ok := parseExactDecimal(fmtLabelNum(x))
	if ok {
		d, ok = d.shift(2)
	}
	return d.float(), ok
}

// percentValue reads "81.90%".
func percentValue(s string) (float64, bool) {
	if !strings.HasSuffix(s, "%") {
		return 0, false
	}
	d, ok := parseExactDecimal(strings.TrimSuffix(s, "%"))
	return d.float(), ok
}

// isPrintedNaN reports whether a value is C's printout of a NaN, with or
// without the unit printed after it ("-nan", "-nanus", "nan%").
func isPrintedNaN(s string) bool {
	s = strings.TrimRight(s, "%usmh")
	return s == "-nan" || s == "nan" || s == "NaN" || s == "-NaN"
}

// decimalMS converts a decimal number in a unit of 10^exp ms to
// milliseconds by moving its decimal point (so 418.149 us is the double
// nearest 0.418149, not the product 418.149*0.001). The text is a plain
// decimal: no sign, exponent or other notation.
func decimalMS(s string, exp int) (float64, error) {
	if s == "" || strings.ContainsAny(s, "eExXpP_") {
		return 0, fmt.Errorf("not a decimal number")
	}
	x, err := strconv.ParseFloat(s+"e"+strconv.Itoa(exp), 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("not a number >= 0")
	}
	return x, nil
}

// jsonNumberMS is decimalMS for a JSON number, which may carry an
// exponent: 403.595 us is the double nearest 0.403595 ms.
func jsonNumberMS(n json.Number, exp int) (float64, error) {
	s := string(n)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > 1000 || e < -1000 {
			return 0, fmt.Errorf("not a number >= 0")
		}
		s, exp = s[:i], exp+e
	}
	return decimalMS(s, exp)
}

// fmtLabelNum formats a number for a label: the shortest exact form.
func fmtLabelNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// posField is a whitespace-separated word of a line and its 1-based column.
type posField struct {
	text string
	col  int
}

// posFields splits a line into words and keeps their columns.
func posFields(s string) []posField {
	var out []posField
	start := -1
	for i := 0; i <= len(s); i++ {
		space := i == len(s) || s[i] == ' ' || s[i] == '\t'
		if space {
			if start >= 0 {
				out = append(out, posField{s[start:i], start + 1})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// clipQuote shortens a quoted input for a message.
func clipQuote(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// clipLine shortens a line for an error message.
func clipLine(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// cutValueWarning words a value left NULL because the line ends inside
// it, before its unit is whole ("21.44m" of "21.44ms"), or before it.
func cutValueWarning(line int, what, text string) string {
	return fmt.Sprintf("line %d: %s %s has no complete unit (the line is cut short): not read", line, what, strconv.Quote(text))
}

// runLabel files a label that has no column of its own.
func runLabel(r *model.Run, k, v string) {
	if r.Labels == nil {
		r.Labels = make(map[string]string)
	}
	r.Labels[k] = v
}

// decodeJSON decodes the one JSON document doc, which starts at the given
// line of a file, into v, and places an error at its line and column.
// what names the document in messages ("JSON", "k6 summary JSON"); with
// useNumber, numbers decode as json.Number where v holds any.
func decodeJSON(name string, line int, doc []byte, v any, what string, useNumber bool) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if useNumber {
		dec.UseNumber()
	}
	at := func(off int64, format string, args ...any) error {
		ln, col := jsonLineCol(doc, off)
		return Errorf(name, line+ln-1, col, format, args...)
	}
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return at(int64(len(doc)), "truncated %s: the document ends before it closes", what)
		case errors.As(err, &te):
			return at(te.Offset, "%s field %q is a JSON %s, want %s", what, te.Field, te.Value, te.Type)
		case errors.As(err, &se):
			return at(se.Offset-1, "invalid %s: %v", what, err) // Offset counts the bad byte
		}
		return at(dec.InputOffset(), "invalid %s: %v", what, err)
	}
	end := dec.InputOffset()
	rest := bytes.TrimLeft(doc[end:], " \t\r\n")
	if len(rest) > 0 {
		off := int64(len(doc) - len(rest))
		if rest[0] == '{' || rest[0] == '[' {
			return at(off, "a second JSON document follows: a file holds one report")
		}
		return at(off, "text after the end of the %s: a file holds one report", what)
	}
	return nil
}

// readJSONDoc reads a file that holds one JSON document (what names it
// in messages, such as "oha JSON") of at most MaxLineBytes into v, and
// returns the document and the line it starts at.
func readJSONDoc(in *Input, v any, what string) (doc []byte, line int, err error) {
	doc, err = io.ReadAll(io.LimitReader(in.R, MaxLineBytes+1))
	if err != nil {
		return nil, 0, err
	}
	if len(doc) > MaxLineBytes {
		return nil, 0, Errorf(in.Name, 1, 0, "%s longer than %d bytes", what, MaxLineBytes)
	}
	if err := decodeJSON(in.Name, 1, doc, v, what, false); err != nil {
		return nil, 0, err
	}
	lead := doc[:len(doc)-len(bytes.TrimLeft(doc, " \t\r\n"))]
	return doc, 1 + bytes.Count(lead, []byte("\n")), nil
}

// jsonLineCol turns a byte offset into a 1-based line and column.
func jsonLineCol(b []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(b)))
	before := b[:off]
	ln := 1 + bytes.Count(before, []byte{'\n'})
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return ln, max(col, 1)
}

// csvError turns an encoding/csv error into a *SyntaxError at its line
// and column; fields is the number of fields of the header, for the
// message of a row with another number.
func csvError(name string, err error, fields int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			return Errorf(name, pe.Line, pe.Column, "wrong number of fields: expected %d as in the header (a truncated row?)", fields)
		}
		return Errorf(name, pe.Line, pe.Column, "%v", pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}
