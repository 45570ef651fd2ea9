package record

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// CalmPlan is what the harness measures of the machine around each trial
// and whether it waits for quiet: before the noise pair and before each
// trial it reads the 1-minute load average; where MaxWait is above 0 it
// waits (polling every Poll, at most MaxWait) until the load is at most
// MaxLoadPerCPU times the number of CPUs, and then goes on whatever the
// load. A calibration pair whose medians differ by more than MaxDrift is
// flagged in the README; nothing is recorded again for it: the trials'
// random orders spread the machine's drift over every cell alike.
type CalmPlan struct {
	MaxLoadPerCPU float64
	MaxWait       time.Duration // 0: the load is recorded, not waited on
	Poll          time.Duration
	MaxDrift      float64 // relative, per process count, of the median wall ms
}

// pairStat is what the README says of a calibration pair (the noise pair,
// or the pair around a trial): the load before it, how long the harness
// waited for a calm machine, the calibrations and their drift.
type pairStat struct {
	Name             string // the pair: noise, trial-1, ...
	Trial            int    // 0 for the noise pair
	Cells            int    // cells run between the calibrations
	Started, Ended   time.Time
	Load1            float64 // 1-minute load average before the first calibration
	Waited           time.Duration
	Calm             bool            // the load was within the limit when the pair started
	Before, After    map[int]float64 // median calibration ms by process count
	Drift            float64         // the largest |after/before - 1|
	DriftOK          bool
	LoadLimit        float64
	CalibrationProcs []int
}

// readLoad1 reads the 1-minute load average from a /proc/loadavg file.
func readLoad1(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return 0, fmt.Errorf("%s: expected three load averages, found %q", path, b)
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, fmt.Errorf("%s: 1-minute load average: %w", path, err)
	}
	return v, nil
}

// loadLimit is the highest 1-minute load average the machine counts as
// calm at.
func (c CalmPlan) loadLimit(cpus int) float64 { return c.MaxLoadPerCPU * float64(cpus) }

