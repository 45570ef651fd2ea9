package cost

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// DefaultWorkload is the load wra prices when told none: 1000 requests/s
// at 60% target utilisation, no wait.
var DefaultWorkload = Workload{RPS: 1000, Utilisation: 0.6}

// Workload is the load to price.
type Workload struct {
	// RPS is the request rate, requests per second.
	RPS float64
	// Wait is how long each request waits inside the server without using
	// CPU (a sleep, a slow upstream); Latency is the rest of its time in
	// the server. Their sum times RPS is the number of requests in flight.
	Wait, Latency time.Duration
	// Utilisation is the target CPU utilisation in (0, 1]: 0.6 buys
	// 1/0.6 vCPUs per vCPU of work, to keep headroom.
	Utilisation float64
}

// InFlight is the mean number of requests in the server, by Little's law:
// rps × (wait + latency).
func (w Workload) InFlight() float64 {
	return w.RPS * (w.Wait + w.Latency).Seconds()
}

// Memory is how much memory a stack holds: a fixed amount, or a base plus
// a slope per 1000 requests in flight.
type Memory struct {
	Fixed           bool
	FixedGiB        float64
	BaseGiB         float64
	SlopeGiBPer1000 float64
}

// FixedMemory is a Memory of gib GiB whatever the load.
func FixedMemory(gib float64) Memory { return Memory{Fixed: true, FixedGiB: gib} }

// LinearMemory is a Memory of baseGiB + slopeGiBPer1000 per 1000 requests
// in flight.
func LinearMemory(baseGiB, slopeGiBPer1000 float64) Memory {
	return Memory{BaseGiB: baseGiB, SlopeGiBPer1000: slopeGiBPer1000}
}

// GiB is the memory held with inFlight requests in flight.
func (m Memory) GiB(inFlight float64) float64 {
	if m.Fixed {
		return m.FixedGiB
	}
	return m.BaseGiB + m.SlopeGiBPer1000*inFlight/1000
}

// Stack is what one web stack (a server, maybe with a database) uses per
// request, as measured.
type Stack struct {
	Server, Database, Test string
	// Variant tells apart runs of one server, database and test that a
	// manifest tells apart (run_groups.variant); "" where none.
	Variant string
	// CPUPerRequestS is the stack's CPU seconds (user + kernel, all its
	// processes) per request. It must be > 0.
	CPUPerRequestS float64
	// DBCPUPerRequestS is the database server's CPU seconds per request;
	// 0 when there is no database or it was not measured.
	DBCPUPerRequestS float64
	Memory           Memory
	// DBMemoryGiB is the database's memory, fixed; 0 leaves it out.
	DBMemoryGiB float64
}

// Estimate is the monthly price of a stack under a workload. Nothing in it
// is rounded.
type Estimate struct {
	Stack    Stack
	Workload Workload
	Price    Price

	InFlight float64

	StackVCPU        float64
	StackGiB         float64
	StackCPUUSDMonth float64
	StackMemUSDMonth float64
	StackUSDMonth    float64
	DBVCPU           float64
	DBGiB            float64
	DBCPUUSDMonth    float64
	DBMemUSDMonth    float64
	DBUSDMonth       float64
	TotalUSDMonth    float64
	// The prices used: per vCPU-hour and per GiB-hour.
	VCPUHourUSD float64
	GiBHourUSD  float64
}

// InputError is an input outside its domain.
type InputError struct {
	Field Field  // the input: FieldRPS, FieldUtilisation, …
	Value string // the value as given, shortest form
	Want  string // what it must be, e.g. "in (0, 1]"
}

// Field names an input of the model, so that a caller tells them apart
// by their key, never by their words (String).
type Field int

// The inputs of the model.
const (
	FieldRPS Field = iota + 1
	FieldUtilisation
	FieldWait
	FieldLatency
	FieldBudget
	FieldCPU
	FieldDBCPU
	FieldMemory
	FieldMemoryBase
	FieldMemorySlope
	FieldDBMemory
)

var fieldNames = map[Field]string{
	FieldRPS: "rps", FieldUtilisation: "utilisation", FieldWait: "wait", FieldLatency: "latency", FieldBudget: "budget ($/month)",
	FieldCPU: "CPU per request (s)", FieldDBCPU: "database CPU per request (s)", FieldMemory: "memory (GiB)",
	FieldMemoryBase: "memory base (GiB)", FieldMemorySlope: "memory slope (GiB per 1000 in flight)", FieldDBMemory: "database memory (GiB)",
}

