package cost

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxSweepPoints bounds the number of rates a sweep may evaluate.
const MaxSweepPoints = 10000

// Range is a range of request rates to sweep.
//
//	rps=A..B        log-spaced: A, then every 1, 2, 5 × 10^k strictly between
//	                A and B, then B (rps=100..10000 gives 100 200 500 1000
//	                2000 5000 10000); A must be > 0
//	rps=A..B:STEP   linear: A, A+STEP, A+2·STEP, … up to B (B itself only
//	                where it falls on that grid, as with seq)
type Range struct {
	From, To float64
	// Step is the linear step; 0 means the log-spaced 1-2-5 series.
	Step float64
}

// SweepSyntaxError is a --sweep spec that does not parse.
type SweepSyntaxError struct {
	Spec string
	Msg  string
}

func (e *SweepSyntaxError) Error() string {
	return fmt.Sprintf("sweep %q: %s (want rps=A..B for log-spaced 1-2-5 points or rps=A..B:STEP for a linear step)", e.Spec, e.Msg)
}

// ParseSweep parses "rps=A..B" or "rps=A..B:STEP".
func ParseSweep(spec string) (Range, error) {
	bad := func(format string, a ...any) (Range, error) {
		return Range{}, &SweepSyntaxError{Spec: spec, Msg: fmt.Sprintf(format, a...)}
	}
	name, rest, ok := strings.Cut(spec, "=")
	if !ok {
		return bad("missing '='")
	}
	if strings.TrimSpace(name) != "rps" {
		return bad("can only sweep rps, not %q", name)
	}
	rangePart, stepPart, hasStep := strings.Cut(rest, ":")
	a, b, ok := strings.Cut(rangePart, "..")
	if !ok {
		return bad("missing '..'")
	}
	parse := func(what, s string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, &SweepSyntaxError{Spec: spec, Msg: fmt.Sprintf("%s %q is not a finite number", what, s)}
		}
		return v, nil
	}
	var r Range
	var err error
	if r.From, err = parse("start", a); err != nil {
		return Range{}, err
	}
	if r.To, err = parse("end", b); err != nil {
		return Range{}, err
	}
	if hasStep {
		if r.Step, err = parse("step", stepPart); err != nil {
			return Range{}, err
		}
		if r.Step <= 0 {
			return bad("step %s must be > 0", num(r.Step))
		}
	}
	if r.From < 0 {
		return bad("start %s is a negative rate", num(r.From))
	}
	if r.To < r.From {
		return bad("end %s is below start %s", num(r.To), num(r.From))
	}
	if !hasStep && r.From == 0 {
		return bad("a log-spaced sweep needs a start > 0; give a step for a linear one, e.g. rps=0..%s:%s", num(r.To), num(r.To/10))
	}
	if n := r.count(); n > MaxSweepPoints {
		return bad("%d points, more than %d", n, MaxSweepPoints)
	}
	return r, nil
}

// count is the number of points without building them (linear case) or
// an upper bound (log case).
func (r Range) count() int {
	if r.Step > 0 {
		n := math.Floor((r.To-r.From)/r.Step*(1+1e-12)) + 1
		if n > MaxSweepPoints+1 {
			return MaxSweepPoints + 1
		}
		return int(n)
	}
	return 3*int(math.Ceil(math.Log10(r.To/r.From))+1) + 2
}

// Points returns the rates of the range, ascending, without duplicates.
func (r Range) Points() []float64 {
	if r.Step > 0 {
		n := r.count()
		pts := make([]float64, 0, n)
		for i := range n {
			v := r.From + float64(i)*r.Step
			if v > r.To {
				v = r.To // within the 1e-12 tolerance of count: the end itself
			}
			if len(pts) > 0 && v <= pts[len(pts)-1] {
				continue // a step below the rates' float resolution
			}
			pts = append(pts, v)
		}
		return pts
	}
	pts := []float64{r.From}
	k0 := int(math.Floor(math.Log10(r.From)))
	k1 := int(math.Ceil(math.Log10(r.To)))
	for k := k0; k <= k1; k++ {
		for _, m := range []float64{1, 2, 5} {
			v := pow10(m, k)
			if v > r.From && v < r.To {
				pts = append(pts, v)
			}
		}
	}
	if r.To > r.From {
		pts = append(pts, r.To)
	}
	return pts
}

// pow10 is m × 10^k with a single rounding (10^k is exact for 0 <= k <= 22).
func pow10(m float64, k int) float64 {
	if k >= 0 {
		return m * math.Pow10(k)
	}
	return m / math.Pow10(-k)
}

// Sweep evaluates the model at each rate, with w's wait, latency and
// utilisation.
func Sweep(s Stack, w Workload, p Price, rates []float64) ([]Estimate, error) {
	out := make([]Estimate, 0, len(rates))
	for _, r := range rates {
		w.RPS = r
		e, err := Monthly(s, w, p)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
