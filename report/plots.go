package report

import (
	"bufio"
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is a plot ready to render with SVG, WriteSVG or WritePNG: one of
// the *…Chart types of this package (*BarChart, *SpectrumChart, *RateChart,
// *LadderChart, *MemoryChart, *CostChart, …). Rendering the same Figure
// twice gives the same bytes.
type Figure interface {
	build() (*figure, error)
}

// Size of the plot of every figure: 7.5 × 4.5 inches (540 × 324 pt); PNGs
// are drawn at PNGDPI dots per inch (1080 × 648 pixels for that size). A
// figure grows beyond it, never into its plot: a legend too long to
// stand beside the plot goes under it, in as many columns as the width
// holds, and the canvas grows by the legend's height; a bar plot of many
// categories grows taller (see categories).
const (
	FigureWidth  = 7.5 * vg.Inch
	FigureHeight = 4.5 * vg.Inch
	PNGDPI       = 144
)

// figure is a built plot and its legend, drawn beside or under it.
type figure struct {
	p      *plot.Plot
	legend []legendEntry
	// minHeight is the height the plot's categories need to stay
	// apart, when it exceeds FigureHeight.
	minHeight vg.Length
	// width and height, where set, are a compact figure's own size in
	// place of FigureWidth and FigureHeight.
	width, height vg.Length
}

type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
	// key is true for an entry that explains a style (dashes, points)
	// rather than naming a series.
	key bool
}

