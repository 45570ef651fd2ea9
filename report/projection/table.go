package projection

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model/layout"
	"github.com/wra-bench/wra/report"
)

// axis is the distinct values of some keys, in order.
type axis struct {
	texts []string         // grouping text of each value tuple
	vals  map[string][]any // the values behind a text
}

func (p *projector) axis(runs []run, keys []string) axis {
	a := axis{vals: map[string][]any{}}
	for _, r := range runs {
		var vals []any
		var b strings.Builder
		for _, k := range keys {
			v := p.value(r, k)
			vals = append(vals, v)
			b.WriteString(keyText(v))
			b.WriteByte(0)
		}
		t := b.String()
		if _, ok := a.vals[t]; !ok {
			a.texts = append(a.texts, t)
			a.vals[t] = vals
		}
	}
	slices.SortStableFunc(a.texts, func(x, y string) int {
		for i, k := range keys {
			if c := cmp.Or(p.display.Compare(k, keyText(a.vals[x][i]), keyText(a.vals[y][i])), compareValues(a.vals[x][i], a.vals[y][i])); c != 0 {
				return c
			}
		}
		return 0
	})
	return a
}

// named is a key's value for people: its display name from the manifest
// beside the value machines read.
func (p *projector) named(k string, v any) any {
	if v == nil {
		return nil
	}
	if name := p.display.Name(k, keyText(v)); name != keyText(v) {
		return report.Cell{Value: v, Text: name}
	}
	return v
}

func (p *projector) keyOf(r run, keys []string) string {
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(keyText(p.value(r, k)))
		b.WriteByte(0)
	}
	return b.String()
}

// figure is one metric of one cell: its values in the cell's runs, as
// layout.FigureOf computes it.
func (p *projector) figure(runs []run, m string) layout.Figure {
	return layout.FigureOf(p.values(runs, m))
}

func human(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return report.Sig3(x)
}

