package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
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

	// changed reports whether a flag was given on the command line.
	changed func(name string) bool
}

func (o *costOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Float64Var(&o.rps, "rps", 1000, "the request rate to price, requests per second")
	f.DurationVar(&o.wait, "wait", 0, "how long each request waits in the server without using CPU, e.g. 50ms (requests in flight = rps × (wait + latency))")
	f.DurationVar(&o.latency, "latency", 0, "the rest of each request's time in the server, e.g. 2ms (from the store: the median p50 of the runs)")
	f.Float64Var(&o.util, "util", 0.6, "target CPU utilisation in (0, 1]: vCPUs = CPU per request × rps / util")
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
	f.StringVar(&o.prices, "prices", "", "a TOML price book of your own: [provider.KEY] tables (see the README)")
	f.BoolVar(&o.listProviders, "list-providers", false, "print the price presets and the price book, with sources and dates, and exit")
	f.StringVar(&o.sweep, "sweep", "", "price a range of rates: rps=A..B (1, 2, 5 × 10^k between A and B) or rps=A..B:STEP")
	f.StringVar(&o.plot, "plot", "", "with --sweep, draw cost against rate into FILE.svg or FILE.png")
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

Without --cpu-ms the stacks come from the store, as in wra analyze's cost
table: per server, database and test, the median CPU per 2xx response of
its runs at its highest target rate (or at full speed when it has no
fixed-rate run), the median p50 latency of those runs (unless --latency),
and the memory fitted to its memory series (else its highest working set).
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

// costFlags maps the model's input names to the flags that set them.
var costFlags = map[string]string{
	"rps":                                   "--rps",
	"utilisation":                           "--util",
	"wait":                                  "--wait",
	"latency":                               "--latency",
	"budget ($/month)":                      "--budget",
	"CPU per request (s)":                   "--cpu-ms",
	"database CPU per request (s)":          "--db-cpu-ms",
	"memory (GiB)":                          "--mem-gib",
	"memory base (GiB)":                     "--mem-base-gib",
	"memory slope (GiB per 1000 in flight)": "--mem-slope-gib-per-1000",
	"database memory (GiB)":                 "--db-mem-gib",
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
		return writeTable(e, g, format, providersTable(book))
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
	if err := w.Validate(); err != nil {
		return inputError(err)
	}

	var jobs []costJob
	var notes []string
	if o.fromCommandLine() {
		s, n, err := o.commandLineStack()
		if err != nil {
			return err
		}
		jobs, notes = []costJob{{s, w}}, n
	} else {
		st, err := openCostStore(ctx, g)
		if err != nil {
			return err
		}
		defer st.Close()
		if err := putPrices(ctx, st, book); err != nil {
			return err
		}
		stacks, latency, n, err := storeStacks(ctx, st, o)
		if err != nil {
			return err
		}
		notes = n
		for _, s := range stacks {
			if hasDatabase(s) {
				s.DBMemoryGiB = o.dbMemGiB
			}
			sw := w
			if l, ok := latency[stackName(s)]; ok {
				sw.Latency = l
			}
			jobs = append(jobs, costJob{s, sw})
		}
	}

	switch {
	case o.changed("budget"):
		d, err := budgetTable(jobs, price, o.budget)
		if err != nil {
			return err
		}
		d.Notes = append(append(d.Notes, notes...), priceNotes(price, w)...)
		return writeTable(e, g, format, d)
	case o.sweep != "":
		r, err := cost.ParseSweep(o.sweep)
		if err != nil {
			return usagef("--sweep: %v", err)
		}
		var all [][]cost.Estimate
		for _, j := range jobs {
			es, err := cost.Sweep(j.s, j.w, price, r.Points())
			if err != nil {
				return inputError(err)
			}
			all = append(all, es)
		}
		if o.plot != "" {
			if err := writeCostPlot(o.plot, all, price, w); err != nil {
				return err
			}
		}
		d := estimatesTable(slices.Concat(all...))
		d.Notes = append(notes, priceNotes(price, w)...)
		return writeTable(e, g, format, d)
	}
	var es []cost.Estimate
	for _, j := range jobs {
		est, err := cost.Monthly(j.s, j.w, price)
		if err != nil {
			return inputError(err)
		}
		es = append(es, est)
	}
	slices.SortStableFunc(es, func(a, b cost.Estimate) int {
		if c := cmp.Compare(a.TotalUSDMonth, b.TotalUSDMonth); c != 0 {
			return c
		}
		return strings.Compare(stackName(a.Stack), stackName(b.Stack))
	})
	d := estimatesTable(es)
	d.Notes = append(notes, priceNotes(price, w)...)
	return writeTable(e, g, format, d)
}

// costJob is a stack and the workload it is priced under (the latency of
// Little's law can differ between stacks).
type costJob struct {
	s cost.Stack
	w cost.Workload
}

// book is the presets plus the --prices file.
func (o *costOptions) book() (*cost.Book, error) {
	b := cost.NewBook()
	if o.prices == "" {
		return b, nil
	}
	data, err := os.ReadFile(o.prices)
	if err != nil {
		return nil, fmt.Errorf("--prices: %w", err)
	}
	prices, err := cost.ParseBook(o.prices, data)
	if err != nil {
		return nil, err
	}
	for _, p := range prices {
		if err := b.Add(p); err != nil {
			return nil, fmt.Errorf("%s: %v", o.prices, err)
		}
	}
	return b, nil
}

func (o *costOptions) checkCombinations() error {
	switch {
	case o.changed("budget") && o.sweep != "":
		return usagef("give --budget or --sweep, not both")
	case o.plot != "" && o.sweep == "":
		return usagef("--plot draws a sweep: give --sweep rps=A..B as well")
	case o.plot != "" && !slices.Contains([]string{".svg", ".png"}, strings.ToLower(filepath.Ext(o.plot))):
		return usagef("--plot %q: the file name must end in .svg or .png", o.plot)
	case o.changed("mem-gib") && (o.changed("mem-slope-gib-per-1000") || o.changed("mem-base-gib")):
		return usagef("give --mem-gib (fixed) or --mem-slope-gib-per-1000 with --mem-base-gib, not both")
	case o.changed("mem-base-gib") && !o.changed("mem-slope-gib-per-1000"):
		return usagef("--mem-base-gib needs --mem-slope-gib-per-1000 (for a fixed memory give --mem-gib)")
	}
	for _, name := range []string{"db-cpu-ms", "mem-gib", "mem-slope-gib-per-1000", "mem-base-gib"} {
		if o.changed(name) && !o.changed("cpu-ms") {
			return usagef("--%s needs --cpu-ms: numbers from the command line replace the store's, and the stack's CPU per request is one of them", name)
		}
	}
	return nil
}

// fromCommandLine reports whether the stack is given by flags rather than
// read from the store.
func (o *costOptions) fromCommandLine() bool { return o.changed("cpu-ms") }

func (o *costOptions) commandLineStack() (cost.Stack, []string, error) {
	s := cost.Stack{
		Server:           o.server,
		Database:         o.database,
		Test:             o.test,
		CPUPerRequestS:   o.cpuMS / 1000,
		DBCPUPerRequestS: o.dbCPUMS / 1000,
		DBMemoryGiB:      o.dbMemGiB,
	}
	if s.Server == "" {
		s.Server = "stack"
	}
	if s.Database == "" && (o.changed("db-cpu-ms") || o.changed("db-mem-gib")) {
		s.Database = "database"
	}
	var notes []string
	switch {
	case o.changed("mem-gib"):
		s.Memory = cost.FixedMemory(o.memGiB)
	case o.changed("mem-slope-gib-per-1000"):
		s.Memory = cost.LinearMemory(o.memBase, o.memSlope)
	default:
		notes = append(notes, "No memory given (--mem-gib or --mem-slope-gib-per-1000): the stack's memory is priced at 0 GiB.")
	}
	if err := s.Validate(); err != nil {
		var nc *cost.NoCPUDataError
		if errors.As(err, &nc) {
			return s, nil, usagef("--cpu-ms must be > 0: the stack's CPU milliseconds per request")
		}
		return s, nil, inputError(err)
	}
	return s, notes, nil
}

// inputError turns a model error into one naming the flag where a flag
// set the input.
func inputError(err error) error {
	var ie *cost.InputError
	if errors.As(err, &ie) {
		if f, ok := costFlags[ie.Field]; ok {
			return usagef("%s: %v", f, err)
		}
	}
	return err
}

// putPrices records the price book in the store's prices table.
func putPrices(ctx context.Context, st *store.Store, b *cost.Book) error {
	var rows []store.PriceRow
	for _, p := range b.Prices() {
		rows = append(rows, store.PriceRow{
			Provider:    p.Provider,
			Region:      p.Region,
			Arch:        p.Arch,
			VCPUHourUSD: p.VCPUHourUSD,
			GiBHourUSD:  p.GiBHourUSD(),
			AsOf:        p.AsOf,
			SourceURL:   p.SourceURL,
		})
	}
	return st.PutPrices(ctx, rows)
}

// Human formats.
func usdHuman(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', 2, 64)
	}
	return report.Exact(v)
}

