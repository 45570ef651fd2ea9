package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/compare"
	"github.com/wra-bench/wra/stats"
)

type gateOptions struct {
	compareOptions
	failOn string
}

func (o *gateOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.failOn, "fail-on", "", "the limits: comma-separated METRIC:±N% pairs, the sign the direction that is worse (rps:-5%,latency_p99_ms:+10%)")
	f.StringVar(&o.by, "by", "", "the label that tells the two sides apart in the store (--db): a runs column ("+strings.Join(model.CompareByColumns, ", ")+") or a label key")
	f.StringVar(&o.base, "base", "", "the --by value of the baseline")
	f.StringVar(&o.vs, "vs", "", "the --by value of the candidate")
	f.Float64Var(&o.alpha, "alpha", stats.DefaultAlpha, "significance level of the one-sided tests")
	f.Float64Var(&o.confidence, "confidence", stats.DefaultConfidence, "confidence level of the changes' intervals")
	f.BoolVar(&o.holm, "holm", true, "adjust the p-values of all checks together (Holm-Bonferroni), so that the gate fires on an A/A comparison at most alpha of the time; --holm=false for raw p-values")
	addLadderRuleFlags(f, &o.rule)
	addDriftFlag(f, &o.drift, stats.DefaultDriftTolerance)
}

// Formats of wra gate: the tables of every command, and JUnit XML.
var gateFormats = []string{"markdown", "junit", "json", "table", "csv", "html"}

func newGateCmd(e *env, g *globals) *cobra.Command {
	o := &gateOptions{}
	cmd := &cobra.Command{
		Use:   "gate --fail-on LIMITS (--by LABEL --base A --vs B | BASELINE CANDIDATE)",
		Short: "Fail when a candidate got worse than its baseline beyond a limit, significantly",
		Long: `A regression gate for continuous benchmarking. For each metric of
--fail-on and each match of the two sides (runs matched by their other
labels as wra compare matches them), the check fails when the change of
the candidate from the baseline is beyond the limit in the direction
that is worse AND a one-sided test says it got worse at --alpha: the
sign test of the ratios within trials where the sides ran in the same
trials, the Mann-Whitney U test otherwise. The p-values of all checks
are Holm-Bonferroni adjusted together, so that an A/A comparison fails
the gate at most alpha of the time.

The sides are two label values of the store (--by), or two paths, each
a store (.duckdb), a folder of raw records (ingested into a temporary
store) or a Parquet export (wra export --parquet; loaded into one).

Exit status: 0 pass, 4 a regression, 5 too few runs to tell (the
output says how many runs a side it would take), 2 a bad limit, 1 an
error. --format markdown (a pull request comment or job summary), junit
(JUnit XML), json, table, csv or html.`,
		Example: `  wra gate --fail-on 'rps:-5%,latency_p99_ms:+10%,cpu_server_us_per_req:+5%' release.parquet results/
  wra gate --fail-on 'rps:-5%' --by server --base go-pgx --vs go-pq --format markdown
  wra gate --fail-on 'latency_p99_ms:+10%' main.duckdb pr.duckdb --format junit`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGate(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runGate(ctx context.Context, e *env, g *globals, o *gateOptions, args []string) error {
	limits, err := analysis.ParseGateLimits(o.failOn, compare.AllMetrics(), compare.Metrics())
	var se *analysis.GateSpecError
	switch {
	case errors.As(err, &se):
		return usagef("--fail-on %v", se)
	case errors.Is(err, analysis.ErrNoLimits):
		return usagef("--fail-on: %v", err)
	case err != nil:
		return err
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return usagef("--alpha must be between 0 and 1, not %v", o.alpha)
	}
	if !(o.confidence > 0 && o.confidence < 1) {
		return usagef("--confidence must be between 0 and 1, not %v", o.confidence)
	}
	format := g.format
	if format == "" {
		format = "markdown"
		if e.stdoutTTY {
			format = "table"
		}
	}
	if !slices.Contains(gateFormats, format) {
		return usagef("--format must be one of %s, not %q", strings.Join(gateFormats, ", "), format)
	}
	var runs []*model.CompareRun
	var keys []string
	var base, vs string
	if len(args) == 2 {
		base, vs = args[0], args[1]
		keys = store.CompareSides{All: "base"}.Keys()
		runs, err = g.gateSides(ctx, e, base, vs, o.designRule())
	} else {
		if o.by == "" && len(args) == 0 {
			return usagef("give the baseline and the candidate: two paths, or --by with --base and --vs")
		}
		var sides store.CompareSides
		if sides, err = o.sides(args); err != nil {
			return err
		}
		base, vs, keys = sides.Base, sides.Vs, sides.Keys()
		runs, err = g.gateLabels(ctx, sides, o.designRule())
	}
	if err != nil {
		return err
	}
	res := analysis.Gate(runs, keys, limits, analysis.GateOptions{Alpha: o.alpha, Confidence: o.confidence, Holm: o.holm})
	if len(res.Rows) == 0 {
		return fmt.Errorf("no metric of --fail-on has runs on both sides with the same %s", strings.Join(keys, ", "))
	}
	if err := writeGate(e, g, format, compare.Gate{GateResult: res, Base: base, Vs: vs}); err != nil {
		return err
	}
	switch res.Verdict {
	case stats.GateRegression:
		return silentError{exitRegression}
	case stats.GateTooFew:
		return silentError{exitTooFew}
	}
	return nil
}

func writeGate(e *env, g *globals, format string, gt compare.Gate) error {
	var w io.Writer = e.stdout
	switch format {
	case "markdown":
		return compare.GateMarkdown(w, gt)
	case "junit":
		return compare.GateJUnit(w, gt)
	case "json":
		return compare.GateJSON(w, gt)
	}
	f, err := report.ParseFormat(format)
	if err != nil {
		return usageError{err}
	}
	return writeTable(e, g, f, compare.GateTable(gt))
}
