package cost

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"
)

// close reports whether got is within rel (relative) of want. Reference
// values below were worked by hand and checked with Python's exact
// fractions.Fraction arithmetic, then converted to float once; the model's
// float arithmetic may differ from them in the last few bits only.
func close(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func ptr(v float64) *float64 { return &v }

var cmdLinePrice = NewBook().mustResolve("", ptr(0.04048), ptr(0.004445))

func (b *Book) mustResolve(provider string, vcpu, gib *float64) Price {
	p, err := b.Resolve(provider, vcpu, gib)
	if err != nil {
		panic(err)
	}
	return p
}

func TestMonthly(t *testing.T) {
	n2, err := NewBook().Lookup("gcp-n2")
	if err != nil {
		t.Fatal(err)
	}
	fargate, err := NewBook().Lookup("aws-fargate-x86")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		stack Stack
		load  Workload
		price Price
		// expected, by hand (see each case)
		inFlight, stackVCPU, stackGiB, stackUSD, dbVCPU, dbUSD, total float64
	}{
		{
			// The worked example of docs/cost.md.
			// 0.4 ms × 1000/s / 0.6 = 2/3 vCPU; × 0.04048 × 730 = 19.700266…;
			// 0.5 GiB × 0.004445 × 730 = 1.622425; total 2558723/120000 = 21.3226916…
			name:      "checked example",
			stack:     Stack{CPUPerRequestS: 0.4e-3, Memory: FixedMemory(0.5)},
			load:      Workload{RPS: 1000, Utilisation: 0.6},
			price:     cmdLinePrice,
			stackVCPU: 2.0 / 3, stackGiB: 0.5, stackUSD: 21.322691666666667, total: 21.322691666666667,
		},
		{
			// Little's law: 2000/s × 50 ms = 100 in flight; 0.1 + 0.05 × 100/1000 = 0.105 GiB.
			// Stack: 0.25 ms × 2000 / 0.5 = 1 vCPU; (1 × 0.031611 + 0.105 × 0.004237) × 730 = 23.40079605.
			// Database: 0.1 ms × 2000 / 0.5 = 0.4 vCPU; 0.4 × 0.031611 × 730 = 9.230412.
			name: "slope, database, GiB-priced preset",
			stack: Stack{Server: "s", CPUPerRequestS: 0.25e-3, DBCPUPerRequestS: 0.1e-3,
				Memory: LinearMemory(0.1, 0.05)},
			load:     Workload{RPS: 2000, Wait: 50 * time.Millisecond, Utilisation: 0.5},
			price:    n2,
			inFlight: 100, stackVCPU: 1, stackGiB: 0.105, stackUSD: 23.40079605,
			dbVCPU: 0.4, dbUSD: 9.230412, total: 32.63120805,
		},
		{
			// Wait and latency add: 400/s × (20 ms + 5 ms) = 10 in flight; slope 2 GiB per
			// 1000 → 0.02 GiB over a base of 0. Fargate prices per GB: 0.004445 × 2^30/10^9
			// = 0.00477278240768 per GiB. CPU 1 ms × 400 / 1 = 0.4 vCPU.
			// (0.4 × 0.04048 + 0.02 × 0.00477278240768) × 730 = 11.8897860623…
			name:     "GB-priced preset converted to GiB",
			stack:    Stack{CPUPerRequestS: 1e-3, Memory: LinearMemory(0, 2)},
			load:     Workload{RPS: 400, Wait: 20 * time.Millisecond, Latency: 5 * time.Millisecond, Utilisation: 1},
			price:    fargate,
			inFlight: 10, stackVCPU: 0.4, stackGiB: 0.02,
			stackUSD: (0.4*0.04048 + 0.02*0.00477278240768) * 730, total: (0.4*0.04048 + 0.02*0.00477278240768) * 730,
		},
		{
			// Zero load: only memory is paid, database memory fixed. (0.25 + 1) GiB at
			// 0.0072 × 730: stack 0.25 × 5.256 = 1.314, database 1 × 5.256 = 5.256.
			name:     "zero rate",
			stack:    Stack{CPUPerRequestS: 1e-3, DBCPUPerRequestS: 1e-3, Memory: FixedMemory(0.25), DBMemoryGiB: 1},
			load:     Workload{RPS: 0, Utilisation: 0.6},
			price:    Presets()[2],
			stackGiB: 0.25, stackUSD: 1.314, dbUSD: 5.256, total: 6.57,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Monthly(tc.stack, tc.load, tc.price)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{
				{"in flight", e.InFlight, tc.inFlight},
				{"stack vCPU", e.StackVCPU, tc.stackVCPU},
				{"stack GiB", e.StackGiB, tc.stackGiB},
				{"stack $/month", e.StackUSDMonth, tc.stackUSD},
				{"db vCPU", e.DBVCPU, tc.dbVCPU},
				{"db $/month", e.DBUSDMonth, tc.dbUSD},
				{"total $/month", e.TotalUSDMonth, tc.total},
				{"stack parts", e.StackCPUUSDMonth + e.StackMemUSDMonth, e.StackUSDMonth},
				{"db parts", e.DBCPUUSDMonth + e.DBMemUSDMonth, e.DBUSDMonth},
			} {
				if !close(c.got, c.want, 1e-13) {
					t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
				}
			}
		})
	}
}

