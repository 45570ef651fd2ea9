// Package record measures web stacks under load for wra record: it runs
// any load command (wrk, wrk2, ab, bombardier, k6, hey, oha, vegeta …)
// and reads, over exactly its run, the CPU time (user and system apart)
// and memory of the server and of its database, from their cgroups where
// the machine has them (package cgroup) and from /proc in clock ticks
// where it has not (package proc), and the load generator's own CPU. It
// writes what it measured into a folder wra reads as it is: the tool's
// output byte for byte, a row of the records CSV that pairs with it, and
// a wra.toml that labels both (Folder).
//
// A plan (Plan) is stacks × loads × K trials: each trial runs every cell
// once in an order drawn from a seed (Schedule), between two timings of
// a calibration job, with warm-ups and cool-downs (Recording).
package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/wra-bench/wra/model"
)

// ServerSpec is the server of a run: a target that is there already
// (Target.Kind other than TargetCommand), or a command wra starts.
type ServerSpec struct {
	Target Target
	// Ready is polled before the run where wra starts the server: an
	// HTTP URL that must answer below 500; "" waits for the port of the
	// load's first URL to accept a connection.
	Ready          string
	StartupTimeout time.Duration
	Dir            string
	Env            []string
	Log            io.Writer // the started server's output
}

// Cell is one run to make and write.
type Cell struct {
	Server   ServerSpec
	Database *Target
	Load     Load
	URL      string     // the load's target URL, for the default ready check
	Warmups  [][]string // commands run before the measured run, output discarded
	// Report is the relative path the load's standard output is kept at,
	// "" where it is not a report (it is discarded).
	Report string
	// Files are the files the load command writes itself: relative path
	// in the folder → the staged path the command was given.
	Files map[string]string
	// Labels of the run's files in wra.toml: server, database, test,
	// target_rps, connections, round, trial, and any other.
	Labels map[string]string
	// Records is the records CSV the run's row goes into, "" for none.
	Records string
	// Memory is the memory series CSV the run's row goes into, "" for
	// none; its concurrency is the connections label, its wait_ms the
	// wait_ms label.
	Memory string
	Trial  int
	// Extra rows (trials.csv) written with the run's files.
	Extra []Row
	// Stage is the staging folder of the run (Folder.Stage), which holds
	// the staged Files.
	Stage string
}

// Outcome is what a run gave, for the caller's messages.
type Outcome struct {
	File     string // the report's relative path, "" for none
	Measured Measured
	Report   *Report
	Round    int64
	Startup  time.Duration
	Notes    []string // where figures came from, when not from the first choice
}

// Recorder runs cells on a host into a folder.
type Recorder struct {
	Host   *Host
	Folder *Folder
	Log    io.Writer // warm-ups' command lines, notes
	// meters of targets that are there already, opened once
	meters map[Target]*Meter
}

// Close closes the meters the recorder opened (moving processes back
// to their cgroups).
func (r *Recorder) Close() error {
	var errs []error
	for _, m := range r.meters {
		errs = append(errs, m.Close())
	}
	r.meters = nil
	return errors.Join(errs...)
}

func (r *Recorder) meter(ctx context.Context, t Target) (*Meter, error) {
	if m, ok := r.meters[t]; ok {
		return m, nil
	}
	m, err := r.Host.Open(ctx, t)
	if err != nil {
		return nil, err
	}
	if r.meters == nil {
		r.meters = map[Target]*Meter{}
	}
	r.meters[t] = m
	return m, nil
}