// WriteSVG renders a figure as a standalone SVG document. Text is
// escaped by gonum's SVG canvas; fonts are named, not embedded (see
// svgFonts).
func WriteSVG(w io.Writer, f Figure) error {
	b, err := SVG(f)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// SVG renders a figure as a standalone SVG document, for WriteSVG and
// for the plots of a Page.
func SVG(f Figure) ([]byte, error) {
	fg, err := f.build()
	if err != nil {
		return nil, err
	}
	lay := fg.layout()
	c := vgsvg.NewWith(vgsvg.UseWH(lay.width, lay.height))
	fg.draw(draw.New(c), lay)
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return svgFonts(b.Bytes()), nil
}

// WritePNG renders a figure as a PNG image of PNGDPI dots per inch.
func WritePNG(w io.Writer, f Figure) error {
	fg, err := f.build()
	if err != nil {
		return err
	}
	lay := fg.layout()
	c := vgimg.NewWith(vgimg.UseWH(lay.width, lay.height), vgimg.UseDPI(PNGDPI))
	fg.draw(draw.New(c), lay)
	// The fastest deflate: PNG encoding at the default level was half
	// the CPU time of wra analyze; plots are flat colours, which the
	// fastest level still packs well.
	bw := bufio.NewWriter(w)
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(bw, c.Image()); err != nil {
		return err
	}
	return bw.Flush()
}

// svgFonts gives the SVG text a list of fonts to fall back on. gonum
// measures text with the Liberation fonts it embeds and names only
// "Liberation Sans" in the SVG; embedding the font would add about
// 0.5 MB to every plot, so the SVG instead lists Arial and Helvetica,
// which have the same metrics as Liberation Sans (it was drawn to
// replace Arial), then the generic sans-serif. Label widths stay as
// gonum measured them wherever one of the three is installed, which is
// nearly everywhere, and the text stays readable everywhere else.
func svgFonts(b []byte) []byte {
	return bytes.ReplaceAll(b,
		[]byte("font-family:Liberation Sans;"),
		[]byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;"))
}

// legendGap is the space around a legend.
const legendGap = vg.Length(8)

// figureLayout is where a figure's plot and legend go on its canvas.
type figureLayout struct {
	width, height vg.Length
	// plotHeight is the height of the plot: FigureHeight or the
	// figure's minHeight.
	plotHeight vg.Length
	// beside is true when the legend stands right of the plot, below
	// the title; else its columns stand under the plot.
	beside bool
	// legendWidth is the width of a legend beside the plot.
	legendWidth vg.Length
	// cols are the parts of a legend under the plot, one under another.
	cols []legendLayout
}

// layout places the legend: beside the plot when it is narrow (at most
// 30% of the width) and short enough to stand there; else under the
// plot in as many columns as the width holds, the canvas growing by its
// height, so that the plot keeps its size whatever the number of series.
func (fg *figure) layout() figureLayout {
	fg.legend = shortenLegend(fg.legend)
	plotHeight, width := max(FigureHeight, fg.minHeight), FigureWidth
	if fg.height > 0 {
		plotHeight, width = fg.height, fg.width
	}
	lay := figureLayout{width: width, height: plotHeight, plotHeight: plotHeight}
	if len(fg.legend) == 0 {
		return lay
	}
	size := newLegend(fg.legend).Rectangle(draw.Canvas{}).Size()
	if width := size.X + 2*legendGap; width <= lay.width*0.3 && size.Y+fg.titleHeight()+2*legendGap <= plotHeight {
		lay.beside, lay.legendWidth = true, width
		return lay
	}
	// Entries that explain a style (every series' shared parts, what
	// dashes mean) stand above those that name series, each group in as
	// many columns as fit, so that a long explanation does not keep the
	// names in one column.
	var keys, series []legendEntry
	for _, e := range fg.legend {
		if e.key {
			keys = append(keys, e)
		} else {
			series = append(series, e)
		}
	}
	for _, part := range [][]legendEntry{keys, series} {
		if len(part) == 0 {
			continue
		}
		cols := fitColumns(part, lay.width)
		cols.top = lay.height - lay.plotHeight
		lay.cols = append(lay.cols, cols)
		lay.height += cols.height + legendGap
	}
	lay.height += legendGap
	return lay
}

// fitColumns splits entries into as many columns as fit side by side in
// width.
func fitColumns(entries []legendEntry, width vg.Length) legendLayout {
	cols := legendColumns(entries, 1)
	for n := 2; n <= len(entries); n++ {
		next := legendColumns(entries, n)
		if next.width+vg.Length(2*len(next.legends)+1)*legendGap > width {
			break
		}
		cols = next
	}
	return cols
}

// shortenLegend says once what every series entry shares. Series
// entries are named "server: part, part, …" (test, tool, load,
// database); where two or more of them share a part, it is cut from each
// and said in an entry of its own ("every series: one, wrk2"), so that a
// legend of 48 stacks holds their names, not 48 copies of the test.
func shortenLegend(entries []legendEntry) []legendEntry {
	type split struct {
		head  string
		parts []string
	}
	var series []split
	first := -1
	for i, e := range entries {
		head, rest, ok := strings.Cut(e.name, ": ")
		if !ok || e.key {
			continue
		}
		if first < 0 {
			first = i
		}
		series = append(series, split{head, strings.Split(rest, ", ")})
	}
	if len(series) < 2 {
		return entries
	}
	var common []string
	for _, part := range series[0].parts {
		if !slices.ContainsFunc(series, func(s split) bool { return !slices.Contains(s.parts, part) }) {
			common = append(common, part)
		}
	}
	if len(common) == 0 {
		return entries
	}
	out := slices.Clone(entries[:first])
	out = append(out, legendEntry{name: "every series: " + strings.Join(common, ", "), key: true})
	k := 0
	for _, e := range entries[first:] {
		if _, _, ok := strings.Cut(e.name, ": "); ok && !e.key {
			s := series[k]
			k++
			rest := slices.DeleteFunc(slices.Clone(s.parts), func(p string) bool { return slices.Contains(common, p) })
			e.name = s.head
			if len(rest) > 0 {
				e.name += ": " + strings.Join(rest, ", ")
			}
		}
		out = append(out, e)
	}
	return out
}

// titleHeight is the height the title takes above the plot.
func (fg *figure) titleHeight() vg.Length {
	if fg.p.Title.Text == "" {
		return 0
	}
	return fg.p.Title.TextStyle.Rectangle(fg.p.Title.Text).Size().Y + fg.p.Title.Padding
}

// plotCanvas is the part of a canvas of the layout's size that the plot
// (title, axes and data) takes.
func (lay figureLayout) plotCanvas(c draw.Canvas) draw.Canvas {
	switch {
	case lay.beside:
		return draw.Crop(c, 0, -lay.legendWidth, 0, 0)
	case len(lay.cols) > 0:
		return draw.Crop(c, 0, 0, lay.height-lay.plotHeight, 0)
	}
	return c
}

func (fg *figure) draw(c draw.Canvas, lay figureLayout) {
	// One white background under the plot and its legend.
	c.FillPolygon(color.White, rect(c.Min.X, c.Min.Y, c.Max.X, c.Max.Y))
	fg.p.BackgroundColor = nil
	pc := lay.plotCanvas(c)
	if fg.height > 0 {
		// A compact figure's names stand at its left edge: a margin
		// keeps their first letter in.
		pc = draw.Crop(pc, vg.Points(8), 0, 0, 0)
	}
	fg.drawPlot(pc)
	if lay.beside {
		l := newLegend(fg.legend)
		l.Draw(draw.Crop(c, c.Size().X-lay.legendWidth+legendGap, -legendGap, 0, -fg.titleHeight()-legendGap))
		return
	}
	for _, part := range lay.cols {
		x := 2 * legendGap
		for i, col := range part.legends {
			col.Draw(draw.Crop(c, x, -legendGap, 0, -(lay.plotHeight + part.top + legendGap)))
			x += part.widths[i] + 2*legendGap
		}
	}
}

// newLegend makes a gonum legend of entries in wra's style.
func newLegend(entries []legendEntry) *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle = textStyle(10, false)
	l.Left = true
	l.Top = true
	l.Padding = vg.Points(3)
	l.ThumbnailWidth = vg.Points(22)
	for _, e := range entries {
		l.Add(e.name, e.thumbs...)
	}
	return &l
}

// legendLayout is a legend split into columns.
type legendLayout struct {
	legends       []*plot.Legend
	widths        []vg.Length
	width, height vg.Length
	// top is how far under the plot the columns start.
	top vg.Length
}

// legendColumns splits entries into n columns filled top to bottom.
func legendColumns(entries []legendEntry, n int) legendLayout {
	var out legendLayout
	rows := (len(entries) + n - 1) / n
	for i := 0; i < len(entries); i += rows {
		l := newLegend(entries[i:min(i+rows, len(entries))])
		size := l.Rectangle(draw.Canvas{}).Size()
		// A tenth more than gonum measures with Liberation Sans, for a
		// reader whose fallback font is wider (DejaVu Sans is).
		w := size.X * 1.1
		out.legends = append(out.legends, l)
		out.widths = append(out.widths, w)
		out.width += w
		out.height = max(out.height, size.Y)
	}
	return out
}

// drawPlot draws the plot with its y-axis label centred on the data
// area. gonum places the label by the midpoint of the axis's values,
// which on a log axis lies near the top, and then shrinks the data area
// to make room for a label it believes sticks out; so the label is drawn
// here instead.
func (fg *figure) drawPlot(c draw.Canvas) {
	p := fg.p
	label := p.Y.Label
	if label.Text == "" {
		p.Draw(c)
		return
	}
	p.Y.Label.Text = ""
	defer func() { p.Y.Label.Text = label.Text }()
	height := label.TextStyle.Height(label.Text)
	inner := draw.Crop(c, height+label.Padding, 0, 0, 0)
	data := p.DataCanvas(inner)
	sty := label.TextStyle
	sty.Rotation += math.Pi / 2
	c.FillText(sty, vg.Point{X: c.Min.X + height - sty.FontExtents().Descent, Y: data.Center().Y}, label.Text)
	p.Draw(inner)
}

// sans is the font of all plot text.
func sans(bold bool) font.Font {
	f := font.Font{Typeface: "Liberation", Variant: "Sans"}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return f
}

func textStyle(size vg.Length, bold bool) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(sans(bold), size),
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// cleanLabel makes a label safe to draw and to write into SVG: invalid
// UTF-8 and control characters (which XML cannot hold) become U+FFFD.
// Markup needs no treatment here: gonum's SVG canvas escapes text.
func cleanLabel(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if unicode.IsControl(r) {
			r = '\uFFFD'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// newPlot makes a plot with wra's fonts, a light horizontal grid and the
// given title and axis labels.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = cleanLabel(title)
	p.Title.TextStyle = textStyle(13, true)
	p.Title.TextStyle.XAlign = draw.XCenter
	p.Title.TextStyle.YAlign = draw.YTop
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = textStyle(11, false)
		a.Label.TextStyle.XAlign = draw.XCenter
		a.Tick.Label = textStyle(10, false)
		a.Label.Padding = vg.Points(4)
	}
	p.X.Tick.Label.XAlign = draw.XCenter
	p.X.Tick.Label.YAlign = draw.YTop
	p.Y.Tick.Label.XAlign = draw.XRight
	p.Y.Tick.Label.YAlign = draw.YCenter
	p.X.Label.Text = cleanLabel(xLabel)
	p.Y.Label.Text = cleanLabel(yLabel)
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal.Color = color.Gray{Y: 0xDD}
	p.Add(g)
	return p
}

// newBarPlot is newPlot for bars: the grid follows the value axis, which
// is the x axis of lying bars.
func newBarPlot(title, catLabel, valueLabel string, lying bool) *plot.Plot {
	if !lying {
		return newPlot(title, catLabel, valueLabel)
	}
	p := newPlot(title, valueLabel, catLabel)
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		// Over the horizontal grid newPlot drew, which the nominal
		// axis leaves without lines to draw.
		trX, _ := plt.Transforms(&c)
		for _, t := range plt.X.Tick.Marker.Ticks(plt.X.Min, plt.X.Max) {
			if t.Label != "" {
				x := trX(t.Value)
				c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 0xDD}, Width: vg.Points(0.5)}, x, c.Min.Y, x, c.Max.Y)
			}
		}
	}))
	return p
}

