package cost

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// The one builder of the stacks to price from a store, which wra cost and
// the cost table of wra analyze both call: the groups of the experiment
// that can price a stack (the store's cost_groups), the CPU per request
// at the rate priced (Select), whether the stack held that rate, the
// latency for Little's law and the memory (ChooseMemory).

// Source is what the builder reads: the store's readers (model/store
// implements it; a test gives its own).
type Source interface {
	CostGroups(ctx context.Context, rule model.DesignRule, f model.StackFilter) ([]model.CostGroup, error)
	MemorySeries(ctx context.Context) ([]model.MemorySeriesPoint, error)
	MemorySlopes(ctx context.Context) ([]model.MemorySlope, error)
	PeakMemory(ctx context.Context) ([]model.PeakMemory, error)
	Servers(ctx context.Context, f model.StackFilter) ([]string, error)
}

// Request says which stacks to price and how.
type Request struct {
	// Filter narrows the stacks; an empty field matches all.
	Filter model.StackFilter
	// Rule is the one by which a group held its rate (cost_groups).
	Rule model.DesignRule
	// Workload is the load priced. Its Latency is each stack's own (the
	// p50 of the group Select names) unless LatencyGiven.
	Workload     Workload
	LatencyGiven bool
	// DBMemoryGiB is the memory of every stack's database, fixed.
	DBMemoryGiB float64
	// AtHighestHeld takes each stack's CPU per request at the highest
	// rate it held (or, holding none, the highest it was measured at),
	// not at Workload.RPS: a budget's question, whose answer is a rate.
	AtHighestHeld bool
}

// Priced is one stack ready to price: its figures, its workload, whether
// it held the rate, and where its figures come from.
type Priced struct {
	Stack    Stack
	Workload Workload
	Selection
	MemoryFrom MemoryFrom
}

// Selection is how a stack's CPU per request and latency are chosen from
// its groups for a rate (Select).
type Selection struct {
	// FixedRate is false where the stack has only groups at full speed.
	FixedRate bool
	// StackUS and DBUS are the CPU per successful response priced, µs
	// (DBUS NaN where not measured); P50MS the latency for Little's law
	// (NaN where unknown).
	StackUS, DBUS, P50MS float64
	// Held is true when a group at the rate priced, or above it, held
	// its rate; MaxHeldRPS is the highest rate held (NaN: none).
	Held       bool
	MaxHeldRPS float64
	// MaxMeasuredRPS is the highest rate measured: the highest target
	// of a fixed-rate group, or the rate a full-speed group achieved.
	MaxMeasuredRPS float64
	// Passes are the runs behind the CPU figures.
	Passes int64
	// GroupIDs are the groups behind the figures, RunIDs their runs,
	// Sources and Lines where each run's CPU figures were read.
	GroupIDs, RunIDs []string
	Sources          []string
	Lines            []int64
	// Notes say what a reader must know of the choice, without the
	// stack's name: the rates interpolated between, a rate outside the
	// measured range and which way that errs, a rate not held.
	Notes []string
}

// Latency is P50MS as a duration, 0 where unknown.
func (s Selection) Latency() time.Duration {
	if math.IsNaN(s.P50MS) {
		return 0
	}
	return time.Duration(math.Round(s.P50MS * float64(time.Millisecond)))
}

