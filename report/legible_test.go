package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// manyServers names n servers the way a study of many stacks does.
func manyServers(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("stack-%02d", i+1))
	}
	return out
}

// figuresOf48 is every plot kind with 48 servers (the spectra twice: a
// corrected and an uncorrected line each), names as analyze gives them.
func figuresOf48() map[string]Figure {
	servers := manyServers(48)
	spectra := &SpectrumChart{Title: "Latency by percentile: one at 500 requests/s, wrk2"}
	ladder := &LadderChart{Title: "Held-rate ladders", ThresholdP95MS: 50}
	memory := &MemoryChart{Title: "Memory per waiting request"}
	rate := &RateChart{Title: "Achieved against target rate"}
	curves := &CostCurveChart{Title: "Cost per month"}
	bars := &BarChart{Title: "Throughput: one at full speed", XLabel: "server", YLabel: "requests/s"}
	cost := &CostChart{Title: "Cost per month at 1,000 requests/s"}
	for i, s := range servers {
		k := float64(i + 1)
		label := s + ": one, wrk2, 500 requests/s, postgresql"
		for _, corrected := range []bool{true, false} {
			var pts []SpectrumPoint
			for _, p := range []float64{0, 50, 90, 99, 99.9, 99.99} {
				pts = append(pts, SpectrumPoint{p, k * (1 + p/20)})
			}
			spectra.Spectra = append(spectra.Spectra, Spectrum{Label: label, Server: s, Points: pts, Corrected: corrected})
		}
		ladder.Series = append(ladder.Series, LadderSeries{Server: s, Label: s + ": page, k6, 100–800 requests/s, postgresql", Run: "r",
			Steps: []LadderStep{{100, k / 10, true}, {200, k / 5, true}, {400, k, false}}})
		memory.Series = append(memory.Series, MemorySeries{Server: s, Points: []MemoryPoint{{50, 10 + k}, {800, 30 + k}}, Fit: &MemoryFit{0.026, 10 + k}})
		rate.Series = append(rate.Series, RateSeries{Server: s, Label: s + ": one, wrk2, fixed rate", Points: []RatePoint{{100, 100}, {500, 500 - k}}, Medians: []RatePoint{{100, 100}, {500, 500 - k}}})
		curves.Curves = append(curves.Curves, CostCurve{Name: s, Points: []CostPoint{{100, k}, {1000, 10 * k}}})
		for _, tool := range []string{"ab", "bombardier"} {
			bars.Groups = append(bars.Groups, BarGroup{Label: s, Series: "one, " + tool + ", 16 connections", Values: []float64{1000 * k, 1100 * k}, Median: 1050 * k})
		}
		cost.Stacks = append(cost.Stacks, CostStack{Server: s + " postgresql one", StackUSD: 10 * k, DBUSD: 3 * k})
	}
	return map[string]Figure{"spectra": spectra, "ladder": ladder, "memory": memory, "rate": rate, "curves": curves, "bars": bars, "cost": cost}
}

// With 48 servers every plot keeps its data area: at least 60% of the
// width and half the height of a figure, whatever the legend holds; the
// legend stands beside or under it, never over it, and its columns fit
// in the width. (With the legend drawn inside a fixed canvas, the data
// area of the 48 spectra was nil.)
func TestFortyEightSeriesKeepTheirPlot(t *testing.T) {
	for name, f := range figuresOf48() {
		fg, err := f.build()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lay := fg.layout()
		c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: lay.width, Y: lay.height}}}
		data := fg.p.DataCanvas(lay.plotCanvas(c))
		if w, h := data.Size().X, data.Size().Y; w < 0.6*FigureWidth || h < 0.5*FigureHeight {
			t.Errorf("%s: data area %.0f × %.0f pt, want at least %.0f × %.0f", name, w, h, 0.6*FigureWidth, 0.5*FigureHeight)
		}
		if lay.beside {
			if data.Max.X > lay.width-lay.legendWidth {
				t.Errorf("%s: data area reaches x = %.0f, the legend beside it starts at %.0f", name, data.Max.X, lay.width-lay.legendWidth)
			}
			continue
		}
		if len(lay.cols) == 0 {
			t.Errorf("%s: 48 series and no legend", name)
		}
		for _, part := range lay.cols {
			// The legend's part lies from plotHeight + top downwards,
			// in canvas coordinates from the bottom: under the plot.
			if legendTop := lay.height - lay.plotHeight - part.top; data.Min.Y < legendTop {
				t.Errorf("%s: data area starts at y = %.0f, under the legend's top %.0f", name, data.Min.Y, legendTop)
			}
			if w := part.width + vg.Length(2*len(part.legends)+1)*legendGap; w > lay.width {
				t.Errorf("%s: legend columns %.0f pt wide in a %.0f pt figure", name, w, lay.width)
			}
		}
	}
}

