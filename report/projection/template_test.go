package projection

import (
	"math"
	"strings"
	"testing"

	"github.com/wra-bench/wra/report"
)

func fig(x float64) cellFigure { return cellFigure{median: x, min: math.NaN(), max: math.NaN()} }

var absent = cellFigure{missing: true, median: math.NaN()}

func TestTemplateFormats(t *testing.T) {
	for _, c := range []struct {
		tmpl string
		figs []cellFigure
		want string
	}{
		{"{rps:,.0f} ({latency_p99_ms:.1f})", []cellFigure{fig(31550.4), fig(1.99)}, "31,550 (2.0)"},
		{"{cpu_user_us:.0f} + {cpu_kernel_us:.0f}[; {cpu_db_us:.0f}]", []cellFigure{fig(54.4), fig(57.2), fig(73.9)}, "54 + 57; 74"},
		{"{cpu_user_us:.0f} + {cpu_kernel_us:.0f}[; {cpu_db_us:.0f}]", []cellFigure{fig(16.0), fig(32.2), absent}, "16 + 32"},
		{"{cpu_user_us:.0f}; {cpu_db_us:.0f|n/a}", []cellFigure{fig(16.0), absent}, "16; n/a"},
		{"{cpu_db_us|}", []cellFigure{absent}, ""},
		{"{rps}", []cellFigure{absent}, "–"},
		{"[{rps} ]{latency_p99_ms:.1f}", []cellFigure{absent, fig(2)}, "2.0"},
		{"{{{rps:.0f}}} [[x]]", []cellFigure{fig(3)}, "{3} [x]"},
		{"{x:.3g}", []cellFigure{fig(0.012345)}, "0.0123"},
		{"{rps}", []cellFigure{{median: 1.99, min: 1.8, max: 2.3}}, "2.0"},
		{"{latency_mean_ms:wrk} / {reported_transfer_bytes_per_s:wrk}", []cellFigure{fig(0.7743), fig(175982510.08)}, "774.30us / 167.83MB"},
		{"{latency_p95_ms:k6} {latency_p95_s:wrk}", []cellFigure{fig(1.397798), fig(0.001397798)}, "1.39ms 1.40ms"},
		{"{rps:,.3~f}", []cellFigure{fig(1625.4)}, "1,625.4"},
	} {
		tm, err := parseTemplate(c.tmpl)
		if err != nil {
			t.Errorf("%q: %v", c.tmpl, err)
			continue
		}
		if got := tm.render(c.figs); got != c.want {
			t.Errorf("%q: %q, want %q", c.tmpl, got, c.want)
		}
	}
}

// A bad template names itself and the byte where it goes wrong.
func TestTemplateErrors(t *testing.T) {
	for _, c := range []struct{ tmpl, want string }{
		{"{rps:.1fx}", `cell template "{rps:.1fx}", byte 9: unexpected "x" after the type`},
		{"{rps:.1x}", `cell template "{rps:.1x}", byte 8: unknown 'x': expected [+][,][.precision][~][type], type one of f, e, g, %, d, t, or a tool's units: wrk, bombardier, k6, vegeta`},
		{"{rps} ({p99:,.q})", `cell template "{rps} ({p99:,.q})", byte 15: expected the number of digits after '.'`},
		{"{rps:zz}", `cell template "{rps:zz}", byte 6: unknown 'z': expected [+][,][.precision][~][type], type one of f, e, g, %, d, t, or a tool's units: wrk, bombardier, k6, vegeta`},
		{"{rps", `cell template "{rps", byte 1: { is not closed`},
		{"{rps} {rps:k6}", `cell template "{rps} {rps:k6}", byte 12: k6 prints no count in units: rps is a count (a time ends in _s, _ms or _us, a size in bytes, _kib, _mb, _mib or _gib)`},
		{"rps}", `cell template "rps}", byte 4: } has no { (write }} for a literal })`},
		{"{}", `cell template "{}", byte 1: empty {}: expected a metric name, as {rps}`},
		{"{ rps }", `cell template "{ rps }", byte 1: a metric name has no spaces around it`},
		{"rps", `cell template "rps", byte 1: names no metric: write one as {rps}`},
		{"{rps}[; x]", `cell template "{rps}[; x]", byte 6: the group [...] names no metric: it would never be dropped`},
		{"{rps}[; {x}", `cell template "{rps}[; {x}", byte 6: [ is not closed`},
		{"{rps}]", `cell template "{rps}]", byte 6: ] has no [ (write ]] for a literal ])`},
		{"[{a}[{b}]]", `cell template "[{a}[{b}]]", byte 5: [ inside the [ at byte 1: groups do not nest (write [[ for a literal [)`},
	} {
		_, err := parseTemplate(c.tmpl)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v\nwant %s", c.tmpl, err, c.want)
		}
	}
}

// FuzzTemplate: any text either fails with a positioned error or parses
// into a template that renders, with every figure present, a text that
// holds each literal piece.
func FuzzTemplate(f *testing.F) {
	for _, s := range []string{"{rps}", "{rps:,.0f} ({latency_p99_ms:.1f})", "{cpu_user_us:.0f} + {cpu_kernel_us:.0f}[; {cpu_db_us:.0f|–}]",
		"{{x}}", "[[{a}]]", "{a:.3g|n/a}", "{a:", "[", "{a:+,.2%}",
		"{latency_mean_ms:wrk} {reported_transfer_bytes_per_s:bombardier}", "{latency_p95_s:k6}", "{rps:k6}", "{rps:,.3~f}", "{a:wr", "{a:.~}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := parseTemplate(s)
		if err != nil {
			te, ok := err.(*TemplateError)
			if !ok || te.Pos < 1 || te.Pos > len(s)+1 {
				t.Fatalf("%q: error %v without a position inside the template", s, err)
			}
			return
		}
		figs := make([]cellFigure, len(tm.metrics))
		missing := make([]cellFigure, len(tm.metrics))
		for i := range figs {
			figs[i], missing[i] = fig(1.5), absent
		}
		full := tm.render(figs)
		for _, p := range tm.pieces {
			if p.field < 0 && !strings.Contains(full, p.lit) {
				t.Fatalf("%q renders %q without its text %q", s, full, p.lit)
			}
		}
		tm.render(missing)
	})
}

// The best of a column: a clear best alone; two whose rounds overlap,
// both; a row close to the second but not to the first, not (no chain).
func TestBestMarks(t *testing.T) {
	var rs []r
	for _, s := range []struct {
		server string
		rps    [3]float64
	}{
		{"a", [3]float64{100, 104, 108}}, // best
		{"b", [3]float64{96, 101, 103}},  // overlaps a: tied for best
		{"c", [3]float64{90, 95, 97}},    // overlaps b, not a: not best
		{"d", [3]float64{50, 51, 52}},
	} {
		for i, x := range s.rps {
			rs = append(rs, r{server: s.server, round: int64(i + 1), conns: 8, rps: x, p99: 1})
		}
	}
	tables, err := Project(runsOf(rs...), Spec{Cell: "{rps}", Rows: []string{"server"}, Cols: []string{"connections"}})
	if err != nil {
		t.Fatal(err)
	}
	md := write(t, tables[0], report.Markdown)
	for _, want := range []string{"| a | **104** |", "| b | **101** |", "| c | 95 |", "| d | 51 |",
		"tied for best and marked together, no one of them told apart from the first: a, b in 8"} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q:\n%s", want, md)
		}
	}
}
