package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
)

// CostSection is the monthly cost of each stack at one load, the one
// cost table of wra cost and of wra analyze: the stacks that held the
// rate first, cheapest first, then those whose rate is unknown, then
// those that did not hold it; each with its estimate and its job (where
// its figures come from).
type CostSection struct {
	Skipped string
	// The load and price of the table, for its title.
	RPS, Util float64
	Price     cost.Price
	Rows      []CostRow
	Notes     []string
}

// CostRow is one stack priced.
type CostRow struct {
	cost.Estimate
	Job cost.Job
}

// PriceJobs prices jobs at price under workload w (its rate and
// utilisation name the table): a job whose estimate fails on its own
// figures is a footnote, not a failure of the others (an input error of
// the workload or price fails all); the given notes follow those footnotes, then
// what the prices are, then the caveats of the groups behind each stack
// (caveats: the store's group_caveats; nil for a stack given on the
// command line).
func PriceJobs(jobs []cost.Job, price cost.Price, w cost.Workload, given []string, caveats map[string][]model.Caveat, disp model.Display) (CostSection, error) {
	sec := CostSection{RPS: w.RPS, Util: w.Utilisation, Price: price}
	n := &notes{}
	for _, j := range jobs {
		e, err := cost.Monthly(j.Stack, j.Workload, price)
		if err != nil {
			var inErr *cost.InputError
			if errors.As(err, &inErr) {
				return sec, err
			}
			n.add(fmt.Sprintf("%s: %v", cost.StackName(j.Stack), err))
			continue
		}
		sec.Rows = append(sec.Rows, CostRow{Estimate: e, Job: j})
	}
	// A stack that did not hold the rate is never the cheapest.
	slices.SortStableFunc(sec.Rows, func(x, y CostRow) int {
		return cmp.Or(cmp.Compare(heldRank(x.Job.Held), heldRank(y.Job.Held)), cmpNaNLast(x.TotalUSDMonth, y.TotalUSDMonth),
			cmp.Compare(cost.StackName(x.Stack), cost.StackName(y.Stack)))
	})
	sec.Rows = byManifest(sec.Rows, disp, func(r CostRow) string { return r.Stack.Server })
	for _, note := range given {
		n.add(note)
	}
	for _, note := range cost.PriceNotes(price, w) {
		n.add(note)
	}
	cv := &caveatNotes{of: caveats, rows: map[string][]string{}}
	for _, r := range sec.Rows {
		cv.add(cost.StackName(r.Stack), r.Job.GroupIDs)
	}
	cv.to(n)
	sec.Notes = n.list
	return sec, nil
}

// heldRank orders whether a stack held its rate: held, unknown (a stack
// given on the command line), not held.
func heldRank(held *bool) int {
	switch {
	case held == nil:
		return 1
	case *held:
		return 0
	}
	return 2
}

// cost prices each stack (server, database, test, variant) at the
// chosen load as wra cost does: cost.Jobs (the one builder) chooses its
// CPU per request at that rate (interpolated between two measured rates,
// footnoted outside them), whether it held the rate, the latency for
// Little's law and the memory; PriceJobs prices and orders them.
func (a *analysis) cost() (CostSection, error) {
	w := cost.Workload{RPS: a.opts.RPS, Wait: a.opts.Wait, Utilisation: a.opts.Util}
	jobs, notes, err := cost.Jobs(a.ctx, a.st, cost.Request{Filter: model.StackFilter{Test: a.opts.CostTest}, Rule: a.opts.DesignRule(), Workload: w})
	if err != nil {
		var none *cost.NoCPUDataError
		if errors.As(err, &none) || errors.Is(err, cost.ErrNothingToPrice) {
			return CostSection{RPS: w.RPS, Util: w.Utilisation, Price: a.opts.Price, Skipped: "no runs with CPU figures to price"}, nil
		}
		return CostSection{}, err
	}
	return PriceJobs(jobs, a.opts.Price, w, notes, a.caveats, a.disp)
}
