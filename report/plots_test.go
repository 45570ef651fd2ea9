package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestPlotGolden(t *testing.T) {
	for _, f := range figures(t) {
		t.Run(f.name, func(t *testing.T) {
			svg, err := SVG(f.fig)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, f.name+".svg", svg)
			if *pngDir != "" {
				var b bytes.Buffer
				if err := WritePNG(&b, f.fig); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(*pngDir, f.name+".png"), b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestPlotDeterministic renders every figure twice, from data read twice,
// as SVG and PNG: the bytes must not change (no map order, no time, no
// random ids).
func TestPlotDeterministic(t *testing.T) {
	a, b := figures(t), figures(t)
	for i := range a {
		svg1, err1 := SVG(a[i].fig)
		svg2, err2 := SVG(b[i].fig)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(svg1, svg2) {
			t.Errorf("%s: two SVG renderings differ", a[i].name)
		}
		var png1, png2 bytes.Buffer
		if err := WritePNG(&png1, a[i].fig); err != nil {
			t.Fatal(err)
		}
		if err := WritePNG(&png2, b[i].fig); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(png1.Bytes(), png2.Bytes()) {
			t.Errorf("%s: two PNG renderings differ", a[i].name)
		}
		if !bytes.HasPrefix(png1.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s: WritePNG did not write a PNG", a[i].name)
		}
	}
}

const hostile = `<script>alert(1)</script> & "q" 'a'`

// svgTexts returns the character data of every <text> element of an
// SVG document, failing the test when it is not well-formed XML.
func svgTexts(t *testing.T, svg []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var texts []string
	in := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return texts
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if x.Name.Local == "script" {
				t.Errorf("SVG has a <script> element")
			}
			in = x.Name.Local == "text"
			if in {
				texts = append(texts, "")
			}
		case xml.CharData:
			if in {
				texts[len(texts)-1] += string(x)
			}
		case xml.EndElement:
			in = false
		}
	}
}

// TestPlotEscapesLabels draws a label made of markup, a control
// character and invalid UTF-8 in every plot kind: the SVG stays
// well-formed, holds no <script> element, and reads back the label as
// text, with the two unprintable bytes replaced by U+FFFD.
func TestPlotEscapesLabels(t *testing.T) {
	label := hostile + "\x01\xff"
	want := hostile + "\uFFFD\uFFFD"
	figs := []Figure{
		&BarChart{Title: label, XLabel: label, YLabel: label, Groups: []BarGroup{{Label: label, Series: label, Values: []float64{1, 2, 3}, Median: 2}}},
		&SpectrumChart{Title: label, Spectra: []Spectrum{{Label: label, Points: []SpectrumPoint{{0, 1}, {50, 2}, {99, 3}}}}},
		&LadderChart{Title: label, Series: []LadderSeries{{Server: label, Steps: []LadderStep{{100, 1, true}, {200, 90, false}}}}, ThresholdP95MS: 50},
		&MemoryChart{Title: label, Series: []MemorySeries{{Server: label, Points: []MemoryPoint{{10, 5}, {20, 7}}, Fit: &MemoryFit{0.2, 3}}}},
		&CostChart{Title: label, Stacks: []CostStack{{Server: label, StackUSD: 1, DBUSD: 2}}},
	}
	for i, f := range figs {
		svg, err := SVG(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(svg, []byte("<script")) {
			t.Errorf("figure %d: SVG contains <script", i)
		}
		found := 0
		for _, s := range svgTexts(t, svg) {
			if strings.HasPrefix(s, want) {
				found++
			}
		}
		if found < 2 {
			t.Errorf("figure %d: the label reads back %d times, want at least 2 (title and a legend or tick)", i, found)
		}
	}
}

func TestPlotRefusesBadData(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		fig  Figure
		want string
	}{
		{&BarChart{Title: "t"}, `bar chart "t": no bars`},
		{&BarChart{Title: "t", Groups: []BarGroup{{Label: "nginx", Values: []float64{1, nan}}}}, `bar chart "t": bar "nginx" "" has value NaN`},
		{&BarChart{Title: "t", Groups: []BarGroup{{Label: "nginx"}}}, `bar chart "t": bar "nginx" "" has no values`},
		{&SpectrumChart{Title: "t", Spectra: []Spectrum{{Label: "a", Points: []SpectrumPoint{{101, 1}}}}}, `spectrum chart "t": spectrum "a" has point (101%, 1 ms)`},
		{&SpectrumChart{Title: "t", Spectra: []Spectrum{{Label: "a", Points: []SpectrumPoint{{100, 1}}}}}, `spectrum chart "t": spectrum "a" has no point below 100%`},
		{&LadderChart{Title: "t", Series: []LadderSeries{{Server: "s", Run: "r1", Steps: []LadderStep{{100, math.Inf(1), false}}}}}, `ladder chart "t": s run "r1" step 1 has target 100 requests/s, p95 +Inf ms`},
		{&MemoryChart{Title: "t", Series: []MemorySeries{{Server: "s", Points: []MemoryPoint{{1, 1}}, Fit: &MemoryFit{nan, 0}}}}, `memory chart "t": "s" has fit slope NaN MiB/request, intercept 0 MiB`},
		{&RateChart{Title: "t"}, `rate chart "t": no series`},
		{&RateChart{Title: "t", Series: []RateSeries{{Label: "a"}}}, `rate chart "t": "a" has no runs`},
		{&RateChart{Title: "t", Series: []RateSeries{{Label: "a", Points: []RatePoint{{250, nan}}}}}, `rate chart "t": "a" has a run at target 250 requests/s achieving NaN`},
		{&CostChart{Title: "t", Stacks: []CostStack{{Server: "s", StackUSD: -1}}}, `cost chart "t": "s" costs stack $-1, database $0`},
	} {
		_, err := SVG(c.fig)
		if err == nil || err.Error() != c.want {
			t.Errorf("got error %v, want %s", err, c.want)
		}
	}
}

// TestPercentTicks: the decades of 1/(1-p) are 1 - 10^-k, worked by hand.
func TestPercentTicks(t *testing.T) {
	var got []string
	for _, tk := range percentTicks(1, 1e4) {
		if tk.Label != "" {
			got = append(got, tk.Label+"@"+strconv.FormatFloat(tk.Value, 'g', -1, 64))
		}
	}
	want := []string{"0%@1", "90%@10", "99%@100", "99.9%@1000", "99.99%@10000"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if x := inverseTail(99.9); math.Abs(x-1000) > 1e-9 {
		t.Errorf("inverseTail(99.9) = %v, want 1000", x)
	}
}

func TestLinearTicks(t *testing.T) {
	// 0 to 55000 in steps of about 55000/6 = 9167 rounds up to 10000.
	var got []string
	for _, tk := range linearTicks(0, 55000) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if want := []string{"0", "10,000", "20,000", "30,000", "40,000", "50,000"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// 0 to 0.7: 0.7/6 = 0.117 rounds up to 0.2.
	got = nil
	for _, tk := range linearTicks(0, 0.7) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if want := []string{"0", "0.2", "0.4", "0.6"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestPaletteIsStableAcrossPlots(t *testing.T) {
	p := NewPalette("go-gmp1", "go-gmp2", "nginx")
	if got := p.Style("nginx").Color; got != OkabeIto[2] {
		t.Errorf("nginx got %v, want the third colour %v", got, OkabeIto[2])
	}
	if got := p.Style("caddy").Color; got != OkabeIto[3] {
		t.Errorf("a new key got %v, want the fourth colour", got)
	}
	ninth := styleAt(8)
	if ninth.Color != OkabeIto[0] || ninth.Dashes == nil || ninth.Glyph == styleAt(0).Glyph {
		t.Errorf("the ninth series repeats the first one's style: %+v", ninth)
	}
}

// TestPlotExtremeValues: values at the edges of float64 either draw
// with finite coordinates or are refused with an error; nothing panics.
func TestPlotExtremeValues(t *testing.T) {
	for i, c := range []struct {
		fig    Figure
		refuse bool
	}{
		{&BarChart{Groups: []BarGroup{{Label: "a", Values: []float64{1e308, math.MaxFloat64}}}}, true},
		{&BarChart{Groups: []BarGroup{{Label: "a", Values: []float64{0, 0}}}}, false},
		{&BarChart{Groups: []BarGroup{{Label: "a", Values: []float64{5e-324}}}}, false},
		{&SpectrumChart{Spectra: []Spectrum{{Label: "a", Points: []SpectrumPoint{{99.99999999999, 1e-300}, {0, 1}}}}}, false},
		{&SpectrumChart{Spectra: []Spectrum{{Label: "a", Points: []SpectrumPoint{{50, 0}}}}}, false},
		{&LadderChart{Series: []LadderSeries{{Server: "a", Steps: []LadderStep{{0, 0, true}}}}}, false},
		{&LadderChart{Series: []LadderSeries{{Server: "a", Steps: []LadderStep{{1e9, 1e9, true}}}}, ThresholdP95MS: 1e-300}, false},
		{&MemoryChart{Series: []MemorySeries{{Server: "a", Points: []MemoryPoint{{1, 1}}, Fit: &MemoryFit{1e308, 1e308}}}}, true},
		{&MemoryChart{Series: []MemorySeries{{Server: "a", Points: []MemoryPoint{{-1e100, 1e100}}}}}, false},
		{&CostChart{Stacks: []CostStack{{Server: "a", StackUSD: 1e308, DBUSD: 1e308}}}, true},
		{&CostChart{Stacks: []CostStack{{Server: "", StackUSD: 0, DBUSD: 0}}}, false},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("figure %d panics: %v", i, r)
				}
			}()
			svg, err := SVG(c.fig)
			if (err != nil) != c.refuse {
				t.Errorf("figure %d: error %v, want refused %v", i, err, c.refuse)
			}
			if s := string(svg); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
				t.Errorf("figure %d: SVG has a non-finite coordinate", i)
			}
		}()
	}
}

// manySpectra has fourteen spectra with long labels: more series than
// the palette has colours and a legend that needs two columns. The
// latencies are made up (k+1) × (1 + p/20) ms; only the drawing is
// under test.
func manySpectra() *SpectrumChart {
	var sp []Spectrum
	for i := range 14 {
		var pts []SpectrumPoint
		for _, p := range []float64{0, 50, 90, 99, 99.9, 99.99} {
			pts = append(pts, SpectrumPoint{p, float64(i+1) * (1 + p/20)})
		}
		sp = append(sp, Spectrum{Label: "server-number-" + strconv.Itoa(i) + " at 1000 requests/s", Points: pts, Corrected: i%3 != 0})
	}
	return &SpectrumChart{Title: "Many spectra", Spectra: sp}
}

func TestManySeriesGolden(t *testing.T) {
	svg, err := SVG(manySpectra())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "spectrum_many.svg", svg)
	cols := legendColumns(make([]legendEntry, 14), 2)
	if len(cols.legends) != 2 {
		t.Errorf("14 entries in 2 columns gave %d columns", len(cols.legends))
	}
	if *pngDir != "" {
		var b bytes.Buffer
		if err := WritePNG(&b, manySpectra()); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*pngDir, "spectrum_many.png"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A ladder chart's legend has an entry per label, not per server: two
// series of one server against two databases are two entries, the second
// in the server's colour with a dashed line; runs sharing a label share
// its entry and its style; a series without a label is named by its
// server.
func TestLadderLegendByLabel(t *testing.T) {
	steps := []LadderStep{{100, 10, true}, {200, 90, false}}
	c := &LadderChart{Title: "t", Series: []LadderSeries{
		{Server: "go", Label: "go: one, wrk2, 100–200 requests/s, mariadb", Run: "r1", Steps: steps},
		{Server: "go", Label: "go: one, wrk2, 100–200 requests/s, mariadb", Run: "r2", Steps: steps},
		{Server: "go", Label: "go: one, wrk2, 100–200 requests/s, postgresql", Run: "r1", Steps: steps},
		{Server: "node", Run: "r1", Steps: steps},
	}}
	fg, err := c.build()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range fg.legend {
		names = append(names, e.name)
	}
	want := []string{"go: one, wrk2, 100–200 requests/s, mariadb", "go: one, wrk2, 100–200 requests/s, postgresql", "node", "step held", "step failed"}
	if !slices.Equal(names, want) {
		t.Errorf("legend %q, want %q", names, want)
	}
	styles := newStyler(nil).seriesStyles(len(c.Series), func(i int) string { return c.Series[i].Server }, func(i int) string { return c.Series[i].Label })
	if styles[0].Color != styles[2].Color || styles[0].Dashes != nil || styles[2].Dashes == nil {
		t.Errorf("go's two databases: styles %+v and %+v, want one colour, the second dashed", styles[0], styles[2])
	}
	if !slices.Equal(styles[0].Dashes, styles[1].Dashes) || styles[0].Color != styles[1].Color {
		t.Errorf("runs of one label: styles %+v and %+v, want the same", styles[0], styles[1])
	}
	if styles[3].Color == styles[0].Color || styles[3].Dashes != nil {
		t.Errorf("node: style %+v, want a colour of its own, solid", styles[3])
	}
}
