package report

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
)

// TestIntervalChart draws a comparison of three stacks: the leader's
// point in the leader's colour, the tied one's in its own, the one
// behind as a grey ring, each stack's name on its row (the leader on
// top), the reference line at 1, and a legend of the three standings.
func TestIntervalChart(t *testing.T) {
	nan := math.NaN()
	ic := &IntervalChart{Title: "Stack + database", XLabel: "× the leader", Reference: 1, Rows: []IntervalRow{
		{Label: "alpha", X: 1, Lo: nan, Hi: nan, Mark: Leader},
		{Label: "beta", X: 1.05, Lo: 0.9, Hi: 1.3, Mark: Tied},
		{Label: "gamma", X: 1.8, Lo: 1.5, Hi: 2.1, Mark: Behind},
	}}
	svg, err := SVG(ic)
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{"Stack + database", "alpha", "beta", "gamma", "leader", "tied with the leader", "behind the leader", "× the leader"} {
		if !strings.Contains(s, ">"+want+"<") {
			t.Errorf("the chart lacks the text %q", want)
		}
	}
	// alpha is drawn above beta, beta above gamma: the text's y, in the
	// flipped coordinates gonum writes, is lower the higher it stands.
	y := func(name string) float64 {
		m := regexp.MustCompile(`<text x="[-0-9.]+" y="([-0-9.]+)"[^>]*>` + name + `<`).FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("no position for %q", name)
		}
		var v float64
		if _, err := fmt.Sscan(m[1], &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if a, b, g := y("alpha"), y("beta"), y("gamma"); !(a < b && b < g) {
		t.Errorf("rows at y %v, %v, %v: want the leader on top, in the order given", a, b, g)
	}
	for _, c := range []string{"#0072B2", "#56B4E9", "#888888"} {
		if !strings.Contains(s, c) {
			t.Errorf("the chart lacks the colour %s", c)
		}
	}
	var again bytes.Buffer
	if err := WriteSVG(&again, ic); err != nil || !bytes.Equal(again.Bytes(), svg) {
		t.Errorf("the same chart drawn twice differs (err %v)", err)
	}
	if _, err := SVG(&IntervalChart{Title: "empty"}); err == nil {
		t.Errorf("a chart of no rows was drawn")
	}
	if _, err := SVG(&IntervalChart{Rows: []IntervalRow{{Label: "x", X: nan, Lo: nan, Hi: nan}}}); err == nil {
		t.Errorf("a chart of no finite figure was drawn")
	}
}

// TestPageBulletPlotsAndDetails: a bullet's plots stand inside its list
// item, with ids of their own, and its details fold under it.
func TestPageBulletPlotsAndDetails(t *testing.T) {
	svg, err := SVG(&IntervalChart{Title: "c", Rows: []IntervalRow{{Label: "a", X: 1, Lo: math.NaN(), Hi: math.NaN(), Mark: Leader}}})
	if err != nil {
		t.Fatal(err)
	}
	p := &Page{Title: "t", Sections: []Section{{Title: "s", Bullets: []Bullet{
		{Lead: "one", Text: "first", Plots: []PagePlot{{Caption: "cap", SVG: svg}}},
		{Lead: "two", Details: []string{"evidence <1>", "runs: a.txt:1"}},
	}}}}
	var b bytes.Buffer
	if err := WritePage(&b, p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !regexp.MustCompile(`(?s)<li><strong>one\.</strong> first\n<div class="charts">\n<figure id="s1-b1-p1">\n<svg.*?</svg>.*?<figcaption>cap</figcaption>\n</figure>\n</div></li>`).MatchString(page) {
		t.Errorf("the first bullet's plot is not inside its item:\n%s", page)
	}
	if want := `<li><strong>two.</strong>` + "\n" + `<details><summary>evidence</summary><p>evidence &lt;1&gt;</p><p>runs: a.txt:1</p></details></li>`; !strings.Contains(page, want) {
		t.Errorf("the second bullet's details are not folded under it: want %s in\n%s", want, page)
	}
	bad := &Page{Title: "t", Sections: []Section{{Title: "s", Bullets: []Bullet{{Lead: "x", Plots: []PagePlot{{Caption: "c", SVG: []byte(`<svg><script/></svg>`)}}}}}}}
	if err := WritePage(&bytes.Buffer{}, bad); err == nil || !strings.Contains(err.Error(), `page section "s": bullet 1: plot 1 ("c"): SVG line 1: element <script> is not allowed`) {
		t.Errorf("a bullet's bad plot: got %v", err)
	}
}