func value(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

func sig(v any) string {
	if x, ok := number(v); ok {
		return report.Sig3(x)
	}
	return report.Exact(v)
}

// table lays out the runs of one part of the split.
func (p *projector) table(runs []run, split []string) *report.Data {
	spec := p.spec
	rows, cols := p.axis(runs, spec.Rows), p.axis(runs, spec.Cols)
	cells := map[string][]run{}
	for _, r := range runs {
		k := p.keyOf(r, spec.Rows) + "\x01" + p.keyOf(r, spec.Cols)
		cells[k] = append(cells[k], r)
	}
	d := &report.Data{Title: p.title(runs, split)}
	for _, k := range spec.Rows {
		d.Columns = append(d.Columns, report.Column{Name: k, Title: p.display.Heading(k)})
	}
	simple := p.tmpl.bare() && !spec.Spread && !isLadderMetric(p.tmpl.metrics[0])
	for _, ct := range cols.texts {
		var heading []string
		var names []string
		for i, v := range cols.vals[ct] {
			heading = append(heading, orNone(report.Exact(v)))
			names = append(names, orNone(p.display.Name(spec.Cols[i], report.Exact(v))))
		}
		cv := strings.Join(heading, "/")
		name := func(m string) string {
			switch {
			case len(spec.Cols) == 0:
				return m
			case len(p.tmpl.metrics) == 1 && m == p.tmpl.metrics[0]:
				return cv
			}
			return cv + "_" + m
		}
		title := strings.Join(names, "/")
		if len(spec.Cols) == 0 {
			title = spec.Cell
			if simple {
				title = p.tmpl.metrics[0]
			}
			if spec.heading != "" {
				title = spec.heading
			}
		}
		if simple {
			d.Columns = append(d.Columns, report.Column{Name: name(p.tmpl.metrics[0]), Title: title, Human: sig})
			continue
		}
		d.Columns = append(d.Columns, report.Column{Name: cv, Title: title, People: true})
		for _, m := range p.tmpl.metrics {
			d.Columns = append(d.Columns, report.Column{Name: name(m), Machine: true})
			if isLadderMetric(m) {
				d.Columns = append(d.Columns, report.Column{Name: name(m) + "_still_holding", Machine: true},
					report.Column{Name: name(m) + "_runs", Machine: true})
				continue
			}
			if spec.Spread {
				d.Columns = append(d.Columns, report.Column{Name: name(m) + "_min", Machine: true},
					report.Column{Name: name(m) + "_max", Machine: true}, report.Column{Name: name(m) + "_rounds", Machine: true})
			}
		}
	}
	n := &notes{}
	// The caveats of the cells' groups, in group_caveats' words, each
	// once after the cells it is beside.
	var rowNames, colNames []string
	for _, rt := range rows.texts {
		rowNames = append(rowNames, p.axisName(spec.Rows, rows.vals[rt], false))
	}
	for _, ct := range cols.texts {
		colNames = append(colNames, p.axisName(spec.Cols, cols.vals[ct], true))
	}
	cv := newCellCaveats(p.caveats, rowNames, colNames)
	few, fewest, cellsN, twice := 0, math.MaxInt, 0, 0
	sortKey := map[int]float64{}
	firstVals := make([][][]float64, len(cols.texts)) // per column, per row: the rounds of the first figure
	holding := map[[2]int]bool{}                      // column, row: a ladder cell whose median is a lower bound
	var pending []pendingCell
	for ri, rt := range rows.texts {
		var row []any
		for i, v := range rows.vals[rt] {
			row = append(row, p.named(spec.Rows[i], v))
		}
		var srcs []report.Source
		for ci, ct := range cols.texts {
			cr := cells[rt+"\x01"+ct]
			if len(cr) > 0 {
				cellsN++
				cv.add(ri, ci, p.groupsOf(cr))
				// A cell beside its group's caveat on passes has it said
				// there, in the group's words.
				if len(cr) < MinRounds && !cv.has(ri, ci, "passes") {
					few++
					fewest = min(fewest, len(cr))
				}
				if p.sameRoundTwice(cr) {
					twice++
				}
			}
			firstVals[ci] = append(firstVals[ci], p.judgedValues(cr, p.tmpl.metrics[0]))
			var figs []cellFigure
			var machine []any
			for fi, m := range p.tmpl.metrics {
				if isLadderMetric(m) {
					sum := p.ladder(cr)
					median := sum.MedianHeldRPS
					if m == AchievedMetric {
						median = sum.MedianAchievedRPS
					}
					if _, ok := sortKey[ri]; !ok && strings.TrimPrefix(spec.Sort, "+") == m && len(sum.Runs) > 0 {
						sortKey[ri] = median
					}
					figs = append(figs, cellFigure{text: report.LadderText(sum, m == AchievedMetric), missing: len(sum.Runs) == 0})
					holding[[2]int{ci, ri}] = fi == 0 && len(sum.Runs) > 0 && sum.StillHolding
					var holding any
					if len(sum.Runs) > 0 {
						holding = sum.StillHolding
					}
					machine = append(machine, value(median), holding, int64(len(sum.Runs)))
					continue
				}
				fg := p.figure(cr, m)
				if _, ok := sortKey[ri]; !ok && strings.TrimPrefix(spec.Sort, "+") == m && !math.IsNaN(fg.Median) {
					sortKey[ri] = fg.Median
				}
				figs = append(figs, cellFigure{median: fg.Median, min: fg.Min, max: fg.Max, missing: math.IsNaN(fg.Median), spread: spec.Spread && fg.N > 1})
				machine = append(machine, value(fg.Median))
				if spec.Spread {
					machine = append(machine, value(fg.Min), value(fg.Max), int64(fg.N))
				}
			}
			// The text is rendered once every cell's figures are
			// known: each field prints at one precision per column.
			switch {
			case simple && machine[0] == nil:
				row = append(row, nil)
			case simple:
				pending = append(pending, pendingCell{row: ri, col: len(row), column: ci, figs: figs})
				row = append(row, report.Cell{Value: machine[0]})
			case len(cr) == 0:
				row = append(row, nil)
				row = append(row, make([]any, len(machine))...)
			default:
				pending = append(pending, pendingCell{row: ri, col: len(row), column: ci, figs: figs})
				row = append(row, nil)
				row = append(row, machine...)
			}
			for _, r := range cr {
				srcs = append(srcs, p.source(r))
			}
		}
		slices.SortFunc(srcs, func(a, b report.Source) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line)) })
		d.Rows = append(d.Rows, row)
		d.RowSources = append(d.RowSources, srcs)
	}
	p.renderCells(d, pending, len(cols.texts), simple)
	n.add("each cell is the median (type 7) of its rounds: the runs that agree on every label but round")
	p.markBest(d, n, firstVals, holding, len(spec.Rows), rows.texts)
	switch {
	case spec.Sort != "":
		sortRows(d, sortKey, strings.HasPrefix(spec.Sort, "+"))
	case len(spec.Rows) > 0 && len(cols.texts) > 0 && !p.display.Ordered(spec.Rows[0]) && !spec.keepOrder:
		c := fullestColumn(firstVals)
		p.orderByFirst(d, n, firstVals[c], cols.vals[cols.texts[c]])
	}
	if len(split) > 0 {
		n.add(fmt.Sprintf("split by %s: runs differ in it beyond the table's rows and columns, and are not pooled", strings.Join(split, ", ")))
	}
	if few > 0 {
		n.add(fmt.Sprintf("%d of %d cells have fewer than %d rounds (the fewest %d): their median is of what there is", few, cellsN, MinRounds, fewest))
	}
	if twice > 0 {
		n.add(fmt.Sprintf("%d cells hold two runs of the same round (the same run kept twice, or a label no file sets): both are counted", twice))
	}
	p.heldNote(n, runs)
	for _, l := range cv.lines() {
		n.add(l)
	}
	d.Notes = n.list
	return d
}

