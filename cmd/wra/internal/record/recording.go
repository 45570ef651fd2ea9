package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Recording runs a plan into a folder: the noise pair, then K trials,
// each every cell once in its order, between two calibrations.
type Recording struct {
	Plan     *Plan
	Seed     uint64
	Vars     map[string]string // --var, over the plan's
	Recorder *Recorder
	Log      io.Writer // a line per cell and per calibration
	// Progress, where set, is told the state before each step and as
	// a cell's time passes.
	Progress func(Progress)
	// LoadAvg is the load average file ("" is /proc/loadavg).
	LoadAvg string
	// Sleep waits out a cool-down or a poll of the load average (nil:
	// the clock).
	Sleep func(context.Context, time.Duration) error

	work string // a folder for the calibration file
}

// Progress is where a recording is.
type Progress struct {
	Trial, Trials int
	Cell, Cells   int
	Name          string
	// Done and Total are the scheduled load behind and in all; Step is
	// the cell's own.
	Done, Total, Step time.Duration
}

// Files of a recording beside the records, which wra.toml ignores.
const (
	TrialsFile = "trials.csv"
	PairsFile  = "pairs.csv"
)

// TrialsHeader is trials.csv's layout: every run in the order it ran.
var TrialsHeader = []string{"trial", "position", "started_at", "cell", "load", "server", "database", "test", "target_rps", "connections", "file", "command"}

// PairsHeader is pairs.csv's layout: each calibration pair (the noise
// pair, then one per trial) with the cells between, when it began and
// ended, the 1-minute load average before it, the limit a calm machine
// is held to and how long the recording waited for it.
var PairsHeader = []string{"pair", "trial", "cells", "started_at", "ended_at", "load1", "load_limit", "waited_s"}

// NoisePair names the calibration pair with nothing between.
const NoisePair = "noise"

// TrialPair names the calibration pair around a trial.
func TrialPair(trial int) string { return "trial-" + strconv.Itoa(trial) }

// Run records the plan. An interrupt ends the cell under way (nothing of
// it is kept) and returns ErrInterrupted; what was recorded before stays,
// and the folder loads as it is.
func (rc *Recording) Run(ctx context.Context) error {
	p := rc.Plan
	f := rc.Recorder.Folder
	f.Ignore(append([]string{TrialsFile, PairsFile}, p.Ignore...)...)
	f.Blocks("trial")
	var err error
	if rc.work, err = os.MkdirTemp("", "wra-record-"); err != nil {
		return err
	}
	defer os.RemoveAll(rc.work)
	trials := p.DrawTrials(rc.Seed)
	cells := len(p.Cells())
	total := time.Duration(p.Trials) * p.TrialEstimate()
	var done time.Duration
	rc.logf("plan %s: %d trials of %d cells, orders drawn from seed %d; %s of scheduled load", p.file, len(trials), cells, rc.Seed, total)
	if !p.Calibration.Off && *p.Calibration.Noise {
		if err := rc.pair(ctx, NoisePair, 0, nil); err != nil {
			return err
		}
	}
	for _, tr := range trials {
		run := func(ctx context.Context) (int, error) {
			for i, c := range tr.Cells {
				if rc.Progress != nil {
					rc.Progress(Progress{Trial: tr.N, Trials: len(trials), Cell: i + 1, Cells: cells, Name: c.String(), Done: done, Total: total, Step: c.Load.Duration.Duration})
				}
				rc.logf("trial %d/%d, cell %d/%d: %s", tr.N, len(trials), i+1, cells, c)
				if err := rc.cell(ctx, tr.N, i+1, c); err != nil {
					return i, fmt.Errorf("trial %d, cell %d (%s): %w", tr.N, i+1, c, err)
				}
				done += c.Load.Duration.Duration
				if d := p.Cooldown.Duration; d > 0 {
					if err := rc.sleep(ctx, d); err != nil {
						return i + 1, ErrInterrupted
					}
				}
			}
			return len(tr.Cells), nil
		}
		if err := rc.pair(ctx, TrialPair(tr.N), tr.N, run); err != nil {
			return err
		}
	}
	if rc.Progress != nil {
		rc.Progress(Progress{Trial: len(trials), Trials: len(trials), Cell: cells, Cells: cells, Done: total, Total: total})
	}
	return nil
}

func (rc *Recording) logf(format string, a ...any) {
	if rc.Log != nil {
		fmt.Fprintf(rc.Log, "wra: "+format+"\n", a...)
	}
}

