package model

import (
	"math"
	"time"

	"github.com/wra-bench/wra/stats"
)

// The rows of the store's views and table macros, as Go reads them: one
// struct per view, one field per column it is read for. A missing number
// is NaN, a missing count -1, a missing label "". The store fills them
// (package store); report/analyze, wra cost and wra compare read them, so
// that every figure has the one definition its view gives it.

// CPURun is one run of the view cpu_per_request with a stack CPU figure:
// CPU per successful response (cpu_per_request's responses_ok).
type CPURun struct {
	RunID       string  `db:"run_id"`
	Test        string  `db:"test"`
	Server      string  `db:"server"`
	Database    string  `db:"database"`
	TargetRPS   float64 `db:"target_rps"`  // NaN for a run at full speed
	Connections int64   `db:"connections"` // -1 where not recorded
	// Per successful response, µs; NaN where not measured or where the
	// run served no successful response.
	StackUS  float64 `db:"stack_us"`
	UserUS   float64 `db:"user_us"`
	KernelUS float64 `db:"kernel_us"`
	DBUS     float64 `db:"db_us"`
	// TotalUS is the stack's and the database's, a database not measured
	// counting 0 (cpu_per_request.cpu_total_us_per_req).
	TotalUS float64 `db:"total_us"`
	// DivisorFrom says what the divisor was: "responses_2xx", or
	// "requests" (requests - non_2xx - errors).
	DivisorFrom string  `db:"divisor_from"`
	P50MS       float64 `db:"p50_ms"`
	P99MS       float64 `db:"p99_ms"`
	Failed      int64   `db:"failed"` // errors + non_2xx
	Source      string  `db:"source"`
	Line        int     `db:"line"`
	// Split holds the run's labels that tell experiments apart: those
	// its label_keys label names (set by a manifest or the command line).
	Split map[string]string `db:"split"`
	// Tool is the tool that made the load: that of the report the record
	// is paired with (run_pairs), else the run's own ("records").
	Tool string `db:"tool"`
	// GroupID, Mode and Variant are the run's group of the experiment's
	// design (the view run_groups), Block its block (its trial), "" where
	// it has none.
	GroupID string `db:"group_id"`
	Mode    string `db:"mode"`
	Variant string `db:"variant"`
	Block   string `db:"block"`
}

// CostGroup is one row of the table macro cost_groups: a group of the
// experiment that can price its stack (server, database, test, variant),
// with the medians of its runs and whether it held its rate.
type CostGroup struct {
	Server      string  `db:"server"`
	Database    string  `db:"database"`
	Test        string  `db:"test"`
	Variant     string  `db:"variant"`
	GroupID     string  `db:"group_id"`
	FixedRate   bool    `db:"fixed_rate"`  // false: a group at full speed, for a stack without fixed-rate groups
	TargetRPS   float64 `db:"target_rps"`  // NaN at full speed
	Connections int64   `db:"connections"` // -1 where not recorded
	Passes      int64   `db:"passes"`
	// Medians over the runs: CPU per successful response (µs; DBUS NaN
	// where not measured), p50 and p95 latency (ms) and the rate achieved.
	StackUS    float64  `db:"stack_us"`
	DBUS       float64  `db:"db_us"`
	P50MS      float64  `db:"p50_ms"`
	P95MS      float64  `db:"p95_ms"`
	RPS        float64  `db:"rps"`
	HeldPasses int64    `db:"held_passes"`
	Held       bool     `db:"held"`
	RunIDs     []string `db:"run_ids"`
	// Sources and Lines are where each run's CPU figures were read (a
	// paired harness record's), in the order of RunIDs.
	Sources []string `db:"sources"`
	Lines   []int64  `db:"lines"`
}

// StackFilter narrows the stacks read; an empty field matches all.
type StackFilter struct {
	Server, Database, Test string
}

