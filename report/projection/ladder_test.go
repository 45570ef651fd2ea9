package projection

import (
	"slices"
	"strings"
	"testing"

	"github.com/wra-bench/wra/report"
)

var ladderCols = []string{"run_id", "source", "source_line", "tool", "server", "database", "test", "round", "kind",
	HeldMetric, "still_holding", "step_rps", "p95_threshold_ms", "max_error_rate", "labels"}

type lr struct {
	test, database string
	round          int64
	held           float64
	holding        bool
}

func laddersOf(rs ...lr) Runs {
	out := Runs{Columns: ladderCols}
	for i, x := range rs {
		out.Rows = append(out.Rows, []any{"l" + string(rune('a'+i)), "f", int64(i + 1), "k6", "go", x.database, x.test, x.round, "samples",
			x.held, x.holding, 100.0, 50.0, 0.01, ""})
	}
	return out
}

// The published cells: "14,868+" when every run still held, and the
// median with every run listed, in round order, when they differ.
func TestHighestHeldCells(t *testing.T) {
	runs := laddersOf(
		lr{"one", "postgresql", 3, 1397, false}, lr{"one", "postgresql", 1, 500, false}, lr{"one", "postgresql", 2, 1397, false},
		lr{"one", "mysql", 1, 14868, true}, lr{"one", "mysql", 2, 14868, true}, lr{"one", "mysql", 3, 14868, true},
		// the middle run (1,397, failed above it) defines the median: no +
		lr{"page", "postgresql", 1, 1397, true}, lr{"page", "postgresql", 2, 500, false}, lr{"page", "postgresql", 3, 1397, false},
		// of two runs, either middle one still holding makes it a lower bound
		lr{"page", "mysql", 1, 900, true}, lr{"page", "mysql", 2, 700, false},
	)
	tables, err := Project(runs, Spec{Cell: "{" + HeldMetric + "}", Rows: []string{"test"}, Cols: []string{"database"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 {
		t.Fatalf("%d tables, want 1", len(tables))
	}
	md := write(t, tables[0], report.Markdown)
	for _, want := range []string{
		// page's 800+ still held: its limit may be above 14,868, so no
		// best is marked
		"| one | 14,868+ | 1,397 (500, 1,397, 1,397) |",
		"| page | 800+ (900+, 700) | 1,397 (1,397+, 500, 1,397) |",
		"(p95 &lt; 50 ms, errors &lt; 1%);",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	want := "test,mysql,mysql_still_holding,mysql_runs,postgresql,postgresql_still_holding,postgresql_runs\n" +
		"one,14868,true,3,1397,false,3\npage,800,true,2,1397,false,3\n"
	if got := write(t, tables[0], report.CSV); got != want {
		t.Errorf("csv:\n%s\nwant\n%s", got, want)
	}
	if notes := strings.Join(tables[0].Notes, "\n"); !strings.Contains(notes, "1 of 4 cells have fewer than 3 rounds") ||
		!strings.Contains(notes, "no highest_held_rps marked best in the columns mysql, postgresql") {
		t.Errorf("notes: %s", notes)
	}
}

// The rate achieved at the highest step held, as people publish a
// ladder (1,397 for a step of 1,400): the median of the runs' achieved
// rates, each run listed when they differ, the rule with its achieved
// part; in csv the unrounded median.
func TestHighestHeldAchievedCells(t *testing.T) {
	runs := laddersOf(lr{"one", "postgresql", 1, 1400, false}, lr{"one", "postgresql", 2, 500, false}, lr{"one", "postgresql", 3, 1400, false})
	runs.Columns = append(slices.Clone(runs.Columns), AchievedMetric, "min_achieved_ratio")
	for i, a := range []float64{1397.2, 499.6, 1396.8} {
		runs.Rows[i] = append(runs.Rows[i], a, 0.95)
	}
	tables, err := Project(runs, Spec{Cell: "{" + AchievedMetric + "}", Rows: []string{"test"}, Cols: []string{"database"}})
	if err != nil {
		t.Fatal(err)
	}
	md := write(t, tables[0], report.Markdown)
	for _, want := range []string{
		"| one | 1,397 (1,397, 500, 1,397) |",
		"highest\\_held\\_achieved\\_rps: the rate a ladder run achieved at its highest step held",
		"(p95 &lt; 50 ms, errors &lt; 1%, ≥ 95% of the rate achieved)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	want := "test,postgresql,postgresql_still_holding,postgresql_runs\none,1396.8,false,3\n"
	if got := write(t, tables[0], report.CSV); got != want {
		t.Errorf("csv:\n%s\nwant\n%s", got, want)
	}
}

// An empty cell is empty in every format; rows follow the median of the
// column most rows have a figure in (mysql, the first of two with one
// each), best first; without columns the machine columns are named by
// the metric.
func TestHighestHeldEmptyAndSorted(t *testing.T) {
	runs := laddersOf(lr{"one", "postgresql", 1, 200, false}, lr{"page", "mysql", 1, 400, true})
	tables, err := Project(runs, Spec{Cell: "{" + HeldMetric + "}", Rows: []string{"test"}, Cols: []string{"database"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "test,mysql,mysql_still_holding,mysql_runs,postgresql,postgresql_still_holding,postgresql_runs\n" +
		"page,400,true,1,,,\none,,,,200,false,1\n"
	if got := write(t, tables[0], report.CSV); got != want {
		t.Errorf("csv:\n%s\nwant\n%s", got, want)
	}
	tables, err = Project(runs, Spec{Cell: "{" + HeldMetric + "}", Rows: []string{"test", "database"}, Sort: HeldMetric})
	if err != nil {
		t.Fatal(err)
	}
	want = "test,database,highest_held_rps,highest_held_rps_still_holding,highest_held_rps_runs\n" +
		"page,mysql,400,true,1\none,postgresql,200,false,1\n"
	if got := write(t, tables[0], report.CSV); got != want {
		t.Errorf("sorted csv:\n%s\nwant\n%s", got, want)
	}
}