// pendingCell is a cell of d.Rows[row][col], in column column of the
// layout, whose text waits for the figures of its whole column.
type pendingCell struct {
	row, col, column int
	figs             []cellFigure
}

// renderCells writes the text of the cells: each field of the template
// at the one Precision its figures need in that column (the finest any
// of them needs), as people print a column.
func (p *projector) renderCells(d *report.Data, cells []pendingCell, columns int, simple bool) {
	precs := make([][]report.Precision, columns)
	for i := range precs {
		precs[i] = make([]report.Precision, len(p.tmpl.fields))
	}
	for _, c := range cells {
		for fi, fg := range c.figs {
			fg.addTo(&precs[c.column][fi])
		}
	}
	for _, c := range cells {
		for fi := range c.figs {
			c.figs[fi].column = &precs[c.column][fi]
		}
		text := p.tmpl.render(c.figs)
		if simple {
			cell := d.Rows[c.row][c.col].(report.Cell)
			cell.Text = text
			d.Rows[c.row][c.col] = cell
			continue
		}
		d.Rows[c.row][c.col] = text
	}
}

// sortRows orders the rows by their keys, highest first (lowest first
// when asc), rows without a key last.
func sortRows(d *report.Data, key map[int]float64, asc bool) {
	order := make([]int, len(d.Rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ka, oka := key[a]
		kb, okb := key[b]
		switch {
		case !oka && !okb:
			return 0
		case !oka:
			return 1
		case !okb:
			return -1
		case asc:
			return cmp.Compare(ka, kb)
		}
		return cmp.Compare(kb, ka)
	})
	rows, srcs := make([][]any, len(order)), make([][]report.Source, len(order))
	for j, i := range order {
		rows[j], srcs[j] = d.Rows[i], d.RowSources[i]
	}
	d.Rows, d.RowSources = rows, srcs
}

func (p *projector) source(r run) report.Source {
	s := report.Source{File: keyText(p.value(r, "source"))}
	if x, ok := number(p.value(r, "source_line")); ok {
		s.Line = int(x)
	}
	return s
}

func (p *projector) sameRoundTwice(runs []run) bool {
	seen := map[string]bool{}
	for _, r := range runs {
		k := keyText(p.value(r, "round"))
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

func (p *projector) title(runs []run, split []string) string {
	t := p.spec.Title
	if t == "" {
		t = p.spec.Cell
		if p.tmpl.bare() {
			t = p.tmpl.metrics[0]
		}
		if len(p.spec.Rows) > 0 {
			t += " by " + strings.Join(p.spec.Rows, ", ")
		}
		if len(p.spec.Cols) > 0 {
			t += " (rows) and " + strings.Join(p.spec.Cols, ", ") + " (columns)"
		}
	}
	var parts []string
	for _, k := range split {
		v := keyText(p.value(runs[0], k))
		if k == "format" && strings.HasPrefix(v, keyText(p.value(runs[0], "tool"))) && !p.toolHasFormats(runs[0]) {
			continue // the tool's own format says nothing the tool does not
		}
		if v == "" {
			continue // a label a table's runs do not set names nothing
		}
		parts = append(parts, k+" "+v)
	}
	if len(parts) > 0 {
		t += ": " + strings.Join(parts, ", ")
	}
	return t
}

// toolHasFormats reports whether the runs of r's tool come in more than
// one format (a k6 ladder's points and its summary): then the format
// tells their tables apart.
func (p *projector) toolHasFormats(r run) bool {
	tool, format := keyText(p.value(r, "tool")), keyText(p.value(r, "format"))
	for _, o := range p.runs {
		if keyText(p.value(o, "tool")) == tool && keyText(p.value(o, "format")) != format {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// axisName names a row or a column of the table in a footnote: the
// names of its keys' values ("go-pgx, mysql"); for a column, each after
// its key ("connections 50").
func (p *projector) axisName(keys []string, vals []any, withKeys bool) string {
	var parts []string
	for i, v := range vals {
		name := orNone(p.display.Name(keys[i], keyText(v)))
		if withKeys {
			name = keys[i] + " " + name
		}
		parts = append(parts, name)
	}
	return strings.Join(parts, ", ")
}

// groupsOf are the groups of the runs of a cell, by where each was read:
// for a ladder run of ladder_figures, each run of its steps
// (step_sources).
func (p *projector) groupsOf(runs []run) []string {
	var ids []string
	for _, r := range runs {
		ids = p.caveats.GroupsAt(ids, p.source(r))
		ids = p.caveats.GroupsAt(ids, r.steps...)
	}
	return ids
}

// notes collects footnotes without repeating one.
type notes struct{ list []string }

func (n *notes) add(msg string) {
	if !slices.Contains(n.list, msg) {
		n.list = append(n.list, msg)
	}
}
