package cost

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// A Job is a stack and the workload it is priced under (the latency of
// Little's law can differ between stacks): what wra cost and the cost
// table of wra analyze price.
type Job struct {
	Stack    Stack
	Workload Workload
	// Held says whether the stack held the rate priced (from a store);
	// nil for a stack given on the command line, whose load is unknown.
	Held *bool
	// MaxHeldRPS is the highest rate the stack is known to serve: the
	// highest it held, or, measured at full speed only, the rate it
	// served there (NaN: none; unused for a stack given on the command
	// line, whose limit is unknown).
	MaxHeldRPS float64
	// From a store: what its memory is priced from, the groups of the
	// experiment its figures come from and their runs.
	MemoryFrom MemoryFrom
	GroupIDs   []string
	Sources    []model.Source
}

// Jobs prices the stacks of a store: Build (the one builder) chooses each
// stack's figures at the rate of req.Workload, and each becomes a job
// with whether it held that rate; the notes say where the figures come
// from, stack by stack.
func Jobs(ctx context.Context, src Source, req Request) ([]Job, []string, error) {
	priced, notes, err := Build(ctx, src, req)
	if err != nil {
		return nil, nil, err
	}
	var jobs []Job
	for _, p := range priced {
		held := p.Held
		limit := p.MaxHeldRPS
		if !p.FixedRate {
			limit = p.MaxMeasuredRPS // at full speed no rate is held: the rate it served is the limit known
		}
		var srcs []model.Source
		for i, f := range p.Sources {
			srcs = append(srcs, model.Source{File: f, Line: int(p.Lines[i])})
		}
		jobs = append(jobs, Job{Stack: p.Stack, Workload: p.Workload, Held: &held, MaxHeldRPS: limit,
			MemoryFrom: p.MemoryFrom, GroupIDs: p.GroupIDs, Sources: srcs})
	}
	var stackNotes []string
	for _, n := range StackNotes(priced) {
		stackNotes = append(stackNotes, n+".")
	}
	for _, n := range notes {
		stackNotes = append(stackNotes, n+".")
	}
	lat := "the median p50 latency of the group the CPU comes from (a held one where it held)"
	if req.LatencyGiven {
		lat = "--latency"
	}
	at := "at the rate priced (interpolated between two measured rates, footnoted outside them)"
	if req.AtHighestHeld {
		at = "at the highest rate it held (or, holding none, the highest measured)"
	}
	stackNotes = append(stackNotes, fmt.Sprintf("From the store (cost_groups): CPU seconds of the server (user + kernel) and of the database per successful response, the median of each stack's runs %s; held: a fixed-rate group at that rate or above held it in more than half of its runs (p95 < %g ms, errors < %g%%, %g%% of the rate achieved); requests in flight = rps × (--wait + %s); memory = base + slope per 1000 in flight, fitted to the server's memory series on the stack's database, or to its series that names no database (all passes pooled), else its highest working set.",
		at, req.Rule.P95MS, 100*req.Rule.MaxErrorRate, 100*req.Rule.MinAchievedRatio, lat))
	return jobs, stackNotes, nil
}

// PriceNotes say what the figures are and where the prices come from.
func PriceNotes(p Price, w Workload) []string {
	ex := func(v float64) string { return strconv.FormatFloat(v, 'g', 7, 64) }
	notes := []string{
		fmt.Sprintf("An amortised resource price, not a bill: (vCPUs × %s $/vCPU-hour + GiB × %s $/GiB-hour) × %d hours a month, vCPUs = CPU per request × rps / %s utilisation; network, storage, request fees, free tiers and discounts are left out.",
			ex(p.VCPUHourUSD), ex(p.GiBHourUSD()), HoursPerMonth, ex(w.Utilisation)),
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
	if p.MemUnit == GB {
		fmt.Fprintf(&src, " Memory is published per GB (10^9 bytes) at %s $/GB-hour = %s $/GiB-hour (× 2^30/10^9).", ex(p.MemHourUSD), ex(p.GiBHourUSD()))
	}
	return append(notes, src.String())
}