// waitCalm reads the load average and, where MaxWait is above 0, polls
// it until it is at most the limit, for at most MaxWait; it returns the
// last load read, how long it waited and whether that load was within the
// limit. A busy machine is not an error: the recording goes on and the
// README shows the load. sleep waits for one poll (the clock in a
// recording, a counter in tests).
func (c CalmPlan) waitCalm(ctx context.Context, load func() (float64, error), cpus int, sleep func(context.Context, time.Duration) error) (l float64, waited time.Duration, calm bool, err error) {
	limit := c.loadLimit(cpus)
	for {
		if l, err = load(); err != nil {
			return 0, waited, false, err
		}
		if l <= limit || waited >= c.MaxWait {
			return l, waited, l <= limit, nil
		}
		if err := sleep(ctx, c.Poll); err != nil {
			return l, waited, false, err
		}
		waited += c.Poll
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// medianMS is the median wall time per process count (the mean of the two
// middle values for an even count, as DuckDB's median).
func medianMS(rows []calibrationRow) map[int]float64 {
	by := map[int][]float64{}
	for _, r := range rows {
		by[r.Processes] = append(by[r.Processes], float64(r.MS))
	}
	out := map[int]float64{}
	for n, xs := range by {
		sort.Float64s(xs)
		m := len(xs) / 2
		if len(xs)%2 == 1 {
			out[n] = xs[m]
		} else {
			out[n] = (xs[m-1] + xs[m]) / 2
		}
	}
	return out
}

// drift is the largest |after/before - 1| over the process counts, the
// rule wra's calibration_drift macro flags a pair by (at its default
// tolerance 0.05), so that the README marks the pairs wra flags. A count
// missing on either side, or a zero before, is infinite drift.
func drift(before, after map[int]float64) float64 {
	d := 0.0
	for n, b := range before {
		a, ok := after[n]
		if !ok || b <= 0 {
			return math.Inf(1)
		}
		d = math.Max(d, math.Abs(a/b-1))
	}
	if len(after) != len(before) {
		return math.Inf(1)
	}
	return d
}

// noisePair names the calibration pair with nothing between.
const noisePair = "noise"

// noiseFloor runs the calibration job twice back to back, with nothing
// between: their drift is the machine's own noise, which a trial's drift
// cannot be told apart from. It is measured and kept
// (calibration/noise-before.csv, noise-after.csv, the first row of the
// README's table), never a reason to stop.
func (r *Runner) noiseFloor(ctx context.Context) error {
	st := pairStat{Name: noisePair}
	if err := r.calibrated(ctx, &st, nil); err != nil {
		return err
	}
	r.logf("calibration noise: %s ms, then %s ms with nothing between: %s (load average %.2f)", st.BeforeText(), st.AfterText(), st.DriftText(), st.Load1)
	r.stats = append(r.stats, st)
	return nil
}

// runTrial runs every cell of a trial in the trial's order between the
// calibrations trial-<N>-before and -after, and notes each run's start.
func (r *Runner) runTrial(ctx context.Context, tr Trial) error {
	st := pairStat{Name: trialPair(tr.N), Trial: tr.N, Cells: len(tr.Cells)}
	cells := func(ctx context.Context) error {
		for i, c := range tr.Cells {
			r.logf("trial %d/%d, cell %d/%d: %s", tr.N, r.Plan.Trials, i+1, len(tr.Cells), c)
			row := scheduleRow{Trial: tr.N, Position: i + 1, StartedAt: r.now(), Cell: c, File: c.files(r.Plan, tr.N)[0]}
			if st, ok := StackOf(c.Server); ok {
				row.Database = st.Database
			}
			if err := r.runCell(ctx, tr.N, c); err != nil {
				return fmt.Errorf("%s: %w", c, err)
			}
			r.schedule = append(r.schedule, row)
		}
		return nil
	}
	if err := r.calibrated(ctx, &st, cells); err != nil {
		return err
	}
	r.logf("trial %d/%d done: calibration %s ms before, %s ms after: %s", tr.N, r.Plan.Trials, st.BeforeText(), st.AfterText(), st.DriftText())
	r.stats = append(r.stats, st)
	return nil
}

// calibrated waits for a calm machine where the plan asks it to and runs
// cells (nil: nothing) between the two calibrations of st.Name; it sets
// st's times, load, wait, calibrations and drift.
func (r *Runner) calibrated(ctx context.Context, st *pairStat, cells func(context.Context) error) error {
	c := r.Plan.Calm
	cpus := runtime.NumCPU()
	st.LoadLimit, st.CalibrationProcs = c.loadLimit(cpus), r.Plan.Calibration.Processes
	load, waited, calm, err := c.waitCalm(ctx, func() (float64, error) { return readLoad1(r.loadavg()) }, cpus, r.sleepFn())
	if err != nil {
		return fmt.Errorf("%s: %w", st.Name, err)
	}
	st.Load1, st.Waited, st.Calm = load, waited, calm
	if !calm && c.MaxWait > 0 {
		r.logf("%s: load average %.2f still above %.2f after waiting %s; going on", st.Name, load, st.LoadLimit, waited)
	}
	st.Started = r.now()
	before, err := r.calibrateFn()(ctx, st.Name, "before")
	if err != nil {
		return err
	}
	if cells != nil {
		if err := cells(ctx); err != nil {
			return fmt.Errorf("%s: %w", st.Name, err)
		}
	}
	after, err := r.calibrateFn()(ctx, st.Name, "after")
	if err != nil {
		return err
	}
	st.Ended = r.now()
	st.Before, st.After = medianMS(before), medianMS(after)
	st.Drift = drift(st.Before, st.After)
	st.DriftOK = st.Drift <= c.MaxDrift
	return nil
}

// CheckNoise is the noise check of a recording on its own: it times the
// calibration twice with nothing between (after waiting for a calm
// machine where the plan asks it to), in a folder of its own that it
// removes; nil when the noise is within MaxDrift. Nothing is built or
// started, so a machine can be checked in a minute before a recording
// of hours is begun on it.
func (r *Runner) CheckNoise(ctx context.Context) (err error) {
	if err := r.Plan.Validate(); err != nil {
		return fmt.Errorf("plan %s: %w", r.Plan.Name, err)
	}
	if r.Tools.Sha256sum == "" {
		return fmt.Errorf("sha256sum: not found")
	}
	if r.work, err = os.MkdirTemp("", "wra-harness-noise-"); err != nil {
		return err
	}
	defer os.RemoveAll(r.work)
	r.stage = r.work
	if err := r.noiseFloor(ctx); err != nil {
		return err
	}
	st := r.stats[len(r.stats)-1]
	if !st.DriftOK {
		return fmt.Errorf("calibration noise %s: two calibrations back to back with nothing between differ by more than %.1f%% (by processes: %s ms, then %s ms; load average %.2f)",
			st.DriftText(), 100*r.Plan.Calm.MaxDrift, st.BeforeText(), st.AfterText(), st.Load1)
	}
	return nil
}

func (r *Runner) loadavg() string {
	if r.LoadAvg != "" {
		return r.LoadAvg
	}
	return "/proc/loadavg"
}

// BeforeText and AfterText are the medians for the README, by process
// count in the plan's order: "1 proc 1234 ms, 2 procs 1300 ms".
func (s pairStat) BeforeText() string { return s.msText(s.Before) }

// AfterText: see BeforeText.
func (s pairStat) AfterText() string { return s.msText(s.After) }

func (s pairStat) msText(m map[int]float64) string {
	parts := make([]string, 0, len(s.CalibrationProcs))
	for _, n := range s.CalibrationProcs {
		parts = append(parts, fmt.Sprintf("%d: %s", n, strconv.FormatFloat(m[n], 'f', -1, 64)))
	}
	return strings.Join(parts, ", ")
}

// DriftText is the drift in percent with one decimal, and whether it held.
func (s pairStat) DriftText() string {
	t := strconv.FormatFloat(100*s.Drift, 'f', 1, 64) + "%"
	if !s.DriftOK {
		t += " (over the limit)"
	}
	return t
}

// now is the clock of the trials' times (a test's, or the wall clock).
func (r *Runner) now() time.Time {
	if r.clock != nil {
		return r.clock()
	}
	return time.Now().UTC()
}

// sleepFn waits for one poll of the load average (a test's, or the clock).
func (r *Runner) sleepFn() func(context.Context, time.Duration) error {
	if r.sleep != nil {
		return r.sleep
	}
	return sleepCtx
}

// calibrateFn is the calibration job: sha256sum (calibrate), or a test's.
func (r *Runner) calibrateFn() func(context.Context, string, string) ([]calibrationRow, error) {
	if r.calibrationJob != nil {
		return r.calibrationJob
	}
	return r.calibrate
}