// String names the input in the model's words.
func (f Field) String() string { return fieldNames[f] }

// ErrNothingToPrice says the store holds no group whose CPU per request
// can price a stack.
var ErrNothingToPrice = errors.New("nothing to price")

func (e *InputError) Error() string {
	return fmt.Sprintf("%s %s must be %s", e.Field, e.Value, e.Want)
}

// NoCPUDataError says a stack has no usable CPU per request.
type NoCPUDataError struct {
	Server string
}

func (e *NoCPUDataError) Error() string {
	if e.Server == "" {
		return "no CPU per request for the stack: it is needed to price vCPUs"
	}
	return fmt.Sprintf("server %q has no CPU per request data: it is needed to price vCPUs", e.Server)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func finiteAtLeast(field Field, v, min float64, want string) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < min {
		return &InputError{Field: field, Value: num(v), Want: want}
	}
	return nil
}

// Validate reports the first input outside its domain.
func (w Workload) Validate() error {
	if err := finiteAtLeast(FieldRPS, w.RPS, 0, "a finite number >= 0"); err != nil {
		return err
	}
	if u := w.Utilisation; math.IsNaN(u) || u <= 0 || u > 1 {
		return &InputError{Field: FieldUtilisation, Value: num(u), Want: "in (0, 1]"}
	}
	if w.Wait < 0 {
		return &InputError{Field: FieldWait, Value: w.Wait.String(), Want: ">= 0"}
	}
	if w.Latency < 0 {
		return &InputError{Field: FieldLatency, Value: w.Latency.String(), Want: ">= 0"}
	}
	return nil
}

// ValidateLoad reports the first input outside its domain for a load to
// price, the one validation of wra cost --rps and wra analyze --rps: a
// workload (Validate) of more than 0 requests/s (a sweep may start at 0;
// one load of none has nothing to price).
func (w Workload) ValidateLoad() error {
	if err := w.Validate(); err != nil {
		return err
	}
	if w.RPS <= 0 {
		return &InputError{Field: FieldRPS, Value: num(w.RPS), Want: "> 0"}
	}
	return nil
}

// Validate reports the first input outside its domain; a stack without a
// positive CPU per request gives a *NoCPUDataError.
func (s Stack) Validate() error {
	c := s.CPUPerRequestS
	if math.IsNaN(c) || c == 0 {
		return &NoCPUDataError{Server: s.Server}
	}
	if err := finiteAtLeast(FieldCPU, c, 0, "a finite number > 0"); err != nil {
		return err
	}
	if err := finiteAtLeast(FieldDBCPU, s.DBCPUPerRequestS, 0, "a finite number >= 0"); err != nil {
		return err
	}
	m := s.Memory
	if m.Fixed {
		if err := finiteAtLeast(FieldMemory, m.FixedGiB, 0, "a finite number >= 0"); err != nil {
			return err
		}
	} else {
		if err := finiteAtLeast(FieldMemoryBase, m.BaseGiB, 0, "a finite number >= 0"); err != nil {
			return err
		}
		if err := finiteAtLeast(FieldMemorySlope, m.SlopeGiBPer1000, 0, "a finite number >= 0"); err != nil {
			return err
		}
	}
	return finiteAtLeast(FieldDBMemory, s.DBMemoryGiB, 0, "a finite number >= 0")
}

