package stats

import (
	"math/rand/v2"
	"testing"
)

// The exact U distribution is the costly case: two samples of 49 values
// without ties (the largest exact case).
func BenchmarkMannWhitneyUExact49(b *testing.B) {
	for b.Loop() {
		MannWhitneyU(a49, b49)
	}
}

func BenchmarkSummarize10000(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 10000)
	for i := range xs {
		xs[i] = r.NormFloat64()*10 + 100
	}
	b.ResetTimer()
	for b.Loop() {
		Summarize(xs)
	}
}
