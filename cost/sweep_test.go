package cost

import (
	"errors"
	"slices"
	"testing"
)

func TestParseSweepPoints(t *testing.T) {
	tests := []struct {
		spec string
		want []float64
	}{
		{"rps=100..10000", []float64{100, 200, 500, 1000, 2000, 5000, 10000}},
		{"rps=150..3000", []float64{150, 200, 500, 1000, 2000, 3000}},
		{"rps=0.5..2", []float64{0.5, 1, 2}},
		{"rps=0.03..0.3", []float64{0.03, 0.05, 0.1, 0.2, 0.3}},
		{"rps=1000..1000", []float64{1000}},
		{"rps=1e3..2e3", []float64{1000, 2000}},
		{" rps = 100..1000 ", []float64{100, 200, 500, 1000}},
		{"rps=0..1000:250", []float64{0, 250, 500, 750, 1000}},
		{"rps=100..1000:400", []float64{100, 500, 900}}, // the end only where it falls on the grid
		{"rps=0.1..0.3:0.1", []float64{0.1, 0.2, 0.3}},  // 0.1 + 2×0.1 rounds above 0.3: the end itself
		{"rps=5..5:1", []float64{5}},
	}
	for _, tc := range tests {
		r, err := ParseSweep(tc.spec)
		if err != nil {
			t.Errorf("%q: %v", tc.spec, err)
			continue
		}
		if got := r.Points(); !slices.Equal(got, tc.want) {
			t.Errorf("%q: points %v, want %v", tc.spec, got, tc.want)
		}
	}
}

func TestParseSweepErrors(t *testing.T) {
	const hint = " (want rps=A..B for log-spaced 1-2-5 points or rps=A..B:STEP for a linear step)"
	tests := []struct{ spec, want string }{
		{"100..1000", `sweep "100..1000": missing '='`},
		{"conns=1..10", `sweep "conns=1..10": can only sweep rps, not "conns"`},
		{"rps=100-1000", `sweep "rps=100-1000": missing '..'`},
		{"rps=a..1000", `sweep "rps=a..1000": start "a" is not a finite number`},
		{"rps=1..inf", `sweep "rps=1..inf": end "inf" is not a finite number`},
		{"rps=1..10:0", `sweep "rps=1..10:0": step 0 must be > 0`},
		{"rps=1..10:x", `sweep "rps=1..10:x": step "x" is not a finite number`},
		{"rps=-10..10:1", `sweep "rps=-10..10:1": start -10 is a negative rate`},
		{"rps=100..10", `sweep "rps=100..10": end 10 is below start 100`},
		{"rps=0..1000", `sweep "rps=0..1000": a log-spaced sweep needs a start > 0; give a step for a linear one, e.g. rps=0..1000:100`},
		{"rps=0..1e9:1", `sweep "rps=0..1e9:1": 10001 points, more than 10000`},
	}
	for _, tc := range tests {
		_, err := ParseSweep(tc.spec)
		var se *SweepSyntaxError
		if !errors.As(err, &se) || err.Error() != tc.want+hint {
			t.Errorf("%q: error %v, want %s", tc.spec, err, tc.want+hint)
		}
	}
}

func TestSweep(t *testing.T) {
	s := Stack{CPUPerRequestS: 0.4e-3, Memory: FixedMemory(0.5)}
	w := Workload{Utilisation: 0.6}
	es, err := Sweep(s, w, cmdLinePrice, []float64{0, 1000, 2000})
	if err != nil {
		t.Fatal(err)
	}
	// 0: memory only, 1.622425; 1000: the checked example; 2000: memory + twice the CPU.
	want := []float64{1.622425, 21.322691666666667, 1.622425 + 2*19.700266666666667}
	for i, e := range es {
		if !close(e.TotalUSDMonth, want[i], 1e-13) || e.Workload.RPS != []float64{0, 1000, 2000}[i] {
			t.Errorf("point %d: rps %v total %v, want %v", i, e.Workload.RPS, e.TotalUSDMonth, want[i])
		}
	}
	if _, err := Sweep(Stack{}, w, cmdLinePrice, []float64{1}); err == nil {
		t.Error("a stack without CPU data was swept")
	}
}

func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"rps=100..10000", "rps=0..1000:250", "rps=1e-300..1e300", "rps=", "rps=1..2:3:4", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		r, err := ParseSweep(spec)
		if err != nil {
			return
		}
		pts := r.Points()
		if len(pts) == 0 || len(pts) > MaxSweepPoints {
			t.Fatalf("%q: %d points", spec, len(pts))
		}
		if pts[0] != r.From || pts[len(pts)-1] > r.To {
			t.Fatalf("%q: points %v outside [%v, %v]", spec, pts, r.From, r.To)
		}
		for i := 1; i < len(pts); i++ {
			if !(pts[i] > pts[i-1]) {
				t.Fatalf("%q: points not strictly ascending: %v", spec, pts)
			}
		}
	})
}
