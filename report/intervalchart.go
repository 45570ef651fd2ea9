package report

import (
	"errors"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// IntervalChart is a compact chart of one comparison: a row per
// contender, the first on top, each a point at its figure with its
// interval as a whisker, the leader and those tied with it marked. It is
// IntervalWidth wide and grows by IntervalRowHeight a row.
type IntervalChart struct {
	Title, XLabel string
	Rows          []IntervalRow
	// Reference, where above 0, is drawn as a dashed vertical line: 1
	// on an axis of ratios to the leader.
	Reference float64
	// FromZero starts the axis at zero (figures, not ratios).
	FromZero bool
}

// IntervalRow is one contender: X its figure, Lo and Hi its interval
// (NaN for none), Mark how it stands against the leader.
type IntervalRow struct {
	Label     string
	X, Lo, Hi float64
	Mark      Standing
}

// Standing is how a contender stands in a comparison.
type Standing int

const (
	Behind Standing = iota // behind the leader, beyond the noise
	Leader                 // the leader
	Tied                   // tied with the leader
)

// Size of an IntervalChart: its width, the height of each row and of
// its title, axis and legend.
const (
	IntervalWidth     = 5.2 * vg.Inch
	IntervalRowHeight = vg.Length(20)
	intervalMargin    = vg.Length(96)
)

var standingStyle = map[Standing]struct {
	name  string
	color color.RGBA
	glyph draw.GlyphDrawer
}{
	Leader: {"leader", OkabeIto[3], draw.CircleGlyph{}},
	Tied:   {"tied with the leader", OkabeIto[1], draw.CircleGlyph{}},
	Behind: {"behind the leader", color.RGBA{0x88, 0x88, 0x88, 0xFF}, draw.RingGlyph{}},
}

func (ic *IntervalChart) build() (*figure, error) {
	if len(ic.Rows) == 0 {
		return nil, errors.New("interval chart: no rows")
	}
	p := newPlot(ic.Title, ic.XLabel, "")
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.Y.Label.Text = ""
	n := len(ic.Rows)
	names := make([]string, n)
	for i, r := range ic.Rows {
		names[n-1-i] = cleanLabel(r.Label)
	}
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	e := newExtent()
	for _, r := range ic.Rows {
		for _, v := range []float64{r.X, r.Lo, r.Hi} {
			if finite(v) {
				e.add(v)
			}
		}
	}
	if ic.Reference > 0 && finite(ic.Reference) {
		e.add(ic.Reference)
	}
	if e.lo > e.hi {
		return nil, errors.New("interval chart: no finite figure")
	}
	if ic.FromZero {
		valueAxis(&p.X, e.lo, e.hi, false)
	} else {
		pad := (e.hi - e.lo) * 0.08
		if pad == 0 {
			pad = math.Max(math.Abs(e.hi)*0.05, 0.05)
		}
		p.X.Min, p.X.Max = e.lo-pad, e.hi+pad
		p.X.Tick.Marker = plot.TickerFunc(linearTicks)
	}
	rows, ref := ic.Rows, ic.Reference
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		if ref > 0 && finite(ref) {
			x := trX(ref)
			c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 0x66}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}, x, c.Min.Y, x, c.Max.Y)
		}
		for i, r := range rows {
			y := trY(float64(n - 1 - i))
			st := standingStyle[r.Mark]
			if finite(r.Lo) && finite(r.Hi) {
				ls := draw.LineStyle{Color: st.color, Width: vg.Points(1.6)}
				c.StrokeLine2(ls, trX(r.Lo), y, trX(r.Hi), y)
				for _, v := range []float64{r.Lo, r.Hi} {
					c.StrokeLine2(ls, trX(v), y-vg.Points(3), trX(v), y+vg.Points(3))
				}
			}
			if finite(r.X) {
				c.DrawGlyph(draw.GlyphStyle{Color: st.color, Radius: vg.Points(3.6), Shape: st.glyph}, vg.Point{X: trX(r.X), Y: y})
			}
		}
	}))
	var legend []legendEntry
	for _, m := range []Standing{Leader, Tied, Behind} {
		if slices.ContainsFunc(rows, func(r IntervalRow) bool { return r.Mark == m }) {
			st := standingStyle[m]
			legend = append(legend, legendEntry{name: st.name, key: true,
				thumbs: []plot.Thumbnailer{glyphThumb{Color: st.color, Radius: vg.Points(3.6), Shape: st.glyph}}})
		}
	}
	return &figure{p: p, legend: legend, width: IntervalWidth, height: vg.Length(n)*IntervalRowHeight + intervalMargin}, nil
}
