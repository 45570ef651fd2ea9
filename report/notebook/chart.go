package notebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/wra-bench/wra/model/layout"
	"github.com/wra-bench/wra/report"
)

// Plot is a block's chart, rendered.
type Plot struct {
	Title string
	SVG   []byte // a standalone SVG document
	// Notes say which rows the plot leaves out (a NULL x or y).
	Notes []string
}

// newPlot draws a block's chart from its rows.
//
// chart=bar draws one bar per distinct x (and series) at the median of
// the rows that share it, with every row as a dot and a whisker from the
// smallest to the largest, as the report's other bar charts do: rows of
// passes of one setting show their spread. chart=line draws, per series,
// every row as a point and a line through the median y at each x, with x
// on a linear axis.
func newPlot(c *Chart, d *report.Data) (*Plot, error) {
	xi, err := column(d, c.X)
	if err != nil {
		return nil, err
	}
	yi, err := column(d, c.Y)
	if err != nil {
		return nil, err
	}
	si := -1
	if c.Series != "" {
		if si, err = column(d, c.Series); err != nil {
			return nil, err
		}
	}
	title := c.Title
	if title == "" {
		title = c.Y + " by " + c.X
		if c.Series != "" {
			title += " and " + c.Series
		}
	}
	p := &Plot{Title: title}
	var nulls int
	switch c.Kind {
	case "bar":
		var groups []report.BarGroup
		index := map[[2]string]int{}
		for ri, r := range d.Rows {
			y, null, err := number(r[yi])
			if err != nil {
				return nil, fmt.Errorf("row %d: y=%s: %w", ri+1, c.Y, err)
			}
			if null || r[xi] == nil {
				nulls++
				continue
			}
			key := [2]string{report.Exact(r[xi]), ""}
			if si >= 0 {
				key[1] = report.Exact(r[si])
			}
			i, ok := index[key]
			if !ok {
				i = len(groups)
				index[key] = i
				groups = append(groups, report.BarGroup{Label: key[0], Series: key[1]})
			}
			groups[i].Values = append(groups[i].Values, y)
		}
		if len(groups) == 0 {
			return nil, fmt.Errorf("no rows to plot")
		}
		for i := range groups {
			// the bar of a notebook's chart is the median of its query's rows
			groups[i].Median = layout.FigureOf(groups[i].Values).Median
		}
		p.SVG, err = report.SVG(&report.BarChart{Title: title, XLabel: c.X, YLabel: c.Y, Groups: groups})
		if err != nil {
			return nil, err
		}
	case "line":
		var series []lineSeries
		index := map[string]int{}
		for ri, r := range d.Rows {
			x, xnull, err := number(r[xi])
			if err != nil {
				return nil, fmt.Errorf("row %d: x=%s: %w", ri+1, c.X, err)
			}
			y, ynull, err := number(r[yi])
			if err != nil {
				return nil, fmt.Errorf("row %d: y=%s: %w", ri+1, c.Y, err)
			}
			if xnull || ynull {
				nulls++
				continue
			}
			name := ""
			if si >= 0 {
				name = report.Exact(r[si])
			}
			i, ok := index[name]
			if !ok {
				i = len(series)
				index[name] = i
				series = append(series, lineSeries{name: name})
			}
			series[i].xy = append(series[i].xy, [2]float64{x, y})
		}
		if len(series) == 0 {
			return nil, fmt.Errorf("no rows to plot")
		}
		p.SVG, err = lineSVG(title, c.X, c.Y, series)
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown chart kind %q", c.Kind)
	}
	if nulls > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("The plot leaves out %d of %d rows, whose %s or %s is NULL.", nulls, len(d.Rows), c.X, c.Y))
	}
	return p, nil
}

func column(d *report.Data, name string) (int, error) {
	names := make([]string, len(d.Columns))
	for i, c := range d.Columns {
		if c.Name == name {
			return i, nil
		}
		names[i] = c.Name
	}
	return -1, fmt.Errorf("the result has no column %q (it has %s)", name, strings.Join(names, ", "))
}

// number reads a plotted value: a finite number, or NULL.
func number(v any) (x float64, null bool, err error) {
	if c, ok := v.(report.Cell); ok {
		v = c.Value
	}
	switch n := v.(type) {
	case nil:
		return 0, true, nil
	case int:
		x = float64(n)
	case int64:
		x = float64(n)
	case float64:
		x = n
	case float32:
		x = float64(n)
	case json.Number:
		if x, err = strconv.ParseFloat(string(n), 64); err != nil {
			return 0, false, err
		}
	case time.Time:
		return 0, false, fmt.Errorf("a time (%s); plot a number, e.g. epoch(ts)", report.Exact(n))
	default:
		return 0, false, fmt.Errorf("%q is not a number", report.Exact(v))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false, fmt.Errorf("%v cannot be plotted", x)
	}
	return x, false, nil
}