// priceHuman prints a price with up to 7 significant figures: enough for
// every published price, without the float noise of a converted one.
func priceHuman(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'g', 7, 64)
	}
	return report.Exact(v)
}

// sig3Human prints three significant figures without an exponent.
func sig3Human(v any) string {
	f, ok := v.(float64)
	if !ok || f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return report.Exact(v)
	}
	digits := max(0, 2-int(math.Floor(math.Log10(math.Abs(f)))))
	return strconv.FormatFloat(f, 'f', digits, 64)
}

var estimateColumns = []report.Column{
	{Name: "server"},
	{Name: "database"},
	{Name: "test"},
	{Name: "rps", Title: "req/s"},
	{Name: "utilisation", Title: "util"},
	{Name: "wait_ms", Title: "wait ms", Human: sig3Human},
	{Name: "latency_ms", Title: "latency ms", Human: sig3Human},
	{Name: "in_flight", Title: "in flight", Human: sig3Human},
	{Name: "stack_vcpu", Title: "stack vCPU", Human: sig3Human},
	{Name: "stack_gib", Title: "stack GiB", Human: sig3Human},
	{Name: "stack_usd_month", Title: "stack $/month", Human: usdHuman},
	{Name: "db_vcpu", Title: "db vCPU", Human: sig3Human},
	{Name: "db_gib", Title: "db GiB", Human: sig3Human},
	{Name: "db_usd_month", Title: "db $/month", Human: usdHuman},
	{Name: "total_usd_month", Title: "total $/month", Human: usdHuman},
	{Name: "provider"},
}

