package report

import (
	"fmt"
	"math"

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
	for _, c := range cc.Curves {
		st := sty.style(c.Name)
		fg.legend = append(fg.legend, legendEntry{cleanLabel(c.Name), []plot.Thumbnailer{
			lineThumb(lineStyle(st, vg.Points(1.4))), glyphThumb(glyphStyle(st, vg.Points(2.5))),
		}})
	}
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		for _, cv := range cc.Curves {
			st := sty.style(cv.Name)
			pts := make([]vg.Point, len(cv.Points))
			for i, pt := range cv.Points {
				pts[i] = vg.Point{X: trX(pt.RPS), Y: trY(pt.USDMonth)}
			}
			if len(pts) > 1 {
				c.StrokeLines(lineStyle(st, vg.Points(1.4)), c.ClipLinesXY(pts)...)
			}
			gs := glyphStyle(st, vg.Points(2.5))
			for _, pt := range pts {
				if c.Contains(pt) {
					c.DrawGlyph(gs, pt)
				}
			}
		}
	}))
	return fg, nil
}