// The figure docs/cost.md and the command print for the checked example.
func TestCheckedExampleRoundsTo2132(t *testing.T) {
	e, err := Monthly(Stack{CPUPerRequestS: 0.4e-3, Memory: FixedMemory(0.5)},
		Workload{RPS: 1000, Utilisation: 0.6}, cmdLinePrice)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%.2f %.2f %.2f %.3f", e.TotalUSDMonth, e.StackCPUUSDMonth, e.StackMemUSDMonth, e.StackVCPU); got != "21.32 19.70 1.62 0.667" {
		t.Errorf("got %s, want 21.32 19.70 1.62 0.667", got)
	}
}

func TestMonthlyErrors(t *testing.T) {
	ok := Stack{CPUPerRequestS: 1e-3, Memory: FixedMemory(1)}
	load := Workload{RPS: 100, Utilisation: 0.6}
	tests := []struct {
		name  string
		stack Stack
		load  Workload
		price Price
		want  string
	}{
		{"utilisation 0", ok, Workload{RPS: 1, Utilisation: 0}, cmdLinePrice, "utilisation 0 must be in (0, 1]"},
		{"utilisation above 1", ok, Workload{RPS: 1, Utilisation: 1.5}, cmdLinePrice, "utilisation 1.5 must be in (0, 1]"},
		{"utilisation negative", ok, Workload{RPS: 1, Utilisation: -0.2}, cmdLinePrice, "utilisation -0.2 must be in (0, 1]"},
		{"utilisation NaN", ok, Workload{RPS: 1, Utilisation: math.NaN()}, cmdLinePrice, "utilisation NaN must be in (0, 1]"},
		{"negative rate", ok, Workload{RPS: -5, Utilisation: 0.6}, cmdLinePrice, "rps -5 must be a finite number >= 0"},
		{"infinite rate", ok, Workload{RPS: math.Inf(1), Utilisation: 0.6}, cmdLinePrice, "rps +Inf must be a finite number >= 0"},
		{"negative wait", ok, Workload{RPS: 1, Utilisation: 0.6, Wait: -time.Millisecond}, cmdLinePrice, "wait -1ms must be >= 0"},
		{"no CPU, named", Stack{Server: "nginx", Memory: FixedMemory(1)}, load, cmdLinePrice, `server "nginx" has no CPU per request data: it is needed to price vCPUs`},
		{"no CPU, unnamed", Stack{CPUPerRequestS: math.NaN()}, load, cmdLinePrice, "no CPU per request for the stack: it is needed to price vCPUs"},
		{"negative CPU", Stack{CPUPerRequestS: -1e-3}, load, cmdLinePrice, "CPU per request (s) -0.001 must be a finite number > 0"},
		{"negative db CPU", Stack{CPUPerRequestS: 1e-3, DBCPUPerRequestS: -1}, load, cmdLinePrice, "database CPU per request (s) -1 must be a finite number >= 0"},
		{"negative slope", Stack{CPUPerRequestS: 1e-3, Memory: LinearMemory(0.1, -0.01)}, load, cmdLinePrice, "memory slope (GiB per 1000 in flight) -0.01 must be a finite number >= 0"},
		{"negative fixed memory", Stack{CPUPerRequestS: 1e-3, Memory: FixedMemory(-1)}, load, cmdLinePrice, "memory (GiB) -1 must be a finite number >= 0"},
		{"negative price", ok, load, Price{Provider: "x", VCPUHourUSD: -1, MemUnit: GiB}, "vcpu_hour_usd must be a finite number >= 0, got -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Monthly(tc.stack, tc.load, tc.price)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
		})
	}
	// Callers tell the cases apart by type.
	_, err := Monthly(Stack{Server: "a"}, load, cmdLinePrice)
	var nc *NoCPUDataError
	if !errors.As(err, &nc) || nc.Server != "a" {
		t.Errorf("missing CPU: error %v is not a *NoCPUDataError for a", err)
	}
	_, err = Monthly(ok, Workload{RPS: 1, Utilisation: 2}, cmdLinePrice)
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != FieldUtilisation {
		t.Errorf("utilisation: error %v is not an *InputError for utilisation", err)
	}
}

