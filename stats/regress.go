package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// pairs returns the (x, y) pairs where neither is NaN; unequal lengths are
// cut to the shorter with a warning.
func pairs(x, y []float64) (xs, ys []float64, ws []Warning) {
	n := min(len(x), len(y))
	if len(x) != len(y) {
		ws = append(ws, warn(WarnInvalidInput, fmt.Sprintf("x has %d values and y %d; using the first %d", len(x), len(y), n)))
	}
	dropped := 0
	for i := 0; i < n; i++ {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			dropped++
			continue
		}
		xs = append(xs, x[i])
		ys = append(ys, y[i])
	}
	if dropped > 0 {
		ws = append(ws, warn(WarnInvalidInput, fmt.Sprintf("%d points with NaN left out", dropped)))
	}
	return xs, ys, ws
}

// QuadraticTerm fits y = b0 + b1*x + b2*x² by least squares and returns b2,
// its two-sided t-test p-value (n-3 degrees of freedom) and ok=false when
// there are fewer than four points or fewer than three distinct x. x is
// centred and scaled internally for a well-conditioned solve; b2 is
// returned in the units of the original x.
func QuadraticTerm(x, y []float64) (b2, p float64, ok bool) {
	xs, ys, _ := pairs(x, y)
	n := len(xs)
	distinct := map[float64]bool{}
	for _, v := range xs {
		distinct[v] = true
	}
	if n < 4 || len(distinct) < 3 {
		return math.NaN(), math.NaN(), false
	}
	mx, sx := stat.MeanStdDev(xs, nil)
	X := mat.NewDense(n, 3, nil)
	Y := mat.NewVecDense(n, ys)
	for i, v := range xs {
		z := (v - mx) / sx
		X.Set(i, 0, 1)
		X.Set(i, 1, z)
		X.Set(i, 2, z*z)
	}
	var qr mat.QR
	qr.Factorize(X)
	var beta mat.VecDense
	if err := qr.SolveVecTo(&beta, false, Y); err != nil {
		return math.NaN(), math.NaN(), false
	}
	var fitted mat.VecDense
	fitted.MulVec(X, &beta)
	sse := 0.0
	for i := 0; i < n; i++ {
		r := ys[i] - fitted.AtVec(i)
		sse += r * r
	}
	var xtx, inv mat.Dense
	xtx.Mul(X.T(), X)
	if err := inv.Inverse(&xtx); err != nil {
		return math.NaN(), math.NaN(), false
	}
	df := float64(n - 3)
	se := math.Sqrt(sse / df * inv.At(2, 2))
	b2z := beta.AtVec(2)
	b2 = b2z / (sx * sx)
	if se == 0 {
		if b2z == 0 {
			return b2, 1, true
		}
		return b2, 0, true
	}
	t := math.Abs(b2z / se)
	p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(t)
	return b2, p, true
}

// A MemoryPoint is the memory of a server (MiB, 2^20 bytes) measured while
// Concurrency requests were in flight, each waiting.
type MemoryPoint struct {
	Concurrency float64
	MemoryMB    float64
}

// The rule by which CheckMemoryFit says that a memory series bends.
const (
	// BendMinR2: a linear fit with R² below this does not describe the
	// series.
	BendMinR2 = 0.9
	// BendAlpha: a quadratic term significant at this level is curvature...
	BendAlpha = 0.05
	// BendMinSlopeChange: ...when it also changes the local slope across
	// the measured range by more than this fraction of the linear slope.
	BendMinSlopeChange = 0.2
)

// A MemoryFit is the memory growth of one series (one pass, or all passes
// pooled) per 1000 concurrent waiting requests. Its figures are those of
// the store's view memory_slopes, their one definition; CheckMemoryFit
// adds whether the series bends.
type MemoryFit struct {
	// OLS slope in GiB per 1000 concurrent requests and its standard
	// error (NaN under three points).
	SlopeGiBPer1000   float64
	SlopeSEGiBPer1000 float64
	InterceptGiB      float64
	R2                float64
	// Theil–Sen slope (robust to one wild point) in the same unit.
	TheilSenGiBPer1000   float64
	TheilSenInterceptGiB float64
	Points               int
	// Bends is true when the series is not a straight line by the rule
	// of CheckMemoryFit; Warnings then says why.
	Bends    bool
	Warnings []Warning
}

// CheckMemoryFit takes the fit of a memory series (its slope, R² and
// point count as memory_slopes gives them) and the series' points (memory
// in MiB against concurrency), and says what the figures cannot carry:
// a slope from under two points or from one concurrency level (NaN), a
// standard error from under three points, and whether the series bends.
//
// The series bends when R² < BendMinR2 (from three points), or (from four
// points with at least three distinct concurrency levels) when a quadratic
// term b2 is significant (two-sided t-test, p < BendAlpha) and changes the
// local slope by |2*b2*(max-min concurrency)| > BendMinSlopeChange x |OLS
// slope|; the magnitude condition keeps a negligible but precisely measured
// curvature from being called a bend. A bending series gets a WarnPoorFit
// warning: its slope depends on the concurrency levels chosen and should
// not be extrapolated.
func CheckMemoryFit(m MemoryFit, points []MemoryPoint) MemoryFit {
	x := make([]float64, len(points))
	y := make([]float64, len(points))
	for i, p := range points {
		x[i], y[i] = p.Concurrency, p.MemoryMB
	}
	m.Bends, m.Warnings = false, nil
	switch {
	case m.Points < 2:
		m.Warnings = append(m.Warnings, warn(WarnTooFewSamples, fmt.Sprintf("need >= 2 points for a slope, have %d", m.Points)))
		return m
	case math.IsNaN(m.SlopeGiBPer1000):
		m.Warnings = append(m.Warnings, warn(WarnZeroVariance, "all x values are equal; the slope is undefined"))
		return m
	case m.Points < 3:
		m.Warnings = append(m.Warnings, warn(WarnTooFewSamples, "need >= 3 points for the slope's standard error"))
		return m
	}
	if m.R2 < BendMinR2 {
		m.Bends = true
		m.Warnings = append(m.Warnings, warn(WarnPoorFit, fmt.Sprintf("memory does not grow linearly with concurrency (R² = %.3f < %g)", m.R2, BendMinR2)))
	}
	if b2, p, ok := QuadraticTerm(x, y); ok {
		xs, _, _ := pairs(x, y)
		// b2 is in MiB per request², the slope in GiB per 1000 requests.
		change := math.Abs(2*b2*(slices.Max(xs)-slices.Min(xs))) * 1000 / 1024
		slope := m.SlopeGiBPer1000
		if p < BendAlpha && change > BendMinSlopeChange*math.Abs(slope) {
			m.Bends = true
			dir := "steepens"
			if b2*slope < 0 || (slope == 0 && b2 < 0) {
				dir = "flattens"
			}
			m.Warnings = append(m.Warnings, warn(WarnPoorFit, fmt.Sprintf("memory growth %s with concurrency (quadratic term p = %.3g)", dir, p)))
		}
	}
	return m
}