// A figure's SVG is as large as its layout: 48 series grow the canvas;
// one series keeps 540 × 324 pt.
func TestCanvasGrowsWithTheLegend(t *testing.T) {
	size := regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)
	read := func(f Figure) (float64, float64) {
		svg, err := SVG(f)
		if err != nil {
			t.Fatal(err)
		}
		m := size.FindSubmatch(svg)
		if m == nil {
			t.Fatalf("no size in %.200s", svg)
		}
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		return w, h
	}
	one := &SpectrumChart{Spectra: []Spectrum{{Label: "a", Corrected: true, Points: []SpectrumPoint{{50, 1}, {99, 2}}}}}
	if w, h := read(one); w != 540 || h != 324 {
		t.Errorf("one spectrum: %v × %v pt, want 540 × 324", w, h)
	}
	if w, h := read(figuresOf48()["spectra"]); w != 540 || h <= 324+48/4*10 {
		t.Errorf("48 spectra: %v × %v pt, want 540 wide and taller by the legend's rows", w, h)
	}
	if _, h := read(figuresOf48()["cost"]); h < 48*14 {
		t.Errorf("48 cost bars: %v pt high, want at least 14 pt a bar", h)
	}
}

// Of the palette's first 56 styles no two share colour and dashes, of
// the first 64 none colour and shape; and in a plot of 24 servers on two
// databases (48 named series) no two series share colour and dashes.
func TestNoTwoSeriesShareAStyle(t *testing.T) {
	dash, glyph := map[string]int{}, map[string]int{}
	for i := range 64 {
		st := styleAt(i)
		if i < 56 {
			k := fmt.Sprint(st.Color, st.Dashes)
			if j, ok := dash[k]; ok {
				t.Errorf("styles %d and %d share colour and dashes %s", j, i, k)
			}
			dash[k] = i
		}
		k := fmt.Sprintf("%v %T", st.Color, st.Glyph)
		if j, ok := glyph[k]; ok {
			t.Errorf("styles %d and %d share colour and shape %s", j, i, k)
		}
		glyph[k] = i
	}
	servers := manyServers(24)
	name := func(i int) string { return servers[i/2] + []string{" mariadb", " postgresql"}[i%2] }
	styles := newStyler(nil).seriesStyles(48, func(i int) string { return servers[i/2] }, name)
	seen := map[string]int{}
	for i, st := range styles {
		k := fmt.Sprint(st.Color, st.Dashes)
		if j, ok := seen[k]; ok {
			t.Errorf("%s and %s share colour and dashes %s", name(j), name(i), k)
		}
		seen[k] = i
		if i%2 == 1 && st.Color != styles[i-1].Color {
			t.Errorf("%s is not in its server's colour", name(i))
		}
	}
}

