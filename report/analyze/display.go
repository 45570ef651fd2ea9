package analyze

import (
	"slices"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
)

// display shows the values of labels in the tables as the manifest names
// them ([labels.<key>] names; machines still read the values) and orders
// the rows of a table by its server column as the manifest orders the
// servers, but for rankings, whose order is the ranking.
func (a *analysis) display(res *Result) error {
	disp, err := a.st.LabelDisplay(a.ctx)
	if err != nil || len(disp) == 0 {
		return err
	}
	for _, sec := range res.Sections {
		for _, d := range sec.Tables {
			displayTable(d, disp)
		}
	}
	return nil
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
