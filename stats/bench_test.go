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

func BenchmarkStepsFromTags100k(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	reqs := make([]Request, 100000)
	steps := []string{"1500", "3000", "6000", "12000"}
	for i := range reqs {
		reqs[i] = Request{TimeS: float64(i) / 5000, DurationMS: r.ExpFloat64() * 5, Failed: r.IntN(1000) == 0, Step: steps[i*4/len(reqs)]}
	}
	b.ResetTimer()
	for b.Loop() {
		StepsFromTags(reqs)
	}
}
