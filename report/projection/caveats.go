package projection

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model"
)

// cellCaveats gathers the caveats of the groups behind the cells of one
// table (group_caveats, in its words) and footnotes each once after the
// cells it is beside, as few names as say them: "every cell", a whole
// column ("every row at tool k6"), a whole row ("go-pgx, every column"),
// else the cells ("go-pgx at connections 50").
type cellCaveats struct {
	of      model.DesignCaveats
	rows    []string // the rows' names, in order
	cols    []string // the columns' names ("tool k6"), in order
	texts   []string // caveat texts, first seen first
	beside  map[string]map[[2]int]bool
	filled  map[[2]int]bool // the cells that have runs: row, column
	kindsOf map[[2]int][]string
}

func newCellCaveats(of model.DesignCaveats, rows, cols []string) *cellCaveats {
	return &cellCaveats{of: of, rows: rows, cols: cols, beside: map[string]map[[2]int]bool{},
		filled: map[[2]int]bool{}, kindsOf: map[[2]int][]string{}}
}

// add notes the caveats of the groups ids beside the cell of row ri and
// column ci.
func (c *cellCaveats) add(ri, ci int, ids []string) {
	cell := [2]int{ri, ci}
	c.filled[cell] = true
	for _, id := range ids {
		for _, cv := range c.of.Of[id] {
			if c.beside[cv.Text] == nil {
				c.texts = append(c.texts, cv.Text)
				c.beside[cv.Text] = map[[2]int]bool{}
			}
			c.beside[cv.Text][cell] = true
			if !slices.Contains(c.kindsOf[cell], cv.Kind) {
				c.kindsOf[cell] = append(c.kindsOf[cell], cv.Kind)
			}
		}
	}
}

// has tells whether a caveat of kind is beside the cell.
func (c *cellCaveats) has(ri, ci int, kind string) bool {
	return slices.Contains(c.kindsOf[[2]int{ri, ci}], kind)
}

// lines are the footnotes, one per caveat, first seen first.
func (c *cellCaveats) lines() []string {
	var out []string
	for _, text := range c.texts {
		out = append(out, c.where(c.beside[text])+": "+text)
	}
	return out
}

// where names the cells of set in as few names as say them.
func (c *cellCaveats) where(set map[[2]int]bool) string {
	if len(set) == len(c.filled) && len(c.filled) > 1 {
		return "every cell"
	}
	said := map[[2]int]bool{}
	var names []string
	// whole columns, then whole rows, of two or more filled cells
	whole := func(cells [][2]int) bool {
		n := 0
		for _, cell := range cells {
			if c.filled[cell] {
				if !set[cell] {
					return false
				}
				n++
			}
		}
		return n > 1
	}
	for ci, col := range c.cols {
		var cells [][2]int
		for ri := range c.rows {
			cells = append(cells, [2]int{ri, ci})
		}
		if whole(cells) && len(c.rows) > 1 {
			names = append(names, "every row at "+col)
			for _, cell := range cells {
				said[cell] = true
			}
		}
	}
	for ri, row := range c.rows {
		var cells [][2]int
		for ci := range c.cols {
			cells = append(cells, [2]int{ri, ci})
		}
		if whole(cells) && len(c.cols) > 1 && !allSaid(cells, said) {
			names = append(names, row+", every column")
			for _, cell := range cells {
				said[cell] = true
			}
		}
	}
	for ri, row := range c.rows {
		for ci, col := range c.cols {
			cell := [2]int{ri, ci}
			if set[cell] && !said[cell] {
				names = append(names, cellName(row, col))
			}
		}
	}
	return strings.Join(names, "; ")
}

// allSaid tells whether every one of cells is named already.
func allSaid(cells [][2]int, said map[[2]int]bool) bool {
	for _, cell := range cells {
		if !said[cell] {
			return false
		}
	}
	return true
}

// cellName names a cell after its row's name and its column's: "go-pgx
// at connections 50"; either alone where the other is empty, "the
// cell" for neither.
func cellName(row, col string) string {
	switch {
	case row == "" && col == "":
		return "the cell"
	case col == "":
		return row
	case row == "":
		return col
	}
	return row + " at " + col
}

// stepSources reads ladder_figures.step_sources, a list of {source, line}
// as its JSON text (NULL for none).
func stepSources(v any) ([]model.Source, error) {
	text, ok := v.(string)
	if !ok || text == "" {
		return nil, nil
	}
	var list []struct {
		Source string `json:"source"`
		Line   int    `json:"line"`
	}
	if err := json.Unmarshal([]byte(text), &list); err != nil {
		return nil, err
	}
	out := make([]model.Source, len(list))
	for i, s := range list {
		out[i] = model.Source{File: s.Source, Line: s.Line}
	}
	return out, nil
}
