package compare

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
)

// caveatSides tell the sides of caveatRuns apart.
var caveatSides = model.CompareSides{By: "server", Base: "a", Vs: "b"}

// caveatRuns are two matches (tests one and two) of three runs a side;
// every run carries the latency caveat of its group, the base runs of
// test one a drift too, told twice (two groups of one side share it).
func caveatRuns() []*model.CompareRun {
	latency := model.Caveat{Kind: "latency", Text: "latency not corrected for coordinated omission: its percentiles understate the waiting under load"}
	drift := model.Caveat{Kind: "drift", Text: "1 of 3 runs are covered by a calibration drift above 5% (the largest 9.0%)"}
	var runs []*model.CompareRun
	for i, test := range []string{"one", "one", "one", "one", "one", "one", "two", "two", "two", "two", "two", "two"} {
		side := "base"
		if i%6 >= 3 {
			side = "vs"
		}
		cv := []model.Caveat{latency}
		if test == "one" && side == "base" {
			cv = []model.Caveat{drift, latency, drift}
		}
		key := make([]any, len(caveatSides.Keys()))
		key[slices.Index(caveatSides.Keys(), "test")] = test
		runs = append(runs, &model.CompareRun{ID: string(rune('a' + i)), Side: side, Key: key,
			Values: map[string]float64{"rps": float64(100 + i)}, Caveats: cv})
	}
	return runs
}

// TestCompareGroupCaveats: each side's group caveats are its warnings,
// each once, in group_caveats' words after the side's name; in the
// table a caveat of both sides of every row is one line under it, and
// another marks the cells it is beside.
func TestCompareGroupCaveats(t *testing.T) {
	o := Options{Metrics: []string{"rps"}, Alpha: 0.05, Confidence: 0.95, Sides: caveatSides}
	rows := analysis.CompareMatches(caveatRuns(), analysis.CompareOptions{Metrics: o.Metrics, Alpha: o.Alpha, Confidence: o.Confidence})
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	var one []string
	for _, w := range rows[0].Cmp.Warnings {
		one = append(one, w.Msg)
	}
	got := strings.Join(one, "\n")
	for _, want := range []string{"base: 1 of 3 runs are covered", "base: latency not corrected", "vs: latency not corrected"} {
		if strings.Count(got, want) != 1 {
			t.Errorf("test one's warnings, want %q once:\n%s", want, got)
		}
	}
	if strings.Contains(got, "vs: 1 of 3") {
		t.Errorf("test one: the base's drift on the vs side:\n%s", got)
	}
	var b bytes.Buffer
	if err := report.Write(&b, compareData(rows, o), report.Markdown); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if strings.Count(md, "latency not corrected") != 1 || !strings.Contains(md, "both sides of every row: latency not corrected for coordinated omission") {
		t.Errorf("the latency caveat is not one line under the table:\n%s", md)
	}
	if strings.Count(md, "1 of 3 runs are covered by a calibration drift") != 1 || !strings.Contains(md, "| 101 ⁴ | 104 |") {
		t.Errorf("the drift caveat does not mark test one's base cell alone (⁴):\n%s", md)
	}
}

// TestGateGroupCaveats: a gate says a caveat of both sides of every
// check once, first, and one of both sides of a check once for the two.
func TestGateGroupCaveats(t *testing.T) {
	limits := []analysis.GateLimit{{Metric: "rps", Pct: -5, FallIsWorse: true}}
	res := analysis.Gate(caveatRuns(), caveatSides.Keys(), limits, analysis.GateOptions{Alpha: 0.05, Confidence: 0.95})
	notes := Gate{GateResult: res, Base: "a", Vs: "b"}.caveats()
	want := []string{
		"both sides of every check: latency not corrected for coordinated omission: its percentiles understate the waiting under load",
		"rps test=one: base: 1 of 3 runs are covered by a calibration drift above 5% (the largest 9.0%)",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("gate caveats:\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	if got := bothSidesEverywhere([][]string{{"base: x", "vs: x", "base: y"}, {"vs: x", "base: x", "vs: y", "base: y"}}); len(got) != 1 || got[0] != "x" {
		t.Errorf("bothSidesEverywhere = %q, want [x]", got)
	}
}
