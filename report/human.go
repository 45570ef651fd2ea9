package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Sig3 formats x for people: three significant figures (no fewer than the
// integer digits), thousands grouped with commas: 31,550, 2.50, 0.0350.
func Sig3(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if x == 0 {
		return "0"
	}
	digits := 2 - int(math.Floor(math.Log10(math.Abs(x))))
	if digits < 0 {
		digits = 0
	}
	return Thousands(strconv.FormatFloat(x, 'f', digits, 64))
}

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

// Thousands puts thousands separators into the integer part of a decimal.
func Thousands(d string) string {
	sign := ""
	if strings.HasPrefix(d, "-") {
		sign, d = "-", d[1:]
	}
	intPart, frac, hasFrac := strings.Cut(d, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// Rounded formats a median for people at the precision the spread of its
// rounds supports: three significant figures (never fewer than the
// integer digits, as Sig3), fewer where the rounds spread wider, so that
// the last digit printed is the leading digit of the spread (max − min),
// but never fewer than two significant figures; thousands grouped with
// commas. A p99 of 1.99 ms with rounds from 1.8 to 2.3 prints "2.0", a
// CPU time of 54.4 µs with rounds from 52.9 to 56.1 prints "54"; the
// integer digits are always printed (31,710.4 requests/s is "31,710").
// Without a spread (one round, or lo and hi NaN or equal) it is Sig3.
func Rounded(x, lo, hi float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return Thousands(strconv.FormatFloat(x, 'f', roundedDecimals(x, hi-lo), 64))
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

// A NumberFormat is how a figure is printed for people, written as in
// Python's and Rust's format strings: [+][,][.precision][type], type
// one of f (fixed decimals), e (scientific), g (significant figures,
// trailing zeros dropped), % (a fraction as a percentage, fixed) and d (a
// whole number). A precision without a type is fixed decimals, as in Rust
// ({:.1}); "," groups thousands (f, d and %); "+" signs positive numbers.
// The zero NumberFormat (an empty spec) is the default: Rounded.
type NumberFormat struct {
	Spec      string // as written
	Plus      bool
	Group     bool
	Precision int // -1: not given
	Type      byte
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
	if i < len(spec) {
		switch spec[i] {
		case 'f', 'e', 'g', '%', 'd':
			f.Type = spec[i]
			i++
		default:
			return bad(fmt.Sprintf("unknown %q: expected [+][,][.precision][type], type one of f, e, g, %%, d", spec[i]))
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

// Default reports whether f is the default format (Rounded).
func (f NumberFormat) Default() bool { return f.Type == 0 }

// Format prints x; lo and hi are the range of the rounds behind it, which
// only the default format reads.
func (f NumberFormat) Format(x, lo, hi float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	var s string
	switch f.Type {
	case 0:
		s = Rounded(x, lo, hi)
	case 'f', 'd':
		s = strconv.FormatFloat(x, 'f', f.Precision, 64)
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
