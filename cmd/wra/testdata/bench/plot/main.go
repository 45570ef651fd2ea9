// Command plot draws the results of scaling.sh: the CPU time (user +
// system) of wra analyze against the number of files, one line per phase
// through the median of its runs, on logarithmic axes, with a dotted line
// proportional to the number of files through the first cold run: a
// phase that grows linearly runs parallel to it.
//
//	go run ./cmd/wra/testdata/bench/plot RESULTS.csv OUT.svg
package main

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"os"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/wra-bench/wra/report"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
}

// phases are drawn in this order, with the report's first colours.
var phases = []string{"cold", "warm", "unchanged"}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: plot RESULTS.csv OUT.svg")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return err
	}
	if len(rows) < 2 {
		return fmt.Errorf("%s: no results", args[0])
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	// runs[phase][files] are the CPU seconds of each run.
	runs := map[string]map[float64][]float64{}
	for n, r := range rows[1:] {
		files, err0 := strconv.ParseFloat(r[col["files"]], 64)
		user, err1 := strconv.ParseFloat(r[col["user_s"]], 64)
		sys, err2 := strconv.ParseFloat(r[col["sys_s"]], 64)
		if err0 != nil || err1 != nil || err2 != nil {
			return fmt.Errorf("%s:%d: files, user_s and sys_s must be numbers", args[0], n+2)
		}
		ph := r[col["phase"]]
		if !slices.Contains(phases, ph) {
			return fmt.Errorf("%s:%d: phase %q: want cold, warm or unchanged", args[0], n+2, ph)
		}
		if runs[ph] == nil {
			runs[ph] = map[float64][]float64{}
		}
		runs[ph][files] = append(runs[ph][files], user+sys)
	}
	p := plot.New()
	p.Title.Text = "wra analyze: CPU time against corpus size"
	p.X.Label.Text = "files (copies of data/)"
	p.Y.Label.Text = "CPU time, user + system (s)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(30), -vg.Points(14)
	pal := report.NewPalette(phases...)
	for _, ph := range phases {
		var xy plotter.XYs
		for files, v := range runs[ph] {
			xy = append(xy, plotter.XY{X: files, Y: report.Median(v)})
		}
		if len(xy) == 0 {
			continue
		}
		slices.SortFunc(xy, func(a, b plotter.XY) int { return int(a.X - b.X) })
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		st := pal.Style(ph)
		l.Color, s.Color, s.Shape = st.Color, st.Color, st.Glyph
		l.Width = vg.Points(1.5)
		p.Add(l, s)
		p.Legend.Add(ph, l, s)
		if ph == "cold" {
			// Proportional to the files, through the smallest cold run.
			last := xy[len(xy)-1].X
			ref, err := plotter.NewLine(plotter.XYs{xy[0], {X: last, Y: xy[0].Y * last / xy[0].X}})
			if err != nil {
				return err
			}
			ref.Color = color.Gray{Y: 120}
			ref.Dashes = []vg.Length{vg.Points(2), vg.Points(3)}
			p.Add(ref)
			p.Legend.Add("proportional to files", ref)
		}
	}
	p.Add(plotter.NewGrid())
	w, err := p.WriterTo(7*vg.Inch, 4.5*vg.Inch, "svg")
	if err != nil {
		return err
	}
	out, err := os.Create(args[1])
	if err != nil {
		return err
	}
	if _, err := w.WriteTo(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
