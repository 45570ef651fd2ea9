package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
	"github.com/wra-bench/wra/stats"
)

type analyzeOptions struct {
	out      string
	rule     stats.LadderRule
	drift    float64
	rps      float64
	wait     time.Duration
	util     float64
	provider string
	test     string
	labels   []string
	noIngest bool
	open     bool
	tables   bool
	alpha    float64
	tie      float64
	find     findingFlags
	findings stats.FindingRules // resolved from find and the folders' wra.toml
	layouts  []analyze.Layout   // the folders' [[tables]]
	inline   report.InlinePlots
}

func (o *analyzeOptions) AddFlags(cmd *cobra.Command) {
	d := analyze.DefaultOptions()
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "wra-report", "folder for the report: index.html, report.md, tables/ and plots/")
	addLadderRuleFlags(f, &o.rule)
	addDriftFlag(f, &o.drift, d.DriftTolerance)
	f.Float64Var(&o.rps, "rps", d.RPS, "cost table: the load in requests/s")
	f.DurationVar(&o.wait, "wait", d.Wait, "cost table: time each request waits in the server without CPU, e.g. 20ms")
	f.Float64Var(&o.util, "util", d.Util, "cost table: target CPU utilisation, in (0, 1]")
	f.StringVar(&o.provider, "provider", d.Price.Provider, "cost table: price preset (see wra cost --list-providers)")
	f.StringVar(&o.test, "test", "", "cost table: price only the stacks of this test (default: every stack, as wra cost)")
	f.Float64Var(&o.alpha, "alpha", d.Alpha, "ties: rows with 3 or more rounds each share a place unless a Mann–Whitney test is significant at this level")
	f.Float64Var(&o.tie, "tie", d.TiePct, "ties: single runs share a place within this many percent (or the calibration drift covering them, when larger)")
	f.StringArrayVarP(&o.labels, "label", "l", nil, "a label key=value for every ingested file (repeatable)")
	f.BoolVar(&o.noIngest, "no-ingest", false, "analyze the store as it is, without ingesting")
	o.inline = d.InlinePlots
	f.Var(inlinePlots{&o.inline}, "inline-plots", fmt.Sprintf("the page's plots: auto (inline up to %d MiB of SVG, linked files of plots/ above), always (inline) or never (linked)", report.InlinePlotsLimitBytes>>20))
	o.find.AddFlags(cmd)
	f.BoolVar(&o.open, "open", false, "open the report page in the default browser ($BROWSER, xdg-open, open)")
	f.BoolVar(&o.tables, "tables", false, "print every table on stdout, as on a pipe (on a terminal, without --format, wra analyze prints the summary and the findings' headlines)")
}