// Select chooses the CPU per request of one stack at rps from its groups
// (cost_groups rows of the stack): the fixed-rate group at rps; between
// two measured rates, each figure interpolated linearly in rate; below the
// lowest or above the highest, that group's, with a note naming the rate
// used and the direction of the error (CPU per request usually falls as
// the rate rises, so a lower rate priced from a higher one is
// under-priced). The stack held rps when a group at rps or above held its
// rate; the latency is that of the lowest such group, or, where none
// held, of the group the CPU comes from, with a note. A stack with only
// full-speed groups is priced from the one with the most runs (then the
// most connections) and holds nothing.
func Select(groups []model.CostGroup, rps float64) Selection {
	var fixed, open []model.CostGroup
	for _, g := range groups {
		if g.FixedRate && !math.IsNaN(g.TargetRPS) {
			fixed = append(fixed, g)
		} else {
			open = append(open, g)
		}
	}
	s := Selection{MaxHeldRPS: math.NaN(), MaxMeasuredRPS: math.NaN(), StackUS: math.NaN(), DBUS: math.NaN(), P50MS: math.NaN()}
	if len(fixed) == 0 {
		if len(open) == 0 {
			return s
		}
		g := slices.MaxFunc(open, func(a, b model.CostGroup) int {
			return cmp.Or(cmp.Compare(a.Passes, b.Passes), cmp.Compare(a.Connections, b.Connections))
		})
		s.use(g)
		s.StackUS, s.DBUS, s.P50MS, s.MaxMeasuredRPS = g.StackUS, g.DBUS, g.P50MS, g.RPS
		load := "at full speed"
		if g.Connections >= 0 {
			load = fmt.Sprintf("at full speed with %d connections", g.Connections)
		}
		s.Notes = append(s.Notes, fmt.Sprintf("no fixed-rate runs: CPU per request from its runs %s, a load that is not the rate priced, and no rate is known to be held", load))
		return s
	}
	s.FixedRate = true
	slices.SortStableFunc(fixed, func(a, b model.CostGroup) int { return cmp.Compare(a.TargetRPS, b.TargetRPS) })
	s.MaxMeasuredRPS = fixed[len(fixed)-1].TargetRPS
	for _, g := range fixed {
		if g.Held {
			s.MaxHeldRPS = g.TargetRPS // ascending: the last held is the highest
		}
	}
	lo, hi := -1, -1 // the highest group at or below rps, the lowest at or above
	for i, g := range fixed {
		if g.TargetRPS <= rps {
			lo = i
		}
		if g.TargetRPS >= rps && hi < 0 {
			hi = i
		}
	}
	var from model.CostGroup // the group whose latency stands in where none held
	switch {
	case lo >= 0 && hi >= 0 && fixed[lo].TargetRPS == fixed[hi].TargetRPS:
		from = fixed[hi]
		s.use(from)
		s.StackUS, s.DBUS = from.StackUS, from.DBUS
	case lo >= 0 && hi >= 0:
		a, b := fixed[lo], fixed[hi]
		f := (rps - a.TargetRPS) / (b.TargetRPS - a.TargetRPS)
		s.use(a)
		s.use(b)
		s.StackUS, s.DBUS = a.StackUS+f*(b.StackUS-a.StackUS), a.DBUS+f*(b.DBUS-a.DBUS)
		from = b
		s.Notes = append(s.Notes, fmt.Sprintf("CPU per request interpolated linearly in rate between %s and %s requests/s", rate(a.TargetRPS), rate(b.TargetRPS)))
	case hi >= 0: // below the lowest rate measured
		from = fixed[hi]
		s.use(from)
		s.StackUS, s.DBUS = from.StackUS, from.DBUS
		s.Notes = append(s.Notes, fmt.Sprintf("priced from %s requests/s, the lowest rate measured, above the %s priced: CPU per request usually falls as the rate rises, so this likely under-prices",
			rate(from.TargetRPS), rate(rps)))
	default: // above the highest rate measured
		from = fixed[lo]
		s.use(from)
		s.StackUS, s.DBUS = from.StackUS, from.DBUS
		s.Notes = append(s.Notes, fmt.Sprintf("priced from %s requests/s, the highest rate measured, below the %s priced: CPU per request usually falls as the rate rises, so this likely over-prices",
			rate(from.TargetRPS), rate(rps)))
	}
	for _, g := range fixed {
		if g.TargetRPS >= rps && g.Held {
			s.Held, s.P50MS = true, g.P50MS
			return s
		}
	}
	s.P50MS = from.P50MS
	if hi < 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("not held at %s requests/s: it was never measured at that rate or above (the highest rate measured is %s)", rate(rps), rate(fixed[len(fixed)-1].TargetRPS)))
	} else {
		g := fixed[hi]
		s.Notes = append(s.Notes, fmt.Sprintf("did not hold %s requests/s: p95 %s ms, the rate held in %d of %d passes", rate(g.TargetRPS), figure(g.P95MS), g.HeldPasses, g.Passes))
	}
	s.Notes = append(s.Notes, fmt.Sprintf("latency for Little's law from %s requests/s, a rate it did not hold", rate(from.TargetRPS)))
	return s
}

// use adds g to the groups behind the selection.
func (s *Selection) use(g model.CostGroup) {
	if !slices.Contains(s.GroupIDs, g.GroupID) {
		s.GroupIDs = append(s.GroupIDs, g.GroupID)
		s.RunIDs = append(s.RunIDs, g.RunIDs...)
		s.Sources = append(s.Sources, g.Sources...)
		s.Lines = append(s.Lines, g.Lines...)
		s.Passes += g.Passes
	}
}