// maxUpright is the most categories drawn as upright bars; more lie
// down, one under another, so that the plot grows in height and every
// name reads level.
const maxUpright = 16

// categories lays out the category axis of a bar plot: along x for up
// to maxUpright names, turned by 30° when a few are long; down the y
// axis, the first on top, for more, each slot high, the figure growing
// to hold them (minHeight). It returns where category i and an offset
// within its slot lies on the axis.
func categories(p *plot.Plot, names []string, slot vg.Length) (pos func(i int, off float64) float64, minHeight vg.Length) {
	n := len(names)
	if n > maxUpright {
		rev := slices.Clone(names)
		slices.Reverse(rev)
		p.NominalY(rev...)
		p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
		return func(i int, off float64) float64 { return float64(n-1-i) - off }, vg.Length(n)*slot + barMargin
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	long := 0
	for _, n := range names {
		long = max(long, utf8.RuneCountInString(n))
	}
	if n > 8 || n*long > 70 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
		// NominalX keeps half the first name's width free left of the
		// axis for an upright label; a turned one needs less, and the
		// plot makes room for its tick labels in any case.
		p.Y.Padding = vg.Points(6)
	}
	return func(i int, off float64) float64 { return float64(i) + off }, 0
}

// barMargin is about the height of a plot's title and value axis.
const barMargin = vg.Length(90)

// tickLabel formats a value for an axis or a bar label: at most four
// significant figures, and no exponent between 10^-4 and 10^9.
func tickLabel(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e9 || a < 1e-4 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	digits := max(0, 3-int(math.Floor(math.Log10(a))))
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return Thousands(s) // 30,000, as the tables print it
}

// linearTicks labels round values (1, 2, 2.5 or 5 times a power of ten
// apart) from lo to hi, four to eight of them, with an unlabelled tick
// halfway between.
func linearTicks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: tickLabel(lo)}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ts []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi*(1+1e-12); i++ {
		v := i * step
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ts = append(ts, plot.Tick{Value: v, Label: tickLabel(v)})
		if half := v + step/2; half <= hi {
			ts = append(ts, plot.Tick{Value: half})
		}
	}
	return ts
}

// logTicks marks the powers of ten and their multiples between lo and
// hi, both positive. The powers are labelled; so are 2 and 5 times them
// where the range spans less than two and a half decades, and every
// multiple where it spans less than one (e.g. 800–1,260 ms).
func logTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	decades := math.Log10(hi / lo)
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		d := math.Pow(10, e)
		for m := 1.0; m < 10; m++ {
			v := m * d
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || decades < 1 || (decades < 2.5 && (m == 2 || m == 5)) {
				t.Label = tickLabel(v)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// valueAxis sets a y axis to show values from lo to hi: a log scale when
// asked and possible (all values positive), else linear from zero.
func valueAxis(a *plot.Axis, lo, hi float64, log bool) bool {
	if log && lo > 0 {
		a.Scale = plot.LogScale{}
		a.Min, a.Max = lo/1.25, hi*1.25
		a.Tick.Marker = plot.TickerFunc(logTicks)
		return true
	}
	a.Min = math.Min(0, lo)
	a.Max = hi
	if a.Max <= a.Min {
		a.Max = a.Min + 1
	}
	a.Max += (a.Max - a.Min) * 0.05
	a.Tick.Marker = plot.TickerFunc(linearTicks)
	return false
}

// wideRange reports whether values span more than two orders of
// magnitude, when a log axis reads better than a linear one.
func wideRange(lo, hi float64) bool {
	return lo > 0 && hi/lo > 100
}

// overDecade reports whether latencies span more than a decade: their
// axis is then logarithmic, so that a threshold of 50 ms stays apart
// from steps at 2 ms and at 2,500 ms.
func overDecade(lo, hi float64) bool {
	return lo > 0 && hi/lo > 10
}

// extent is the range of the values added to it.
type extent struct{ lo, hi float64 }

func newExtent() extent { return extent{math.Inf(1), math.Inf(-1)} }

func (e *extent) add(vs ...float64) {
	for _, v := range vs {
		e.lo, e.hi = math.Min(e.lo, v), math.Max(e.hi, v)
	}
}

// finite reports whether a value can be drawn: not NaN, not infinite,
// and small enough (|v| ≤ 1e150) that the sums and spans computed from
// values stay finite.
func finite(v float64) bool { return math.Abs(v) <= 1e150 }

// lighter mixes a colour with white: f = 0 keeps it, 1 gives white.
func lighter(c color.RGBA, f float64) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(math.Round(float64(v) + (255-float64(v))*f)) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xFF}
}

