package analyze

import (
	"testing"

	"github.com/wra-bench/wra/report"
)

func TestSourcesText(t *testing.T) {
	src := func(file string, line int) report.Source { return report.Source{File: file, Line: line} }
	srcs := []report.Source{src("b.csv", 7), src("a.csv", 3), src("b.csv", 5), src("b.csv", 6), src("b.csv", 9), src("k6/run.ndjson", 0), src("b.csv", 6)}
	if got, want := sourcesText(srcs), "b.csv:5-7,9; a.csv:3; k6/run.ndjson"; got != want {
		t.Errorf("sourcesText = %q, want %q", got, want)
	}
	if got := sourcesText(nil); got != "" {
		t.Errorf("no sources: %q", got)
	}
}

func TestRowsBehind(t *testing.T) {
	a, b := report.Source{File: "r.csv", Line: 2}, report.Source{File: "r.csv", Line: 3}
	res := &Result{Sections: []*Section{
		{ID: "cpu", Tables: []*report.Data{{RowSources: [][]report.Source{{a}, {b}}}, {RowSources: [][]report.Source{{b, a}}}}},
		{ID: "rounds", Tables: []*report.Data{{RowSources: [][]report.Source{{a}}}}},
	}}
	idx := rowIndex(res)
	if got, want := idx.behind("cpu", []report.Source{a, b}), "cpu-1: rows 1, 2; cpu-2: row 1"; got != want {
		t.Errorf("behind(cpu) = %q, want %q", got, want)
	}
	if got, want := idx.behind("", []report.Source{a}), "cpu-1: row 1; cpu-2: row 1; rounds-1: row 1"; got != want {
		t.Errorf("behind(any) = %q, want %q", got, want)
	}
	if got := idx.behind("memory", []report.Source{a}); got != "" {
		t.Errorf("behind(memory) = %q, want none", got)
	}
}
