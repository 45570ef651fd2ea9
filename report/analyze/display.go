package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
)

// display shows the values of labels in the tables as the manifest names
// them ([labels.<key>] names; machines still read the values) and orders
// the rows of a table by its server column as the manifest orders the
// servers, but for rankings, whose order is the ranking; and names the
// servers of the figures so too (displayFigure).
func (a *analysis) display(res *Result) {
	if len(a.disp) == 0 {
		return
	}
	for _, sec := range res.Sections {
		for _, d := range sec.Tables {
			displayTable(d, a.disp)
		}
		for _, f := range sec.Figures {
			displayFigure(f.Figure, a.disp)
		}
	}
}

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
		if p := serverName(*server) + ": "; label != nil && strings.HasPrefix(*label, p) {
			*label = serverName(name) + ": " + (*label)[len(p):]
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

func displayTable(d *report.Data, disp model.Display) {
	ranked := false
	for c, col := range d.Columns {
		ranked = ranked || col.Name == "rank"
		if _, ok := disp[col.Name]; !ok {
			continue
		}
		for _, row := range d.Rows {
			row[c] = named(disp, col.Name, row[c])
		}
	}
	c := slices.IndexFunc(d.Columns, func(col report.Column) bool { return col.Name == "server" })
	if ranked || c < 0 || !disp.Ordered("server") {
		return
	}
	order := make([]int, len(d.Rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		return disp.Compare("server", report.Exact(d.Rows[x][c]), report.Exact(d.Rows[y][c]))
	})
	rows := make([][]any, len(order))
	var srcs [][]report.Source
	for j, i := range order {
		rows[j] = d.Rows[i]
		if i < len(d.RowSources) {
			srcs = append(srcs, d.RowSources[i])
		}
	}
	d.Rows = rows
	if len(d.RowSources) == len(order) {
		d.RowSources = srcs
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

// orderByFirstLoad orders the servers of a rounds table, when the
// manifest gives them no order, by the median goodput of each one's
// first row (its lowest load: bestRow.order), highest first, a server
// whose every request failed last, keeping each server's rows
// together and in their order; marks moves with its rows. The footnote
// says so.
func (a *analysis) orderByFirstLoad(d *report.Data, n *notes, marks []bestRow) {
	if a.disp.Ordered("server") || len(d.Rows) < 2 {
		return
	}
	sc := slices.IndexFunc(d.Columns, func(c report.Column) bool { return c.Name == "server" })
	first := map[string]float64{}
	var servers []string
	for i, row := range d.Rows {
		s := report.Exact(row[sc])
		if _, ok := first[s]; !ok {
			servers = append(servers, s)
			first[s] = marks[i].order
		}
	}
	if len(servers) < 2 {
		return
	}
	slices.SortStableFunc(servers, func(x, y string) int { return cmp.Compare(first[y], first[x]) })
	rank := map[string]int{}
	for i, s := range servers {
		rank[s] = i
	}
	order := make([]int, len(d.Rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		return rank[report.Exact(d.Rows[x][sc])] - rank[report.Exact(d.Rows[y][sc])]
	})
	rows, srcs, ms := make([][]any, len(order)), make([][]report.Source, len(order)), make([]bestRow, len(order))
	for j, i := range order {
		rows[j], srcs[j], ms[j] = d.Rows[i], d.RowSources[i], marks[i]
	}
	d.Rows, d.RowSources = rows, srcs
	copy(marks, ms)
	n.add("servers in order of their median requests/s at their first load, highest first; [labels.server] order = [...] in wra.toml sets another")
}

// cellValue is a table value without its mark and text.
func cellValue(v any) any {
	if c, ok := v.(report.Cell); ok {
		return c.Value
	}
	return v
}

// orderByKey orders a table's rows, when the manifest gives the servers
// no order, by a figure of each row (keys, one per row), best first (the
// highest when higherFirst), keeping the order of equal ones and putting
// a row without the figure last; ties, where given (one per row), breaks
// equal keys, true first. Rows of one value of the column within (a test,
// say; "" for none) stay together, in the order the values come. what
// names the figure in the footnote.
func (a *analysis) orderByKey(d *report.Data, n *notes, keys []float64, ties []bool, higherFirst bool, within, what string) {
	if a.disp.Ordered("server") || len(d.Rows) < 2 || len(keys) != len(d.Rows) || ties != nil && len(ties) != len(d.Rows) {
		return
	}
	group := make([]int, len(d.Rows))
	if c := slices.IndexFunc(d.Columns, func(col report.Column) bool { return col.Name == within }); c >= 0 {
		seen := map[string]int{}
		for i, row := range d.Rows {
			v := report.Exact(row[c])
			if _, ok := seen[v]; !ok {
				seen[v] = len(seen)
			}
			group[i] = seen[v]
		}
	}
	order := make([]int, len(d.Rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		if c := cmp.Compare(group[x], group[y]); c != 0 {
			return c
		}
		kx, ky := keys[x], keys[y]
		switch {
		case math.IsNaN(kx) || math.IsNaN(ky):
			return cmp.Compare(b2i(math.IsNaN(kx)), b2i(math.IsNaN(ky)))
		case kx != ky && higherFirst:
			return cmp.Compare(ky, kx)
		case kx != ky:
			return cmp.Compare(kx, ky)
		case ties != nil:
			return cmp.Compare(b2i(ties[y]), b2i(ties[x]))
		}
		return 0
	})
	rows := make([][]any, len(order))
	var srcs [][]report.Source
	for j, i := range order {
		rows[j] = d.Rows[i]
		if len(d.RowSources) == len(d.Rows) {
			srcs = append(srcs, d.RowSources[i])
		}
	}
	d.Rows = rows
	if srcs != nil {
		d.RowSources = srcs
	}
	best := "lowest first"
	if higherFirst {
		best = "highest first"
	}
	n.add(fmt.Sprintf("rows in order of their %s, %s; [labels.server] order = [...] in wra.toml sets another", what, best))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