// seriesPaths returns the d attribute of every SVG path stroked in a
// colour.
func seriesPaths(svg []byte, c string) []string {
	re := regexp.MustCompile(`<path d="([^"]*)"\s*style="[^"]*stroke:` + regexp.QuoteMeta(c) + `[;"]`)
	var out []string
	for _, m := range re.FindAllSubmatch(svg, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// A spectrum of five summary percentiles is drawn as points: no path in
// its colour runs through them (a path of points draws each as a closed
// shape, never a polyline of five); the same points as a distribution
// are a line of five.
func TestSummarySpectrumIsPoints(t *testing.T) {
	pts := []SpectrumPoint{{50, 1}, {75, 1.5}, {90, 2}, {95, 3}, {99, 7}}
	orange := "#E69F00" // OkabeIto[0]
	polyline := func(summary bool) bool {
		svg, err := SVG(&SpectrumChart{Spectra: []Spectrum{{Label: "a", Corrected: true, Summary: summary, Points: pts}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range seriesPaths(svg, orange) {
			if strings.Count(d, "L") >= len(pts)-1 && !strings.Contains(d, "Z") && !strings.Contains(d, "A") {
				return true
			}
		}
		return false
	}
	if polyline(true) {
		t.Errorf("summary percentiles drawn as a line")
	}
	if !polyline(false) {
		t.Errorf("a distribution is not drawn as a line (the test no longer sees lines)")
	}
	fg, err := (&SpectrumChart{Spectra: []Spectrum{{Label: "a", Summary: true, Corrected: true, Points: pts}}}).build()
	if err != nil {
		t.Fatal(err)
	}
	if got := fg.legend[0].name; got != "a (summary percentiles)" {
		t.Errorf("legend %q, want it to say summary percentiles", got)
	}
}

// Latency axes: a ladder's is logarithmic once its values and threshold
// span more than a decade (a 50 ms threshold over 2 ms steps), linear
// within one, and the threshold is a dashed line across the plot named
// in the legend; every spectrum's is logarithmic, a spectrum within
// 1,000–1,010 ms too, with labelled ticks.
func TestLatencyAxes(t *testing.T) {
	ladder := func(p95 ...float64) *LadderChart {
		var steps []LadderStep
		for i, v := range p95 {
			steps = append(steps, LadderStep{float64(100 * (i + 1)), v, v < 50})
		}
		return &LadderChart{Title: "l", ThresholdP95MS: 50, Series: []LadderSeries{{Server: "a", Steps: steps}}}
	}
	for _, c := range []struct {
		p95 []float64
		log bool
	}{{[]float64{2, 2.5, 3}, true}, {[]float64{20, 40, 60}, false}, {[]float64{2, 40, 2500}, true}} {
		fg, err := ladder(c.p95...).build()
		if err != nil {
			t.Fatal(err)
		}
		if _, log := fg.p.Y.Scale.(plot.LogScale); log != c.log {
			t.Errorf("ladder p95 %v ms with a 50 ms threshold: log axis %v, want %v", c.p95, log, c.log)
		}
	}
	svg, err := SVG(ladder(2, 2.5, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("p95 threshold 50 ms")) {
		t.Errorf("no threshold in the ladder's legend")
	}
	threshold := false
	for _, d := range seriesPaths(svg, "#000000") {
		var x0, y0, x1, y1 float64
		if n, _ := fmt.Sscanf(d, "M%g,%gL%g,%g", &x0, &y0, &x1, &y1); n == 4 && y0 == y1 && x1-x0 > 0.6*FigureWidth.Points() {
			threshold = true
		}
	}
	if !threshold {
		t.Errorf("no horizontal black line across the ladder plot")
	}
	wait := &SpectrumChart{Spectra: []Spectrum{{Label: "w", Corrected: true, Points: []SpectrumPoint{{0, 1000}, {50, 1002}, {99, 1010}}}}}
	fg, err := wait.build()
	if err != nil {
		t.Fatal(err)
	}
	if _, log := fg.p.Y.Scale.(plot.LogScale); !log {
		t.Errorf("a spectrum within 1,000–1,010 ms on a linear axis, where every other spectrum is logarithmic")
	}
	labelled := 0
	for _, tk := range fg.p.Y.Tick.Marker.Ticks(fg.p.Y.Min, fg.p.Y.Max) {
		if tk.Label != "" {
			labelled++
		}
	}
	if labelled < 2 {
		t.Errorf("%d labelled ticks on the spectrum's latency axis, want at least 2", labelled)
	}
}

// Two stacks that cost the same at every rate: the second line is
// dashed and its points smaller, so that the first shows through.
func TestCoincidentCostCurves(t *testing.T) {
	pts := []CostPoint{{100, 5}, {1000, 50}}
	fg, err := (&CostCurveChart{Title: "c", Curves: []CostCurve{{Name: "a", Points: pts}, {Name: "b", Points: pts}, {Name: "c", Points: []CostPoint{{100, 6}, {1000, 60}}}}}).build()
	if err != nil {
		t.Fatal(err)
	}
	line := func(i int) draw.LineStyle { return draw.LineStyle(fg.legend[i].thumbs[0].(lineThumb)) }
	point := func(i int) draw.GlyphStyle { return draw.GlyphStyle(fg.legend[i].thumbs[1].(glyphThumb)) }
	if line(0).Dashes != nil || line(1).Dashes == nil || line(2).Dashes != nil {
		t.Errorf("dashes %v, %v, %v: want only b, drawn over a, dashed", line(0).Dashes, line(1).Dashes, line(2).Dashes)
	}
	if point(1).Radius >= point(0).Radius {
		t.Errorf("b's points (radius %v) hide a's (%v)", point(1).Radius, point(0).Radius)
	}
}

// Totals over bars never overlap: upright when wider than their bar's
// slot, and a plot of more than maxUpright bars lies down, one bar a
// row.
func TestCostTotalsDoNotOverlap(t *testing.T) {
	var stacks []CostStack
	for i, s := range manyServers(14) {
		stacks = append(stacks, CostStack{Server: s, StackUSD: 12345.678 + float64(i), DBUSD: 1})
	}
	svg, err := SVG(&CostChart{Title: "c", Stacks: stacks})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("rotate(90)")) {
		t.Errorf("14 totals of $12,347 side by side are not upright")
	}
	fg, err := figuresOf48()["cost"].build()
	if err != nil {
		t.Fatal(err)
	}
	if fg.p.Y.Tick.Marker.Ticks(fg.p.Y.Min, fg.p.Y.Max)[0].Label == "" || fg.minHeight < 48*14 {
		t.Errorf("48 cost bars do not lie one a row (names on the y axis, %v pt high)", fg.minHeight)
	}
}
