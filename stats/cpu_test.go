package stats

import (
	"math"
	"testing"
)

func TestPerRequest(t *testing.T) {
	// By hand: 0.27 CPU seconds over 1600 responses = 168.75 µs = 0.16875 ms
	// (the go-gmp1 pass 2, 400-connection row of memory_waiting.csv).
	if v, ok := PerRequestUS(0.27, 1600); !ok || !closeTo(v, 168.75, 1e-14) {
		t.Errorf("PerRequestUS = %v, %v", v, ok)
	}
	if v, ok := PerRequestMS(0.27, 1600); !ok || !closeTo(v, 0.16875, 1e-14) {
		t.Errorf("PerRequestMS = %v, %v", v, ok)
	}
	for _, tc := range []struct {
		cpu float64
		n   int64
	}{{1, 0}, {1, -5}, {-1, 10}, {math.NaN(), 10}, {math.Inf(1), 10}} {
		if v, ok := PerRequestUS(tc.cpu, tc.n); ok || !math.IsNaN(v) {
			t.Errorf("PerRequestUS(%v, %d) = %v, %v; want NaN, false", tc.cpu, tc.n, v, ok)
		}
	}
	c := CPUPerRequestUS(2, 1.5, 0.5, math.NaN(), 10000)
	if c.ServerUS != 200 || c.UserUS != 150 || c.KernelUS != 50 || !math.IsNaN(c.DBUS) {
		t.Errorf("CPUPerRequestUS = %+v", c)
	}
}
