package record

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// CalmPlan is how the harness makes sure the machine is quiet around each
// series: before it, the 1-minute load average must be at most
// MaxLoadPerCPU times the number of CPUs (the harness polls every Poll for
// at most MaxWait, then gives up); after it, the calibration job must have
// moved by at most MaxDrift against its run before the series, or the
// series is recorded again, at most Retries more times.
type CalmPlan struct {
	MaxLoadPerCPU float64
	MaxWait       time.Duration // 0: the load is recorded, not waited on
	Poll          time.Duration
	MaxDrift      float64 // relative, per process count, of the median wall ms
	Retries       int
}

// seriesStat is what the README says of each series: the load before it,
// its calibrations and how many times it was recorded.
type seriesStat struct {
	Name             string
	Attempts         int
	Load1            float64 // 1-minute load average when the series started
	Waited           time.Duration
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

// loadLimit is the highest 1-minute load average a series may start at.
func (c CalmPlan) loadLimit(cpus int) float64 { return c.MaxLoadPerCPU * float64(cpus) }

// waitCalm polls the load average until it is at most the limit, for at
// most MaxWait; it returns the last load read and how long it waited. sleep
// waits for one poll (the clock in a recording, a counter in tests).
func (c CalmPlan) waitCalm(ctx context.Context, load func() (float64, error), cpus int, sleep func(context.Context, time.Duration) error) (float64, time.Duration, error) {
	limit := c.loadLimit(cpus)
	var waited time.Duration
	for {
		l, err := load()
		if err != nil {
			return 0, waited, err
		}
		if l <= limit || c.MaxWait == 0 {
			return l, waited, nil
		}
		if waited >= c.MaxWait {
			return l, waited, fmt.Errorf("machine busy: 1-minute load average %.2f above %.2f (%d CPUs) after waiting %s; nothing else may run during a recording", l, limit, cpus, waited)
		}
		if err := sleep(ctx, c.Poll); err != nil {
			return l, waited, err
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
// tolerance 0.05), so that a series the harness keeps is one wra will not
// flag. A count missing on either side, or a zero before, is infinite drift.
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

// recordSeries records one series between its calibrations on a calm
// machine, again while its calibration drifts (see CalmPlan), with the
// files and rows of the attempt before removed.
func (r *Runner) recordSeries(ctx context.Context, s series, run func(context.Context) error) error {
	c := r.Plan.Calm
	cpus := runtime.NumCPU()
	st := seriesStat{Name: s.Name, LoadLimit: c.loadLimit(cpus), CalibrationProcs: r.Plan.Calibration.Processes}
	nRecords, nMemory := len(r.records), len(r.memory)
	for attempt := 1; ; attempt++ {
		st.Attempts = attempt
		r.records, r.memory = r.records[:nRecords], r.memory[:nMemory]
		for _, f := range s.Files {
			if err := os.Remove(filepath.Join(r.stage, filepath.FromSlash(f))); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		if err := r.calibrated(ctx, &st, run); err != nil {
			return err
		}
		if st.DriftOK || attempt > c.Retries {
			if !st.DriftOK {
				r.logf("series %s: calibration drifted %.1f%% (limit %.1f%%) in all %d attempts; the last is kept", s.Name, 100*st.Drift, 100*c.MaxDrift, attempt)
			}
			r.stats = append(r.stats, st)
			return nil
		}
		r.logf("series %s: calibration drifted %.1f%% (limit %.1f%%); recording it again", s.Name, 100*st.Drift, 100*c.MaxDrift)
	}
}

// noiseSeries names the calibration pair with nothing between.
const noiseSeries = "noise"

// noiseFloor runs the calibration job twice back to back, with nothing
// between, on a calm machine: their drift is the machine's own noise, and
// a series' drift cannot be told apart from it. Where the plan records a
// drifting series again (Retries > 0), a noise above MaxDrift in 1 +
// Retries tries in a row ends the recording before its first series: on
// such a machine every series would drift whatever ran in it. The last
// pair is kept (calibration/noise-before.csv, noise-after.csv) and is the
// first row of the README's table.
func (r *Runner) noiseFloor(ctx context.Context) error {
	c := r.Plan.Calm
	cpus := runtime.NumCPU()
	st := seriesStat{Name: noiseSeries, LoadLimit: c.loadLimit(cpus), CalibrationProcs: r.Plan.Calibration.Processes}
	for attempt := 1; ; attempt++ {
		st.Attempts = attempt
		if err := r.calibrated(ctx, &st, nil); err != nil {
			return err
		}
		r.logf("calibration noise (try %d): %s ms, then %s ms with nothing between: %s", attempt, st.BeforeText(), st.AfterText(), st.DriftText())
		if st.DriftOK || c.Retries == 0 {
			r.stats = append(r.stats, st)
			return nil
		}
		if attempt > c.Retries {
			return fmt.Errorf("this machine is too noisy for a calm recording: two calibrations back to back with nothing between differ by %.1f%% (by processes: %s ms, then %s ms; load average %.2f), more than the %.1f%% a series may drift, in %d tries in a row; every series would drift whatever ran in it. Record on a machine whose CPU speed holds steady (a virtual machine shares its host's cores), or allow more drift with -max-drift",
				100*st.Drift, st.BeforeText(), st.AfterText(), st.Load1, 100*c.MaxDrift, attempt)
		}
	}
}

// calibrated waits for a calm machine and runs series (nil: nothing)
// between the two calibrations of st.Name; it sets st's load, wait,
// calibrations and drift.
func (r *Runner) calibrated(ctx context.Context, st *seriesStat, series func(context.Context) error) error {
	c := r.Plan.Calm
	load, waited, err := c.waitCalm(ctx, func() (float64, error) { return readLoad1(r.loadavg()) }, runtime.NumCPU(), sleepCtx)
	if err != nil {
		return fmt.Errorf("series %s: %w", st.Name, err)
	}
	st.Load1, st.Waited = load, waited
	if series != nil {
		r.logf("series %s (attempt %d): load average %.2f (limit %.2f), waited %s", st.Name, st.Attempts, load, st.LoadLimit, waited)
	}
	before, err := r.calibrateFn()(ctx, st.Name, "before")
	if err != nil {
		return err
	}
	if series != nil {
		if err := series(ctx); err != nil {
			return fmt.Errorf("series %s: %w", st.Name, err)
		}
	}
	after, err := r.calibrateFn()(ctx, st.Name, "after")
	if err != nil {
		return err
	}
	st.Before, st.After = medianMS(before), medianMS(after)
	st.Drift = drift(st.Before, st.After)
	st.DriftOK = st.Drift <= c.MaxDrift
	return nil
}

// CheckNoise is the noise check of a recording on its own: it waits for a
// calm machine and times the calibration twice with nothing between, as
// many times as a recording would, in a folder of its own that it
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
		return fmt.Errorf("calibration noise %s, more than the %.1f%% a series may drift", st.DriftText(), 100*r.Plan.Calm.MaxDrift)
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
func (s seriesStat) BeforeText() string { return s.msText(s.Before) }

// AfterText: see BeforeText.
func (s seriesStat) AfterText() string { return s.msText(s.After) }

func (s seriesStat) msText(m map[int]float64) string {
	parts := make([]string, 0, len(s.CalibrationProcs))
	for _, n := range s.CalibrationProcs {
		parts = append(parts, fmt.Sprintf("%d: %s", n, strconv.FormatFloat(m[n], 'f', -1, 64)))
	}
	return strings.Join(parts, ", ")
}

// DriftText is the drift in percent with one decimal, and whether it held.
func (s seriesStat) DriftText() string {
	t := strconv.FormatFloat(100*s.Drift, 'f', 1, 64) + "%"
	if !s.DriftOK {
		t += " (over the limit)"
	}
	return t
}

// calibrateFn is the calibration job: sha256sum (calibrate), or a test's.
func (r *Runner) calibrateFn() func(context.Context, string, string) ([]calibrationRow, error) {
	if r.calibrationJob != nil {
		return r.calibrationJob
	}
	return r.calibrate
}
