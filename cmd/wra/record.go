package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/cmd/wra/internal/record"
)

type recordOptions struct {
	server, serverCmd, ready string
	database                 string
	labels, vars             []string
	out, report, cpuSource   string
	startup, timeout         time.Duration
	okExit                   []int
	plan                     string
	dryRun                   bool
	seed                     uint64
	trials                   int
	waitCalm                 time.Duration
	cmd                      *cobra.Command
}

func (o *recordOptions) AddFlags(cmd *cobra.Command) {
	o.cmd = cmd
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "", "the server: NAME=TARGET, TARGET a PID (its process tree), cgroup:/PATH, unit:NAME (systemd) or container:NAME; or NAME alone with --server-cmd")
	f.StringVar(&o.serverCmd, "server-cmd", "", "a command (run by /bin/sh) that wra starts in a cgroup of its own before the load and stops after it")
	f.StringVar(&o.ready, "ready", "", "with --server-cmd: a URL that must answer (any status below 500) before the load starts (default: the port of the load's URL accepts a connection)")
	f.DurationVar(&o.startup, "startup-timeout", 30*time.Second, "with --server-cmd: how long the server may take to be ready")
	f.StringVar(&o.database, "database", "", "the database: NAME=TARGET, as for --server")
	f.StringArrayVarP(&o.labels, "label", "l", nil, "a label key=value of the run (repeatable): test, round, target_rps, connections, or any other")
	f.StringVar(&o.out, "out", "", "the folder to add the run to (made where needed); required")
	f.StringVar(&o.report, "report", "", "the tool's output's file name in --out (default SERVER/TOOL[-TEST][-rRATE][-cCONNS]-N.txt)")
	f.StringVar(&o.cpuSource, "cpu-source", record.CPUAuto, "where CPU is read: "+strings.Join(record.CPUChoices, ", ")+" (auto: v1 cpuacct where mounted, else v2, else /proc in clock ticks)")
	f.DurationVar(&o.timeout, "timeout", 0, "stop the load command after this long, an error (default: no limit)")
	f.IntSliceVar(&o.okExit, "ok-exit", nil, "exit codes of the load command that are not failures besides 0 (k6 exits 99 when a threshold fails)")
	f.StringVar(&o.plan, "plan", "", "record a plan: stacks × loads × trials, from a TOML file (see docs/recording.md)")
	f.BoolVar(&o.dryRun, "dry-run", false, "with --plan: print the trials and the order of their cells, and the commands, and run nothing")
	f.Uint64Var(&o.seed, "seed", 0, "with --plan: the seed of the trials' orders (default: the plan's seed, else drawn from the clock)")
	f.IntVar(&o.trials, "trials", 0, "with --plan: the number of trials (default: the plan's, else 5)")
	f.DurationVar(&o.waitCalm, "wait-calm", 0, "with --plan: before each trial wait at most this long for a 1-minute load average of at most 0.5 per CPU (default: the plan's, else 0: never wait)")
	f.StringArrayVar(&o.vars, "var", nil, "with --plan: NAME=VALUE, the value of the plan's {NAME} placeholders, over its [vars] (repeatable)")
}