// plotFunc adapts a drawing function to plot.Plotter.
type plotFunc func(c draw.Canvas, p *plot.Plot)

func (f plotFunc) Plot(c draw.Canvas, p *plot.Plot) { f(c, p) }

// Legend thumbnails.
type (
	boxThumb   struct{ fill, line color.Color }
	lineThumb  draw.LineStyle
	glyphThumb draw.GlyphStyle
)

func (t boxThumb) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(t.fill, pts)
	if t.line != nil {
		c.StrokeLines(draw.LineStyle{Color: t.line, Width: vg.Points(0.8)}, append(pts, pts[0]))
	}
}

func (t lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(draw.LineStyle(t), c.Min.X, y, c.Max.X, y)
}

// whiskerThumb is a small vertical whisker with its caps.
type whiskerThumb struct{}

func (whiskerThumb) Thumbnail(c *draw.Canvas) {
	ls := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
	x, cap := c.Center().X, vg.Points(3)
	c.StrokeLine2(ls, x, c.Min.Y, x, c.Max.Y)
	c.StrokeLine2(ls, x-cap, c.Min.Y, x+cap, c.Min.Y)
	c.StrokeLine2(ls, x-cap, c.Max.Y, x+cap, c.Max.Y)
}

func (t glyphThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(draw.GlyphStyle(t), c.Center())
}

func lineStyle(st SeriesStyle, width vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: st.Color, Width: width, Dashes: st.Dashes}
}

func glyphStyle(st SeriesStyle, r vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: st.Color, Radius: r, Shape: st.Glyph}
}

