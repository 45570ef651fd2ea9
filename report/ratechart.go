package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// RateChart draws fixed-rate runs as the requests/s they achieved against
// the rate they were asked for: every run a dot, a line through the
// median achieved at each target, and the diagonal achieved = target, on
// which a run that kept up lies. A series below the diagonal fell behind.
type RateChart struct {
	Title   string
	Series  []RateSeries
	Palette *Palette // colours by Server
}

// RateSeries is the fixed-rate runs of one server (and tool).
type RateSeries struct {
	Server   string // colours the series
	Database string // the runs' database, "" where they name none
	Label    string // legend entry, e.g. "go1: one, wrk2, fixed rate"
	Points   []RatePoint
	// Medians are the line through the runs: at each target, in order,
	// the median achieved rate, as the caller's figures define it.
	Medians []RatePoint
}

// RatePoint is one run: its target and achieved requests/s.
type RatePoint struct {
	TargetRPS, AchievedRPS float64
}

func (r *RateChart) build() (*figure, error) {
	if len(r.Series) == 0 {
		return nil, fmt.Errorf("rate chart %q: no series", r.Title)
	}
	e := newExtent()
	for _, s := range r.Series {
		if len(s.Points) == 0 {
			return nil, fmt.Errorf("rate chart %q: %q has no runs", r.Title, s.Label)
		}
		for _, pt := range s.Points {
			if !finite(pt.TargetRPS) || !finite(pt.AchievedRPS) || pt.TargetRPS < 0 || pt.AchievedRPS < 0 {
				return nil, fmt.Errorf("rate chart %q: %q has a run at target %v requests/s achieving %v", r.Title, s.Label, pt.TargetRPS, pt.AchievedRPS)
			}
			e.add(pt.TargetRPS, pt.AchievedRPS)
		}
	}
	// One scale on both axes, from 0, so the diagonal is at 45°.
	lo, hi := 0.0, e.hi
	p := newPlot(r.Title, "target rate (requests/s)", "achieved (requests/s)")
	valueAxis(&p.X, lo, hi, false)
	valueAxis(&p.Y, lo, hi, false)
	fg := &figure{p: p}
	diag := draw.LineStyle{Color: OkabeIto[len(OkabeIto)-1], Width: vg.Points(1), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
	fg.legend = append(fg.legend, legendEntry{name: "achieved = target", thumbs: []plot.Thumbnailer{lineThumb(diag)}, key: true})
	sty := newStyler(r.Palette)
	// A server's second series (another tool) keeps its colour with a
	// dashed line and a hollow shape.
	styles := sty.seriesStyles(len(r.Series), func(i int) string { return r.Series[i].Server }, func(i int) string { return r.Series[i].Label })
	for i, s := range r.Series {
		st := styles[i]
		fg.legend = append(fg.legend, legendEntry{name: cleanLabel(s.Label), thumbs: []plot.Thumbnailer{lineThumb(lineStyle(st, vg.Points(1.4))), glyphThumb(glyphStyle(st, vg.Points(3)))}})
	}
	p.Add(plotFunc(func(c draw.Canvas, plt *plot.Plot) {
		trX, trY := plt.Transforms(&c)
		x0, x1 := p.X.Min, p.X.Max
		c.StrokeLines(diag, c.ClipLinesXY([]vg.Point{{X: trX(x0), Y: trY(x0)}, {X: trX(x1), Y: trY(x1)}})...)
		for i, s := range r.Series {
			st := styles[i]
			var line []vg.Point
			for _, t := range s.Medians {
				line = append(line, vg.Point{X: trX(t.TargetRPS), Y: trY(t.AchievedRPS)})
			}
			c.StrokeLines(lineStyle(st, vg.Points(1.4)), c.ClipLinesXY(line)...)
			gs := glyphStyle(st, vg.Points(3))
			for _, pt := range s.Points {
				c.DrawGlyph(gs, vg.Point{X: trX(pt.TargetRPS), Y: trY(pt.AchievedRPS)})
			}
		}
	}))
	return fg, nil
}

// hollow are the shapes of a server's further series.
var hollow = []draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}
