package analyze

import (
	"slices"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
)

// displayFigure shows the servers of a figure as the manifest names
// them: the categories of a bar chart, and the series of the other plots
// with the legend entries that start with the server ("go: one, wrk2,
// …"); where the manifest orders the servers, categories and series
// follow its order. A series' colour follows its server's name, so the
// report's palette is made of the names (analysisPalette).
func displayFigure(fig report.Figure, disp model.Display) {
	switch c := fig.(type) {
	case *report.BarChart:
		orderByServer(c.Groups, disp, func(g report.BarGroup) string { return g.Label })
		for i := range c.Groups {
			c.Groups[i].Label = disp.Name("server", c.Groups[i].Label)
		}
	case *report.LadderChart:
		nameSeries(c.Series, disp, func(s *report.LadderSeries) (*string, *string) { return &s.Server, &s.Label })
	case *report.RateChart:
		nameSeries(c.Series, disp, func(s *report.RateSeries) (*string, *string) { return &s.Server, &s.Label })
	case *report.SpectrumChart:
		nameSeries(c.Spectra, disp, func(s *report.Spectrum) (*string, *string) { return &s.Server, &s.Label })
	case *report.MemoryChart:
		nameSeries(c.Series, disp, func(s *report.MemorySeries) (*string, *string) { return &s.Server, nil })
	}
}

// nameSeries orders the series of a plot by their server (orderByServer)
// and names each one's server, and the server at the start of its legend
// entry ("go: one, wrk2, …"; label nil for none), as the manifest does.
func nameSeries[T any](xs []T, disp model.Display, fields func(*T) (server, label *string)) {
	orderByServer(xs, disp, func(x T) string { s, _ := fields(&x); return *s })
	for i := range xs {
		server, label := fields(&xs[i])
		name := disp.Name("server", *server)
		if p := analysis.ServerName(*server) + ": "; label != nil && strings.HasPrefix(*label, p) {
			*label = analysis.ServerName(name) + ": " + (*label)[len(p):]
		}
		*server = name
	}
}

// orderByServer orders xs stably by their server as the manifest orders
// the servers; as they are where it gives them no order.
func orderByServer[T any](xs []T, disp model.Display, server func(T) string) {
	if disp.Ordered("server") {
		slices.SortStableFunc(xs, func(x, y T) int { return disp.Compare("server", server(x), server(y)) })
	}
}

// analysisPalette is the palette of every plot of the report: one colour
// per server, given to the servers' display names in the manifest's
// order of the servers (else the order given).
func analysisPalette(servers []string, disp model.Display) *report.Palette {
	servers = slices.Clone(servers)
	orderByServer(servers, disp, func(s string) string { return s })
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = disp.Name("server", s)
	}
	return report.NewPalette(names...)
}

// displayTable shows the values of labels in a table as the manifest
// names them ([labels.<key>] names; machines still read the values).
func displayTable(d *report.Data, disp model.Display) {
	for c, col := range d.Columns {
		if _, ok := disp[col.Name]; !ok {
			continue
		}
		for _, row := range d.Rows {
			row[c] = named(disp, col.Name, row[c])
		}
	}
}

// named is a label's value with its display name as the text people read.
func named(disp model.Display, key string, v any) any {
	cell, isCell := v.(report.Cell)
	if !isCell {
		cell = report.Cell{Value: v}
	}
	s, ok := cell.Value.(string)
	if !ok || disp.Name(key, s) == s {
		return v
	}
	cell.Text = disp.Name(key, s)
	return cell
}
