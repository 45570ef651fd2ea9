package projection

import (
	"fmt"
	"math"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/layout"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// readDisplay merges the display of label values the runs keep
// (model.DisplayLabel).
func (p *projector) readDisplay() (model.Display, error) {
	var texts []string
	for _, r := range p.runs {
		if t, ok := r.labels[model.DisplayLabel].(string); ok {
			texts = append(texts, t)
		}
	}
	return model.MergeDisplays(texts)
}

// judgedValues are the figures the best of a column and the order of its
// rows go by: a throughput (rps) by the runs' goodput, the successful
// requests per second, where the runs have it, and a run whose every
// request failed has none (it is never best); any other metric by its
// own figures.
func (p *projector) judgedValues(runs []run, m string) []float64 {
	if _, ok := p.col["goodput_rps"]; m != "rps" || !ok {
		return p.values(runs, m)
	}
	var xs []float64
	for _, r := range runs {
		if p.value(r, "all_failed") == true {
			continue
		}
		if x := p.num(r, "goodput_rps"); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	return xs
}

// values are the figures of a metric in some runs, NaN left out.
func (p *projector) values(runs []run, m string) []float64 {
	var xs []float64
	for _, r := range runs {
		if x := p.num(r, m); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	return xs
}

// Better says which way a metric is better: higher for a throughput
// (rps, requests, highest_held_rps), lower for a latency, a CPU time, a
// memory or a count of failures; known is false for any other figure.
func Better(metric string) (higher, known bool) {
	switch {
	case metric == "rps" || isLadderMetric(metric) || metric == "requests" || metric == "responses_2xx":
		return true, true
	case strings.HasPrefix(metric, "latency_"), strings.HasPrefix(metric, "cpu_"),
		strings.HasSuffix(metric, "_ms"), strings.HasSuffix(metric, "_us"), strings.HasSuffix(metric, "_mb"),
		metric == "failed", metric == "errors", metric == "non_2xx":
		return false, true
	}
	return false, false
}

// judged is the figure the best of a column is judged by: the cell's one
// figure, or its first when that is a throughput; "" for none.
func (p *projector) judged() string {
	m := p.tmpl.metrics[0]
	if _, known := Better(m); !known || (len(p.tmpl.metrics) > 1 && m != "rps" && !isLadderMetric(m)) {
		return ""
	}
	return m
}

// markBest marks in each column the rows whose first figure is best
// beyond the noise of the rounds (stats.BestOf), all of them where
// several tie for best, none where every row ties. A ladder cell that
// still held at its last step (holding) is a lower bound that no row can
// be shown to beat: it ties for best.
func (p *projector) markBest(d *report.Data, n *notes, vals [][][]float64, holding map[[2]int]bool, keys int, rows []string) {
	m := p.judged()
	if m == "" || len(rows) < 2 {
		return
	}
	higher, _ := Better(m)
	rule := stats.TieRule{}
	marked, byRange, bounds := false, false, false
	var none, shared []string
	people := peopleColumns(d)
	for ci, col := range vals {
		best := layout.BestOfColumn(col, func(ri int) bool { return holding[[2]int{ci, ri}] }, higher, rule)
		byRange = byRange || best.ByRange
		bounds = bounds || best.JoinedByBounds
		c := people[ci]
		what := d.Columns[c].Title
		if what == "" {
			what = d.Columns[c].Name
		}
		if best.All {
			if len(best.Index) > 1 {
				none = append(none, what)
			}
			continue
		}
		var names []string
		for _, ri := range best.Index {
			d.Rows[ri][c] = report.MarkBest(d.Rows[ri][c])
			names = append(names, rowLabel(d.Rows[ri][:keys]))
			marked = true
		}
		if len(names) > 1 {
			shared = append(shared, strings.Join(names, ", ")+" in "+what)
		}
	}
	dir := "lowest"
	if higher {
		dir = "highest"
	}
	if marked {
		n.add(fmt.Sprintf("the best %s of each column is marked (* on a terminal, bold elsewhere), the %s, where it is best beyond the noise of the rounds (%s)", m, dir, rule))
	}
	if len(shared) > 0 {
		n.add("tied for best and marked together, no one of them told apart from the first: " + strings.Join(shared, "; "))
	}
	if len(none) > 0 {
		cols := "the column " + none[0]
		if len(none) > 1 {
			cols = "the columns " + strings.Join(none, ", ")
		}
		why := "see the rule above"
		if !marked {
			why = rule.String()
		}
		n.add(fmt.Sprintf("no %s marked best in %s: every row is inside the noise of the others (%s)", m, cols, why))
	}
	if bounds {
		n.add("a ladder cell with + still held at its last step: its limit is higher, so it ties for best")
	}
	if byRange {
		n.add("with fewer than 4 rounds against 4 the two-sided Mann–Whitney test cannot reach alpha 0.05 (3 against 3: p >= 0.1): such rows are told apart when the ranges of their rounds do not overlap")
	}
}

// peopleColumns is the index in d of the column people read for each
// column value: the one column of a bare figure, else the text column.
func peopleColumns(d *report.Data) []int {
	var out []int
	for i, c := range d.Columns {
		if !c.Machine && (i > 0 || c.People) && !isKeyColumn(d, i) {
			out = append(out, i)
		}
	}
	return out
}

// isKeyColumn reports whether column i holds the row keys: the leading
// columns that are neither for machines only nor for people only and
// have no formatting of their own.
func isKeyColumn(d *report.Data, i int) bool {
	for j := 0; j <= i; j++ {
		c := d.Columns[j]
		if c.Machine || c.People || c.Human != nil {
			return false
		}
	}
	return true
}

// rowLabel is a row's key values for people.
func rowLabel(keys []any) string {
	var parts []string
	for _, v := range keys {
		if c, ok := v.(report.Cell); ok && c.Text != "" {
			parts = append(parts, c.Text)
			continue
		}
		parts = append(parts, orNone(report.Exact(v)))
	}
	return strings.Join(parts, "/")
}

// fullestColumn is the first column in which the most rows have a figure.
func fullestColumn(vals [][][]float64) int {
	best, most := 0, -1
	for c, col := range vals {
		n := 0
		for _, xs := range col {
			if len(xs) > 0 {
				n++
			}
		}
		if n > most {
			best, most = c, n
		}
	}
	return best
}

// orderByFirst orders the rows by the median of their first figure in
// the first column where most rows have it, best first (highest first where better is unknown),
// rows without it last, when the manifest gives the first row key no
// order; the footnote says so.
func (p *projector) orderByFirst(d *report.Data, n *notes, first [][]float64, col []any) {
	m := p.tmpl.metrics[0]
	higher, known := Better(m)
	if !known {
		higher = true
	}
	sortRows(d, layout.RowKeys(first), !higher)
	if len(d.Rows) < 2 {
		return
	}
	dir := "lowest first"
	if higher {
		dir = "highest first"
	}
	in := ""
	if len(p.spec.Cols) > 0 {
		var vs []string
		for _, v := range col {
			vs = append(vs, orNone(report.Exact(v)))
		}
		in = " at " + strings.Join(p.spec.Cols, "/") + " " + strings.Join(vs, "/")
	}
	n.add(fmt.Sprintf("rows in order of the median %s%s, %s; [labels.%s] order = [...] in wra.toml sets another", m, in, dir, p.spec.Rows[0]))
}
