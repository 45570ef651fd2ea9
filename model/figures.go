package model

import (
	"math"
	"time"
)

// The rows of the store's views and table macros, as Go reads them: one
// struct per view, one field per column it is read for. A missing number
// is NaN, a missing count -1, a missing label "". The store fills them
// (package store); report/analyze, wra cost and wra compare read them, so
// that every figure has the one definition its view gives it.

// CPURun is one run of the view cpu_per_request with a stack CPU figure:
// CPU per successful response (cpu_per_request's responses_ok).
type CPURun struct {
	RunID, Test, Server, Database string
	TargetRPS                     float64 // NaN for a run at full speed
	Connections                   int64   // -1 where not recorded
	// Per successful response, µs; NaN where not measured or where the
	// run served no successful response.
	StackUS, UserUS, KernelUS, DBUS float64
	// DivisorFrom says what the divisor was: "responses_2xx", or
	// "requests" (requests - non_2xx - errors).
	DivisorFrom  string
	P50MS, P99MS float64
	Failed       int64 // errors + non_2xx
	Source       string
	Line         int
	// Split holds the run's labels that tell experiments apart: those
	// its label_keys label names (set by a manifest or the command line).
	Split map[string]string
	// Tool is the tool that made the load: that of the report the record
	// is paired with (run_pairs), else the run's own ("records").
	Tool string
	// GroupID, Mode and Variant are the run's group of the experiment's
	// design (the view run_groups), Block its block (its trial), "" where
	// it has none.
	GroupID, Mode, Variant, Block string
}

// CostGroup is one row of the table macro cost_groups: a group of the
// experiment that can price its stack (server, database, test, variant),
// with the medians of its runs and whether it held its rate.
type CostGroup struct {
	Server, Database, Test, Variant string
	GroupID                         string
	FixedRate                       bool    // false: a group at full speed, for a stack without fixed-rate groups
	TargetRPS                       float64 // NaN at full speed
	Connections                     int64   // -1 where not recorded
	Passes                          int64
	// Medians over the runs: CPU per successful response (µs; DBUS NaN
	// where not measured), p50 and p95 latency (ms) and the rate achieved.
	StackUS, DBUS, P50MS, P95MS, RPS float64
	HeldPasses                       int64
	Held                             bool
	RunIDs                           []string
	// Sources and Lines are where each run's CPU figures were read (a
	// paired harness record's), in the order of RunIDs.
	Sources []string
	Lines   []int64
}

// StackFilter narrows the stacks read; an empty field matches all.
type StackFilter struct {
	Server, Database, Test string
}

// RateRun is one run as the rounds and ranking tables read it, counted
// once (run_groups: a k6 stream and its summary are one run).
type RateRun struct {
	Test, Tool, Server, Database     string
	Connections                      int64 // -1 where not recorded
	TargetRPS                        float64
	RPS, MeanMS, P50MS, P95MS, P99MS float64
	Failed, Requests                 int64
	Corrected                        bool
	Source                           string
	Line                             int
	// GoodputRPS is the run's successful requests per second and
	// AllFailed whether none of its requests succeeded (run_outcomes);
	// Failure names what failed them, where the report says
	// (errors_breakdown: "connection refused × 90303"), or "".
	GoodputRPS float64
	AllFailed  bool
	Failure    string
	// DriftPct is the largest calibration drift covering the run (the
	// view run_calibration), in percent; 0 where no pair covers it.
	DriftPct float64
	// Warning is what the reader said of the run (label warning), or "".
	Warning string
	RunID   string
	// Split holds the run's labels that tell experiments apart (see
	// CPURun.Split).
	Split map[string]string
	// GroupID is the run's group (run_groups), Mode its mode and Block
	// its block (its trial), "" where it has none.
	GroupID, Mode, Block string
}

// SpectrumRow is one point of a fixed-rate run's latency spectrum.
type SpectrumRow struct {
	Test                  string
	TargetRPS             float64
	Server                string
	Database, Tool        string // Database "" where the run names none
	Variant               string // run_groups.variant, "" for none
	Corrected             bool
	RunID                 string
	Percentile, LatencyMS float64
	Count                 int64 // -1 where the tool prints none
}

// PeakMemory is the highest memory of a server against one database in
// one variant of the experiment, over the runs of all its groups (MiB;
// NaN where not recorded): a figure per set of groups that differ only in
// test and load, never across a database or a variant.
type PeakMemory struct {
	Server, Database, Variant string
	WorkingSetMB, PrivateMB   float64
	Runs                      int64
	// GroupIDs are the groups whose runs it is the highest of.
	GroupIDs []string
}

// Caveat is one thing that must be said beside every figure of a group
// (the table macro group_caveats): Kind is drift, passes, held, latency
// or counters, Text the words every surface prints.
type Caveat struct {
	GroupID, Kind, Text string
}

// DesignRule is the rule the caveats of groups are computed under: the
// calibration drift tolerated (a fraction), and the rule a fixed-rate run
// held its rate by (p95 < P95MS, error rate < MaxErrorRate, at least
// MinAchievedRatio of the target achieved).
type DesignRule struct {
	Tolerance, P95MS, MaxErrorRate, MinAchievedRatio float64
}