// Run makes one run of a cell and commits its files, or on any error
// (an interrupt too: ErrInterrupted) leaves nothing of it in the folder.
func (r *Recorder) Run(ctx context.Context, c Cell) (out Outcome, err error) {
	defer r.Folder.Unstage(c.Stage)
	out.File = c.Report
	var server *Server
	var sm, dm *Meter
	stop := func() error {
		if server == nil {
			return nil
		}
		s := server
		server = nil
		return s.Stop(StopGrace)
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	if c.Database != nil {
		if dm, err = r.meter(ctx, *c.Database); err != nil {
			return out, err
		}
		if dm.Note != "" {
			out.Notes = append(out.Notes, c.Database.Name+": "+dm.Note)
		}
	}
	if c.Server.Target.Kind == TargetCommand {
		server, err = r.Host.Start(ctx, c.Server.Target.Name, c.Server.Target.Value, StartOptions{Dir: c.Server.Dir, Env: c.Server.Env, Log: c.Server.Log})
		if err != nil {
			return out, err
		}
		limit := c.Server.StartupTimeout
		if limit <= 0 {
			limit = 30 * time.Second
		}
		if err := server.WaitReady(ctx, c.Server.Ready, c.URL, limit); err != nil {
			return out, err
		}
		out.Startup = server.Startup
		sm = server.Meter
	} else if sm, err = r.meter(ctx, c.Server.Target); err != nil {
		return out, err
	}
	if sm.Note != "" {
		out.Notes = append(out.Notes, c.Server.Target.Name+": "+sm.Note)
	}
	for _, w := range c.Warmups {
		if r.Log != nil {
			fmt.Fprintf(r.Log, "wra: warm-up: %s\n", ShellJoin(w))
		}
		wl := Load{Args: w, Env: c.Load.Env, Dir: c.Load.Dir, Timeout: c.Load.Timeout}
		if _, err := Measure(ctx, wl, sm, nil); err != nil {
			if errors.Is(err, ErrInterrupted) {
				return out, err
			}
			return out, fmt.Errorf("warm-up: %w", err)
		}
	}
	var stdout *os.File
	if c.Report != "" {
		if stdout, err = os.Create(filepath.Join(c.Stage, "stdout")); err != nil {
			return out, err
		}
		defer stdout.Close()
		if c.Load.Stdout != nil {
			c.Load.Stdout = io.MultiWriter(stdout, c.Load.Stdout)
		} else {
			c.Load.Stdout = stdout
		}
	}
	out.Measured, err = Measure(ctx, c.Load, sm, dm)
	if err != nil {
		return out, err
	}
	if err := stop(); err != nil {
		return out, err
	}
	files := maps.Clone(c.Files)
	if files == nil {
		files = map[string]string{}
	}
	for rel, p := range files {
		if _, err := os.Stat(p); err != nil {
			return out, fmt.Errorf("the load command wrote no %s: %w", rel, err)
		}
	}
	if stdout != nil {
		if err := stdout.Close(); err != nil {
			return out, err
		}
		files[c.Report] = stdout.Name()
	}
	return out, r.commit(c, &out, files)
}

// commit reads the run's report, gives the run its round and writes its
// files, rows and labels.
func (r *Recorder) commit(c Cell, out *Outcome, files map[string]string) error {
	labels := maps.Clone(c.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	var rep *Report
	if c.Report != "" && (c.Records != "" || c.Memory != "") {
		x, err := ReadReport(files[c.Report])
		if err != nil {
			return fmt.Errorf("%s: the load command's output cannot be read as a report (%w); its figures cannot be divided by its requests", c.Report, err)
		}
		rep, out.Report = &x, &x
	}
	var rows []Row
	if c.Records != "" && rep != nil {
		key := keyOf(rep.Run, labels)
		round, err := r.round(c.Records, key, labels, rep)
		if err != nil {
			return err
		}
		labels["round"] = strconv.FormatInt(round, 10)
		out.Round = round
		rows = append(rows, Row{File: c.Records, Header: RecordsHeader,
			Fields:  recordsRow(out.Measured, rep.Run, key, round, out.Startup, ShellJoin(c.Load.Args), c.Report, c.Trial),
			Comment: "wra record's row per run: CPU seconds of the server and of its database (user and kernel) over the run, their memory, the load generator's own CPU, and where each figure came from (cpu_source, memory_source); report is the tool's output the row goes with."})
	}
	if c.Memory != "" {
		conc, err := strconv.ParseInt(labels["connections"], 10, 64)
		if err != nil {
			return fmt.Errorf("memory series %s: the run has no connections label to be its concurrency", c.Memory)
		}
		var run *model.Run
		if rep != nil {
			run = rep.Run
		}
		rows = append(rows, Row{File: c.Memory, Header: MemoryHeader,
			Fields:  memoryRow(out.Measured, run, labels["server"], labels["database"], c.Trial, conc, labels["wait_ms"]),
			Comment: "wra record's memory series: the peak resident set of the server over each run (the sum of its processes' VmHWM, reset at the run's start), its requests and CPU."})
	}
	rows = append(rows, c.Extra...)
	return r.Folder.Commit(Commit{Files: files, Labels: labels, Rows: rows})
}

// round is the round of a run: the one its labels or its report give, or
// else the next of its key in the records CSV; a round its key has
// already is refused (the two would pair with nothing).
func (r *Recorder) round(records string, key runKey, labels map[string]string, rep *Report) (int64, error) {
	have, err := r.Folder.roundsOf(records)
	if err != nil {
		return 0, err
	}
	var round int64
	switch {
	case rep.Run.Round.Valid:
		round = rep.Run.Round.V
	case labels["round"] != "":
		if round, err = strconv.ParseInt(labels["round"], 10, 64); err != nil || round < 0 {
			return 0, fmt.Errorf("label round=%q: expected a whole number >= 0", labels["round"])
		}
	default:
		for _, n := range have[key] {
			round = max(round, n)
		}
		return round + 1, nil
	}
	if slices.Contains(have[key], round) {
		return 0, fmt.Errorf("%s already has a run of server %q, database %q, test %q, target_rps %q, connections %q in round %d: wra could not tell which report goes with which record; give another round (--label round=N) or test",
			records, key.Server, key.Database, key.Test, key.TargetRPS, key.Connections, round)
	}
	return round, nil
}
