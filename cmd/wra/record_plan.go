package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/wra-bench/wra/cmd/wra/internal/progress"
	"github.com/wra-bench/wra/cmd/wra/internal/record"
)

// runPlan is wra record --plan: the trials' orders (--dry-run), or the
// recording with a progress bar on a terminal.
func runPlan(ctx context.Context, e *env, g *globals, o *recordOptions, args []string) error {
	if len(args) > 0 || o.server != "" || o.serverCmd != "" || o.database != "" || len(o.labels) > 0 || o.report != "" {
		return usagef("--plan takes its stacks and loads from the plan: no --server, --server-cmd, --database, --label, --report or load command")
	}
	p, err := record.ReadPlan(o.plan)
	if err != nil {
		return err
	}
	flags := o.cmd.Flags()
	if flags.Changed("trials") {
		if o.trials < 1 {
			return usagef("--trials %d: expected 1 or more", o.trials)
		}
		p.Trials = o.trials
	}
	if flags.Changed("wait-calm") {
		p.WaitCalm.Duration = o.waitCalm
	}
	seed := uint64(time.Now().UnixNano())
	switch {
	case flags.Changed("seed"):
		seed = o.seed
	case p.Seed != nil:
		seed = *p.Seed
	}
	vars, err := parsePairs("--var", o.vars)
	if err != nil {
		return err
	}
	if o.out == "" {
		return usagef("--plan needs --out, the folder to record into")
	}
	rc := &record.Recording{Plan: p, Seed: seed, Vars: vars}
	if o.dryRun {
		rc.Recorder = &record.Recorder{Folder: &record.Folder{Dir: o.out}}
		return rc.WriteDryRun(e.stdout)
	}
	if rc.Recorder, err = o.recorder(e, g); err != nil {
		return err
	}
	defer rc.Recorder.Close()
	var log io.Writer = e.stderr
	if g.quiet {
		log = nil
	}
	rc.Log = log
	if e.stderrTTY && !g.quiet {
		bar := progress.NewTimed(e.stderr, time.Duration(p.Trials)*p.TrialEstimate(), 500*time.Millisecond)
		defer bar.Finish()
		rc.Progress = func(s record.Progress) {
			bar.Step(s.Done, s.Step, progressText(s))
		}
		rc.Log = nil // the bar says where the recording is
	}
	return interrupted(ctx, rc.Run(ctx))
}

func progressText(s record.Progress) string {
	if s.Name == "" {
		return "done"
	}
	return fmt.Sprintf("trial %d/%d, cell %d/%d: %s", s.Trial, s.Trials, s.Cell, s.Cells, s.Name)
}