func estimatesTable(es []cost.Estimate) *report.Data {
	d := &report.Data{Title: "Cost per month", Columns: estimateColumns}
	for _, e := range es {
		// A stack without a database has NULL database figures, not zeros.
		var dbVCPU, dbGiB, dbUSD any
		if hasDatabase(e.Stack) {
			dbVCPU, dbGiB, dbUSD = e.DBVCPU, e.DBGiB, e.DBUSDMonth
		}
		d.Rows = append(d.Rows, []any{
			e.Stack.Server, nullable(e.Stack.Database), nullable(e.Stack.Test),
			e.Workload.RPS, e.Workload.Utilisation, ms(e.Workload.Wait), ms(e.Workload.Latency), e.InFlight,
			e.StackVCPU, e.StackGiB, e.StackUSDMonth,
			dbVCPU, dbGiB, dbUSD,
			e.TotalUSDMonth, e.Price.Provider,
		})
	}
	return d
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func hasDatabase(s cost.Stack) bool {
	return s.Database != "" || s.DBCPUPerRequestS != 0 || s.DBMemoryGiB != 0
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func budgetTable(jobs []costJob, p cost.Price, budget float64) (*report.Data, error) {
	d := &report.Data{
		Title: "Highest rate within " + strconv.FormatFloat(budget, 'f', -1, 64) + " US$ a month",
		Columns: []report.Column{
			{Name: "server"},
			{Name: "database"},
			{Name: "test"},
			{Name: "budget_usd_month", Title: "budget $/month", Human: usdHuman},
			{Name: "max_rps", Title: "max req/s", Human: sig3Human},
			{Name: "utilisation", Title: "util"},
			{Name: "in_flight", Title: "in flight", Human: sig3Human},
			{Name: "stack_vcpu", Title: "stack vCPU", Human: sig3Human},
			{Name: "stack_gib", Title: "stack GiB", Human: sig3Human},
			{Name: "db_vcpu", Title: "db vCPU", Human: sig3Human},
			{Name: "fixed_usd_month", Title: "$/month at 0 req/s", Human: usdHuman},
			{Name: "usd_month_per_rps", Title: "$/month per req/s", Human: sig3Human},
			{Name: "provider"},
		},
	}
	type row struct {
		s cost.Stack
		w cost.Workload
		r cost.BudgetResult
	}
	var rows []row
	for _, j := range jobs {
		s := j.s
		r, err := cost.Budget(s, j.w, p, budget)
		var be *cost.BudgetError
		switch {
		case errors.As(err, &be):
			name := stackName(s)
			d.Notes = append(d.Notes, fmt.Sprintf("%s: the budget does not cover its memory at 0 requests/s (%s $/month).", name, strconv.FormatFloat(be.FixedUSDMonth, 'f', 2, 64)))
			continue
		case err != nil && errors.Is(err, cost.ErrFreeGrowth):
			return nil, fmt.Errorf("%s: %w", s.Server, err)
		case err != nil:
			return nil, inputError(err)
		}
		rows = append(rows, row{s, j.w, r})
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if c := cmp.Compare(b.r.RPS, a.r.RPS); c != 0 {
			return c
		}
		return strings.Compare(stackName(a.s), stackName(b.s))
	})
	for _, x := range rows {
		e := x.r.Estimate
		var dbVCPU any
		if hasDatabase(x.s) {
			dbVCPU = e.DBVCPU
		}
		d.Rows = append(d.Rows, []any{
			x.s.Server, nullable(x.s.Database), nullable(x.s.Test),
			budget, x.r.RPS, x.w.Utilisation, e.InFlight,
			e.StackVCPU, e.StackGiB, dbVCPU,
			x.r.FixedUSDMonth, x.r.USDMonthPerRPS, p.Provider,
		})
	}
	d.Notes = append(d.Notes, "The monthly cost is linear in the rate in this model (memory grows with rps × (wait + latency)), so max req/s = (budget − $/month at 0 req/s) / ($/month per req/s), exactly.")
	return d, nil
}

// priceNotes say what the figures are and where the prices come from.
func priceNotes(p cost.Price, w cost.Workload) []string {
	ex := func(v float64) string { return priceHuman(v) }
	notes := []string{
		fmt.Sprintf("An amortised resource price, not a bill: (vCPUs × %s $/vCPU-hour + GiB × %s $/GiB-hour) × %d hours a month, vCPUs = CPU per request × rps / %s utilisation; network, storage, request fees, free tiers and discounts are left out.",
			ex(p.VCPUHourUSD), ex(p.GiBHourUSD()), cost.HoursPerMonth, ex(w.Utilisation)),
	}
	var src strings.Builder
	if p.Origin == "command line" {
		src.WriteString("Prices: given on the command line (--vcpu-hour, --gib-hour).")
		return append(notes, src.String())
	}
	fmt.Fprintf(&src, "Prices: %s (%s)", p.Name, p.Provider)
	for _, s := range []string{p.Region, p.Arch} {
		if s != "" {
			fmt.Fprintf(&src, ", %s", s)
		}
	}
	if p.AsOf != "" {
		fmt.Fprintf(&src, ", as of %s", p.AsOf)
	}
	if p.SourceURL != "" {
		fmt.Fprintf(&src, ", %s", p.SourceURL)
	}
	origin := p.Origin
	if !strings.HasPrefix(origin, "preset") {
		origin = "price book " + origin
	}
	fmt.Fprintf(&src, " (%s).", origin)
	if p.MemUnit == cost.GB {
		fmt.Fprintf(&src, " Memory is published per GB (10^9 bytes) at %s $/GB-hour = %s $/GiB-hour (× 2^30/10^9).", ex(p.MemHourUSD), ex(p.GiBHourUSD()))
	}
	return append(notes, src.String())
}

func providersTable(b *cost.Book) *report.Data {
	d := &report.Data{
		Title: "Prices",
		Columns: []report.Column{
			{Name: "provider"},
			{Name: "name"},
			{Name: "region"},
			{Name: "arch"},
			{Name: "vcpu_hour_usd", Title: "$/vCPU-hour", Human: priceHuman},
			{Name: "mem_hour_usd", Title: "$/memory-hour", Human: priceHuman},
			{Name: "mem_unit", Title: "memory unit"},
			{Name: "gib_hour_usd", Title: "$/GiB-hour", Human: priceHuman},
			{Name: "gb_hour_usd", Title: "$/GB-hour", Human: priceHuman},
			{Name: "as_of", Title: "as of"},
			{Name: "source_url", Title: "source"},
			{Name: "origin"},
		},
		Notes: []string{
			"GB = 10^9 bytes, GiB = 2^30 bytes; a GiB-hour costs 1.073741824 GB-hours. The price as published is in mem_hour_usd, per mem_unit; the other column is converted.",
			"Public on-demand list prices as recorded on the as-of date; check the source before publishing.",
		},
	}
	for _, p := range b.Prices() {
		d.Rows = append(d.Rows, []any{
			p.Provider, p.Name, nullable(p.Region), nullable(p.Arch),
			p.VCPUHourUSD, p.MemHourUSD, string(p.MemUnit), p.GiBHourUSD(), p.GBHourUSD(),
			nullable(p.AsOf), nullable(p.SourceURL), p.Origin,
		})
	}
	return d
}

// writeCostPlot draws the sweep, one line per stack, into an SVG or PNG file.
func writeCostPlot(path string, all [][]cost.Estimate, p cost.Price, w cost.Workload) error {
	ch := &report.CostCurveChart{
		Title: fmt.Sprintf("Cost per month against load (%s, utilisation %s)", p.Provider, report.Exact(w.Utilisation)),
	}
	for _, es := range all {
		if len(es) == 0 {
			continue
		}
		c := report.CostCurve{Name: stackName(es[0].Stack)}
		for _, e := range es {
			c.Points = append(c.Points, report.CostPoint{RPS: e.Workload.RPS, USDMonth: e.TotalUSDMonth})
		}
		ch.Curves = append(ch.Curves, c)
	}
	var buf bytes.Buffer
	var err error
	if strings.ToLower(filepath.Ext(path)) == ".png" {
		err = report.WritePNG(&buf, ch)
	} else {
		err = report.WriteSVG(&buf, ch)
	}
	if err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	return writeFileAtomic(path, buf.Bytes())
}

// stackName names a stack in a legend: server, then database and test
// where present.
func stackName(s cost.Stack) string {
	parts := []string{s.Server}
	for _, x := range []string{s.Database, s.Test} {
		if x != "" {
			parts = append(parts, x)
		}
	}
	return strings.Join(parts, " / ")
}