// MemorySeriesPoint is one point of a server's memory series.
type MemorySeriesPoint struct {
	Server      string
	Database    string // "" where the series names none
	Pass        int64  // -1 where not recorded
	Concurrency float64
	MemoryMB    float64
	Source      string
	Line        int
}

// MemorySlope is one row of the view memory_slopes: the memory growth of
// a server's series on a database in one pass, or over all its passes
// (Pooled), per 1000 concurrent waiting requests. Figures are NaN where
// the view has NULL.
type MemorySlope struct {
	Server   string
	Database string // "" where the series names none
	Pass     int64  // -1 on the pooled row and where not recorded
	Pooled   bool
	// OLS slope, its standard error (NaN under three points), intercept
	// and R².
	SlopeGiBPer1000, SlopeSEGiBPer1000 float64
	InterceptGiB, R2                   float64
	// Theil–Sen slope and intercept.
	TheilSenGiBPer1000, TheilSenInterceptGiB float64
	Points                                   int64
	// On the pooled row: how many passes have a slope, and the min,
	// median and max of their OLS slopes (0 and NaN on per-pass rows).
	Passes                                                                    int64
	PassSlopeMinGiBPer1000, PassSlopeMedianGiBPer1000, PassSlopeMaxGiBPer1000 float64
}

// LadderStepRow is one row of the table macro ladder_steps: a step of a
// ladder run with Held under the rule the macro was called with.
type LadderStepRow struct {
	Kind                    string // samples, summary or fixed-rate
	Server, Test, Tool, Run string
	Database                string // "" where the runs name none
	Round                   int64  // -1 where not recorded
	Step                    string
	TargetRPS, AchievedRPS  float64 // TargetRPS NaN where the step's name is not a rate
	P95MS, ErrorRate        float64
	Held                    bool
	Requests, Failed        int64
	Source                  string
	Line                    int
	// Variant is the variant of the run that measured the step
	// (run_groups.variant): a ladder is never pooled across one.
	Variant string
	// FailuresFrom is where ErrorRate comes from: "step", "run" (a
	// summary whose whole run had no failure) or "" (unknown: ErrorRate
	// is NaN); RunErrorRate is a summary's whole-run error rate (NaN for
	// other kinds).
	FailuresFrom string
	RunErrorRate float64
}

// LadderRow is one row of the table macro ladders: the result of one
// ladder run under the rule the macro was called with.
type LadderRow struct {
	Kind, Server, Test, Tool, Run string
	Database                      string // "" where the runs name none
	HighestHeldRPS                float64
	HighestHeldAchievedRPS        float64 // the rate achieved at that step; NaN where unknown or none held
	StillHolding                  bool
	StepRPS                       float64 // NaN for a one-step ladder that held
	Steps                         int64
	// The first step, the first that failed and the lowest above it that
	// held again; NaN where there is none.
	FirstStepRPS, FirstFailedRPS, HeldAgainRPS float64
}

// CalibrationTiming is one row of the view calibration_pairs: a timing
// with the pair it belongs to.
type CalibrationTiming struct {
	Pair      string
	Phase     string // before or after
	Processes int64
	MS        float64
	UTC       time.Time // zero where the file has no time
	Source    string
	Line      int
}

// DriftRow is one row of the table macro calibration_drift.
type DriftRow struct {
	Pair                     string
	Processes                int64
	BeforeMS, AfterMS, Ratio float64
	Flagged                  bool
	NBefore, NAfter          int64
}

// RunCounters is the counters of one run, as the checks of broken
// counters read them (-1 for a missing count, NaN for a missing figure).
type RunCounters struct {
	Server, Test, Tool                       string
	TargetRPS, RPS                           float64
	Requests, Responses2xx                   int64
	CPUServerS, CPUUserS, CPUKernelS, CPUDBS float64
	// Broken names the record's values stored as NULL because they
	// cannot be right, from its raw.<column> labels: "cpu_postgres_s
	// -41.73" ("" for none).
	Broken string
	Source string
	Line   int
}

// RunRef names one run: its server and where it was read.
type RunRef struct {
	Server string
	Source string
	Line   int
}

// RunGroupRef names the group of the experiment (run_groups.group_id)
// that the run read from Source at Line belongs to; a harness record
// paired with a report has a ref of its own, to the report's group.
type RunGroupRef struct {
	Source  string
	Line    int
	GroupID string
}

// RunFigures are the rows of the view run_figures, one per run: the
// column names and, per run, its values (nil, bool, int64, float64,
// string, time.Time or json.Number), as wra table lays them out.
type RunFigures struct {
	Columns []string
	Rows    [][]any
}

// HighestWorkingSet is the highest working set of server against database
// in variant (PeakMemory's row), MiB; NaN where none was recorded.
func HighestWorkingSet(peak []PeakMemory, server, database, variant string) float64 {
	for _, p := range peak {
		if p.Server == server && p.Database == database && p.Variant == variant {
			return p.WorkingSetMB
		}
	}
	return math.NaN()
}

// ToolRuns is what the runs say of one tool that made their load: its
// version as the tool printed it ("" where it printed none), how many
// runs, and the first and last start among those that recorded one
// (zero where none did).
type ToolRuns struct {
	Tool, Version string
	Runs          int64
	First, Last   time.Time
}

// LabelCount is how many runs carry a label with one value.
type LabelCount struct {
	Key, Value string
	Runs       int64
}
