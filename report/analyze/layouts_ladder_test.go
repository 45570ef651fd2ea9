package analyze_test

import (
	"strings"
	"testing"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
	"github.com/wra-bench/wra/report/projection"
)

// A manifest layout of highest_held_rps gives, per cell, what the ladders
// section gives for the same ladder runs: the same median, "+" and runs,
// under the rule of the options.
func TestLayoutHighestHeldIsTheLaddersSection(t *testing.T) {
	st := ladderStore(t)
	for _, p95 := range []float64{50, 100} {
		opts := analyze.DefaultOptions()
		opts.P95MS = p95
		opts.Layouts = []analyze.Layout{{Spec: projection.Spec{Title: "held", Cell: "{highest_held_rps}", Rows: []string{"server", "test"}},
			Where: "kind = 'fixed-rate'"}}
		res := run(t, st, opts)
		fixed := table(t, section(t, res, "ladders"), "Held-rate ladders from fixed-rate runs")
		lay := table(t, section(t, res, "table"), "held")
		if len(fixed.Rows) != 1 || len(lay.Rows) != 1 {
			t.Fatalf("p95 %g: %d ladder rows, %d layout rows", p95, len(fixed.Rows), len(lay.Rows))
		}
		median, each := cell(t, fixed, 0, "highest_held_rps").(string), cell(t, fixed, 0, "each_run").(string)
		want := median
		if each != strings.Repeat(median+", ", 2)+median {
			want += " (" + each + ")"
		}
		var b strings.Builder
		if err := report.Write(&b, lay, report.Markdown); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "| go2 | page | "+want+" |") {
			t.Errorf("p95 %g: the ladders section says %q (%s); the layout:\n%s", p95, median, each, b.String())
		}
		if p95 == 50 && want != "100 (100, 200, 100)" {
			t.Errorf("p95 50: %q, want 100 (100, 200, 100)", want)
		}
	}
}
