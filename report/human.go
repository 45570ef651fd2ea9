package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Sig3 formats x for people: three significant figures (model.Sig3).
func Sig3(x float64) string { return model.Sig3(x) }

// Slug makes a file-name part of words: lower case, every run of
// characters other than letters, digits and '.' one '-': "page k6
// (k6-ndjson)" is "page-k6-k6-ndjson". Empty text is "none".
func Slug(words ...string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.Join(words, " ")) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

// Thousands puts thousands separators into the integer part of a
// decimal (model.Thousands).
func Thousands(d string) string { return model.Thousands(d) }

// Rounded formats a median for people at the precision the spread of its
// rounds supports: three significant figures (never fewer than the
// integer digits, as Sig3), fewer where the rounds spread wider, so that
// the last digit printed is the leading digit of the spread (max − min),
// but never fewer than two significant figures; thousands grouped with
// commas. A p99 of 1.99 ms with rounds from 1.8 to 2.3 prints "2.0", a
// CPU time of 54.4 µs with rounds from 52.9 to 56.1 prints "54"; the
// integer digits are always printed (31,710.4 requests/s is "31,710").
// Without a spread (one round, or lo and hi NaN or equal) it is Sig3.
// It is the Precision of a column of one figure.
func Rounded(x, lo, hi float64) string {
	var p Precision
	p.Add(x, lo, hi)
	return p.Format(x)
}

// Precision is the one precision a column of figures is printed at by
// default: the finest that any of its figures needs under Rounded's rule
// (each figure with the spread of its rounds), applied to every figure
// of the column, so that a column reads "2.00 | 2.01 | 3.00", as authors
// print one, never "2.00 | 2.0 | 3". No figure prints beyond three
// significant figures (its integer digits kept), the most the rule gives
// any figure: in a column that spans magnitudes, 9.8 beside 698 (not
// 698.3). The zero Precision has seen no figure: it prints each figure
// as Rounded without a spread (Sig3).
type Precision struct {
	decimals int
	set      bool
}

// Add widens p to the decimals figure x, with its rounds from lo to hi,
// needs (none for NaN or an infinity).
func (p *Precision) Add(x, lo, hi float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return
	}
	if d := roundedDecimals(x, hi-lo); !p.set || d > p.decimals {
		p.decimals, p.set = d, true
	}
}

// Format prints x at p's decimals, thousands grouped with commas.
func (p Precision) Format(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	d := roundedDecimals(x, math.NaN()) // three significant figures
	if p.set {
		d = min(d, p.decimals)
	}
	return Thousands(strconv.FormatFloat(x, 'f', d, 64))
}

// roundedDecimals is the number of decimals Rounded prints x with, given
// the spread of its rounds (NaN or 0 for none).
func roundedDecimals(x, spread float64) int {
	if x == 0 {
		return 0
	}
	mag := int(math.Floor(math.Log10(math.Abs(x))))
	digits := max(2-mag, 0) // three significant figures, the integer digits kept
	if spread > 0 && !math.IsInf(spread, 0) {
		digits = min(digits, max(-int(math.Floor(math.Log10(spread))), 0))
	}
	return max(digits, 1-mag) // two significant figures at least
}

// A Spread is the range of the rounds behind a median: a Cell whose
// Spread is set is printed for people at the one Precision of its
// column's cells with a Spread (RoundColumns).
type Spread struct{ Lo, Hi float64 }

// RoundColumns is d with the text of every Cell that carries a Spread
// set at its column's Precision; d itself is left as it is. Every human
// format prints through it.
func RoundColumns(d *Data) *Data {
	var out *Data
	for c := range d.Columns {
		var p Precision
		found := false
		for _, row := range d.Rows {
			if cell, ok := row[c].(Cell); ok && cell.Spread != nil {
				if x, ok := cell.Value.(float64); ok {
					p.Add(x, cell.Spread.Lo, cell.Spread.Hi)
					found = true
				}
			}
		}
		if !found {
			continue
		}
		if out == nil {
			cp := *d
			cp.Rows = make([][]any, len(d.Rows))
			for r, row := range d.Rows {
				cp.Rows[r] = slices.Clone(row)
			}
			out = &cp
		}
		for _, row := range out.Rows {
			if cell, ok := row[c].(Cell); ok && cell.Spread != nil {
				if x, ok := cell.Value.(float64); ok {
					cell.Text = p.Format(x)
					row[c] = cell
				}
			}
		}
	}
	if out == nil {
		return d
	}
	return out
}