func newRecordCmd(e *env, g *globals) *cobra.Command {
	o := &recordOptions{}
	cmd := &cobra.Command{
		Use:   "record --server NAME=TARGET [--database NAME=TARGET] --out DIR -- LOAD COMMAND...",
		Short: "Measure a stack's CPU and memory around a load command",
		Long: `Run a load command (wrk, wrk2, ab, bombardier, k6, hey, oha, vegeta …) as
given and measure, over exactly its run, the CPU (user and system) and
memory of the server and of its database, and the load generator's own
CPU. They are read from cgroups where the machine has them (v1 cpuacct
in nanoseconds, v2 cpu.stat in microseconds) and from /proc in 10 ms
clock ticks where it has not; the record says which, and every table
built on /proc figures carries that caveat.

The run is added to --out: the tool's output byte for byte, a row of
records.csv that pairs with it, and a wra.toml that labels both, so that
'wra analyze DIR' needs no other step. Ctrl-C ends the run under way,
keeps none of its files, and exits 130.

With --plan, wra records stacks × loads × trials in randomized
interleaved orders with calibrations, warm-ups and cool-downs (see
docs/recording.md).`,
		Example: `  wra record --server api=4242 --database postgresql=unit:postgresql.service --label test=one --out results -- wrk2 -t2 -c16 -d30s -R1000 http://127.0.0.1:8080/one
  wra record --server go --server-cmd './server -addr 127.0.0.1:8080' --ready http://127.0.0.1:8080/ping --out results -- bombardier -c 16 -d 10s -r 500 -l http://127.0.0.1:8080/
  wra record --plan plan.toml --out results --dry-run
  wra record --plan plan.toml --out results --seed 42`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecord(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runRecord(ctx context.Context, e *env, g *globals, o *recordOptions, args []string) error {
	if o.plan != "" {
		return runPlan(ctx, e, g, o, args)
	}
	if err := o.onlyWithPlan(); err != nil {
		return err
	}
	if o.out == "" || len(args) == 0 || o.server == "" && o.serverCmd == "" {
		return usagef("wra record needs --server (or --server-cmd), --out and a load command after --, e.g. wra record --server api=4242 --out results -- wrk -d10s http://127.0.0.1:8080/")
	}
	labels, err := parseLabels(o.labels)
	if err != nil {
		return err
	}
	s := record.Single{Labels: labels, Report: o.report,
		Load: record.Load{Args: args, Timeout: o.timeout, OK: o.okExit, Stdout: e.stdout, Stderr: e.stderr}}
	if !g.quiet {
		s.Load.Started = func() { fmt.Fprintf(e.stderr, "wra: load running: %s\n", record.ShellJoin(args)) }
	}
	if s.Server, err = o.serverSpec(e); err != nil {
		return err
	}
	if o.database != "" {
		t, err := record.ParseTarget(o.database)
		if err != nil {
			return usagef("--database: %v", err)
		}
		s.Database = &t
	}
	rec, err := o.recorder(e, g)
	if err != nil {
		return err
	}
	defer rec.Close()
	out, err := rec.RecordOne(ctx, s)
	if err != nil {
		return interrupted(ctx, err)
	}
	if !g.quiet {
		record.Summary(e.stderr, out.File, out)
	}
	return nil
}

// serverSpec reads --server, --server-cmd and --ready.
func (o *recordOptions) serverSpec(e *env) (record.ServerSpec, error) {
	spec := record.ServerSpec{Ready: o.ready, StartupTimeout: o.startup, Log: e.stderr}
	if o.serverCmd == "" {
		if o.ready != "" {
			return spec, usagef("--ready goes with --server-cmd: wra waits only for a server it starts")
		}
		t, err := record.ParseTarget(o.server)
		if err != nil {
			return spec, usagef("--server: %v", err)
		}
		spec.Target = t
		return spec, nil
	}
	name := o.server
	if name == "" {
		name = "server"
	}
	if strings.Contains(name, "=") {
		return spec, usagef("--server %q with --server-cmd: give the server's name alone (--server NAME)", name)
	}
	spec.Target = record.Target{Name: name, Kind: record.TargetCommand, Value: o.serverCmd}
	if _, err := record.ParseTarget(name + "=1"); err != nil {
		return spec, usagef("--server %q: a name of letters, digits, '.', '_' and '-'", name)
	}
	return spec, nil
}

// recorder is the host and the folder of --out.
func (o *recordOptions) recorder(e *env, g *globals) (*record.Recorder, error) {
	host, err := record.NewHost(o.cpuSource, record.CommandOutput)
	if err != nil {
		return nil, usageError{err}
	}
	folder, err := record.OpenFolder(o.out)
	if err != nil {
		return nil, err
	}
	var log io.Writer = e.stderr
	if g.quiet {
		log = io.Discard
	}
	return &record.Recorder{Host: host, Folder: folder, Log: log}, nil
}

// onlyWithPlan refuses the plan's flags without --plan.
func (o *recordOptions) onlyWithPlan() error {
	for _, name := range []string{"dry-run", "seed", "trials", "wait-calm", "var"} {
		if o.cmd != nil && o.cmd.Flags().Changed(name) {
			return usagef("--%s goes with --plan", name)
		}
	}
	return nil
}

// interrupted makes an interrupt's error the one the root turns into
// exit 130.
func interrupted(ctx context.Context, err error) error {
	if errors.Is(err, record.ErrInterrupted) || ctx.Err() != nil {
		return fmt.Errorf("%w: %v", context.Canceled, err)
	}
	return err
}
