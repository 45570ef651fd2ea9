package costs

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/stats"
)

// StoreRequest says which stacks of the store to price and how.
type StoreRequest struct {
	// Filter narrows the stacks; an empty field matches all.
	Filter model.StackFilter
	// Workload is the load; its Latency is each stack's median p50 unless
	// LatencyGiven.
	Workload     cost.Workload
	LatencyGiven bool
	// DBMemoryGiB is the memory of every stack's database, fixed.
	DBMemoryGiB float64
}

// FromStore reads the stacks to price from the store (see storeStacks)
// and gives each its workload, with the notes that say where the figures
// come from.
func FromStore(ctx context.Context, st *store.Store, r StoreRequest) ([]Job, []string, error) {
	stacks, latency, notes, err := storeStacks(ctx, st, r)
	if err != nil {
		return nil, nil, err
	}
	var jobs []Job
	for _, s := range stacks {
		if HasDatabase(s) {
			s.DBMemoryGiB = r.DBMemoryGiB
		}
		w := r.Workload
		if l, ok := latency[StackName(s)]; ok {
			w.Latency = l
		}
		jobs = append(jobs, Job{Stack: s, Workload: w})
	}
	return jobs, notes, nil
}

// storeStacks reads the stacks to price from the store by the rule the
// cost table of wra analyze uses (cost.StackInputs over the view
// cost_runs, cost.ChooseMemory), so that both print the same figures:
//
//   - per (server, database, test), the runs with a CPU per request (the
//     view cpu_per_request: per successful response) at the highest
//     target rate, or, where a stack has no fixed-rate pass, all its runs
//     at full speed (with a note);
//   - CPU per request: median of those runs, stack (user + kernel) and
//     database;
//   - latency for Little's law: the median p50 of those runs, unless
//     --latency is given;
//   - memory: base and slope fitted (OLS) to all passes of the server's
//     memory series pooled, else its highest working set, fixed.
func storeStacks(ctx context.Context, st *store.Store, r StoreRequest) ([]cost.Stack, map[string]time.Duration, []string, error) {
	filter := r.Filter
	runs, err := st.CostRuns(ctx, filter)
	if err != nil {
		return nil, nil, nil, err
	}
	inputs := cost.StackInputs(runs)
	if filter.Server != "" && len(inputs) == 0 {
		return nil, nil, nil, &cost.NoCPUDataError{Server: filter.Server}
	}
	if len(inputs) == 0 {
		msg := "the store has no run with CPU seconds and a count of successful responses (responses_2xx, or requests)"
		if filter.Database != "" || filter.Test != "" {
			msg += " for the --database and --test given"
		}
		return nil, nil, nil, fmt.Errorf("%s: nothing to price (ingest harness records with cpu_server_s, or give --cpu-ms)", msg)
	}
	mem, memNotes, err := memoryFits(ctx, st)
	if err != nil {
		return nil, nil, nil, err
	}
	var stacks []cost.Stack
	latency := map[string]time.Duration{}
	var notes, fullSpeed []string
	few := map[int][]string{}
	with := map[string]bool{}
	for _, in := range inputs {
		s := in.Stack
		with[s.Server] = true
		name := StackName(s)
		if !in.FixedRate {
			fullSpeed = append(fullSpeed, name)
		}
		if in.Passes < 3 {
			few[in.Passes] = append(few[in.Passes], name)
		}
		if !math.IsNaN(in.P50MS) && !r.LatencyGiven {
			latency[name] = in.Latency()
		}
		m := mem[s.Server]
		s.Memory = m.mem
		if m.from == cost.MemoryFromNone {
			notes = append(notes, fmt.Sprintf("%s: no memory figures; memory priced at 0 GiB.", name))
		}
		stacks = append(stacks, s)
	}
	if len(fullSpeed) > 0 {
		notes = append(notes, fmt.Sprintf("No fixed-rate passes, CPU per request from runs at full speed: %s.", strings.Join(fullSpeed, ", ")))
	}
	for _, n := range slices.Sorted(maps.Keys(few)) {
		notes = append(notes, fmt.Sprintf("CPU per request from %d pass(es), fewer than 3: %s.", n, strings.Join(few[n], ", ")))
	}
	servers, err := st.Servers(ctx, filter)
	if err != nil {
		return nil, nil, nil, err
	}
	var noCPU []string
	for _, s := range servers {
		if !with[s] {
			noCPU = append(noCPU, cmp.Or(s, "(runs without a server label)"))
		}
	}
	if len(noCPU) > 0 {
		notes = append(notes, fmt.Sprintf("Left out, no CPU per request measured: %s.", strings.Join(noCPU, ", ")))
	}
	for _, server := range slices.Sorted(maps.Keys(mem)) {
		if mem[server].from == cost.MemoryFromWorkingSet {
			notes = append(notes, server+": no memory series; memory is its highest working set, fixed.")
		}
	}
	notes = append(notes, memNotes...)
	lat := "the median p50 latency of those runs"
	if r.LatencyGiven {
		lat = "--latency"
	}
	notes = append(notes, fmt.Sprintf("From the store: CPU seconds of the server (user + kernel) and of the database per successful response (2xx, or requests - non-2xx - errors where a record has no 2xx count), median of each stack's runs at its highest target rate; requests in flight = rps × (--wait + %s); memory = base + slope per 1000 in flight, fitted to the server's memory series (all passes pooled), else its highest working set.", lat))
	return stacks, latency, notes, nil
}

