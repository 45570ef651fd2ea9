package stats

import (
	"fmt"
	"math"
)

// DefaultDriftTolerance is the calibration drift beyond which a run is
// flagged: 5%.
const DefaultDriftTolerance = 0.05

// A DriftResult compares the timings of a fixed CPU job before and after a
// run (at one process count).
type DriftResult struct {
	BeforeMS, AfterMS float64 // medians of the repeated timings
	NBefore, NAfter   int
	// Ratio is AfterMS / BeforeMS: above 1 the machine got slower.
	Ratio     float64
	Tolerance float64
	// Flagged is |Ratio - 1| > Tolerance: the machine's speed moved
	// during the run, so the run's numbers are suspect.
	Flagged  bool
	Warnings []Warning
}

// Drift compares the median of after to the median of before (type 7
// medians over the repeated timings). A tolerance <= 0 or NaN means
// DefaultDriftTolerance. With an empty side, or a zero before median, the
// ratio is NaN, the run is flagged (its speed cannot be vouched for) and a
// warning says why.
func Drift(before, after []float64, tolerance float64) DriftResult {
	if !(tolerance > 0) {
		tolerance = DefaultDriftTolerance
	}
	b, a := dropNaN(before), dropNaN(after)
	r := DriftResult{
		BeforeMS: Median(b), AfterMS: Median(a),
		NBefore: len(b), NAfter: len(a),
		Tolerance: tolerance, Ratio: math.NaN(),
	}
	switch {
	case len(b) == 0 || len(a) == 0:
		r.Flagged = true
		r.Warnings = append(r.Warnings, warn(WarnInvalidInput, fmt.Sprintf("calibration has %d timings before and %d after; drift unknown", len(b), len(a))))
		return r
	case r.BeforeMS <= 0:
		r.Flagged = true
		r.Warnings = append(r.Warnings, warn(WarnInvalidInput, fmt.Sprintf("calibration median before is %v ms; drift unknown", r.BeforeMS)))
		return r
	}
	r.Ratio = r.AfterMS / r.BeforeMS
	r.Flagged = math.Abs(r.Ratio-1) > tolerance
	if len(b) < 3 || len(a) < 3 {
		r.Warnings = append(r.Warnings, warn(WarnTooFewSamples, fmt.Sprintf("calibration median of %d timings before and %d after; time at least 3 of each", len(b), len(a))))
	}
	return r
}
