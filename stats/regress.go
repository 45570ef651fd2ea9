package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// A Fit is an ordinary least-squares line y = Intercept + Slope*x.
//
// SlopeCILow and SlopeCIHigh bound the t-based confidence interval of the
// slope at Confidence: Slope ± t(1-(1-c)/2, n-2) * SE, SE = sqrt(SSE/(n-2)
// / Σ(x-x̄)²), the interval of R's confint(lm(y ~ x)). They are NaN with
// fewer than three points (no residual degree of freedom).
type Fit struct {
	Slope, Intercept        float64
	R2                      float64
	SlopeCILow, SlopeCIHigh float64
	// SlopeSE is the standard error of the slope, sqrt(SSE/(n-2) /
	// Σ(x-x̄)²); NaN with fewer than three points.
	SlopeSE    float64
	Confidence float64
	N          int
	Warnings   []Warning
}

// OLS fits y on x by least squares (gonum's stat.LinearRegression) with a
// slope interval at DefaultConfidence. See OLSAt.
func OLS(x, y []float64) Fit { return OLSAt(x, y, DefaultConfidence) }

// OLSAt fits y on x by least squares with a slope interval at the given
// confidence level. x and y must have the same length; pairs where either
// is NaN are left out with a warning. With fewer than two points, or all x
// equal, the slope is NaN.
func OLSAt(x, y []float64, confidence float64) Fit {
	f := Fit{Confidence: confidence}
	nan := math.NaN()
	f.Slope, f.Intercept, f.R2, f.SlopeCILow, f.SlopeCIHigh, f.SlopeSE = nan, nan, nan, nan, nan, nan
	xs, ys, ws := pairs(x, y)
	f.Warnings = append(f.Warnings, ws...)
	f.N = len(xs)
	if f.N < 2 {
		f.Warnings = append(f.Warnings, warn(WarnTooFewSamples, fmt.Sprintf("need >= 2 points for a slope, have %d", f.N)))
		return f
	}
	if slices.Min(xs) == slices.Max(xs) {
		f.Warnings = append(f.Warnings, warn(WarnZeroVariance, "all x values are equal; the slope is undefined"))
		return f
	}
	if !(confidence > 0 && confidence < 1) {
		f.Warnings = append(f.Warnings, warn(WarnInvalidInput, fmt.Sprintf("confidence level %v is not between 0 and 1; using %v", confidence, DefaultConfidence)))
		confidence = DefaultConfidence
		f.Confidence = confidence
	}
	f.Intercept, f.Slope = stat.LinearRegression(xs, ys, nil, false)
	f.R2 = stat.RSquared(xs, ys, nil, f.Intercept, f.Slope)
	if f.N < 3 {
		f.Warnings = append(f.Warnings, warn(WarnTooFewSamples, "need >= 3 points for a slope confidence interval"))
		return f
	}
	mx := stat.Mean(xs, nil)
	sxx, sse := 0.0, 0.0
	for i := range xs {
		d := xs[i] - mx
		sxx += d * d
		r := ys[i] - (f.Intercept + f.Slope*xs[i])
		sse += r * r
	}
	df := float64(f.N - 2)
	se := math.Sqrt(sse / df / sxx)
	f.SlopeSE = se
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - (1-confidence)/2)
	f.SlopeCILow, f.SlopeCIHigh = f.Slope-t*se, f.Slope+t*se
	return f
}

// TheilSen returns the Theil–Sen line: the slope is the median of the
// slopes (y_j - y_i)/(x_j - x_i) over all pairs i < j with x_i != x_j, and
// the intercept is the median of y - slope*x. This is SciPy's
// theilslopes(y, x, method="joint"); SciPy's default, method="separate",
// uses median(y) - slope*median(x) instead. Medians are the usual (type 7)
// median. NaN pairs are left out; with no pair of distinct x both results
// are NaN.
func TheilSen(x, y []float64) (slope, intercept float64) {
	xs, ys, _ := pairs(x, y)
	var slopes []float64
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			if dx := xs[j] - xs[i]; dx != 0 {
				slopes = append(slopes, (ys[j]-ys[i])/dx)
			}
		}
	}
	if len(slopes) == 0 {
		return math.NaN(), math.NaN()
	}
	slope = Median(slopes)
	res := make([]float64, len(xs))
	for i := range xs {
		res[i] = ys[i] - slope*xs[i]
	}
	return slope, Median(res)
}

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