// distinct returns the distinct values of key over n items in order of
// first appearance.
func distinct(n int, key func(i int) string) []string {
	var out []string
	seen := map[string]bool{}
	for i := range n {
		k := key(i)
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// rect returns the corners of a rectangle in canvas coordinates.
func rect(x0, y0, x1, y1 vg.Length) []vg.Point {
	return []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
}

// BarChart draws, for every group, a bar at the median of its passes, a
// whisker from the smallest to the largest pass, and every pass as a dot,
// so that the spread of passes is seen beside the centre. Groups sharing
// a Label stand side by side in one category of the x axis, one per
// Series, in order of first appearance.
type BarChart struct {
	Title  string
	XLabel string // the categories, e.g. "server"
	YLabel string // the quantity with its unit, e.g. "requests/s"
	Groups []BarGroup
	// Palette colours series (or categories, when no group has a Series)
	// as in the report's other plots; nil numbers them here.
	Palette *Palette
}

// BarGroup is one bar: the values of the passes of one category (and
// series).
type BarGroup struct {
	Label  string // category on the x axis, e.g. the server
	Series string // legend entry, e.g. "256 connections"; "" for none
	Values []float64
	// Median is the bar's height: the median of Values, as the caller's
	// figures define it (the chart draws it, it computes no figure).
	Median float64
}

func (b *BarChart) build() (*figure, error) {
	if len(b.Groups) == 0 {
		return nil, fmt.Errorf("bar chart %q: no bars", b.Title)
	}
	lo, hi := 0.0, math.Inf(-1)
	for _, g := range b.Groups {
		if len(g.Values) == 0 {
			return nil, fmt.Errorf("bar chart %q: bar %q %q has no values", b.Title, g.Label, g.Series)
		}
		for _, v := range g.Values {
			if !finite(v) {
				return nil, fmt.Errorf("bar chart %q: bar %q %q has value %v", b.Title, g.Label, g.Series, v)
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	cats := distinct(len(b.Groups), func(i int) string { return b.Groups[i].Label })
	series := distinct(len(b.Groups), func(i int) string { return b.Groups[i].Series })
	bySeries := len(series) > 1 || series[0] != ""
	lying := len(cats) > maxUpright
	p := newBarPlot(b.Title, b.XLabel, b.YLabel, lying)
	names := make([]string, len(cats))
	for i, c := range cats {
		names[i] = cleanLabel(c)
	}
	pos, minHeight := categories(p, names, max(14, 8*vg.Length(len(series))))
	valueAx := &p.Y
	if lying {
		valueAx = &p.X
	}
	valueAxis(valueAx, lo, hi, false)
	sty := newStyler(b.Palette)
	styleOf := func(g BarGroup) SeriesStyle {
		if bySeries {
			return sty.style(g.Series)
		}
		return sty.style(g.Label)
	}
	fg := &figure{p: p, minHeight: minHeight}
	if bySeries {
		for _, s := range series {
			st := sty.style(s)
			fg.legend = append(fg.legend, legendEntry{name: cleanLabel(s), thumbs: []plot.Thumbnailer{boxThumb{lighter(st.Color, 0.35), st.Color}}})
		}
	}
	groupWidth := 0.8
	if len(series) == 1 {
		groupWidth = 0.5
	}
	width := groupWidth / float64(len(series))
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		// at is the point of a value at a place on the category axis.
		at := func(cat, v float64) vg.Point {
			if lying {
				return vg.Point{X: trX(v), Y: trY(cat)}
			}
			return vg.Point{X: trX(cat), Y: trY(v)}
		}
		whisker := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
		for _, g := range b.Groups {
			ci, si := slices.Index(cats, g.Label), slices.Index(series, g.Series)
			mid := pos(ci, -groupWidth/2+(float64(si)+0.5)*width)
			st := styleOf(g)
			p0, p1 := at(mid-width*0.42, 0), at(mid+width*0.42, g.Median)
			box := rect(p0.X, p0.Y, p1.X, p1.Y)
			c.FillPolygon(lighter(st.Color, 0.35), box)
			c.StrokeLines(draw.LineStyle{Color: st.Color, Width: vg.Points(1)}, append(box, box[0]))
			vmin, vmax := slices.Min(g.Values), slices.Max(g.Values)
			cap := width * 0.21
			c.StrokeLines(whisker, []vg.Point{at(mid, vmin), at(mid, vmax)})
			c.StrokeLines(whisker, []vg.Point{at(mid-cap, vmin), at(mid+cap, vmin)})
			c.StrokeLines(whisker, []vg.Point{at(mid-cap, vmax), at(mid+cap, vmax)})
			dot := draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
			for k, v := range g.Values {
				// Passes spread evenly across the middle half of the bar,
				// in their order, so that none hides another.
				off := 0.0
				if n := len(g.Values); n > 1 {
					off = (float64(k)/float64(n-1) - 0.5) * width * 0.3
				}
				c.DrawGlyph(dot, at(mid+off, v))
			}
		}
	}))
	fg.legend = append(fg.legend,
		legendEntry{name: "median of passes", thumbs: []plot.Thumbnailer{boxThumb{color.Gray{Y: 0xCC}, color.Gray{Y: 0x66}}}, key: true},
		legendEntry{name: "min–max of passes", thumbs: []plot.Thumbnailer{whiskerThumb{}}, key: true},
		legendEntry{name: "one pass", thumbs: []plot.Thumbnailer{glyphThumb{Color: color.Black, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}}, key: true},
	)
	return fg, nil
}

// SpectrumChart draws latency percentile spectra the way HdrHistogram's
// plotter does: the x axis is 1/(1-p) on a log scale, so that 90%, 99%,
// 99.9%, 99.99% … stand at equal distances and the tail gets the room
// it deserves. Spectra not corrected for coordinated omission are
// dashed; a spectrum of a few summary percentiles is drawn as points
// only, since no line through them is measured. A point at 100% lies at
// infinity on this axis and is left out (the maximum belongs in a
// table). The y axis is logarithmic wherever every latency is above
// zero, in every spectrum chart alike.
type SpectrumChart struct {
	Title   string
	Spectra []Spectrum
	Palette *Palette // colours by Label
}

// Spectrum is the latency spectrum of one run or of merged passes.
type Spectrum struct {
	Label string
	// Server colours the line (the Label where empty): a server's further
	// spectra (another tool or database) keep its colour and are told
	// apart by hollow points.
	Server string
	Points []SpectrumPoint
	// Corrected is true when the tool corrected the latencies for
	// coordinated omission (wrk2's recorded latency).
	Corrected bool
	// Summary is true when the points are a tool's summary percentiles
	// (p50, p90, p95, p99 …) rather than a distribution (an HdrHistogram
	// spectrum, every request's latency): they are drawn as points.
	Summary bool
}

// SpectrumPoint says that Percentile (0–100) of the requests took at
// most LatencyMS.
type SpectrumPoint struct {
	Percentile float64
	LatencyMS  float64
}

// inverseTail is the x coordinate of a percentile: 1/(1-p).
func inverseTail(percentile float64) float64 { return 1 / (1 - percentile/100) }

// percentTicks labels the decades of 1/(1-p) with their percentiles
// (1 → 0%, 10 → 90%, 100 → 99%, …); multiples of a decade get
// unlabelled ticks (2 is the median).
func percentTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for d, e := 1.0, 0; d <= hi*(1+1e-9); d, e = d*10, e+1 {
		label := "0%"
		if e > 0 {
			label = strconv.FormatFloat(100-100/d, 'f', max(0, e-2), 64) + "%"
		}
		ts = append(ts, plot.Tick{Value: d, Label: label})
		for m := 2.0; m < 10 && m*d <= hi*(1+1e-9); m++ {
			t := plot.Tick{Value: m * d}
			ts = append(ts, t)
		}
	}
	return ts
}

func (s *SpectrumChart) build() (*figure, error) {
	if len(s.Spectra) == 0 {
		return nil, fmt.Errorf("spectrum chart %q: no spectra", s.Title)
	}
	lo, hi, xmax := math.Inf(1), math.Inf(-1), 1.0
	lines := make([]plotter.XYs, len(s.Spectra))
	for i, sp := range s.Spectra {
		for _, pt := range sp.Points {
			if !finite(pt.LatencyMS) || pt.LatencyMS < 0 || !(pt.Percentile >= 0 && pt.Percentile <= 100) {
				return nil, fmt.Errorf("spectrum chart %q: spectrum %q has point (%v%%, %v ms)", s.Title, sp.Label, pt.Percentile, pt.LatencyMS)
			}
			if pt.Percentile == 100 {
				continue
			}
			x := inverseTail(pt.Percentile)
			lines[i] = append(lines[i], plotter.XY{X: x, Y: pt.LatencyMS})
			lo, hi, xmax = math.Min(lo, pt.LatencyMS), math.Max(hi, pt.LatencyMS), math.Max(xmax, x)
		}
		if len(lines[i]) == 0 {
			return nil, fmt.Errorf("spectrum chart %q: spectrum %q has no point below 100%%", s.Title, sp.Label)
		}
	}
	log := lo > 0
	ylabel := "latency (ms)"
	if log {
		ylabel = "latency (ms, log scale)"
	}
	p := newPlot(s.Title, "percentile (log scale of 1/(1−p))", ylabel)
	p.X.Scale = plot.LogScale{}
	p.X.Min = 1
	p.X.Max = math.Max(100, math.Pow(10, math.Ceil(math.Log10(xmax)-1e-9)))
	p.X.Tick.Marker = plot.TickerFunc(percentTicks)
	valueAxis(&p.Y, lo, hi, log)
	fg := &figure{p: p}
	styles := newStyler(s.Palette).seriesStyles(len(s.Spectra), func(i int) string {
		if s.Spectra[i].Server == "" {
			return s.Spectra[i].Label
		}
		return s.Spectra[i].Server
	}, func(i int) string { return s.Spectra[i].Label })
	uncorrected := []vg.Length{vg.Points(5), vg.Points(3)}
	entries := map[string]int{} // legend entry of each label
	anyUncorrected := false
	for i, sp := range s.Spectra {
		st := styles[i]
		// Dashes mean "uncorrected" here, so series that the palette
		// tells apart by dashes are told apart by their points instead.
		ls := draw.LineStyle{Color: st.Color, Width: vg.Points(1.6)}
		if !sp.Corrected {
			ls.Dashes = uncorrected
			anyUncorrected = true
		}
		var thumbs []plot.Thumbnailer
		switch {
		case sp.Summary:
			gs := glyphStyle(st, vg.Points(3))
			p.Add(points(lines[i], gs))
			thumbs = []plot.Thumbnailer{glyphThumb(gs)}
		default:
			l, err := plotter.NewLine(lines[i])
			if err != nil {
				return nil, fmt.Errorf("spectrum chart %q: spectrum %q: %w", s.Title, sp.Label, err)
			}
			l.LineStyle = ls
			p.Add(l)
			thumb := ls
			thumb.Dashes = nil
			if !sp.Corrected && !slices.ContainsFunc(s.Spectra, func(o Spectrum) bool { return o.Label == sp.Label && o.Corrected }) {
				thumb.Dashes = ls.Dashes
			}
			thumbs = []plot.Thumbnailer{lineThumb(thumb)}
			if st.Dashes != nil {
				gs := glyphStyle(st, vg.Points(2.2))
				p.Add(points(sparse(lines[i]), gs))
				thumbs = append(thumbs, glyphThumb(gs))
			}
		}
		name := cleanLabel(sp.Label)
		if sp.Summary {
			name += " (summary percentiles)"
		}
		// A label's corrected and uncorrected spectra share one entry:
		// one colour and shape, the dashes said once below.
		if k, ok := entries[name]; ok {
			if len(fg.legend[k].thumbs) < len(thumbs) {
				fg.legend[k].thumbs = thumbs
			}
			continue
		}
		entries[name] = len(fg.legend)
		fg.legend = append(fg.legend, legendEntry{name: name, thumbs: thumbs})
	}
	if anyUncorrected {
		fg.legend = append(fg.legend, legendEntry{name: "dashed: not corrected for coordinated omission",
			thumbs: []plot.Thumbnailer{lineThumb(draw.LineStyle{Color: color.Black, Width: vg.Points(1.6), Dashes: uncorrected})}, key: true})
	}
	return fg, nil
}

// points draws a point of a style at every xy.
func points(xys plotter.XYs, gs draw.GlyphStyle) plot.Plotter {
	return plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		for _, xy := range xys {
			if pt := (vg.Point{X: trX(xy.X), Y: trY(xy.Y)}); c.Contains(pt) {
				c.DrawGlyph(gs, pt)
			}
		}
	})
}