// RateRun is one run as the rounds and ranking tables read it, counted
// once (run_groups: a k6 stream and its summary are one run).
type RateRun struct {
	Test        string  `db:"test"`
	Tool        string  `db:"tool"`
	Server      string  `db:"server"`
	Database    string  `db:"database"`
	Connections int64   `db:"connections"` // -1 where not recorded
	TargetRPS   float64 `db:"target_rps"`
	RPS         float64 `db:"rps"`
	MeanMS      float64 `db:"mean_ms"`
	P50MS       float64 `db:"p50_ms"`
	P95MS       float64 `db:"p95_ms"`
	P99MS       float64 `db:"p99_ms"`
	Failed      int64   `db:"failed"`
	Requests    int64   `db:"requests"`
	Corrected   bool    `db:"corrected"`
	Source      string  `db:"source"`
	Line        int     `db:"line"`
	// GoodputRPS is the run's successful requests per second and
	// AllFailed whether none of its requests succeeded (run_outcomes);
	// Failure names what failed them, where the report says
	// (errors_breakdown: "connection refused × 90303"), or "".
	GoodputRPS float64 `db:"goodput_rps"`
	AllFailed  bool    `db:"all_failed"`
	Failure    string  `db:"failure"`
	// DriftPct is the largest calibration drift covering the run (the
	// view run_calibration), in percent; 0 where no pair covers it.
	DriftPct float64 `db:"drift_pct"`
	// Warning is what the reader said of the run (label warning), or "".
	Warning string `db:"warning"`
	RunID   string `db:"run_id"`
	// Split holds the run's labels that tell experiments apart (see
	// CPURun.Split).
	Split map[string]string `db:"split"`
	// GroupID is the run's group (run_groups), Mode its mode and Block
	// its block (its trial), "" where it has none.
	GroupID string `db:"group_id"`
	Mode    string `db:"mode"`
	Block   string `db:"block"`
}

// SpectrumRow is one point of a fixed-rate run's latency spectrum.
type SpectrumRow struct {
	Test       string  `db:"test"`
	TargetRPS  float64 `db:"target_rps"`
	Server     string  `db:"server"`
	Database   string  `db:"database"`
	Tool       string  `db:"tool"`    // Database "" where the run names none
	Variant    string  `db:"variant"` // run_groups.variant, "" for none
	Corrected  bool    `db:"corrected"`
	RunID      string  `db:"run_id"`
	Percentile float64 `db:"percentile"`
	LatencyMS  float64 `db:"latency_m_s"`
	Count      int64   `db:"count"` // -1 where the tool prints none
}

// GroupFigures are the figures of one group of the experiment, its
// runs summarised once (the store's run_medians): medians, ranges and
// totals over the passes, NaN where no pass has the figure. Every table
// of wra analyze reads a group's medians from here; what SQL does not
// compute (the median's interval, the tests, the paired ratios within
// trials) is computed in Go over the group's runs.
type GroupFigures struct {
	GroupID   string `db:"group_id"`
	Passes    int64  `db:"passes"`
	RPSPasses int64  `db:"rps_passes"` // passes with a requests/s

	RPSMedian float64 `db:"rps_median"`
	RPSMin    float64 `db:"rps_min"`
	RPSMax    float64 `db:"rps_max"`
	// Goodput is run_outcomes.goodput_rps: successful requests per second.
	GoodputMedian float64 `db:"goodput_rps_median"`
	GoodputMin    float64 `db:"goodput_rps_min"`
	GoodputMax    float64 `db:"goodput_rps_max"`
	// Latencies are over the passes that got an answer.
	P50MSMedian float64 `db:"latency_p50_ms_median"`
	P95MSMedian float64 `db:"latency_p95_ms_median"`
	P99MSMedian float64 `db:"latency_p99_ms_median"`
	P99MSMin    float64 `db:"latency_p99_ms_min"`
	P99MSMax    float64 `db:"latency_p99_ms_max"`
	FailedTotal int64   `db:"failed_total"`
	AllFailed   bool    `db:"all_failed"`
	ErrorsTotal int64   `db:"errors_total"` // -1 where no run counted errors

	CPUPasses        int64   `db:"cpu_passes"` // passes with a server CPU per request
	CPUServerUSMed   float64 `db:"cpu_server_us_per_req_median"`
	CPUServerUSMin   float64 `db:"cpu_server_us_per_req_min"`
	CPUServerUSMax   float64 `db:"cpu_server_us_per_req_max"`
	CPUUserUSMedian  float64 `db:"cpu_user_us_per_req_median"`
	CPUKernelUSMed   float64 `db:"cpu_kernel_us_per_req_median"`
	CPUDBUSMedian    float64 `db:"cpu_db_us_per_req_median"`
	CPUTotalUSMedian float64 `db:"cpu_total_us_per_req_median"`
	CPUTotalUSMin    float64 `db:"cpu_total_us_per_req_min"`
	CPUTotalUSMax    float64 `db:"cpu_total_us_per_req_max"`
	WorkingSetMBMax  float64 `db:"working_set_mb_max"`
}

