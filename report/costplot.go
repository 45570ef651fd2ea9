package report

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// CostCurveChart draws the monthly cost of each stack against the request
// rate, one line per stack with a point at each priced rate. Where the
// rates span two orders of magnitude or more (a log-spaced sweep such as
// 100..10000) the rate axis is logarithmic, and so is the cost axis where
// the costs span more than two.
type CostCurveChart struct {
	Title   string // should name the prices and the utilisation
	Curves  []CostCurve
	Palette *Palette // colours by Name
}

// CostCurve is the monthly cost of one stack at a series of rates.
type CostCurve struct {
	Name   string
	Points []CostPoint
}

// CostPoint is the cost in US dollars a month at a rate in requests per
// second.
type CostPoint struct {
	RPS      float64
	USDMonth float64
}

func (cc *CostCurveChart) build() (*figure, error) {
	if len(cc.Curves) == 0 {
		return nil, fmt.Errorf("cost curve chart %q: no stacks", cc.Title)
	}
	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, c := range cc.Curves {
		if len(c.Points) == 0 {
			return nil, fmt.Errorf("cost curve chart %q: %q has no points", cc.Title, c.Name)
		}
		for _, pt := range c.Points {
			if !finite(pt.RPS) || !finite(pt.USDMonth) || pt.RPS < 0 || pt.USDMonth < 0 {
				return nil, fmt.Errorf("cost curve chart %q: %q has point (%v requests/s, $%v a month)", cc.Title, c.Name, pt.RPS, pt.USDMonth)
			}
			xlo, xhi = math.Min(xlo, pt.RPS), math.Max(xhi, pt.RPS)
			ylo, yhi = math.Min(ylo, pt.USDMonth), math.Max(yhi, pt.USDMonth)
		}
	}
	p := newPlot(cc.Title, "request rate (requests/s)", "cost (US$ per month)")
	if xlo > 0 && xhi/xlo >= 100 {
		p.X.Scale = plot.LogScale{}
		p.X.Min = math.Pow(10, math.Floor(math.Log10(xlo)))
		p.X.Max = math.Pow(10, math.Ceil(math.Log10(xhi)))
		p.X.Tick.Marker = plot.TickerFunc(logTicks)
		valueAxis(&p.Y, ylo, yhi, wideRange(ylo, yhi))
	} else {
		p.X.Min = math.Min(0, xlo)
		p.X.Max = xhi + (xhi-p.X.Min)*0.05
		if p.X.Max <= p.X.Min {
			p.X.Max = p.X.Min + 1
		}
		p.X.Tick.Marker = plot.TickerFunc(linearTicks)
		valueAxis(&p.Y, ylo, yhi, false)
	}
	fg := &figure{p: p}
	sty := newStyler(cc.Palette)
	styles, radii := make([]SeriesStyle, len(cc.Curves)), make([]vg.Length, len(cc.Curves))
	for i, c := range cc.Curves {
		styles[i], radii[i] = sty.style(c.Name), vg.Points(3.5)
		// A curve on the points of earlier ones (stacks that cost the
		// same at every rate) is dashed, each in a pattern of its own,
		// with smaller points, so that the lines under it show through
		// its gaps and their points around its points.
		if k := coincident(cc.Curves[:i], c); k > 0 {
			styles[i].Dashes = dashes[1+(k-1)%(len(dashes)-1)]
			radii[i] = max(vg.Points(1.5), vg.Points(3.5)-vg.Points(0.8)*vg.Length(k))
		}
		fg.legend = append(fg.legend, legendEntry{name: cleanLabel(c.Name), thumbs: []plot.Thumbnailer{
			lineThumb(lineStyle(styles[i], vg.Points(1.4))), glyphThumb(glyphStyle(styles[i], radii[i])),
		}})
	}
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		pts := make([][]vg.Point, len(cc.Curves))
		for k, cv := range cc.Curves {
			for _, pt := range cv.Points {
				pts[k] = append(pts[k], vg.Point{X: trX(pt.RPS), Y: trY(pt.USDMonth)})
			}
			if len(pts[k]) > 1 {
				c.StrokeLines(lineStyle(styles[k], vg.Points(1.4)), c.ClipLinesXY(pts[k])...)
			}
		}
		// Points over every line, so that no line hides a point.
		for k := range cc.Curves {
			gs := glyphStyle(styles[k], radii[k])
			for _, pt := range pts[k] {
				if c.Contains(pt) {
					c.DrawGlyph(gs, pt)
				}
			}
		}
	}))
	return fg, nil
}

// coincident counts the curves of earlier that have the same points as
// c (within a part in a million): how many lines c is drawn over.
func coincident(earlier []CostCurve, c CostCurve) int {
	n := 0
	for _, e := range earlier {
		if slices.EqualFunc(e.Points, c.Points, func(a, b CostPoint) bool {
			return a.RPS == b.RPS && math.Abs(a.USDMonth-b.USDMonth) <= 1e-6*math.Max(math.Abs(a.USDMonth), math.Abs(b.USDMonth))
		}) {
			n++
		}
	}
	return n
}
