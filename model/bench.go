package model

import (
	"math"
	"slices"
)

// The groups and runs as benchmark dashboards read them (wra export
// --bmf, --github-smaller, --github-bigger, --gobench): a group of the
// experiment's design with its figures (the view run_medians), and each
// of its runs with the run's own figures. The store fills them; package
// report/bench lays them out.

// BenchGroup is one row of run_medians: a group of run_groups, its
// factors, and its figures over its runs (median, min and max; NaN where
// the view has NULL), with the caveats every surface prints beside them.
type BenchGroup struct {
	// GroupFigures are the group's figures (run_medians).
	GroupFigures
	Mode        string  `db:"mode"`
	Tool        string  `db:"tool"`
	Server      string  `db:"server"`
	Database    string  `db:"database"`    // "" where the runs name none
	Test        string  `db:"test"`        // "" where the runs name none
	Connections int64   `db:"connections"` // -1 where not recorded
	TargetRPS   float64 `db:"target_rps"`  // NaN at full speed
	// Factors are the group's labels beside the columns
	// (run_groups.factors: its variant), nil for none.
	Factors map[string]string `db:"factors"`

	// Caveats are group_caveats' for the group, in their order.
	Caveats []Caveat `db:"-"`
	// Runs are the group's runs, in run id order.
	Runs []BenchRun `db:"-"`
}

// BenchRun is one run of a group (run_groups, each run counted once),
// with its own figures (NaN where it has none): the columns of runs and
// of cpu_per_request that run_medians summarises.
type BenchRun struct {
	RunID   string `db:"run_id"`
	GroupID string `db:"group_id"`
	Source  string `db:"source"`
	Line    int    `db:"line"`

	RPS          float64 `db:"rps"`
	P50MS        float64 `db:"latency_p50_ms"`
	P95MS        float64 `db:"latency_p95_ms"`
	P99MS        float64 `db:"latency_p99_ms"`
	CPUServerUS  float64 `db:"cpu_server_us_per_req"`
	CPUDBUS      float64 `db:"cpu_db_us_per_req"`
	CPUTotalUS   float64 `db:"cpu_total_us_per_req"`
	WorkingSetMB float64 `db:"working_set_mb"`
	Errors       int64   `db:"errors"` // -1 where not counted
}

// A BenchMeasure is one figure of a group or a run as a dashboard reads
// it: Name is the store's column it comes from (run_medians' for a
// group, runs' or cpu_per_request's for a run), Unit the unit in words,
// HigherIsBetter its direction. Lower and Upper are the min and max over
// the group's runs where run_medians has them, NaN otherwise.
type BenchMeasure struct {
	Name           string
	Unit           string
	HigherIsBetter bool
	Value          float64
	Lower, Upper   float64
}

// Units of the measures, in the words dashboards show.
const (
	unitRPS    = "req/s"
	unitMS     = "ms"
	unitUSReq  = "µs/req"
	unitMiB    = "MiB"
	unitErrors = "errors"
)

func count(n int64) float64 {
	if n < 0 {
		return math.NaN()
	}
	return float64(n)
}

// Measures are the group's figures that it has (Value not NaN), in a
// fixed order: the one list every dashboard format writes.
func (g BenchGroup) Measures() []BenchMeasure {
	nan := math.NaN()
	all := []BenchMeasure{
		{"rps_median", unitRPS, true, g.RPSMedian, g.RPSMin, g.RPSMax},
		{"latency_p50_ms_median", unitMS, false, g.P50MSMedian, nan, nan},
		{"latency_p95_ms_median", unitMS, false, g.P95MSMedian, nan, nan},
		{"latency_p99_ms_median", unitMS, false, g.P99MSMedian, g.P99MSMin, g.P99MSMax},
		{"cpu_server_us_per_req_median", unitUSReq, false, g.CPUServerUSMed, g.CPUServerUSMin, g.CPUServerUSMax},
		{"cpu_db_us_per_req_median", unitUSReq, false, g.CPUDBUSMedian, nan, nan},
		{"cpu_total_us_per_req_median", unitUSReq, false, g.CPUTotalUSMedian, g.CPUTotalUSMin, g.CPUTotalUSMax},
		{"working_set_mb_max", unitMiB, false, g.WorkingSetMBMax, nan, nan},
		{"errors_total", unitErrors, false, count(g.ErrorsTotal), nan, nan},
	}
	return slices.DeleteFunc(all, func(m BenchMeasure) bool { return math.IsNaN(m.Value) })
}

// Measures are the run's figures that it has, in the order of the
// group's: the per-run values the group's medians are taken over.
func (r BenchRun) Measures() []BenchMeasure {
	return slices.DeleteFunc(r.AllMeasures(), func(m BenchMeasure) bool { return math.IsNaN(m.Value) })
}

// AllMeasures are every measure a run may have, NaN where it has none.
func (r BenchRun) AllMeasures() []BenchMeasure {
	nan := math.NaN()
	all := []BenchMeasure{
		{"rps", unitRPS, true, r.RPS, nan, nan},
		{"latency_p50_ms", unitMS, false, r.P50MS, nan, nan},
		{"latency_p95_ms", unitMS, false, r.P95MS, nan, nan},
		{"latency_p99_ms", unitMS, false, r.P99MS, nan, nan},
		{"cpu_server_us_per_req", unitUSReq, false, r.CPUServerUS, nan, nan},
		{"cpu_db_us_per_req", unitUSReq, false, r.CPUDBUS, nan, nan},
		{"cpu_total_us_per_req", unitUSReq, false, r.CPUTotalUS, nan, nan},
		{"working_set_mb", unitMiB, false, r.WorkingSetMB, nan, nan},
		{"errors", unitErrors, false, count(r.Errors), nan, nan},
	}
	return all
}