// PeakMemory is the highest memory of a server against one database in
// one variant of the experiment, over the runs of all its groups (MiB;
// NaN where not recorded): a figure per set of groups that differ only in
// test and load, never across a database or a variant.
type PeakMemory struct {
	Server       string  `db:"server"`
	Database     string  `db:"database"`
	Variant      string  `db:"variant"`
	WorkingSetMB float64 `db:"working_set_mb"`
	PrivateMB    float64 `db:"private_mb"`
	Runs         int64   `db:"runs"`
	// GroupIDs are the groups whose runs it is the highest of.
	GroupIDs []string `db:"group_ids"`
}

// Caveat is one thing that must be said beside every figure of a group
// (the table macro group_caveats): Kind is drift, passes, held, latency
// or counters, Text the words every surface prints.
type Caveat struct {
	GroupID string `db:"group_id"`
	Kind    string `db:"kind"`
	Text    string `db:"text"`
}

// DesignRule is the rule the caveats of groups are computed under: the
// calibration drift tolerated (a fraction), and the held rule, the one
// type that carries it from the flags to Go and to the store's macros: a
// fixed-rate run held its rate with p95 < P95MS, error rate <
// MaxErrorRate and at least MinAchievedRatio of the target achieved.
type DesignRule struct {
	Tolerance float64
	stats.LadderRule
}

// MemorySeriesPoint is one point of a server's memory series.
type MemorySeriesPoint struct {
	Server      string  `db:"server"`
	Database    string  `db:"database"` // "" where the series names none
	Pass        int64   `db:"pass"`     // -1 where not recorded
	Concurrency float64 `db:"concurrency"`
	MemoryMB    float64 `db:"memory_mb"`
	Source      string  `db:"source"`
	Line        int     `db:"line"`
}

// MemorySlope is one row of the view memory_slopes: the memory growth of
// a server's series on a database in one pass, or over all its passes
// (Pooled), per 1000 concurrent waiting requests. Figures are NaN where
// the view has NULL.
type MemorySlope struct {
	Server   string `db:"server"`
	Database string `db:"database"` // "" where the series names none
	Pass     int64  `db:"pass"`     // -1 on the pooled row and where not recorded
	Pooled   bool   `db:"pooled"`
	// OLS slope, its standard error (NaN under three points), intercept
	// and R².
	SlopeGiBPer1000   float64 `db:"slope_gib_per_1000"`
	SlopeSEGiBPer1000 float64 `db:"slope_se_gib_per_1000"`
	InterceptGiB      float64 `db:"intercept_gib"`
	R2                float64 `db:"r2"`
	// Theil–Sen slope and intercept.
	TheilSenGiBPer1000   float64 `db:"theil_sen_gib_per_1000"`
	TheilSenInterceptGiB float64 `db:"theil_sen_intercept_gib"`
	Points               int64   `db:"points"`
	// On the pooled row: how many passes have a slope, and the min,
	// median and max of their OLS slopes (0 and NaN on per-pass rows).
	Passes                    int64   `db:"passes"`
	PassSlopeMinGiBPer1000    float64 `db:"pass_slope_min_gib_per_1000"`
	PassSlopeMedianGiBPer1000 float64 `db:"pass_slope_median_gib_per_1000"`
	PassSlopeMaxGiBPer1000    float64 `db:"pass_slope_max_gib_per_1000"`
}

// LadderStepRow is one row of the table macro ladder_steps: a step of a
// ladder run with Held under the rule the macro was called with.
type LadderStepRow struct {
	Kind        string  `db:"kind"` // samples, summary or fixed-rate
	Server      string  `db:"server"`
	Test        string  `db:"test"`
	Tool        string  `db:"tool"`
	Run         string  `db:"run"`
	Database    string  `db:"database"` // "" where the runs name none
	Round       int64   `db:"round"`    // -1 where not recorded
	Step        string  `db:"step"`
	TargetRPS   float64 `db:"target_rps"`
	AchievedRPS float64 `db:"achieved_rps"` // TargetRPS NaN where the step's name is not a rate
	P95MS       float64 `db:"p95_ms"`
	ErrorRate   float64 `db:"error_rate"`
	Held        bool    `db:"held"`
	Requests    int64   `db:"requests"`
	Failed      int64   `db:"failed"`
	Source      string  `db:"source"`
	Line        int     `db:"line"`
	// Variant is the variant of the run that measured the step
	// (run_groups.variant): a ladder is never pooled across one.
	Variant string `db:"variant"`
	// FailuresFrom is where ErrorRate comes from: "step", "run" (a
	// summary whose whole run had no failure) or "" (unknown: ErrorRate
	// is NaN); RunErrorRate is a summary's whole-run error rate (NaN for
	// other kinds).
	FailuresFrom string  `db:"failures_from"`
	RunErrorRate float64 `db:"run_error_rate"`
}