// The rule by which MemorySlope says that a memory series bends.
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
// pooled) per 1000 concurrent waiting requests.
type MemoryFit struct {
	// OLS slope in GiB per 1000 concurrent requests, with its t-based
	// interval at DefaultConfidence.
	SlopeGiBPer1000                             float64
	SlopeCILowGiBPer1000, SlopeCIHighGiBPer1000 float64
	// SlopeSEGiBPer1000 is the standard error of the OLS slope.
	SlopeSEGiBPer1000 float64
	InterceptGiB      float64
	R2                float64
	// Theil–Sen slope (robust to one wild point) in the same unit.
	TheilSenGiBPer1000   float64
	TheilSenInterceptGiB float64
	Points               int
	// Bends is true when the series is not a straight line by the rule
	// of MemorySlope; Warnings then says why.
	Bends    bool
	Warnings []Warning
}

// MemorySlope fits memory (MiB) against concurrency and converts the slope
// from MiB per concurrent request to GiB per 1000 concurrent requests
// (x 1000 / 1024) and the intercept to GiB (/ 1024).
//
// The series bends when R² < BendMinR2 (from three points), or (from four
// points with at least three distinct concurrency levels) when a quadratic
// term b2 is significant (two-sided t-test, p < BendAlpha) and changes the
// local slope by |2*b2*(max-min concurrency)| > BendMinSlopeChange x |OLS
// slope|; the magnitude condition keeps a negligible but precisely measured
// curvature from being called a bend. A bending series gets a WarnPoorFit
// warning: its slope depends on the concurrency levels chosen and should
// not be extrapolated.
func MemorySlope(points []MemoryPoint) MemoryFit {
	x := make([]float64, len(points))
	y := make([]float64, len(points))
	for i, p := range points {
		x[i], y[i] = p.Concurrency, p.MemoryMB
	}
	f := OLS(x, y)
	const per1000 = 1000.0 / 1024
	m := MemoryFit{
		SlopeGiBPer1000:       f.Slope * per1000,
		SlopeCILowGiBPer1000:  f.SlopeCILow * per1000,
		SlopeCIHighGiBPer1000: f.SlopeCIHigh * per1000,
		SlopeSEGiBPer1000:     f.SlopeSE * per1000,
		InterceptGiB:          f.Intercept / 1024,
		R2:                    f.R2,
		Points:                f.N,
		Warnings:              f.Warnings,
	}
	ts, ti := TheilSen(x, y)
	m.TheilSenGiBPer1000, m.TheilSenInterceptGiB = ts*per1000, ti/1024
	if f.N >= 3 && f.R2 < BendMinR2 {
		m.Bends = true
		m.Warnings = append(m.Warnings, warn(WarnPoorFit, fmt.Sprintf("memory does not grow linearly with concurrency (R² = %.3f < %g)", f.R2, BendMinR2)))
	}
	if b2, p, ok := QuadraticTerm(x, y); ok && !math.IsNaN(f.Slope) {
		xs, _, _ := pairs(x, y)
		change := math.Abs(2 * b2 * (slices.Max(xs) - slices.Min(xs)))
		if p < BendAlpha && change > BendMinSlopeChange*math.Abs(f.Slope) {
			m.Bends = true
			dir := "steepens"
			if b2*f.Slope < 0 || (f.Slope == 0 && b2 < 0) {
				dir = "flattens"
			}
			m.Warnings = append(m.Warnings, warn(WarnPoorFit, fmt.Sprintf("memory growth %s with concurrency (quadratic term p = %.3g)", dir, p)))
		}
	}
	return m
}
