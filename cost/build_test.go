package cost

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// fallingCPU is one stack measured at 1000, 2000 and 4000 requests/s whose
// CPU per request falls as the rate rises (0.97, 0.85, 0.70 ms: a thread
// pool that spins while idle), held at 1000 and 2000 but not at 4000.
func fallingCPU() []model.CostGroup {
	g := func(rps, us, db, p50, p95 float64, held int64) model.CostGroup {
		return model.CostGroup{Server: "java", Database: "postgresql", Test: "one", GroupID: "g" + strings.TrimSuffix(rate(rps), "000"),
			FixedRate: true, TargetRPS: rps, Connections: 64, Passes: 3, StackUS: us, DBUS: db, P50MS: p50, P95MS: p95, RPS: rps,
			HeldPasses: held, Held: 2*held > 3, RunIDs: []string{rate(rps) + ":0"}, Sources: []string{"r.csv"}, Lines: []int64{int64(rps / 1000)}}
	}
	return []model.CostGroup{g(1000, 970, 300, 2, 9, 3), g(2000, 850, 280, 3, 20, 2), g(4000, 700, 260, 40, 1530, 0)}
}

func TestSelectAtMeasuredRates(t *testing.T) {
	for _, c := range []struct {
		rps       float64
		us, db    float64
		p50       float64
		held      bool
		notes     int
		wantGroup string
	}{
		{1000, 970, 300, 2, true, 0, "g1"},
		{2000, 850, 280, 3, true, 0, "g2"},
		{4000, 700, 260, 40, false, 2, "g4"}, // measured, not held: the reason and the latency's
	} {
		s := Select(fallingCPU(), c.rps)
		if s.StackUS != c.us || s.DBUS != c.db || s.P50MS != c.p50 || s.Held != c.held || len(s.Notes) != c.notes ||
			len(s.GroupIDs) != 1 || s.GroupIDs[0] != c.wantGroup || s.Passes != 3 || !s.FixedRate {
			t.Errorf("at %v: %+v", c.rps, s)
		}
	}
	// The reason a stack did not hold, in the words every cost output prints.
	s := Select(fallingCPU(), 4000)
	if want := "did not hold 4000 requests/s: p95 1530 ms, the rate held in 0 of 3 passes"; s.Notes[0] != want {
		t.Errorf("note %q, want %q", s.Notes[0], want)
	}
	if s.MaxHeldRPS != 2000 {
		t.Errorf("highest held %v, want 2000", s.MaxHeldRPS)
	}
}

func TestSelectInterpolates(t *testing.T) {
	s := Select(fallingCPU(), 1500)
	// Halfway between 970 and 850, and between 300 and 280.
	if math.Abs(s.StackUS-910) > 1e-9 || math.Abs(s.DBUS-290) > 1e-9 || len(s.GroupIDs) != 2 || s.Passes != 6 {
		t.Errorf("at 1500: %+v", s)
	}
	if len(s.Notes) != 1 || s.Notes[0] != "CPU per request interpolated linearly in rate between 1000 and 2000 requests/s" {
		t.Errorf("notes %q", s.Notes)
	}
	// Held: the group at 2000, above 1500, held; its latency is used.
	if !s.Held || s.P50MS != 3 {
		t.Errorf("held %v, p50 %v; want the held group at 2000", s.Held, s.P50MS)
	}
}

func TestSelectOutsideTheMeasuredRates(t *testing.T) {
	below := Select(fallingCPU(), 500)
	if below.StackUS != 970 || !below.Held || len(below.Notes) != 1 ||
		below.Notes[0] != "priced from 1000 requests/s, the lowest rate measured, above the 500 priced: CPU per request usually falls as the rate rises, so this likely under-prices" {
		t.Errorf("at 500: %+v", below)
	}
	above := Select(fallingCPU(), 8000)
	if above.StackUS != 700 || above.Held || len(above.Notes) != 3 ||
		above.Notes[0] != "priced from 4000 requests/s, the highest rate measured, below the 8000 priced: CPU per request usually falls as the rate rises, so this likely over-prices" ||
		above.Notes[1] != "not held at 8000 requests/s: it was never measured at that rate or above (the highest rate measured is 4000)" {
		t.Errorf("at 8000: %q", above.Notes)
	}
}

func TestSelectFullSpeedOnly(t *testing.T) {
	open := []model.CostGroup{
		{Server: "s", GroupID: "c16", TargetRPS: math.NaN(), Connections: 16, Passes: 3, StackUS: 50, DBUS: math.NaN(), P50MS: 1},
		{Server: "s", GroupID: "c64", TargetRPS: math.NaN(), Connections: 64, Passes: 3, StackUS: 40, DBUS: math.NaN(), P50MS: 4},
	}
	s := Select(open, 1000)
	if s.FixedRate || s.Held || s.StackUS != 40 || s.GroupIDs[0] != "c64" || len(s.Notes) != 1 ||
		!strings.Contains(s.Notes[0], "at full speed with 64 connections") {
		t.Errorf("%+v", s)
	}
}

// source is a store for Build: the groups and memory it is given.
type source struct {
	groups []model.CostGroup
	peak   []model.PeakMemory
}

func (s source) CostGroups(context.Context, model.DesignRule, model.StackFilter) ([]model.CostGroup, error) {
	return s.groups, nil
}
func (s source) MemorySeries(context.Context) ([]model.MemorySeriesPoint, error) { return nil, nil }
func (s source) MemorySlopes(context.Context) ([]model.MemorySlope, error)       { return nil, nil }
func (s source) PeakMemory(context.Context) ([]model.PeakMemory, error)          { return s.peak, nil }
func (s source) Servers(context.Context, model.StackFilter) ([]string, error) {
	return []string{"java", "rust"}, nil
}

// The builder prices at the rate asked: the same stack is cheaper per
// request at 4000 than at 1000, and pricing every rate from the highest
// measured one (what a builder without the rate selection does) would
// give 700 µs at 1000 requests/s.
func TestBuildPricesAtTheRate(t *testing.T) {
	src := source{groups: fallingCPU(), peak: []model.PeakMemory{{Server: "java", Database: "postgresql", WorkingSetMB: 512}}}
	for rps, wantUS := range map[float64]float64{1000: 970, 2000: 850, 4000: 700} {
		priced, notes, err := Build(context.Background(), src, Request{Workload: Workload{RPS: rps, Utilisation: 0.6}})
		if err != nil {
			t.Fatal(err)
		}
		if len(priced) != 1 || math.Abs(priced[0].Stack.CPUPerRequestS-wantUS/1e6) > 1e-15 || priced[0].Workload.RPS != rps ||
			priced[0].MemoryFrom != MemoryFromWorkingSet {
			t.Errorf("at %v: %+v", rps, priced)
		}
		if len(notes) != 1 || notes[0] != "left out, no CPU per request measured: rust" {
			t.Errorf("notes %q", notes)
		}
	}
	// A budget's question: each stack at the highest rate it held.
	priced, _, err := Build(context.Background(), src, Request{AtHighestHeld: true, Workload: Workload{RPS: 1000, Utilisation: 0.6}})
	if err != nil {
		t.Fatal(err)
	}
	if p := priced[0]; p.Workload.RPS != 2000 || p.StackUS != 850 || !p.Held {
		t.Errorf("at the highest held rate: %+v", p)
	}
}