// A NumberFormat is how a figure is printed for people, written as in
// Python's and Rust's format strings: [+][,][.precision][~][type], type
// one of f (fixed decimals), e (scientific), g (significant figures,
// trailing zeros dropped), % (a fraction as a percentage, fixed), d (a
// whole number) and t (fixed decimals, the rest cut off). A precision
// without a type is fixed decimals, as in Rust ({:.1}); "," groups
// thousands (f, d, t and %); "+" signs positive numbers; "~" drops
// trailing zeros after the point, as d3-format's "~" does (",.3~f" prints
// 1625.4 as "1,625.4" and 418 as "418", as JavaScript's toLocaleString).
// A spec may instead be a load tool's name (wrk, bombardier, k6, vegeta):
// the figure prints in the unit its magnitude picks, as that tool prints it
// (ForFigure). The zero NumberFormat (an empty spec) is the default: the
// column's Precision.
type NumberFormat struct {
	Spec      string // as written
	Plus      bool
	Group     bool
	Trim      bool // "~": trailing zeros after the point dropped
	Precision int  // -1: not given
	Type      byte
	Tool      string // a tool whose units print the figure; then the rest is unset

	quantity quantity // the figure's, set by ForFigure
	bound    bool     // ForFigure has set quantity
}

// SpecError is a format spec that cannot be read: Pos is the 0-based byte
// of the spec where it goes wrong.
type SpecError struct {
	Spec string
	Pos  int
	Msg  string
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("format %q, byte %d: %s", e.Spec, e.Pos+1, e.Msg)
}

// ParseNumberFormat reads a format spec ("", ",.0f", ".1f", ".3g", ".1%").
func ParseNumberFormat(spec string) (NumberFormat, error) {
	f := NumberFormat{Spec: spec, Precision: -1}
	if _, ok := toolStyle(spec); ok {
		f.Tool = spec
		return f, nil
	}
	i := 0
	bad := func(msg string) (NumberFormat, error) {
		return NumberFormat{}, &SpecError{Spec: spec, Pos: i, Msg: msg}
	}
	if i < len(spec) && spec[i] == '+' {
		f.Plus = true
		i++
	}
	if i < len(spec) && spec[i] == ',' {
		f.Group = true
		i++
	}
	if i < len(spec) && spec[i] == '.' {
		i++
		start := i
		for i < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
			i++
		}
		if i == start {
			return bad("expected the number of digits after '.'")
		}
		if i-start > 2 {
			i = start
			return bad("expected at most 2 digits of precision")
		}
		f.Precision, _ = strconv.Atoi(spec[start:i])
	}
	if i < len(spec) && spec[i] == '~' {
		f.Trim = true
		i++
	}
	if i < len(spec) {
		switch spec[i] {
		case 'f', 'e', 'g', '%', 'd', 't':
			f.Type = spec[i]
			i++
		default:
			return bad(fmt.Sprintf("unknown %q: expected [+][,][.precision][~][type], type one of f, e, g, %%, d, t, or a tool's units: "+toolStyleNames(), spec[i]))
		}
	}
	if i < len(spec) {
		return bad(fmt.Sprintf("unexpected %q after the type", spec[i:]))
	}
	switch {
	case f.Type == 'd' && f.Precision >= 0:
		i = strings.IndexByte(spec, '.')
		return bad("d is a whole number: it takes no precision")
	case f.Type == 0 && f.Precision >= 0:
		f.Type = 'f'
	case f.Type == 't' && f.Precision < 0:
		f.Precision = 0
	case (f.Type == 'e' || f.Type == 'g') && f.Group:
		i = strings.IndexByte(spec, ',')
		return bad("',' groups thousands of f, d and %, not of " + string(f.Type))
	}
	if f.Precision < 0 {
		f.Precision = 6 // Python's default for f, e, g and %
		if f.Type == 'd' {
			f.Precision = 0
		}
	}
	return f, nil
}

