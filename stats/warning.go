package stats

// WarningKind classifies a Warning so that a report can group identical
// footnotes and a program can tell the cases apart.
type WarningKind int

// The kinds of warning the package returns.
const (
	// WarnTooFewSamples: too few values for the requested interval or
	// test; the statistic is shown but its interval is unbounded or the
	// test cannot reach significance.
	WarnTooFewSamples WarningKind = iota + 1
	// WarnZeroVariance: every value is equal.
	WarnZeroVariance
	// WarnInvalidInput: empty input, NaN, or a value outside its domain.
	WarnInvalidInput
	// WarnPoorFit: a regression does not describe its points (low R² or
	// curvature); the slope is shown but should not be trusted alone.
	WarnPoorFit
	// WarnNoneHeld: a ladder's first step already failed.
	WarnNoneHeld
	// WarnStepOrder: ladder steps were not in increasing target order or
	// were missing.
	WarnStepOrder
	// WarnLowerBound: the value is only a lower bound, e.g. a ladder that
	// still held at its top step.
	WarnLowerBound
	// WarnDesign: a caveat of the group of the experiment's design that
	// the values belong to (a drift, too few runs, failed requests ...),
	// in the words the caller was given.
	WarnDesign
)

// A Warning is a caveat attached to a statistic, meant to be printed as a
// footnote beside it. The Msg is a complete sentence fragment such as
// "need >= 6 samples for a 95% confidence interval".
type Warning struct {
	Kind WarningKind
	Msg  string
}

// String returns the message.
func (w Warning) String() string { return w.Msg }

func warn(kind WarningKind, msg string) Warning { return Warning{Kind: kind, Msg: msg} }