func newAnalyzeCmd(e *env, g *globals) *cobra.Command {
	o := &analyzeOptions{}
	cmd := &cobra.Command{
		Use:   "analyze [flags] PATH...",
		Short: "Ingest a folder of raw records and write the published tables, plots and report page",
		Long: `Ingest files and folders (incrementally, into --db) and write everything a
benchmarker publishes into --out: the report page index.html (its plots
inline, or linked when large: --inline-plots), report.md, every table as
CSV, JSON and Markdown under tables/, every plot as SVG and PNG under
plots/. On a terminal, stdout gets the summary and the findings'
headlines; on a pipe, with --format or with --tables, every table.

The page, report.md and stdout open with the Summary (per test and
load, who leads each comparison and by how much, the within-trial ratio
and its interval where the stacks ran in the same trials, ties said as
ties, the caveats of the groups beside each sentence) and its Context
(dates and tools of the runs, the calibration's noise, the folder's
README). Then the tables: the Findings (what the records show, each with
the rule that fired and the runs behind it; see wra findings --help); CPU per
request at a fixed rate; throughput by rounds; CPU per
request split into user, kernel and database; memory and its growth per
1000 waiting requests; held-rate ladders; single-run ranking; calibration
drift; cost per month. A table whose inputs are absent is skipped with a
one-line note. The same store gives byte-identical files.`,
		Example: `  wra analyze data/
  wra analyze --out site/bench --rps 5000 --wait 20ms results/
  wra --db bench.duckdb analyze --no-ingest --format markdown`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnalyze(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runAnalyze(ctx context.Context, e *env, g *globals, o *analyzeOptions, args []string) error {
	if len(args) == 0 && !o.noIngest {
		return usagef("give a folder to analyze, or --no-ingest to analyze the store as it is")
	}
	format := report.Table
	if g.format != "" {
		var err error
		if format, err = g.outputFormat(e); err != nil {
			return err
		}
	}
	if err := (cost.Workload{RPS: o.rps, Wait: o.wait, Utilisation: o.util}).ValidateLoad(); err != nil {
		return inputError(err)
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return usagef("--alpha must be in (0, 1), not %g", o.alpha)
	}
	if !(o.tie > 0) {
		return usagef("--tie must be > 0 (percent), not %g", o.tie)
	}
	price, err := cost.NewBook().Lookup(o.provider)
	if err != nil {
		return usageError{err}
	}
	labels, err := parseLabels(o.labels)
	if err != nil {
		return err
	}
	if o.findings, err = o.find.rules(args); err != nil {
		return err
	}
	if o.layouts, err = manifestLayouts(args); err != nil {
		return err
	}
	st, err := g.openStore(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	failed := 0
	if !o.noIngest {
		res, err := g.ingest(ctx, e, st, args, ingest.Options{Labels: labels})
		if err != nil {
			return err
		}
		if err := putPrices(ctx, st, cost.NewBook()); err != nil {
			return err
		}
		if err := st.ReleaseBuffers(ctx); err != nil {
			return err
		}
		failed = res.Count(ingest.Failed)
	}
	opts := analyze.DefaultOptions()
	opts.LadderRule, opts.DriftTolerance = o.rule, o.drift
	opts.RPS, opts.Wait, opts.Util, opts.Price, opts.CostTest = o.rps, o.wait, o.util, price, o.test
	opts.Alpha, opts.TiePct = o.alpha, o.tie
	opts.Findings, opts.Layouts, opts.InlinePlots = o.findings, o.layouts, o.inline
	if opts.Corpus, err = analyze.ReadCorpus(args); err != nil {
		return err
	}
	key, err := analysisKey(ctx, st, opts)
	if err != nil {
		return err
	}
	shown := string(format)
	if e.stdoutTTY && g.format == "" && !o.tables {
		shown = briefStdout
	}
	if cached, ok := readCache(o.out, key, shown); ok {
		if _, err := io.WriteString(e.stdout, cached.stdout); err != nil {
			return err
		}
		if !g.quiet {
			io.WriteString(e.stderr, cached.notes)
		}
		tablesHint(e, o.out, shown)
		reportWritten(e, g, o.out, o.open, true)
		if failed > 0 {
			return silentError{exitPartial}
		}
		return nil
	}
	res, err := analyzeStore(ctx, st, opts)
	if err != nil {
		return err
	}
	if err := writeReport(o.out, res, key, opts.InlinePlots); err != nil {
		return err
	}
	if err := printAnalysis(e.stdout, e.stderr, res, shown); err != nil {
		return err
	}
	tablesHint(e, o.out, shown)
	reportWritten(e, g, o.out, o.open, false)
	if failed > 0 {
		return silentError{exitPartial}
	}
	return nil
}

// writeReport writes the report folder: into a fresh folder beside it,
// which then replaces the old one, so that a failure leaves the previous
// report whole.
func writeReport(out string, res *analyze.Result, key string, inline report.InlinePlots) error {
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := analyze.WriteFiles(tmp, res, inline); err != nil {
		return err
	}
	if err := writeCache(tmp, key, res); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	old := tmp + ".old"
	if _, err := os.Stat(out); err == nil {
		if err := os.Rename(out, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Rename(old, out)
		return err
	}
	return os.RemoveAll(old)
}
