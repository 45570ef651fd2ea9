package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/costs"
	"github.com/wra-bench/wra/stats"
)

type costOptions struct {
	rps           float64
	wait, latency time.Duration
	util          float64
	provider      string
	server        string
	database      string
	test          string
	cpuMS         float64
	dbCPUMS       float64
	memGiB        float64
	memSlope      float64
	memBase       float64
	dbMemGiB      float64
	vcpuHour      float64
	gibHour       float64
	prices        string
	listProviders bool
	sweep         string
	plot          string
	budget        float64
	rule          stats.LadderRule

	// changed reports whether a flag was given on the command line.
	changed func(name string) bool
}

func (o *costOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Float64Var(&o.rps, "rps", cost.DefaultWorkload.RPS, "the request rate to price, requests per second")
	f.DurationVar(&o.wait, "wait", cost.DefaultWorkload.Wait, "how long each request waits in the server without using CPU, e.g. 50ms (requests in flight = rps × (wait + latency))")
	f.DurationVar(&o.latency, "latency", 0, "the rest of each request's time in the server, e.g. 2ms (from the store: the median p50 of the runs)")
	f.Float64Var(&o.util, "util", cost.DefaultWorkload.Utilisation, "target CPU utilisation in (0, 1]: vCPUs = CPU per request × rps / util")
	f.StringVar(&o.provider, "provider", "", "price preset or price-book key (see --list-providers; default "+cost.DefaultProvider+")")
	f.StringVar(&o.server, "server", "", "only this server (from the store); the stack's name with --cpu-ms (default \"stack\")")
	f.StringVar(&o.database, "database", "", "only this database (from the store); the database's name with --db-cpu-ms")
	f.StringVar(&o.test, "test", "", "only this test (from the store); the test's name with --cpu-ms")
	f.Float64Var(&o.cpuMS, "cpu-ms", 0, "the stack's CPU milliseconds per request, instead of the store's")
	f.Float64Var(&o.dbCPUMS, "db-cpu-ms", 0, "the database's CPU milliseconds per request, with --cpu-ms")
	f.Float64Var(&o.memGiB, "mem-gib", 0, "the stack's memory in GiB (2^30 bytes), fixed, with --cpu-ms")
	f.Float64Var(&o.memSlope, "mem-slope-gib-per-1000", 0, "the stack's memory growth in GiB per 1000 requests in flight, with --cpu-ms")
	f.Float64Var(&o.memBase, "mem-base-gib", 0, "the stack's memory in GiB with no request in flight, with --mem-slope-gib-per-1000")
	f.Float64Var(&o.dbMemGiB, "db-mem-gib", 0, "the database's memory in GiB, fixed (from the store: for every stack with a database)")
	f.Float64Var(&o.vcpuHour, "vcpu-hour", 0, "US dollars per vCPU-hour, overriding the provider's")
	f.Float64Var(&o.gibHour, "gib-hour", 0, "US dollars per GiB-hour (GiB = 2^30 bytes), overriding the provider's")
	f.StringVar(&o.prices, "prices", "", "a TOML price book of your own: [provider.KEY] tables (see docs/cost.md, Prices)")
	f.BoolVar(&o.listProviders, "list-providers", false, "print the price presets and the price book, with sources and dates, and exit")
	f.StringVar(&o.sweep, "sweep", "", "price a range of rates: rps=A..B (1, 2, 5 × 10^k between A and B) or rps=A..B:STEP")
	f.StringVar(&o.plot, "plot", "", "with --sweep, draw cost against rate into FILE.svg or FILE.png")
	addLadderRuleFlags(f, &o.rule)
	f.Float64Var(&o.budget, "budget", 0, "instead of a cost, the highest rate each stack serves within this many US dollars a month")
}

