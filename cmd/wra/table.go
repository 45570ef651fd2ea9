package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/projection"
	"github.com/wra-bench/wra/stats"
)

type tableOptions struct {
	metric  string
	cell    string
	figures []string // TITLE=TEMPLATE
	filter  map[string]string
	rows    []string
	cols    []string
	where   string
	noSplit []string
	sort    string
	spread  bool
	rule    stats.LadderRule
	drift   float64
}

func (o *tableOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.metric, "metric", "m", "", "the figure of each cell: a column of run_figures (rps, latency_p99_ms, cpu_user_us, ...; cpu_server_us_per_req, as wra compare names it, is cpu_server_us)")
	f.StringVar(&o.cell, "cell", "", `a cell of several figures: a template such as "{rps:,.0f} ({latency_p99_ms:.1f})"; a format after the colon (",.1f", or a tool's units: wrk, bombardier, k6, vegeta), a fallback after |, [ ] drops a part whose figure is missing`)
	f.StringArrayVar(&o.figures, "figure", nil, `a column of its own, as TITLE=TEMPLATE ("Requests/sec={rps:,.2f}"); repeat it for figures side by side, in place of --metric and --cell`)
	f.StringSliceVar(&o.rows, "row", nil, "the keys of the rows: columns or labels, comma-separated (server,database)")
	f.StringSliceVar(&o.cols, "col", nil, "the keys of the columns: columns or labels, comma-separated (connections)")
	f.StringVar(&o.where, "where", "", `a SQL condition on the columns of run_figures, e.g. "test = 'one'"`)
	f.StringToStringVar(&o.filter, "filter", nil, `only the runs with these values of columns or labels, KEY=VALUE, comma-separated ("machine=8cpu-4g")`)
	f.StringSliceVar(&o.noSplit, "no-split", nil, "labels that never split a table (a timestamp per run)")
	f.StringVar(&o.sort, "sort", "", `order the rows by a figure of the cell, highest first ("rps") or lowest first ("+latency_p99_ms")`)
	f.BoolVar(&o.spread, "spread", false, "show the min and max of the rounds of every figure (and their number, in csv and json)")
	addLadderRuleFlags(f, &o.rule)
	addDriftFlag(f, &o.drift, stats.DefaultDriftTolerance)
}

func newTableCmd(e *env, g *globals) *cobra.Command {
	o := &tableOptions{}
	cmd := &cobra.Command{
		Use:   "table --metric M | --cell TEMPLATE [--row KEYS] [--col KEYS] [--where SQL]",
		Short: "Lay out any figure of the runs by any labels, as rows and columns",
		Long: `Lay out a figure of the runs (any column of the run_figures view: rps,
latency percentiles, CPU per request parts, memory, errors ...; or
highest_held_rps, the highest rate a held-rate ladder run held, from the
ladder_figures macro under --p95 and --max-errors) with any
labels as rows and columns. A cell is the median of its rounds: the runs
that agree on every label but round. A label that varies beyond the keys
(another tool, a variant the manifest sets) splits the table instead of
being pooled, and a footnote names it; the caveats of each cell's
groups (group_caveats, under --drift and the held rule) are footnoted
in their words. In csv and json every cell is a number, one column per
column-key value and figure.`,
		Example: `  wra table --metric rps --row server --col connections --where "tool = 'ab' AND test = 'waiting'"
  wra table --cell "{rps:,.0f} ({latency_p99_ms:.1f})" --row server --col target_rps --where "tool = 'wrk2' AND test = 'one'" --format markdown
  wra table --cell "{cpu_user_us:.0f} + {cpu_kernel_us:.0f}[; {cpu_db_us:.0f}]" --row server --col test,target_rps --where "tool = 'wrk2'"
  wra table --metric highest_held_rps --row server --col tool
  wra table --figure "Requests/sec={rps:,.2f}" --figure "p50={latency_p50_ms:.2f} ms" --figure "p99={latency_p99_ms:.2f} ms" --row server --format markdown
  wra table --figure "Latency={latency_mean_ms:wrk}" --figure "Transfer/sec={reported_transfer_bytes_per_s:wrk}" --row server --col target_rps --where "tool = 'wrk2' AND test = 'one'"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTable(cmd.Context(), e, g, o)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runTable(ctx context.Context, e *env, g *globals, o *tableOptions) error {
	cell := o.cell
	var figs []projection.Figure
	for _, f := range o.figures {
		title, tmpl, ok := strings.Cut(f, "=")
		if !ok || title == "" || tmpl == "" {
			return usagef("--figure %q: expected TITLE=TEMPLATE, such as \"Requests/sec={rps:,.2f}\"", f)
		}
		figs = append(figs, projection.Figure{Title: title, Cell: tmpl})
	}
	switch {
	case (o.metric != "") && (o.cell != "") || (len(figs) > 0 && (o.metric != "" || o.cell != "")):
		return usagef("give --metric, --cell or --figure, not two of them")
	case o.metric != "":
		cell = "{" + o.metric + "}"
	case cell == "" && len(figs) == 0:
		return usagef("give --metric M (e.g. rps), --cell TEMPLATE or --figure TITLE=TEMPLATE")
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
	spec := projection.Spec{Cell: cell, Figures: figs, Filter: o.filter, Rows: o.rows, Cols: o.cols, NoSplit: o.noSplit, Sort: o.sort, Spread: o.spread}
	t, err := readTable(ctx, st, spec, o)
	if err != nil {
		return err
	}
	tables, err := projection.Project(t, spec)
	if errors.Is(err, projection.ErrNoRuns) {
		return err
	}
	if err != nil {
		return usageError{err}
	}
	for i, d := range tables {
		if i > 0 {
			if _, err := fmt.Fprintln(e.stdout); err != nil {
				return err
			}
		}
		if len(tables) > 1 && (format == report.CSV || format == report.JSON) && !g.quiet {
			fmt.Fprintf(e.stderr, "wra: table %d: %s\n", i+1, d.Title)
		}
		if err := writeTable(e, g, format, d); err != nil {
			return err
		}
	}
	return nil
}

// readTable reads the runs of a table and the caveats of their groups,
// the views of the experiment's design held for the while
// (analysis.Hold): at 16 copies of data/, reading the caveats without
// it took wra table from 0.3 s and 130 MiB to 1.0 s and 300 MiB.
func readTable(ctx context.Context, st *store.Store, spec projection.Spec, o *tableOptions) (projection.Runs, error) {
	var t projection.Runs
	err := analysis.Holding(ctx, st, func() error {
		var err error
		if t, err = projection.Read(ctx, st, spec.Cells(), o.where, o.rule); err != nil {
			return usageError{err}
		}
		t.Caveats, err = analysis.ReadCaveats(ctx, st, model.DesignRule{Tolerance: o.drift, LadderRule: o.rule})
		return err
	})
	return t, err
}