// serverMemory is a server's memory for the model and where it comes
// from.
type serverMemory struct {
	mem  cost.Memory
	from cost.MemoryFrom
}

// memoryFits returns per server the memory cost.ChooseMemory gives: the
// line fitted to its memory series, all passes pooled (the view
// memory_slopes through cost.MemoryFit, as wra analyze reads it), else its
// highest working set. Notes say where a
// series bends or cannot be used.
func memoryFits(ctx context.Context, st *store.Store) (map[string]serverMemory, []string, error) {
	pts, err := st.MemorySeries(ctx)
	if err != nil {
		return nil, nil, err
	}
	series := map[string][]model.MemorySeriesPoint{}
	for _, p := range pts {
		series[p.Server] = append(series[p.Server], p)
	}
	slopes, err := st.MemorySlopes(ctx)
	if err != nil {
		return nil, nil, err
	}
	pooled := map[string]model.MemorySlope{}
	for _, r := range slopes {
		if r.Pooled {
			pooled[r.Server] = r
		}
	}
	peak, err := st.PeakMemory(ctx)
	if err != nil {
		return nil, nil, err
	}
	// The memory of a server, over its databases and variants, as
	// memory_slopes fits one series per server.
	ws := map[string]float64{}
	for _, p := range peak {
		if v, seen := ws[p.Server]; !seen || math.IsNaN(v) || p.WorkingSetMB > v {
			ws[p.Server] = p.WorkingSetMB
		}
	}
	out := map[string]serverMemory{}
	var notes []string
	for _, server := range slices.Sorted(maps.Keys(series)) {
		r, ok := pooled[server]
		if !ok {
			return nil, nil, fmt.Errorf("memory_slopes has no row for server %q over all passes", server)
		}
		f := cost.MemoryFit(r, series[server])
		slope, base := f.SlopeGiBPer1000, f.InterceptGiB
		switch {
		case math.IsNaN(slope) || math.IsNaN(base):
			notes = append(notes, fmt.Sprintf("%s: memory series too short to fit.", server))
		case slope < 0 || base < 0:
			notes = append(notes, fmt.Sprintf("%s: fitted memory base %s GiB, slope %s GiB per 1000: a negative figure, so the series is not used.", server, fmtG(base), fmtG(slope)))
		case f.Bends:
			notes = append(notes, fmt.Sprintf("%s: %s; the straight line is used as it is.", server, warningsText(f.Warnings)))
		}
		peakMB, ok := ws[server]
		if !ok {
			peakMB = math.NaN()
		}
		m, from := cost.ChooseMemory(f, true, peakMB)
		out[server] = serverMemory{mem: m, from: from}
	}
	for server, mb := range ws {
		if _, ok := out[server]; !ok {
			m, from := cost.ChooseMemory(stats.MemoryFit{}, false, mb)
			out[server] = serverMemory{mem: m, from: from}
		}
	}
	return out, notes, nil
}

func warningsText(ws []stats.Warning) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Msg
	}
	return strings.Join(parts, "; ")
}

func fmtG(v float64) string { return fmt.Sprintf("%.3g", v) }