// sparse keeps at most four points per decade of x (on the log axis of
// 1/(1-p)), so that the marks telling lines apart do not bury them.
func sparse(xys plotter.XYs) plotter.XYs {
	var out plotter.XYs
	last := math.Inf(-1)
	for _, xy := range xys {
		if q := math.Floor(4 * math.Log10(xy.X)); q > last {
			out = append(out, xy)
			last = q
		}
	}
	return out
}

// LadderChart draws held-rate ladders: for every run, the p95 latency of
// each step against the step's target rate, held steps as filled circles
// and failed steps as crosses, and the p95 threshold as a dashed line.
// The runs of one server share its colour; its series of another name
// (test, tool, database) are dashed.
type LadderChart struct {
	Title  string
	Series []LadderSeries
	// ThresholdP95MS is the rule's p95 limit, drawn when positive.
	ThresholdP95MS float64
	Palette        *Palette // colours by Server
}

// LadderSeries is one run of a ladder.
type LadderSeries struct {
	Server string
	// Label is the legend entry of the runs it shares it with, e.g.
	// "go1: one, wrk2, 250–1,000 requests/s, postgresql"; the Server
	// where empty.
	Label string
	// Database is the run's database, "" where it names none.
	Database string
	Run      string // names the run in error messages, e.g. its source
	Steps    []LadderStep
}

// LadderStep is one step of a ladder run.
type LadderStep struct {
	TargetRPS float64
	P95MS     float64
	Held      bool
}

