package main

import (
	"context"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
)

// costSource gives wra cost the stacks to price at a rate: from the
// store, the one cost builder's choice at that rate (cost.Jobs) with the
// caveats of the groups behind them and the manifest's order of the
// servers; from the command line, the stack given.
type costSource struct {
	jobsAt  func(rps float64, atHighestHeld bool) ([]cost.Job, []string, error)
	caveats map[string][]model.Caveat
	disp    model.Display
	close   func() error
}

func (o *costOptions) source(ctx context.Context, g *globals, w cost.Workload) (*costSource, error) {
	if o.fromCommandLine() {
		s, n, err := o.commandLineStack()
		if err != nil {
			return nil, err
		}
		return &costSource{close: func() error { return nil }, jobsAt: func(rps float64, _ bool) ([]cost.Job, []string, error) {
			w := w
			w.RPS = rps
			return []cost.Job{{Stack: s, Workload: w}}, n, nil
		}}, nil
	}
	st, err := openCostStore(ctx, g)
	if err != nil {
		return nil, err
	}
	opts := analysis.DefaultOptions()
	opts.LadderRule = o.rule
	rule := opts.DesignRule()
	src := &costSource{close: st.Close, jobsAt: func(rps float64, atHighestHeld bool) ([]cost.Job, []string, error) {
		w := w
		w.RPS = rps
		return cost.Jobs(ctx, st, cost.Request{
			Filter: model.StackFilter{Server: o.server, Database: o.database, Test: o.test}, Rule: rule,
			Workload: w, LatencyGiven: o.changed("latency"), DBMemoryGiB: o.dbMemGiB, AtHighestHeld: atHighestHeld,
		})
	}}
	if src.caveats, err = st.Caveats(ctx, rule); err != nil {
		st.Close()
		return nil, err
	}
	if src.disp, err = st.LabelDisplay(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return src, nil
}
