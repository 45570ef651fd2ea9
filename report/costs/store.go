package costs

import (
	"context"
	"fmt"

	"github.com/wra-bench/wra/cost"
)

// FromStore prices the stacks of a store: cost.Build (the one builder,
// which the cost table of wra analyze calls too) chooses each stack's
// figures at the rate of req.Workload, and each becomes a job with
// whether it held that rate; the notes say where the figures come from,
// stack by stack.
func FromStore(ctx context.Context, src cost.Source, req cost.Request) ([]Job, []string, error) {
	priced, notes, err := cost.Build(ctx, src, req)
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
		jobs = append(jobs, Job{Stack: p.Stack, Workload: p.Workload, Held: &held, MaxHeldRPS: limit})
	}
	var stackNotes []string
	for _, n := range cost.StackNotes(priced) {
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