func (l *LadderChart) build() (*figure, error) {
	if len(l.Series) == 0 {
		return nil, fmt.Errorf("ladder chart %q: no runs", l.Title)
	}
	x, y := newExtent(), newExtent()
	for _, s := range l.Series {
		if len(s.Steps) == 0 {
			return nil, fmt.Errorf("ladder chart %q: %s run %q has no steps", l.Title, s.Server, s.Run)
		}
		for i, st := range s.Steps {
			if !finite(st.TargetRPS) || !finite(st.P95MS) || st.TargetRPS < 0 || st.P95MS < 0 {
				return nil, fmt.Errorf("ladder chart %q: %s run %q step %d has target %v requests/s, p95 %v ms", l.Title, s.Server, s.Run, i+1, st.TargetRPS, st.P95MS)
			}
			x.add(st.TargetRPS)
			y.add(st.P95MS)
		}
	}
	threshold := l.ThresholdP95MS > 0 && finite(l.ThresholdP95MS)
	if threshold {
		y.add(l.ThresholdP95MS)
	}
	log := overDecade(y.lo, y.hi)
	ylabel := "p95 latency (ms)"
	if log {
		ylabel = "p95 latency (ms, log scale)"
	}
	p := newPlot(l.Title, "target rate (requests/s)", ylabel)
	valueAxis(&p.Y, y.lo, y.hi, log)
	valueAxis(&p.X, x.lo, x.hi, false)
	fg := &figure{p: p}
	label := func(i int) string {
		if l.Series[i].Label == "" {
			return l.Series[i].Server
		}
		return l.Series[i].Label
	}
	styles := newStyler(l.Palette).seriesStyles(len(l.Series), func(i int) string { return l.Series[i].Server }, label)
	black := SeriesStyle{Color: color.RGBA{A: 0xFF}}
	if threshold {
		ls := draw.LineStyle{Color: color.Black, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
		p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
			_, trY := plt.Transforms(&c)
			y := trY(l.ThresholdP95MS)
			c.StrokeLine2(ls, c.Min.X, y, c.Max.X, y)
		}))
		fg.legend = append(fg.legend, legendEntry{name: "p95 threshold " + tickLabel(l.ThresholdP95MS) + " ms", thumbs: []plot.Thumbnailer{lineThumb(ls)}, key: true})
	}
	shown := map[string]bool{}
	for i := range l.Series {
		if name := label(i); !shown[name] {
			shown[name] = true
			fg.legend = append(fg.legend, legendEntry{name: cleanLabel(name), thumbs: []plot.Thumbnailer{lineThumb(lineStyle(styles[i], vg.Points(1.4)))}})
		}
	}
	held := glyphStyle(black, vg.Points(3))
	held.Shape = draw.CircleGlyph{}
	failed := glyphStyle(black, vg.Points(4))
	failed.Shape = boldCross{}
	fg.legend = append(fg.legend,
		legendEntry{name: "step held", thumbs: []plot.Thumbnailer{glyphThumb(held)}, key: true},
		legendEntry{name: "step failed", thumbs: []plot.Thumbnailer{glyphThumb(failed)}, key: true})
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		for si, s := range l.Series {
			st := styles[si]
			pts := make([]vg.Point, len(s.Steps))
			for i, step := range s.Steps {
				pts[i] = vg.Point{X: trX(step.TargetRPS), Y: trY(step.P95MS)}
			}
			c.StrokeLines(lineStyle(st, vg.Points(1.4)), c.ClipLinesXY(pts)...)
			for i, step := range s.Steps {
				g := failed
				if step.Held {
					g = held
				}
				g.Color = st.Color
				c.DrawGlyph(g, pts[i])
			}
		}
	}))
	return fg, nil
}

// boldCross is a cross drawn with a line thick enough to be seen beside
// the filled circles of held steps.
type boldCross struct{}

func (boldCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(1.8)}
	r := sty.Radius
	c.StrokeLine2(ls, pt.X-r, pt.Y-r, pt.X+r, pt.Y+r)
	c.StrokeLine2(ls, pt.X-r, pt.Y+r, pt.X+r, pt.Y-r)
}

// MemoryChart draws memory against the number of waiting requests, one
// colour and point shape per server, each pass as points, and the line
// fitted to the server's points with its slope in the legend.
type MemoryChart struct {
	Title   string
	Series  []MemorySeries
	Palette *Palette // colours by Server
}

// MemorySeries is the memory series of one server over its passes.
type MemorySeries struct {
	Server string
	// Label names the series in the legend where Server alone does not
	// (a server's series on one of two databases); its colour is
	// Server's, a second series of the server told apart by its shape
	// and line.
	Label  string
	Points []MemoryPoint
	// Fit is the fitted line, drawn over the range of the points when
	// set.
	Fit *MemoryFit
}

// MemoryPoint is the memory a server held while Concurrency requests
// waited on it.
type MemoryPoint struct {
	Concurrency float64
	MemoryMB    float64
}

// MemoryFit is a straight line memory = InterceptMB + SlopeMBPerRequest ×
// concurrency.
type MemoryFit struct {
	SlopeMBPerRequest float64
	InterceptMB       float64
}

