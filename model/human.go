package model

import (
	"math"
	"strconv"
	"strings"
)

// Source is where a figure was read: a file, and the line of it where
// known (0 where not). Every surface cites a run by it.
type Source struct {
	File string
	Line int
}

// String is file:line, or the file alone when the line is unknown.
func (s Source) String() string {
	if s.Line <= 0 {
		return s.File
	}
	return s.File + ":" + strconv.Itoa(s.Line)
}

// Sig3 formats x for people: three significant figures (no fewer than the
// integer digits), thousands grouped with commas: 31,550, 2.50, 0.0350.
// Every sentence wra writes (summaries, findings, footnotes) and every
// table for people prints a figure so.
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
