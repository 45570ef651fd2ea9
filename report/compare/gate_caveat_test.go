package compare

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
)

// TestGateLowerBoundCaveat: a gate on the highest held rate of ladders
// that still held at their top step says, in every format, that the
// side's figure is a lower bound, in the words wra compare uses; a gate
// on another metric of the same runs says nothing of it.
func TestGateLowerBoundCaveat(t *testing.T) {
	var runs []*model.CompareRun
	for i, v := range []float64{1400, 1400, 1400, 1200, 1100, 1200} {
		side := "base"
		if i >= 3 {
			side = "vs"
		}
		runs = append(runs, &model.CompareRun{ID: string(rune('a' + i)), Side: side, Key: []any{"one"},
			Values: map[string]float64{model.HighestHeld: v, "rps": v}, StillHolding: side == "base"})
	}
	limits := []analysis.GateLimit{{Metric: model.HighestHeld, Pct: -5, FallIsWorse: true}, {Metric: "rps", Pct: -5, FallIsWorse: true}}
	res := analysis.Gate(runs, []string{"test"}, limits, analysis.GateOptions{Alpha: 0.05, Confidence: 0.95})
	g := Gate{GateResult: res, Base: "release", Vs: "change"}
	want := "base: " + model.LowerBoundCaveat
	for _, r := range res.Rows {
		has := len(r.Caveats) == 1 && r.Caveats[0] == want
		if (r.Limit.Metric == model.HighestHeld) != has {
			t.Errorf("%s: caveats %q", r.Limit.Metric, r.Caveats)
		}
	}
	var md, js, ju bytes.Buffer
	if err := GateMarkdown(&md, g); err != nil {
		t.Fatal(err)
	}
	if err := GateJSON(&js, g); err != nil {
		t.Fatal(err)
	}
	if err := GateJUnit(&ju, g); err != nil {
		t.Fatal(err)
	}
	// once in Markdown's notes; in JUnit, in the failure's message and
	// the case's output, of the highest_held_rps case only
	for name, f := range map[string]struct {
		out  string
		want int
	}{"markdown": {md.String(), 1}, "junit": {ju.String(), 2}} {
		if n := strings.Count(f.out, model.LowerBoundCaveat); n != f.want {
			t.Errorf("%s: the caveat %d times, want %d:\n%s", name, n, f.want, f.out)
		}
	}
	// a list of its own: a blank line ends it before the method, which
	// would otherwise continue its last item
	if !strings.Contains(md.String(), "|\n\n- highest\\_held\\_rps test=one: base: "+model.LowerBoundCaveat+"\n\nA check fails") {
		t.Errorf("markdown: the caveats are not a list between blank lines:\n%s", md.String())
	}
	var doc struct {
		Checks []struct {
			Metric  string   `json:"metric"`
			Caveats []string `json:"caveats"`
		} `json:"checks"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Checks {
		if (c.Metric == model.HighestHeld) != (len(c.Caveats) == 1 && c.Caveats[0] == want) {
			t.Errorf("json: %s caveats %q", c.Metric, c.Caveats)
		}
	}
	if notes := GateTable(g).Notes; !slices.Contains(notes, model.HighestHeld+" test=one: "+want) {
		t.Errorf("table notes lack the caveat: %q", notes)
	}
}
