package record

import (
	"strconv"
	"strings"
)

// A recording is K trials; a trial runs every cell of the plan once, in an
// order drawn at random for that trial. Slow drift of the machine's speed
// then falls on every cell of a trial alike, and a comparison made within
// trials cancels it (randomized multiple interleaved trials: Abedi and
// Brecht, "Conducting Repeatable Experiments in Highly Variable Cloud
// Computing Environments", ICPE 2017).

// Schedule draws the order of n cells (indexes 0..n-1) in each of k
// trials from seed: every index exactly once per trial, each order a
// uniform random permutation (Fisher–Yates, driven by SplitMix64, with
// unbiased bounded draws by rejection), and no order repeated while n!
// leaves an unused one (a repeat is drawn again from the same stream).
// The same seed gives the same orders with any Go version: the generator
// is written out here, not taken from math/rand.
func Schedule(n, k int, seed uint64) [][]int {
	rng := splitMix64{state: seed}
	seen := map[string]bool{}
	out := make([][]int, 0, k)
	for len(out) < k {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		for i := n - 1; i > 0; i-- {
			j := int(rng.below(uint64(i + 1)))
			order[i], order[j] = order[j], order[i]
		}
		key := orderKey(order)
		if seen[key] && factorialAbove(n, len(seen)) {
			continue
		}
		seen[key] = true
		out = append(out, order)
	}
	return out
}

func orderKey(order []int) string {
	var b strings.Builder
	for _, x := range order {
		b.WriteString(strconv.Itoa(x))
		b.WriteByte(',')
	}
	return b.String()
}

// factorialAbove reports whether n! > m.
func factorialAbove(n, m int) bool {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
		if f > m {
			return true
		}
	}
	return f > m
}

// splitMix64 is Steele, Lea and Flood's SplitMix64 generator ("Fast
// splittable pseudorandom number generators", OOPSLA 2014), as in Java's
// SplittableRandom and Vigna's reference C code.
type splitMix64 struct{ state uint64 }

func (s *splitMix64) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// below is uniform in [0, m), m > 0: draws under 2^64 mod m are rejected,
// so that every residue has the same number of draws behind it.
func (s *splitMix64) below(m uint64) uint64 {
	threshold := -m % m
	for {
		if x := s.next(); x >= threshold {
			return x % m
		}
	}
}