// Monthly prices stack s under workload w at price p:
//
//	in-flight = rps × (wait + latency)
//	vCPU      = CPU s per request × rps / utilisation   (stack and database alike)
//	GiB       = s.Memory.GiB(in-flight); database GiB = s.DBMemoryGiB
//	$/month   = (vCPU × $/vCPU-hour + GiB × $/GiB-hour) × 730
func Monthly(s Stack, w Workload, p Price) (Estimate, error) {
	if err := w.Validate(); err != nil {
		return Estimate{}, err
	}
	if err := s.Validate(); err != nil {
		return Estimate{}, err
	}
	if err := p.Validate(); err != nil {
		return Estimate{}, err
	}
	vh, gh := p.VCPUHourUSD, p.GiBHourUSD()
	e := Estimate{Stack: s, Workload: w, Price: p, VCPUHourUSD: vh, GiBHourUSD: gh}
	e.InFlight = w.InFlight()
	e.StackVCPU = s.CPUPerRequestS * w.RPS / w.Utilisation
	e.StackGiB = s.Memory.GiB(e.InFlight)
	e.StackCPUUSDMonth = e.StackVCPU * vh * HoursPerMonth
	e.StackMemUSDMonth = e.StackGiB * gh * HoursPerMonth
	e.StackUSDMonth = (e.StackVCPU*vh + e.StackGiB*gh) * HoursPerMonth
	e.DBVCPU = s.DBCPUPerRequestS * w.RPS / w.Utilisation
	e.DBGiB = s.DBMemoryGiB
	e.DBCPUUSDMonth = e.DBVCPU * vh * HoursPerMonth
	e.DBMemUSDMonth = e.DBGiB * gh * HoursPerMonth
	e.DBUSDMonth = (e.DBVCPU*vh + e.DBGiB*gh) * HoursPerMonth
	e.TotalUSDMonth = e.StackUSDMonth + e.DBUSDMonth
	return e, nil
}

// BudgetError says a budget does not cover the part of the cost that does
// not grow with the rate (the base or fixed memory).
type BudgetError struct {
	BudgetUSDMonth float64
	FixedUSDMonth  float64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("budget %s $/month is below the cost at 0 requests/s, %s $/month (fixed memory)",
		num(e.BudgetUSDMonth), num(e.FixedUSDMonth))
}

// ErrFreeGrowth is returned by Budget when the cost does not grow with the
// rate (all prices that scale with it are zero): no budget bounds the rate.
var ErrFreeGrowth = errors.New("the cost does not grow with the request rate at these prices: any rate fits the budget")

// BudgetResult is the highest rate that fits a monthly budget.
type BudgetResult struct {
	// RPS is the highest request rate whose total is within the budget.
	RPS float64
	// FixedUSDMonth is the cost at 0 requests/s; USDMonthPerRPS what each
	// further request/s adds. Total(rps) = FixedUSDMonth + USDMonthPerRPS × rps.
	FixedUSDMonth  float64
	USDMonthPerRPS float64
	// Estimate is the model evaluated at RPS.
	Estimate Estimate
}

// Budget returns the highest request rate stack s can serve within
// budgetUSDMonth dollars a month, with w's wait, latency and utilisation
// (w.RPS is ignored).
//
// In this model the memory is linear in the rate (a fixed amount, or base
// + slope × rps × (wait + latency) / 1000), and so is the CPU, so the
// monthly total is affine in the rate, Fixed + PerRPS × rps, and the answer
// is the closed form (budget − Fixed) / PerRPS; no search is needed.
func Budget(s Stack, w Workload, p Price, budgetUSDMonth float64) (BudgetResult, error) {
	if err := finiteAtLeast(FieldBudget, budgetUSDMonth, 0, "a finite number >= 0"); err != nil {
		return BudgetResult{}, err
	}
	w.RPS = 0
	at0, err := Monthly(s, w, p)
	if err != nil {
		return BudgetResult{}, err
	}
	fixed := at0.TotalUSDMonth
	// The cost per request/s, from the model's own terms (the difference
	// of two evaluations would lose digits to cancellation).
	vh, gh := p.VCPUHourUSD, p.GiBHourUSD()
	perRPS := (s.CPUPerRequestS + s.DBCPUPerRequestS) / w.Utilisation * vh * HoursPerMonth
	if !s.Memory.Fixed {
		perRPS += s.Memory.SlopeGiBPer1000 * (w.Wait + w.Latency).Seconds() / 1000 * gh * HoursPerMonth
	}
	if budgetUSDMonth < fixed {
		return BudgetResult{}, &BudgetError{BudgetUSDMonth: budgetUSDMonth, FixedUSDMonth: fixed}
	}
	if perRPS == 0 {
		return BudgetResult{}, ErrFreeGrowth
	}
	w.RPS = (budgetUSDMonth - fixed) / perRPS
	e, err := Monthly(s, w, p)
	if err != nil {
		return BudgetResult{}, err
	}
	return BudgetResult{RPS: w.RPS, FixedUSDMonth: fixed, USDMonthPerRPS: perRPS, Estimate: e}, nil
}