func TestBudget(t *testing.T) {
	// Checked example's stack: fixed 0.5 GiB × 0.004445 × 730 = 1.622425 $/month;
	// each request/s adds 0.4e-3 / 0.6 × 0.04048 × 730 = 0.0197002666… $/month;
	// within 100 $/month: (100 − 1.622425) / 0.0197002666… = 4993.717936136229 (fractions).
	s := Stack{CPUPerRequestS: 0.4e-3, Memory: FixedMemory(0.5)}
	w := Workload{Utilisation: 0.6}
	r, err := Budget(s, w, cmdLinePrice, 100)
	if err != nil {
		t.Fatal(err)
	}
	if !close(r.RPS, 4993.717936136229, 1e-13) || !close(r.FixedUSDMonth, 1.622425, 1e-13) ||
		!close(r.USDMonthPerRPS, 0.019700266666666667, 1e-13) {
		t.Errorf("got rps %v fixed %v per-rps %v", r.RPS, r.FixedUSDMonth, r.USDMonthPerRPS)
	}
	if !close(r.Estimate.TotalUSDMonth, 100, 1e-13) {
		t.Errorf("total at the budget's rate = %v, want 100", r.Estimate.TotalUSDMonth)
	}

	// With a memory slope and a database the closed form must agree with the model.
	s2 := Stack{CPUPerRequestS: 0.25e-3, DBCPUPerRequestS: 0.1e-3, Memory: LinearMemory(0.1, 0.05), DBMemoryGiB: 2}
	w2 := Workload{Wait: 50 * time.Millisecond, Latency: 3 * time.Millisecond, Utilisation: 0.5}
	for _, p := range Presets() {
		r, err := Budget(s2, w2, p, 250)
		if err != nil {
			t.Fatal(err)
		}
		if !close(r.Estimate.TotalUSDMonth, 250, 1e-12) {
			t.Errorf("%s: total at %v rps = %v, want 250", p.Provider, r.RPS, r.Estimate.TotalUSDMonth)
		}
		w3 := w2
		w3.RPS = r.RPS * (1 + 1e-9)
		over, _ := Monthly(s2, w3, p)
		if over.TotalUSDMonth <= 250 {
			t.Errorf("%s: a slightly higher rate still fits: %v", p.Provider, over.TotalUSDMonth)
		}
	}

	// A budget below the fixed memory cost.
	_, err = Budget(s, w, cmdLinePrice, 1)
	var be *BudgetError
	if !errors.As(err, &be) || err.Error() != "budget 1 $/month is below the cost at 0 requests/s, 1.622425 $/month (fixed memory)" {
		t.Errorf("error = %v", err)
	}
	// Free vCPUs and a fixed memory: no rate is too high.
	free := Price{Provider: "free", MemUnit: GiB}
	if _, err := Budget(s, w, free, 10); !errors.Is(err, ErrFreeGrowth) {
		t.Errorf("error = %v, want ErrFreeGrowth", err)
	}
	if _, err := Budget(s, w, cmdLinePrice, -1); err == nil || err.Error() != "budget ($/month) -1 must be a finite number >= 0" {
		t.Errorf("error = %v", err)
	}
}