func (rc *Recording) sleep(ctx context.Context, d time.Duration) error {
	if rc.Sleep != nil {
		return rc.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// pair waits for a calm machine, times the calibration, runs the cells
// (nil: none), times it again, and writes the pair's row.
func (rc *Recording) pair(ctx context.Context, name string, trial int, cells func(context.Context) (int, error)) error {
	cpus := runtime.NumCPU()
	limit := rc.Plan.Calm.MaxLoadPerCPU * float64(cpus)
	load, waited, err := rc.waitCalm(ctx, limit)
	if err != nil {
		return err
	}
	started := time.Now().UTC()
	if err := rc.calibrate(ctx, name, "before"); err != nil {
		return err
	}
	n := 0
	if cells != nil {
		if n, err = cells(ctx); err != nil {
			return err
		}
	}
	if err := rc.calibrate(ctx, name, "after"); err != nil {
		return err
	}
	row := []string{name, "", strconv.Itoa(n), started.Format(time.RFC3339Nano), time.Now().UTC().Format(time.RFC3339Nano),
		ftoa(load), ftoa(limit), ftoa(waited.Seconds())}
	if trial > 0 {
		row[1] = strconv.Itoa(trial)
	}
	return rc.Recorder.Folder.Commit(Commit{Rows: []Row{{File: PairsFile, Header: PairsHeader, Fields: row}}})
}

// waitCalm reads the 1-minute load average and, where the plan waits
// for a calm machine, polls it until it is at most limit, for at most
// WaitCalm; a busy machine is not an error.
func (rc *Recording) waitCalm(ctx context.Context, limit float64) (load float64, waited time.Duration, err error) {
	for {
		if load, err = ReadLoad1(rc.loadavg()); err != nil {
			return 0, waited, err
		}
		if load <= limit || waited >= rc.Plan.WaitCalm.Duration {
			if load > limit && rc.Plan.WaitCalm.Duration > 0 {
				rc.logf("load average %.2f still above %.2f after waiting %s; going on", load, limit, waited)
			}
			return load, waited, nil
		}
		if err := rc.sleep(ctx, rc.Plan.Calm.Poll.Duration); err != nil {
			return load, waited, ErrInterrupted
		}
		waited += rc.Plan.Calm.Poll.Duration
	}
}

func (rc *Recording) loadavg() string {
	if rc.LoadAvg != "" {
		return rc.LoadAvg
	}
	return "/proc/loadavg"
}

// ReadLoad1 reads the 1-minute load average from a /proc/loadavg file.
func ReadLoad1(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return 0, fmt.Errorf("%s: expected three load averages, found %q", path, clip(string(b)))
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%s: 1-minute load average: expected a number >= 0, found %q", path, f[0])
	}
	return v, nil
}

// CalibrationHeader is the layout of a calibration CSV, which wra reads
// as before or after by the word in its name.
var CalibrationHeader = []string{"utc", "processes", "ms"}

// calibrate times the calibration job into calibration/<pair>-<phase>.csv.
func (rc *Recording) calibrate(ctx context.Context, pair, phase string) error {
	c := rc.Plan.Calibration
	if c.Off {
		return nil
	}
	file := filepath.Join(rc.work, "calibration.bin")
	if _, err := os.Stat(file); err != nil {
		if err := os.WriteFile(file, make([]byte, c.FileMiB<<20), 0o644); err != nil {
			return err
		}
	}
	args, err := expandAll(c.Command, map[string]string{"calibration_file": file})
	if err != nil {
		return fmt.Errorf("[calibration] command: %w", err)
	}
	rc.logf("calibration %s %s: %s", pair, phase, ShellJoin(args))
	var rows []Row
	rel := "calibration/" + pair + "-" + phase + ".csv"
	for range c.Repeat {
		for _, n := range c.Processes {
			start := time.Now()
			errs := make(chan error, n)
			for range n {
				go func() {
					_, err := Measure(ctx, Load{Args: args, Timeout: 5 * time.Minute}, nil, nil)
					errs <- err
				}()
			}
			var first error
			for range n {
				if err := <-errs; err != nil && first == nil {
					first = err
				}
			}
			if first != nil {
				if errors.Is(first, ErrInterrupted) {
					return first
				}
				return fmt.Errorf("calibration: %w", first)
			}
			rows = append(rows, Row{File: rel, Header: CalibrationHeader,
				Fields:  []string{start.UTC().Format(time.RFC3339Nano), strconv.Itoa(n), strconv.FormatInt(time.Since(start).Milliseconds(), 10)},
				Comment: "Calibration: the fixed CPU job's wall ms by each number of parallel processes, before and after each trial (trial-N-before.csv, trial-N-after.csv); noise-*.csv are two timings with nothing between."})
		}
	}
	return rc.Recorder.Folder.Commit(Commit{Rows: rows})
}

func expandAll(words []string, vars map[string]string) ([]string, error) {
	out := make([]string, len(words))
	for i, w := range words {
		v, err := Expand(w, vars)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// vars are the placeholders of a cell in a trial: the plan's [vars],
// the stack's, --var, and the cell's own.
func (rc *Recording) vars(c PlanCell, trial int) map[string]string {
	v := map[string]string{}
	maps.Copy(v, rc.Plan.Vars)
	maps.Copy(v, c.Stack.Vars)
	maps.Copy(v, rc.Vars)
	base := c.Stack.URL
	if u, err := Expand(base, v); err == nil { // an error shows where the URL is used
		base = u
	}
	base = strings.TrimRight(base, "/")
	for k, x := range map[string]string{
		"server": c.Stack.Server, "database": c.Stack.Database, "test": c.Load.Test, "load": c.Load.Name,
		"base": base, "path": c.Load.Path, "url": base + c.Load.Path,
		"rate": c.rate(), "connections": c.conns(), "trial": strconv.Itoa(trial), "round": strconv.Itoa(trial),
	} {
		v[k] = x
	}
	return v
}

// reportPath is the relative path of a cell's report in a trial.
func (c PlanCell) reportPath(vars map[string]string) (string, error) {
	if c.Load.Report != nil {
		if *c.Load.Report == "" {
			return "", nil
		}
		return Expand(*c.Load.Report, vars)
	}
	name := c.Load.Test
	if c.Rate != 0 {
		name += "-r" + c.rate()
	}
	if c.Connections != 0 {
		name += "-c" + c.conns()
	}
	return fmt.Sprintf("%s/t%s/%s/%s.txt", c.Load.Name, vars["trial"], c.Stack.Server, name), nil
}

// Realize is the run of a cell in a trial: its commands with their
// placeholders filled, its files' paths (staged under stage; "" for the
// final paths, for a dry run) and labels.
func (rc *Recording) Realize(c PlanCell, trial, position int, stage string) (Cell, error) {
	p := rc.Plan
	vars := rc.vars(c, trial)
	cell := Cell{Trial: trial, Stage: stage, Files: map[string]string{}}
	report, err := c.reportPath(vars)
	if err != nil {
		return cell, fmt.Errorf("report: %w", err)
	}
	if report != "" && !safeRel(report) {
		return cell, fmt.Errorf("report %q: expected a relative path of letters, digits, '.', '_', '-' and '/'", report)
	}
	cell.Report = report
	for _, name := range slices.Sorted(maps.Keys(c.Load.Files)) {
		rel, err := Expand(c.Load.Files[name], vars)
		if err != nil {
			return cell, fmt.Errorf("files.%s: %w", name, err)
		}
		if !safeRel(rel) {
			return cell, fmt.Errorf("files.%s = %q: expected a relative path of letters, digits, '.', '_', '-' and '/'", name, rel)
		}
		staged := filepath.Join(rc.Recorder.Folder.Dir, filepath.FromSlash(rel))
		if stage != "" {
			staged = filepath.Join(stage, name+"-"+filepath.Base(rel))
		}
		cell.Files[rel] = staged
		vars[name] = staged
	}
	if cell.Load.Args, err = expandAll(c.Load.Command, vars); err != nil {
		return cell, fmt.Errorf("command: %w", err)
	}
	warm := p.Warmup
	if c.Load.Warmup != nil {
		warm = *c.Load.Warmup
	}
	if len(warm) > 0 {
		w, err := expandAll(warm, vars)
		if err != nil {
			return cell, fmt.Errorf("warmup: %w", err)
		}
		cell.Warmups = [][]string{w}
	}
	cell.Load.Env = envList(c.Load.Env)
	cell.Load.OK = c.Load.ExitCodes
	cell.Load.Timeout = c.Load.Timeout.Duration
	if cell.Load.Timeout == 0 && c.Load.Duration.Duration > 0 {
		cell.Load.Timeout = c.Load.Duration.Duration + 30*time.Second
	}
	cell.URL = vars["url"]
	if stage != "" { // a dry run starts nothing: its targets may name --var values not given
		if err := rc.server(&cell, c, vars); err != nil {
			return cell, err
		}
	}
	cell.Labels = map[string]string{"server": c.Stack.Server, "database": c.Stack.Database, "test": c.Load.Test,
		"target_rps": c.rate(), "connections": c.conns(), "trial": vars["trial"], "round": vars["trial"]}
	if !p.Calibration.Off {
		cell.Labels["calibration"] = TrialPair(trial)
	}
	for _, src := range []map[string]string{c.Stack.Labels, c.Load.Labels} {
		for k, x := range src {
			if cell.Labels[k], err = Expand(x, vars); err != nil {
				return cell, fmt.Errorf("labels.%s: %w", k, err)
			}
		}
	}
	cell.Records = c.records()
	if c.Load.Memory {
		cell.Memory = "memory/" + c.Load.Name + ".csv"
	}
	first := report
	if first == "" && len(cell.Files) > 0 {
		first = slices.Sorted(maps.Keys(cell.Files))[0]
	}
	cell.Extra = []Row{{File: TrialsFile, Header: TrialsHeader, Fields: []string{
		strconv.Itoa(trial), strconv.Itoa(position), time.Now().UTC().Format(time.RFC3339Nano), c.String(), c.Load.Name,
		c.Stack.Server, c.Stack.Database, c.Load.Test, c.rate(), c.conns(), first, ShellJoin(cell.Load.Args)}}}
	return cell, nil
}

// server fills in the cell's server and database from its stack.
func (rc *Recording) server(cell *Cell, c PlanCell, vars map[string]string) error {
	s := c.Stack
	spec := ServerSpec{StartupTimeout: s.StartupTimeout.Duration, Env: envList(s.Env), Log: rc.serverLog()}
	var err error
	if spec.Dir, err = Expand(s.Dir, vars); err != nil {
		return fmt.Errorf("stack %s: dir: %w", s.Server, err)
	}
	if s.ServerCmd != "" {
		cmd, err := Expand(s.ServerCmd, vars)
		if err != nil {
			return fmt.Errorf("stack %s: server_cmd: %w", s.Server, err)
		}
		spec.Target = Target{Name: s.Server, Kind: TargetCommand, Value: cmd}
		if spec.Ready, err = Expand(s.Ready, vars); err != nil {
			return fmt.Errorf("stack %s: ready: %w", s.Server, err)
		}
	} else {
		v, err := Expand(s.ServerTarget, vars)
		if err != nil {
			return fmt.Errorf("stack %s: server_target: %w", s.Server, err)
		}
		if spec.Target, err = ParseTarget(s.Server + "=" + v); err != nil {
			return fmt.Errorf("stack %s: server_target: %w", s.Server, err)
		}
	}
	cell.Server = spec
	if s.DatabaseTarget != "" {
		v, err := Expand(s.DatabaseTarget, vars)
		if err != nil {
			return fmt.Errorf("stack %s: database_target: %w", s.Server, err)
		}
		t, err := ParseTarget(s.Database + "=" + v)
		if err != nil {
			return fmt.Errorf("stack %s: database_target: %w", s.Server, err)
		}
		cell.Database = &t
	}
	return nil
}

// serverLog is where started servers write: the log, where there is one.
func (rc *Recording) serverLog() io.Writer {
	if rc.Log == nil {
		return io.Discard
	}
	return rc.Log
}

func envList(m map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, k+"="+m[k])
	}
	return out
}

// cell runs one cell of a trial.
func (rc *Recording) cell(ctx context.Context, trial, position int, c PlanCell) error {
	stage, err := rc.Recorder.Folder.Stage()
	if err != nil {
		return err
	}
	cell, err := rc.Realize(c, trial, position, stage)
	if err != nil {
		rc.Recorder.Folder.Unstage(stage)
		return err
	}
	out, err := rc.Recorder.Run(ctx, cell)
	for _, n := range out.Notes {
		rc.logf("note: %s", n)
	}
	return err
}

// WriteDryRun prints the plan's trials drawn from seed: every cell in the
// order it would run, with the command it would run, between its
// calibrations; nothing runs.
func (rc *Recording) WriteDryRun(w io.Writer) error {
	p := rc.Plan
	trials := p.DrawTrials(rc.Seed)
	cells := p.Cells()
	var b strings.Builder
	servers := make([]string, len(p.Stacks))
	for i, s := range p.Stacks {
		servers[i] = s.Server
	}
	fmt.Fprintf(&b, "plan %s, stacks %s: %d cells per trial, %d trials, orders drawn from seed %d\n",
		p.file, strings.Join(servers, ", "), len(cells), len(trials), rc.Seed)
	fmt.Fprintf(&b, "scheduled load %s per trial, %s in all (without server starts, warm-ups, cool-downs and calibrations)\n",
		p.TrialEstimate(), time.Duration(p.Trials)*p.TrialEstimate())
	if !p.Calibration.Off && *p.Calibration.Noise {
		fmt.Fprintf(&b, "\ncalibration %s-before, then %s-after\n", NoisePair, NoisePair)
	}
	width := len(strconv.Itoa(len(cells)))
	for _, tr := range trials {
		fmt.Fprintf(&b, "\ntrial %d: calibration %s-before\n", tr.N, TrialPair(tr.N))
		for i, c := range tr.Cells {
			cell, err := rc.Realize(c, tr.N, i+1, "")
			if err != nil {
				return fmt.Errorf("trial %d, cell %s: %w", tr.N, c, err)
			}
			fmt.Fprintf(&b, "  %*d  %s: %s\n", width, i+1, c, ShellJoin(cell.Load.Args))
		}
		fmt.Fprintf(&b, "trial %d: calibration %s-after\n", tr.N, TrialPair(tr.N))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
