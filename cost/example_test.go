package cost_test

import (
	"fmt"
	"time"

	"github.com/wra-bench/wra/cost"
)

// The worked example of docs/cost.md: 0.4 ms of CPU per request at 1000
// requests/s and 60 % utilisation, 0.5 GiB, at $0.04048 per vCPU-hour and
// $0.004445 per GiB-hour.
func ExampleMonthly() {
	vcpu, gib := 0.04048, 0.004445
	price, err := cost.NewBook().Resolve("", &vcpu, &gib)
	if err != nil {
		panic(err)
	}
	e, err := cost.Monthly(
		cost.Stack{Server: "go", CPUPerRequestS: 0.4e-3, Memory: cost.FixedMemory(0.5)},
		cost.Workload{RPS: 1000, Utilisation: 0.6},
		price)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.3f vCPU: $%.2f + %.1f GiB: $%.2f = $%.2f a month\n",
		e.StackVCPU, e.StackCPUUSDMonth, e.StackGiB, e.StackMemUSDMonth, e.TotalUSDMonth)
	// Output: 0.667 vCPU: $19.70 + 0.5 GiB: $1.62 = $21.32 a month
}

// The highest rate within $100 a month, with memory growing by 0.05 GiB
// per 1000 requests in flight (each waits 50 ms). By hand: fixed = 0.1 GiB
// × 0.004237 × 730 = 0.309301; per request/s = 0.25 ms / 0.5 × 0.031611 ×
// 730 + 0.05 × 0.05 s / 1000 × 0.004237 × 730 = 0.011545748…; (100 −
// 0.309301) / 0.011545748 = 8634.4.
func ExampleBudget() {
	p, _ := cost.NewBook().Lookup("gcp-n2")
	s := cost.Stack{Server: "go", CPUPerRequestS: 0.25e-3, Memory: cost.LinearMemory(0.1, 0.05)}
	w := cost.Workload{Wait: 50 * time.Millisecond, Utilisation: 0.5}
	r, err := cost.Budget(s, w, p, 100)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.0f requests/s for $100 a month ($%.4f fixed + $%.6f per request/s)\n", r.RPS, r.FixedUSDMonth, r.USDMonthPerRPS)
	// Output: 8634 requests/s for $100 a month ($0.3093 fixed + $0.011546 per request/s)
}
