package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/compare"
	"github.com/wra-bench/wra/stats"
)

type compareOptions struct {
	by, base, vs string
	alpha        float64
	confidence   float64
	holm         bool
	metrics      []string
	ladders      bool
	rule         stats.LadderRule
	drift        float64
}

// designRule is the rule of the sides' groups' caveats.
func (o *compareOptions) designRule() model.DesignRule {
	return model.DesignRule{Tolerance: o.drift, LadderRule: o.rule}
}

func (o *compareOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.by, "by", "", "the label that tells the two sides apart: a runs column ("+strings.Join(model.CompareByColumns, ", ")+") or a label key")
	f.StringVar(&o.base, "base", "", "the --by value of the base side")
	f.StringVar(&o.vs, "vs", "", "the --by value of the side compared with the base")
	f.Float64Var(&o.alpha, "alpha", stats.DefaultAlpha, "significance level of the Mann-Whitney U test")
	f.Float64Var(&o.confidence, "confidence", stats.DefaultConfidence, "confidence level of the medians' intervals")
	f.BoolVar(&o.holm, "holm", true, "adjust the p-values of the table's rows together (Holm-Bonferroni); --holm=false for raw p-values")
	f.StringSliceVar(&o.metrics, "metric", nil, "metrics to compare (default "+strings.Join(compare.Metrics(), ", ")+"; also a statistic the tool printed, a column of run_reported such as reported_rps_mean; cpu_server_us, as wra table names it, is cpu_server_us_per_req)")
	f.BoolVar(&o.ladders, "ladders", false, "list the held-rate ladder steps of both sides instead of comparing metrics")
	addLadderRuleFlags(f, &o.rule)
	addDriftFlag(f, &o.drift, stats.DefaultDriftTolerance)
}

func newCompareCmd(e *env, g *globals) *cobra.Command {
	o := &compareOptions{}
	cmd := &cobra.Command{
		Use:   "compare (--by LABEL --base A --vs B | FOLDER_A FOLDER_B)",
		Short: "Compare two groups of runs, metric by metric, as benchstat does",
		Long: `Compare the runs of two sides, told apart by a label (--by server
--base go-pgx --vs go-pq) or by the folders they were ingested from (two
arguments: the start of runs.source, e.g. data/wrk2/t1 data/wrk2/t2).

Runs are matched by their other labels (tool, database, test,
connections, target rate); for each metric and match the table gives
each side's median with the half-width of its confidence interval
(± x%, distribution-free, from order statistics) where the side has runs
enough for one, and the delta: the change of the median with the
two-sided Mann-Whitney U test's p-value and sample sizes, printed as
benchstat prints them: "+12.34% (p=0.029 n=4)", or "-3.10% ~ (p=0.343
n=4)" when the difference is not significant at --alpha. The p-values of
one table are Holm-Bonferroni adjusted together unless --holm=false.
When no row can be significant with the runs there are, the delta is
the change alone and one note says how many runs a side it would take.
The caveats of each side's groups (group_caveats, under --drift and the
held rule) mark its figures, in their words.
Where the sides ran in the same trials, the table leads with the ratio
of the two within each trial (vs / base within trials), which a drift
of the machine's speed does not swamp.

The held-rate ladder metric (highest_held_rps) comes from the store's
ladder_steps(p95_ms, max_error_rate) macro under the --p95 and
--max-errors rule (k6 runs with steps tagged in their samples or kept in
their summary), as wra analyze reads it; --ladders lists every step of
both sides instead.`,
		Example: `  wra compare --by server --base go-pgx --vs go-pq
  wra compare --by server --base go-mysql --vs go-mysql-interp --metric cpu_server_us_per_req,cpu_db_us_per_req --format markdown
  wra compare data/wrk2/t1 data/wrk2/t2
  wra compare --ladders --by server --base go-pgx --vs node-pg --p95 100`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

// sides checks the arguments that select the two sides.
func (o *compareOptions) sides(args []string) (store.CompareSides, error) {
	switch {
	case len(args) == 2 && (o.by != "" || o.base != "" || o.vs != ""):
		return store.CompareSides{}, usagef("give two folders or --by with --base and --vs, not both")
	case len(args) == 2:
		a, b := filepath.ToSlash(filepath.Clean(args[0])), filepath.ToSlash(filepath.Clean(args[1]))
		if a == b {
			return store.CompareSides{}, usagef("the two folders are the same: %s", a)
		}
		return store.CompareSides{Folders: true, Base: a, Vs: b}, nil
	case len(args) == 1:
		return store.CompareSides{}, usagef("give two folders, or --by with --base and --vs")
	case o.by == "" || o.base == "" || o.vs == "":
		return store.CompareSides{}, usagef("give --by, --base and --vs (e.g. --by server --base go-pgx --vs go-pq), or two folders")
	case o.base == o.vs:
		return store.CompareSides{}, usagef("--base and --vs are the same: %q", o.base)
	case !model.IsCompareBy(o.by):
		return store.CompareSides{}, usagef("--by %q: expected a runs column (%s) or a label key", o.by, strings.Join(model.CompareByColumns, ", "))
	}
	return store.CompareSides{By: o.by, Base: o.base, Vs: o.vs}, nil
}

func runCompare(ctx context.Context, e *env, g *globals, o *compareOptions, args []string) error {
	sides, err := o.sides(args)
	if err != nil {
		return err
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return usagef("--alpha must be between 0 and 1, not %v", o.alpha)
	}
	if !(o.confidence > 0 && o.confidence < 1) {
		return usagef("--confidence must be between 0 and 1, not %v", o.confidence)
	}
	metrics, err := o.selectedMetrics()
	if err != nil {
		return err
	}
	format, err := g.outputFormat(e)
	if err != nil {
		return err
	}
	st, err := g.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	d, err := compare.Compare(ctx, st, compare.Options{
		Sides: sides, Metrics: metrics, Alpha: o.alpha, Confidence: o.confidence, Holm: o.holm,
		Ladders: o.ladders, Rule: o.rule, Drift: o.drift,
		Machine: format == report.CSV || format == report.JSON,
	})
	if err != nil {
		return err
	}
	return writeTable(e, g, format, d)
}

func (o *compareOptions) selectedMetrics() ([]string, error) {
	var out []string
	for _, m := range o.metrics {
		metric, ok := model.MetricNamed(compare.AllMetrics(), strings.TrimSpace(m))
		if !ok {
			return nil, usagef("--metric must be one of %s, or a column of run_reported (reported_rps_mean, ...), not %q", strings.Join(compare.Metrics(), ", "), strings.TrimSpace(m))
		}
		if !slices.Contains(out, metric) {
			out = append(out, metric)
		}
	}
	return out, nil
}
