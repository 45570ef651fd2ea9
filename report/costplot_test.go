package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func costCurves() *CostCurveChart {
	return &CostCurveChart{
		Title: "Cost per month against load (aws-fargate-x86, utilisation 0.6)",
		Curves: []CostCurve{
			{Name: "go / ping", Points: []CostPoint{{100, 0.16}, {1000, 1.32}, {10000, 12.9}}},
			{Name: "<script>nginx</script>", Points: []CostPoint{{100, 0.09}, {1000, 0.56}, {10000, 5.2}}},
		},
	}
}

func TestCostCurveChartSVG(t *testing.T) {
	a, err := SVG(costCurves())
	if err != nil {
		t.Fatal(err)
	}
	b, err := SVG(costCurves())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two renders of the same chart differ")
	}
	s := string(a)
	for _, want := range []string{"request rate (requests/s)", "cost (US$ per month)", "go / ping", "&lt;script&gt;nginx&lt;/script&gt;",
		"stroke:#E69F00;", "stroke:#56B4E9;"} { // Okabe–Ito orange and sky blue, in order
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(s, "<script>") {
		t.Error("a label was written as markup")
	}
	// 100..10000 spans two decades: log rate axis, labelled at the powers of ten.
	for _, tick := range []string{">100<", ">1,000<", ">10,000<"} {
		if !strings.Contains(s, tick) {
			t.Errorf("log axis tick %s missing", tick)
		}
	}
	var png bytes.Buffer
	if err := WritePNG(&png, costCurves()); err != nil || !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")) {
		t.Errorf("PNG: %v", err)
	}
}

func TestCostCurveChartErrors(t *testing.T) {
	for _, tc := range []struct {
		c    *CostCurveChart
		want string
	}{
		{&CostCurveChart{Title: "t"}, `cost curve chart "t": no stacks`},
		{&CostCurveChart{Title: "t", Curves: []CostCurve{{Name: "a"}}}, `cost curve chart "t": "a" has no points`},
		{&CostCurveChart{Title: "t", Curves: []CostCurve{{Name: "a", Points: []CostPoint{{1, math.NaN()}}}}},
			`cost curve chart "t": "a" has point (1 requests/s, $NaN a month)`},
		{&CostCurveChart{Title: "t", Curves: []CostCurve{{Name: "a", Points: []CostPoint{{-1, 1}}}}},
			`cost curve chart "t": "a" has point (-1 requests/s, $1 a month)`},
	} {
		if _, err := SVG(tc.c); err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	// A single point and a linear range draw without error.
	one := &CostCurveChart{Title: "one", Curves: []CostCurve{{Name: "a", Points: []CostPoint{{0, 0}}}}}
	if _, err := SVG(one); err != nil {
		t.Error(err)
	}
}