// rate formats a rate for a note, exactly: 1000, 2500.
func rate(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// figure formats a measured figure for a note: whole from 1000 up, else
// three significant digits.
func figure(v float64) string {
	if math.Abs(v) >= 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// StackName names a stack in a note: server / database / test / variant,
// those that are set.
func StackName(s Stack) string {
	parts := []string{s.Server}
	for _, x := range []string{s.Database, s.Test, s.Variant} {
		if x != "" {
			parts = append(parts, x)
		}
	}
	return strings.Join(parts, " / ")
}

// Build reads the stacks that match req.Filter from src and prepares each
// to price at req.Workload: its CPU per request by Select, its latency,
// its memory (the line fitted to all passes of its server's memory
// series on its database, or of its server's series that names no
// database, else its highest working set on its database, else none), and
// notes that say where the figures come from. A stack that did not hold
// the rate is kept, Held false, with its reason among the notes.
func Build(ctx context.Context, src Source, req Request) ([]Priced, []string, error) {
	groups, err := src.CostGroups(ctx, req.Rule, req.Filter)
	if err != nil {
		return nil, nil, err
	}
	if len(groups) == 0 {
		if req.Filter.Server != "" {
			return nil, nil, &NoCPUDataError{Server: req.Filter.Server}
		}
		msg := "the store has no run with CPU seconds and a count of successful responses (responses_2xx, or requests)"
		if req.Filter.Database != "" || req.Filter.Test != "" {
			msg += " for the --database and --test given"
		}
		return nil, nil, fmt.Errorf("%s: %w (ingest harness records with cpu_server_s, or give --cpu-ms)", msg, ErrNothingToPrice)
	}
	mem, memNotes, err := memories(ctx, src)
	if err != nil {
		return nil, nil, err
	}
	peak, err := src.PeakMemory(ctx)
	if err != nil {
		return nil, nil, err
	}
	var out []Priced
	var notes []string
	with := map[string]bool{}
	// A memory series that names no database is its server's on every
	// database: where one server is priced on two databases, both take
	// the one series.
	dbs := map[string][]string{}
	for i := 0; i < len(groups); {
		j := i + 1
		g0 := groups[i]
		for j < len(groups) && groups[j].Server == g0.Server && groups[j].Database == g0.Database && groups[j].Test == g0.Test && groups[j].Variant == g0.Variant {
			j++
		}
		stack := Stack{Server: g0.Server, Database: g0.Database, Test: g0.Test, Variant: g0.Variant}
		with[g0.Server] = true
		at := req.Workload.RPS
		if req.AtHighestHeld {
			at = highestHeld(groups[i:j])
		}
		sel := Select(groups[i:j], at)
		i = j
		stack.CPUPerRequestS = sel.StackUS / 1e6
		if !math.IsNaN(sel.DBUS) {
			stack.DBCPUPerRequestS = sel.DBUS / 1e6
		}
		if stack.Database != "" || stack.DBCPUPerRequestS != 0 {
			stack.DBMemoryGiB = req.DBMemoryGiB
		}
		series, fit, hasFit := memoryOf(mem, stack)
		var from MemoryFrom
		stack.Memory, from = ChooseMemory(fit, hasFit, model.HighestWorkingSet(peak, stack.Server, stack.Database, stack.Variant))
		switch from {
		case MemoryFromWorkingSet:
			sel.Notes = append(sel.Notes, "no usable memory series (none measured, or a negative fit): memory is its highest working set, fixed")
		case MemoryFromNone:
			sel.Notes = append(sel.Notes, "no memory figures: memory priced at 0 GiB")
		}
		w := req.Workload
		if req.AtHighestHeld {
			w.RPS = at
		}
		if !req.LatencyGiven {
			w.Latency = sel.Latency()
		}
		out = append(out, Priced{Stack: stack, Workload: w, Selection: sel, MemoryFrom: from})
		if from == MemoryFromSlope && series.database == "" && !slices.Contains(dbs[stack.Server], stack.Database) {
			dbs[stack.Server] = append(dbs[stack.Server], stack.Database)
		}
	}
	for _, server := range slices.Sorted(maps.Keys(dbs)) {
		if len(dbs[server]) > 1 {
			notes = append(notes, fmt.Sprintf("%s: its memory series names no database, and prices it on each of %s alike", server, strings.Join(dbs[server], " and ")))
		}
	}
	servers, err := src.Servers(ctx, req.Filter)
	if err != nil {
		return nil, nil, err
	}
	var noCPU []string
	for _, s := range servers {
		if !with[s] {
			noCPU = append(noCPU, cmp.Or(s, "(runs without a server label)"))
		}
	}
	if len(noCPU) > 0 {
		notes = append(notes, fmt.Sprintf("left out, no CPU per request measured: %s", strings.Join(noCPU, ", ")))
	}
	notes = append(notes, memNotes...)
	return out, notes, nil
}

// StackNotes are the notes of the stacks priced, each once, naming the
// stacks it is about ("java / postgresql / one, rust / mysql / one: …",
// or "every stack" where it is about each of two or more), in the order
// they first come.
func StackNotes(priced []Priced) []string {
	var order []string
	about := map[string][]string{}
	for _, p := range priced {
		for _, n := range p.Notes {
			if _, ok := about[n]; !ok {
				order = append(order, n)
			}
			about[n] = append(about[n], StackName(p.Stack))
		}
	}
	out := make([]string, len(order))
	for i, n := range order {
		who := strings.Join(about[n], ", ")
		if len(priced) > 1 && len(about[n]) == len(priced) {
			who = "every stack"
		}
		out[i] = who + ": " + n
	}
	return out
}

// highestHeld is the highest rate a stack's groups held, else the highest
// they were measured at, else 0 (full speed only).
func highestHeld(groups []model.CostGroup) float64 {
	held, top := math.NaN(), 0.0
	for _, g := range groups {
		if g.FixedRate && !math.IsNaN(g.TargetRPS) {
			top = math.Max(top, g.TargetRPS)
			if g.Held && !(g.TargetRPS <= held) {
				held = g.TargetRPS
			}
		}
	}
	if math.IsNaN(held) {
		return top
	}
	return held
}

// memorySeries names a memory series: its server, and its database ("" where
// the series names none).
type memorySeries struct{ server, database string }

// name names the series in a note: server, or server / database.
func (k memorySeries) name() string {
	return StackName(Stack{Server: k.server, Database: k.database})
}

// memoryOf is the memory series a stack is priced with: its server's
// series on its database, else its server's series that names no
// database (measured once for every database the server runs on).
func memoryOf(mem map[memorySeries]stats.MemoryFit, s Stack) (memorySeries, stats.MemoryFit, bool) {
	for _, k := range []memorySeries{{s.Server, s.Database}, {s.Server, ""}} {
		if f, ok := mem[k]; ok {
			return k, f, true
		}
	}
	return memorySeries{}, stats.MemoryFit{}, false
}

// memories fits every memory series, one per server and database (all
// passes pooled, as the store's memory_slopes gives it, through
// MemoryFit) and says where a series bends or cannot be used.
func memories(ctx context.Context, src Source) (map[memorySeries]stats.MemoryFit, []string, error) {
	pts, err := src.MemorySeries(ctx)
	if err != nil {
		return nil, nil, err
	}
	series := map[memorySeries][]model.MemorySeriesPoint{}
	var order []memorySeries
	for _, p := range pts {
		k := memorySeries{p.Server, p.Database}
		if _, ok := series[k]; !ok {
			order = append(order, k)
		}
		series[k] = append(series[k], p)
	}
	slopes, err := src.MemorySlopes(ctx)
	if err != nil {
		return nil, nil, err
	}
	pooled := map[memorySeries]model.MemorySlope{}
	for _, r := range slopes {
		if r.Pooled {
			pooled[memorySeries{r.Server, r.Database}] = r
		}
	}
	slices.SortFunc(order, func(a, b memorySeries) int {
		return cmp.Or(cmp.Compare(a.server, b.server), cmp.Compare(a.database, b.database))
	})
	out := map[memorySeries]stats.MemoryFit{}
	var notes []string
	for _, k := range order {
		r, ok := pooled[k]
		if !ok {
			return nil, nil, fmt.Errorf("memory_slopes has no row for server %q database %q over all passes", k.server, k.database)
		}
		f := MemoryFit(r, series[k])
		switch slope, base := f.SlopeGiBPer1000, f.InterceptGiB; {
		case math.IsNaN(slope) || math.IsNaN(base):
			notes = append(notes, fmt.Sprintf("%s: memory series too short to fit", k.name()))
		case slope < 0 || base < 0:
			notes = append(notes, fmt.Sprintf("%s: fitted memory base %s GiB, slope %s GiB per 1000: a negative figure, so the series is not used",
				k.name(), figure(base), figure(slope)))
		case f.Bends:
			var ws []string
			for _, w := range f.Warnings {
				ws = append(ws, w.Msg)
			}
			notes = append(notes, fmt.Sprintf("%s: %s; the straight line is used as it is", k.name(), strings.Join(ws, "; ")))
		}
		out[k] = f
	}
	return out, notes, nil
}
