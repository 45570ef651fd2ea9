package projection

import (
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// TestCellCaveatsWhere: a caveat is named after as few names as say
// where it is: every cell, a whole column, a whole row, else each cell;
// an empty cell does not keep a column or a row from being whole.
func TestCellCaveatsWhere(t *testing.T) {
	of := map[string][]model.Caveat{}
	for _, g := range []struct{ id, kinds string }{
		{"a-k6", "all col row"}, {"a-wrk2", "all row"}, {"b-k6", "all col one"}, {"b-wrk2", "all"}, {"c-k6", "all col row2"},
	} {
		for _, k := range strings.Fields(g.kinds) {
			of[g.id] = append(of[g.id], model.Caveat{GroupID: g.id, Kind: k, Text: "caveat " + k})
		}
	}
	c := newCellCaveats(model.DesignCaveats{Of: of}, []string{"a", "b", "c"}, []string{"tool k6", "tool wrk2"})
	c.add(0, 0, []string{"a-k6"})
	c.add(0, 1, []string{"a-wrk2"})
	c.add(1, 0, []string{"b-k6"})
	c.add(1, 1, []string{"b-wrk2"})
	c.add(2, 0, []string{"c-k6"}) // c at wrk2 is empty
	got := strings.Join(c.lines(), "\n")
	want := strings.Join([]string{
		"every cell: caveat all",
		"every row at tool k6: caveat col",
		"a, every column: caveat row",
		"b at tool k6: caveat one",
		"c at tool k6: caveat row2",
	}, "\n")
	if got != want {
		t.Errorf("lines:\n%s\nwant\n%s", got, want)
	}
	if !c.has(1, 0, "one") || c.has(1, 1, "one") {
		t.Errorf("has: b at k6 has one, b at wrk2 not")
	}
}

// TestStepSources: ladder_figures.step_sources, as the store gives a
// list (its JSON text), is read into sources; NULL is none, and text that
// is no such list is an error, not silently no caveats.
func TestStepSources(t *testing.T) {
	got, err := stepSources(`[{"line":1,"source":"wrk2/t1/a.txt"},{"line":3,"source":"wrk2/t1/b.txt"}]`)
	if err != nil || len(got) != 2 || got[1] != (model.Source{File: "wrk2/t1/b.txt", Line: 3}) {
		t.Errorf("stepSources = %v, %v", got, err)
	}
	if got, err := stepSources(nil); got != nil || err != nil {
		t.Errorf("NULL: %v, %v", got, err)
	}
	if _, err := stepSources(`{"source":`); err == nil {
		t.Error("a truncated list gave no error")
	}
}