// Default reports whether f is the default format (a Precision).
func (f NumberFormat) Default() bool { return f.Type == 0 && f.Tool == "" }

// Format prints x; p is the Precision of its column, which only the
// default format reads.
func (f NumberFormat) Format(x float64, p Precision) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if f.Tool != "" {
		u, _ := toolStyle(f.Tool)
		print := u.of(f.quantity.kind)
		if print == nil || !f.bound {
			panic("report: the format " + strconv.Quote(f.Spec) + " is not bound to its figure (ForFigure)")
		}
		return print(x * f.quantity.toBase())
	}
	var s string
	switch f.Type {
	case 0:
		s = p.Format(x)
	case 'f', 'd':
		s = strconv.FormatFloat(x, 'f', f.Precision, 64)
	case 't':
		s = truncated(x, f.Precision)
	case '%':
		s = strconv.FormatFloat(100*x, 'f', f.Precision, 64)
	case 'e':
		s = strconv.FormatFloat(x, 'e', f.Precision, 64) // "3.16e+04", as Python writes it
	case 'g':
		s = generalFormat(x, f.Precision)
	}
	if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.") == "" {
		s = s[1:] // a rounded negative zero is zero
	}
	if f.Trim {
		s = trimZeros(s)
	}
	if f.Group && f.Type != 0 {
		s = Thousands(s)
	}
	if f.Type == '%' {
		s += "%"
	}
	if f.Plus && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// trimZeros drops the trailing zeros after the point of a number's
// digits, and the point when none is left: "1625.400" is "1625.4",
// "1.20e+03" is "1.2e+03".
func trimZeros(s string) string {
	mant, exp, hasExp := strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	if hasExp {
		return mant + "e" + exp
	}
	return mant
}

// truncated is x with p decimals, the rest cut off rather than rounded
// (176710.9 is 176710), as a program that prints int(x) or drops digits
// shows it: the digits of the shortest decimal that reads back as x,
// cut after the p-th decimal.
func truncated(x float64, p int) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > p {
		frac = frac[:p]
	}
	frac += strings.Repeat("0", p-len(frac))
	if p == 0 {
		s = whole
	} else {
		s = whole + "." + frac
	}
	if s == "-0" || strings.HasPrefix(s, "-") && strings.Trim(s, "-0.") == "" {
		s = s[1:]
	}
	return s
}

// generalFormat is Python's g: p significant figures (0 means 1),
// scientific when the exponent is below -4 or not below p, trailing zeros
// dropped.
func generalFormat(x float64, p int) string {
	if p == 0 {
		p = 1
	}
	if x == 0 {
		return "0"
	}
	e := strconv.FormatFloat(x, 'e', p-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= p {
		mant, rest, _ := strings.Cut(e, "e")
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		return mant + "e" + rest
	}
	s := strconv.FormatFloat(x, 'f', p-1-exp, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// SigCell formats a table cell with three significant figures (Sig3):
// a number of any Go type, or the value as it prints where it is none
// ("" for NULL). It is a Column's Human.
func SigCell(v any) string {
	x := CellNumber(v)
	if math.IsNaN(x) {
		return CellText(v)
	}
	return Sig3(x)
}

// PctCell formats a fraction as a percentage with two decimals ("1.25%"),
// as SigCell does where the cell holds no number.
func PctCell(v any) string {
	x := CellNumber(v)
	if math.IsNaN(x) {
		return CellText(v)
	}
	return strconv.FormatFloat(x*100, 'f', 2, 64) + "%"
}

// CellText is a cell as it prints, "" for NULL.
func CellText(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// CellNumber is a cell's number: a float, an integer or a value that
// prints as one (json.Number); NaN where it holds none.
func CellNumber(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case interface{ String() string }:
		g, err := strconv.ParseFloat(x.String(), 64)
		if err == nil {
			return g
		}
	}
	return math.NaN()
}
