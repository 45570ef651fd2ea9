package report

import (
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