// shortTicks are gonum's default ticks labelled with at most six
// significant figures and no trailing zeros.
func shortTicks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ts {
		if t.Label != "" {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(t.Value, 'g', 6, 64), 64)
			ts[i].Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ts
}

type lineSeries struct {
	name string
	xy   [][2]float64
}

// medians returns the distinct x of the series in ascending order and the
// median y at each (layout.MediansByX).
func (s lineSeries) medians() (xs, ys []float64) { return layout.MediansByX(s.xy) }

// lineSVG draws line series in the report's size, fonts and palette.
func lineSVG(title, xLabel, yLabel string, series []lineSeries) ([]byte, error) {
	p := plot.New()
	sans := func(size vg.Length, bold bool) text.Style {
		f := font.Font{Typeface: "Liberation", Variant: "Sans"}
		if bold {
			f.Weight = xfont.WeightBold
		}
		return text.Style{Color: color.Black, Font: font.From(f, size), Handler: plot.DefaultTextHandler}
	}
	p.Title.Text = title
	p.Title.TextStyle = sans(13, true)
	p.Title.TextStyle.XAlign = draw.XCenter
	p.Title.TextStyle.YAlign = draw.YTop
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = sans(11, false)
		a.Label.TextStyle.XAlign = draw.XCenter
		a.Tick.Label = sans(10, false)
		a.Label.Padding = vg.Points(4)
	}
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XCenter, draw.YTop
	p.Y.Tick.Label.XAlign, p.Y.Tick.Label.YAlign = draw.XRight, draw.YCenter
	legend := plot.NewLegend()
	legend.TextStyle = sans(10, false)
	legend.Left, legend.Top = true, true
	legend.ThumbnailWidth = vg.Points(22)
	legend.Padding = vg.Points(3)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Marker = plot.TickerFunc(shortTicks)
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal.Color = color.Gray{Y: 0xDD}
	p.Add(grid)
	palette := report.NewPalette()
	ylo := 0.0
	for _, s := range series {
		st := palette.Style(s.name)
		pts := make(plotter.XYs, len(s.xy))
		for i, xy := range s.xy {
			pts[i] = plotter.XY{X: xy[0], Y: xy[1]}
			ylo = math.Min(ylo, xy[1])
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: vg.Points(2.5), Shape: st.Glyph}
		xs, ys := s.medians()
		mid := make(plotter.XYs, len(xs))
		for i := range xs {
			mid[i] = plotter.XY{X: xs[i], Y: ys[i]}
		}
		ln, err := plotter.NewLine(mid)
		if err != nil {
			return nil, err
		}
		ln.LineStyle = draw.LineStyle{Color: st.Color, Width: vg.Points(1.4), Dashes: st.Dashes}
		p.Add(ln, sc)
		if s.name != "" {
			legend.Add(s.name, ln, sc)
		}
	}
	// Values are read from zero, as on the bar charts.
	p.Y.Min = ylo
	if p.Y.Max <= p.Y.Min {
		p.Y.Max = p.Y.Min + 1
	}
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.05
	c := vgsvg.NewWith(vgsvg.UseWH(report.FigureWidth, report.FigureHeight))
	dc := draw.New(c)
	dc.FillPolygon(color.White, []vg.Point{{X: dc.Min.X, Y: dc.Min.Y}, {X: dc.Min.X, Y: dc.Max.Y}, {X: dc.Max.X, Y: dc.Max.Y}, {X: dc.Max.X, Y: dc.Min.Y}})
	p.BackgroundColor = nil
	// A legend stands right of the plot, below the title.
	const gap = vg.Length(8)
	if width := legend.Rectangle(dc).Size().X + 2*gap; len(series) > 1 || series[0].name != "" {
		p.Draw(draw.Crop(dc, 0, -width, 0, 0))
		top := p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
		legend.Draw(draw.Crop(dc, dc.Size().X-width+gap, -gap, 0, -top-gap))
	} else {
		p.Draw(dc)
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	// The fonts gonum measured with, then ones of the same metrics (see
	// report.SVG).
	return bytes.ReplaceAll(b.Bytes(), []byte("font-family:Liberation Sans;"), []byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;")), nil
}