func newCostCmd(e *env, g *globals) *cobra.Command {
	o := &costOptions{}
	cmd := &cobra.Command{
		Use:   "cost",
		Short: "What a load costs per month, per stack, at a target utilisation",
		Long: `Price a request rate in US dollars a month, per stack and per database.

  in flight = rps × (wait + latency)                 (Little's law)
  vCPUs     = CPU seconds per request × rps / util
  GiB       = --mem-gib, or base + slope × in flight / 1000
  $/month   = (vCPUs × $/vCPU-hour + GiB × $/GiB-hour) × 730 hours

The database's CPU is priced at the same vCPU price; its memory
(--db-mem-gib) is optional. The figures are an amortised resource price,
not a bill: capacity is bought in fractions, the load is steady, and
network, storage, request fees, free tiers and discounts are left out.

Without --cpu-ms the stacks come from the store, opened read-only, as in
wra analyze's cost table (one builder): per server, database, test and
variant, the median CPU per 2xx response of its runs at --rps
(interpolated between two measured rates, footnoted outside them, or at
full speed when it has no fixed-rate run), whether it held that rate
(--p95, --max-errors: the held column), the median p50 latency of a held
group (unless --latency), and the memory fitted to its memory series
(else its highest working set). Stacks that did not hold the rate come
after those that did. --budget answers no higher than the highest rate a
stack held.
Prices come from a preset (--provider, see --list-providers), your own
TOML price book (--prices), or --vcpu-hour and --gib-hour.`,
		Example: `  wra cost --rps 1000 --cpu-ms 0.4 --mem-gib 0.5 --util 0.6 --vcpu-hour 0.04048 --gib-hour 0.004445
  wra cost --rps 5000 --wait 20ms --provider gcp-n2
  wra cost --sweep rps=100..10000 --plot cost.svg
  wra cost --budget 200 --provider aws-fargate-arm64
  wra cost --list-providers --prices my-prices.toml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.changed = cmd.Flags().Changed
			return runCost(cmd.Context(), e, g, o)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runCost(ctx context.Context, e *env, g *globals, o *costOptions) error {
	format, err := g.outputFormat(e)
	if err != nil {
		return err
	}
	book, err := o.book()
	if err != nil {
		return err
	}
	if o.listProviders {
		return writeTable(e, g, format, costs.Providers(book))
	}
	if err := o.checkCombinations(); err != nil {
		return err
	}
	var vcpu, gib *float64
	if o.changed("vcpu-hour") {
		vcpu = &o.vcpuHour
	}
	if o.changed("gib-hour") {
		gib = &o.gibHour
	}
	price, err := book.Resolve(o.provider, vcpu, gib)
	if err != nil {
		var ue *cost.UnknownProviderError
		if errors.As(err, &ue) {
			return usagef("--provider: %v", err)
		}
		return usagef("price: %v", err)
	}
	w := cost.Workload{RPS: o.rps, Wait: o.wait, Latency: o.latency, Utilisation: o.util}
	validate := w.ValidateLoad // one load, as wra analyze prices
	if o.sweep != "" || o.changed("budget") {
		validate = w.Validate // the rates are the sweep's or the budget's
	}
	if err := validate(); err != nil {
		return inputError(err)
	}

	src, err := o.source(ctx, g, w)
	if err != nil {
		return err
	}
	defer src.close()
	var d *report.Data
	switch {
	case o.changed("budget"):
		jobs, notes, err := src.jobsAt(o.rps, true)
		if err != nil {
			return err
		}
		if d, err = costs.Budget(jobs, price, o.budget); err != nil {
			return inputError(err)
		}
		d.Notes = append(append(d.Notes, notes...), costs.PriceNotes(price, w)...)
	case o.sweep != "":
		r, err := cost.ParseSweep(o.sweep)
		if err != nil {
			return usagef("--sweep: %v", err)
		}
		var notes []string
		at := func(rps float64) ([]costs.Job, error) {
			jobs, n, err := src.jobsAt(rps, false)
			if notes == nil {
				notes = n
			}
			return jobs, err
		}
		var chart *report.CostCurveChart
		if d, chart, err = costs.Sweep(at, price, r.Points()); err != nil {
			return inputError(err)
		}
		if o.plot != "" {
			if err := writePlot(o.plot, chart); err != nil {
				return fmt.Errorf("--plot: %w", err)
			}
		}
		d.Notes = append(append(d.Notes, notes...), costs.PriceNotes(price, w)...)
	default:
		// The one cost table, as wra analyze's cost section prints it.
		jobs, notes, err := src.jobsAt(o.rps, false)
		if err != nil {
			return err
		}
		sec, err := analysis.PriceJobs(jobs, price, w, notes, src.caveats, src.disp)
		if err != nil {
			return inputError(err)
		}
		d = costs.Monthly(sec)
	}
	return writeTable(e, g, format, d)
}

// openCostStore opens the store for wra cost, which needs an existing
// one and only reads it: a store the user can only read is priced, and
// its bytes are the same after.
func openCostStore(ctx context.Context, g *globals) (*store.Store, error) {
	if _, err := os.Stat(g.db); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no store at %s: run wra ingest first, or give the stack's numbers with --cpu-ms", g.db)
		}
		return nil, err
	}
	return g.openStore(ctx, true)
}