// LadderRow is one row of the table macro ladders: the result of one
// ladder run under the rule the macro was called with.
type LadderRow struct {
	Kind                   string  `db:"kind"`
	Server                 string  `db:"server"`
	Test                   string  `db:"test"`
	Tool                   string  `db:"tool"`
	Run                    string  `db:"run"`
	Database               string  `db:"database"` // "" where the runs name none
	HighestHeldRPS         float64 `db:"highest_held_rps"`
	HighestHeldAchievedRPS float64 `db:"highest_held_achieved_rps"` // the rate achieved at that step; NaN where unknown or none held
	StillHolding           bool    `db:"still_holding"`
	StepRPS                float64 `db:"step_rps"` // NaN for a one-step ladder that held
	Steps                  int64   `db:"steps"`
	// The first step, the first that failed and the lowest above it that
	// held again; NaN where there is none.
	FirstStepRPS   float64 `db:"first_step_rps"`
	FirstFailedRPS float64 `db:"first_failed_rps"`
	HeldAgainRPS   float64 `db:"held_again_rps"`
}

// CalibrationTiming is one row of the view calibration_pairs: a timing
// with the pair it belongs to.
type CalibrationTiming struct {
	Pair      string    `db:"pair"`
	Phase     string    `db:"phase"` // before or after
	Processes int64     `db:"processes"`
	MS        float64   `db:"ms"`
	UTC       time.Time `db:"utc"` // zero where the file has no time
	Source    string    `db:"source"`
	Line      int       `db:"line"`
}

// DriftRow is one row of the table macro calibration_drift.
type DriftRow struct {
	Pair      string  `db:"pair"`
	Processes int64   `db:"processes"`
	BeforeMS  float64 `db:"before_ms"`
	AfterMS   float64 `db:"after_ms"`
	Ratio     float64 `db:"ratio"`
	Flagged   bool    `db:"flagged"`
	NBefore   int64   `db:"n_before"`
	NAfter    int64   `db:"n_after"`
	Tolerance float64 `db:"tolerance"`
	// BeforeLast and AfterFirst are the last timing before and the first
	// after, zero where the timings have no time.
	BeforeLast time.Time `db:"before_last_utc"`
	AfterFirst time.Time `db:"after_first_utc"`
}

// RunCounters is the counters of one run, as the checks of broken
// counters read them (-1 for a missing count, NaN for a missing figure).
type RunCounters struct {
	Server       string  `db:"server"`
	Test         string  `db:"test"`
	Tool         string  `db:"tool"`
	TargetRPS    float64 `db:"target_rps"`
	RPS          float64 `db:"rps"`
	Requests     int64   `db:"requests"`
	Responses2xx int64   `db:"responses_2xx"`
	CPUServerS   float64 `db:"cpu_server_s"`
	CPUUserS     float64 `db:"cpu_user_s"`
	CPUKernelS   float64 `db:"cpu_kernel_s"`
	CPUDBS       float64 `db:"cpu_db_s"`
	// Broken names the record's values stored as NULL because they
	// cannot be right, from its raw.<column> labels: "cpu_postgres_s
	// -41.73" ("" for none).
	Broken string `db:"broken"`
	Source string `db:"source"`
	Line   int    `db:"line"`
}

// RunRef names one run: its server and where it was read.
type RunRef struct {
	Server string `db:"server"`
	Source string `db:"source"`
	Line   int    `db:"line"`
}

// RunGroupRef names the group of the experiment (run_groups.group_id)
// that the run read from Source at Line belongs to; a harness record
// paired with a report has a ref of its own, to the report's group.
type RunGroupRef struct {
	Source  string `db:"source"`
	Line    int    `db:"line"`
	GroupID string `db:"group_id"`
}

// RunFigures are the rows of the view run_figures, one per run: the
// column names and, per run, its values (nil, bool, int64, float64,
// string, time.Time or json.Number), as wra table lays them out.
type RunFigures struct {
	Columns []string
	Rows    [][]any
	// Caveats are the caveats of the runs' groups and the groups of the
	// runs by where each was read (source and source_line): what a table
	// prints beside its cells; none are printed where it is empty.
	Caveats DesignCaveats
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
	Tool    string    `db:"tool"`
	Version string    `db:"version"`
	Runs    int64     `db:"runs"`
	First   time.Time `db:"first"`
	Last    time.Time `db:"last"`
}

// LabelCount is how many runs carry a label with one value.
type LabelCount struct {
	Key   string `db:"key"`
	Value string `db:"value"`
	Runs  int64  `db:"runs"`
}