func (m *MemoryChart) build() (*figure, error) {
	if len(m.Series) == 0 {
		return nil, fmt.Errorf("memory chart %q: no series", m.Title)
	}
	x, y := newExtent(), newExtent()
	for _, s := range m.Series {
		if len(s.Points) == 0 {
			return nil, fmt.Errorf("memory chart %q: %q has no points", m.Title, s.Server)
		}
		for _, pt := range s.Points {
			if !finite(pt.Concurrency) || !finite(pt.MemoryMB) {
				return nil, fmt.Errorf("memory chart %q: %q has point (%v, %v MiB)", m.Title, s.Server, pt.Concurrency, pt.MemoryMB)
			}
			x.add(pt.Concurrency)
			y.add(pt.MemoryMB)
		}
		if f := s.Fit; f != nil && (!finite(f.SlopeMBPerRequest) || !finite(f.InterceptMB)) {
			return nil, fmt.Errorf("memory chart %q: %q has fit slope %v MiB/request, intercept %v MiB", m.Title, s.Server, f.SlopeMBPerRequest, f.InterceptMB)
		}
	}
	for _, s := range m.Series {
		if f := s.Fit; f != nil {
			y.add(f.InterceptMB+f.SlopeMBPerRequest*x.lo, f.InterceptMB+f.SlopeMBPerRequest*x.hi)
		}
	}
	p := newPlot(m.Title, "waiting requests (concurrency)", "memory (MiB)")
	valueAxis(&p.Y, y.lo, y.hi, false)
	valueAxis(&p.X, x.lo, x.hi, false)
	fg := &figure{p: p}
	label := func(i int) string {
		if m.Series[i].Label == "" {
			return m.Series[i].Server
		}
		return m.Series[i].Label
	}
	styles := newStyler(m.Palette).seriesStyles(len(m.Series), func(i int) string { return m.Series[i].Server }, label)
	for i, s := range m.Series {
		st := styles[i]
		gs := glyphStyle(st, vg.Points(3))
		name := cleanLabel(label(i))
		thumbs := []plot.Thumbnailer{glyphThumb(gs)}
		if f := s.Fit; f != nil {
			name += ": " + tickLabel(f.SlopeMBPerRequest*1000) + " MiB per 1000 requests"
			thumbs = append([]plot.Thumbnailer{lineThumb(lineStyle(st, vg.Points(1.4)))}, thumbs...)
		}
		fg.legend = append(fg.legend, legendEntry{name: name, thumbs: thumbs})
	}
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		for i, s := range m.Series {
			st := styles[i]
			if f := s.Fit; f != nil {
				pts := []vg.Point{
					{X: trX(x.lo), Y: trY(f.InterceptMB + f.SlopeMBPerRequest*x.lo)},
					{X: trX(x.hi), Y: trY(f.InterceptMB + f.SlopeMBPerRequest*x.hi)},
				}
				c.StrokeLines(lineStyle(st, vg.Points(1.4)), c.ClipLinesXY(pts)...)
			}
			gs := glyphStyle(st, vg.Points(3))
			for _, pt := range s.Points {
				c.DrawGlyph(gs, vg.Point{X: trX(pt.Concurrency), Y: trY(pt.MemoryMB)})
			}
		}
	}))
	return fg, nil
}

// CostChart draws the monthly cost of each server as a stacked bar: the
// stack (the web server's machines) below, the database above, and the
// total written over the bar.
type CostChart struct {
	Title  string // should name the load, e.g. "Cost per month at 1000 requests/s"
	Stacks []CostStack
}

// CostStack is the cost of one server per month, in US dollars.
type CostStack struct {
	Server   string
	StackUSD float64
	DBUSD    float64
}

// usd formats a dollar amount for a bar label: whole dollars from $100,
// else dollars and cents.
func usd(v float64) string {
	if math.Abs(v) >= 100 {
		return "$" + strconv.FormatFloat(v, 'f', 0, 64)
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

func (cc *CostChart) build() (*figure, error) {
	if len(cc.Stacks) == 0 {
		return nil, fmt.Errorf("cost chart %q: no servers", cc.Title)
	}
	hi := 0.0
	names := make([]string, len(cc.Stacks))
	for i, s := range cc.Stacks {
		if !finite(s.StackUSD) || !finite(s.DBUSD) || s.StackUSD < 0 || s.DBUSD < 0 {
			return nil, fmt.Errorf("cost chart %q: %q costs stack $%v, database $%v", cc.Title, s.Server, s.StackUSD, s.DBUSD)
		}
		hi = math.Max(hi, s.StackUSD+s.DBUSD)
		names[i] = cleanLabel(s.Server)
	}
	lying := len(names) > maxUpright
	p := newBarPlot(cc.Title, "server", "cost (US$ per month)", lying)
	pos, minHeight := categories(p, names, 14)
	// Totals stand over upright bars, or right of lying ones, level;
	// a total wider than its upright bar's slot turns upright too, so
	// that no two overlap. The value axis leaves room for the longest.
	label := textStyle(10, false)
	label.XAlign = draw.XCenter
	slot := (FigureWidth - 70) / vg.Length(len(names))
	longest := vg.Length(0)
	for _, s := range cc.Stacks {
		longest = max(longest, label.Width(usd(s.StackUSD+s.DBUSD)))
	}
	top, valueAx := hi*1.08, &p.Y
	switch {
	case lying:
		label.XAlign, label.YAlign = draw.XLeft, draw.YCenter
		// The data area is about 440 pt wide.
		top, valueAx = hi*(1+float64(longest+6)/400), &p.X
	case longest > slot*0.9:
		label.Rotation = math.Pi / 2
		label.XAlign, label.YAlign = draw.XLeft, draw.YCenter
		// The data area is about 250 pt high.
		top = hi * (1 + float64(longest+6)/220)
	}
	valueAxis(valueAx, 0, top, false)
	stack, db := OkabeIto[3], OkabeIto[0]
	fg := &figure{p: p, minHeight: minHeight, legend: []legendEntry{
		{name: "database", thumbs: []plot.Thumbnailer{boxThumb{db, nil}}},
		{name: "stack", thumbs: []plot.Thumbnailer{boxThumb{stack, nil}}},
	}}
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		at := func(cat, v float64) vg.Point {
			if lying {
				return vg.Point{X: trX(v), Y: trY(cat)}
			}
			return vg.Point{X: trX(cat), Y: trY(v)}
		}
		for i, s := range cc.Stacks {
			mid := pos(i, 0)
			a, b := at(mid-0.3, 0), at(mid+0.3, s.StackUSD)
			c.FillPolygon(stack, rect(a.X, a.Y, b.X, b.Y))
			a, b = at(mid-0.3, s.StackUSD), at(mid+0.3, s.StackUSD+s.DBUSD)
			c.FillPolygon(db, rect(a.X, a.Y, b.X, b.Y))
			end := at(mid, s.StackUSD+s.DBUSD)
			if lying {
				end.X += vg.Points(3)
			} else {
				end.Y += vg.Points(3)
			}
			c.FillText(label, end, usd(s.StackUSD+s.DBUSD))
		}
	}))
	return fg, nil
}
