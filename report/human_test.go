package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The formats are Python's: the wanted texts are what Python 3.12 prints
// for format(x, spec), e.g. format(31550.4, ",.0f") == "31,550".
func TestNumberFormat(t *testing.T) {
	for _, c := range []struct {
		spec string
		x    float64
		want string
	}{
		{",.0f", 31550.4, "31,550"},
		{",.0f", 127456.5, "127,456"}, // half to even on the exact binary value, as Python
		{".1f", 1.99, "2.0"},
		{".1f", 211.6, "211.6"},
		{".0f", 54.4, "54"},
		{".0f", 73.9, "74"},
		{".0f", -0.4, "0"}, // no negative zero
		{".3g", 31550, "3.16e+04"},
		{".3g", 0.0123456, "0.0123"},
		{".3g", 2.5, "2.5"},
		{".3g", 0.00001234, "1.23e-05"},
		{"g", 1234567, "1.23457e+06"},
		{".2e", 1234.5, "1.23e+03"},
		{".1%", 0.1234, "12.3%"},
		{",.1%", 12.5, "1,250.0%"},
		{"d", 1234.6, "1235"},
		{",d", 1234.6, "1,235"},
		{"+.1f", 3.14, "+3.1"},
		{"+.1f", -3.14, "-3.1"},
		{".2", 3.14159, "3.14"}, // a precision alone is fixed, as Rust's {:.2}
		{"f", 1.5, "1.500000"},
		{"t", 176710.9, "176710"}, // truncated, as int(x) prints
		{",t", 176710.9, "176,710"},
		{".2t", 2.3, "2.30"}, // the decimal as written, not 2.29999…
		{".3t", 23.9899999, "23.989"},
		{".1t", -0.04, "0.0"},
		{".0t", -3.7, "-3"},
		{",.3~f", 1625.4, "1,625.4"}, // "~" drops trailing zeros, as d3-format and toLocaleString
		{",.3~f", 418, "418"},
		{",.3~f", 177178.3, "177,178.3"},
		{".2~%", 0.125, "12.5%"},
		{".2~e", 1200, "1.2e+03"},
		{".2~f", -0.001, "0"},
		{".1~t", 2.95, "2.9"},
	} {
		f, err := ParseNumberFormat(c.spec)
		if err != nil {
			t.Errorf("%q: %v", c.spec, err)
			continue
		}
		if got := f.Format(c.x, Precision{}); got != c.want {
			t.Errorf("format(%v, %q) = %q, want %q", c.x, c.spec, got, c.want)
		}
	}
}

func TestNumberFormatErrors(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{".", `format ".", byte 2: expected the number of digits after '.'`},
		{".x", `format ".x", byte 2: expected the number of digits after '.'`},
		{".123f", `format ".123f", byte 2: expected at most 2 digits of precision`},
		{"x", `format "x", byte 1: unknown 'x': expected [+][,][.precision][~][type], type one of f, e, g, %, d, t, or a tool's units: wrk, bombardier, k6, vegeta`},
		{".1fx", `format ".1fx", byte 4: unexpected "x" after the type`},
		{".1d", `format ".1d", byte 1: d is a whole number: it takes no precision`},
		{",.3g", `format ",.3g", byte 1: ',' groups thousands of f, d and %, not of g`},
		{">10.1f", `format ">10.1f", byte 1: unknown '>': expected [+][,][.precision][~][type], type one of f, e, g, %, d, t, or a tool's units: wrk, bombardier, k6, vegeta`},
	} {
		_, err := ParseNumberFormat(c.spec)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v\nwant %s", c.spec, err, c.want)
		}
	}
}

// The default format prints what the spread of the rounds supports.
func TestRounded(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		x, lo, hi float64
		want      string
	}{
		{1.99, 1.8, 2.3, "2.0"},             // spread 0.5: tenths
		{211.6, 200, 220, "212"},            // spread 20: units (integer digits kept)
		{54.4, 52.9, 56.1, "54"},            // spread 3.2: units
		{31550.3, 31200, 31870, "31,550"},   // the integer digits are printed
		{1234.567, 1234.5, 1234.6, "1,235"}, // a small spread adds no digit beyond three figures
		{2.4567, 2.45, 2.46, "2.46"},        // spread 0.01: three figures, not four
		{0.0123, 0, 0.5, "0.012"},           // two significant figures at least
		{7.8, nan, nan, "7.80"},             // one round: three figures
		{7.8, 7.8, 7.8, "7.80"},             // no spread: three figures
		{0, 0, 1, "0"},
		{-54.4, -56.1, -52.9, "-54"},
	} {
		if got := Rounded(c.x, c.lo, c.hi); got != c.want {
			t.Errorf("Rounded(%v, %v, %v) = %q, want %q", c.x, c.lo, c.hi, got, c.want)
		}
	}
	// The default NumberFormat prints at the column's Precision.
	var p Precision
	p.Add(1.99, 1.8, 2.3)
	f, err := ParseNumberFormat("")
	if err != nil || !f.Default() || f.Format(1.99, p) != "2.0" {
		t.Errorf("default: %v %+v", err, f)
	}
}

// A column prints all its figures at the finest precision any of them
// needs: the p99 of four rows, two of whose rounds spread wider, reads
// 2.00, 2.01, 3.04, 3.00, not 2.00, 2.0, 3.0, 3.00; a figure of another
// magnitude keeps to three significant figures.
func TestRoundColumns(t *testing.T) {
	cell := func(x, lo, hi float64) any { return Cell{Value: x, Spread: &Spread{Lo: lo, Hi: hi}} }
	d := &Data{
		Columns: []Column{{Name: "server"}, {Name: "p99_ms"}},
		Rows: [][]any{
			{"a", cell(2.001, 1.99, 2.01)},
			{"b", MarkBest(cell(2.014, 1.8, 2.3))},
			{"c", cell(3.04, 2.7, 3.3)},
			{"d", cell(3.0, 2.99, 3.01)},
			{"e", nil},
			{"f", cell(698.3, 645.2, 868.1)}, // never beyond three figures

		},
	}
	var b strings.Builder
	if err := Write(&b, d, Markdown); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| a | 2.00 |", "| b | **2.01** |", "| c | 3.04 |", "| d | 3.00 |", "| f | 698 |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := Write(&b, d, CSV); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "b,2.014\n") {
		t.Errorf("CSV is not exact:\n%s", b.String())
	}
	if c := d.Rows[0][1].(Cell); c.Text != "" {
		t.Errorf("the table itself was changed: %+v", c)
	}
}

func TestCellFormats(t *testing.T) {
	for _, c := range []struct {
		v        any
		sig, pct string
	}{
		{0.012345, "0.0123", "1.23%"},
		{int64(12345), "12,345", "1234500.00%"},
		{3, "3.00", "300.00%"},
		{nil, "", ""},
		{"n/a", "n/a", "n/a"},
		{json.Number("1500.5"), "1,500", "150050.00%"},
	} {
		if got := SigCell(c.v); got != c.sig {
			t.Errorf("SigCell(%#v) = %q, want %q", c.v, got, c.sig)
		}
		if got := PctCell(c.v); got != c.pct {
			t.Errorf("PctCell(%#v) = %q, want %q", c.v, got, c.pct)
		}
	}
}
