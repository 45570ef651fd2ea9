package record

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A recording is K trials; a trial runs every cell of the plan once, in an
// order drawn at random for that trial. Slow drift of the machine's speed
// then falls on every cell of a trial alike, and a comparison made within
// trials cancels it (randomized multiple interleaved trials: Abedi and
// Brecht, "Conducting Repeatable Experiments in Highly Variable Cloud
// Computing Environments", ICPE 2017).

// Cell is one point of a plan: one stack under one load, run once per
// trial on a server started for it.
type Cell struct {
	Kind     string // kindFixed, kindTools, kindWaiting or kindLadder
	Server   string
	Endpoint Endpoint // fixed-rate, tools and ladder cells
	// Tool is the load generator of a tools cell: ab, bombardier or k6.
	Tool string
	// Rate is wrk2's -R of a fixed-rate cell and the arrival rate of a
	// tools cell run by k6.
	Rate int
	// Concurrency is ab's -c of a waiting cell.
	Concurrency int
}

// Tools of the tools series, in plan order.
const (
	toolAB         = "ab"
	toolBombardier = "bombardier"
	toolK6         = "k6"
)

var toolsSeriesTools = []string{toolAB, toolBombardier, toolK6}

// String names the cell in logs, the README and the dry run, e.g.
// "fixed-rate go-pgx one r=250", "tools node-pg ab ping",
// "waiting php-pdo c=200", "ladder go-pq page".
func (c Cell) String() string {
	switch c.Kind {
	case kindFixed:
		return fmt.Sprintf("%s %s %s r=%d", c.Kind, c.Server, c.Endpoint.Test, c.Rate)
	case kindTools:
		return fmt.Sprintf("%s %s %s %s", c.Kind, c.Server, c.Tool, c.Endpoint.Test)
	case kindWaiting:
		return fmt.Sprintf("%s %s c=%d", c.Kind, c.Server, c.Concurrency)
	}
	return fmt.Sprintf("%s %s %s", c.Kind, c.Server, c.Endpoint.Test)
}

// test is the test label of the cell's runs (the waiting series' is
// "waiting", as wra.toml labels it).
func (c Cell) test() string {
	if c.Kind == kindWaiting {
		return "waiting"
	}
	return c.Endpoint.Test
}

// Cells are the plan's cells in plan order: per server, its fixed-rate
// points, its tools runs, its waiting points and its ladder.
func (p Plan) Cells() []Cell {
	var out []Cell
	for _, sv := range p.Servers {
		for _, t := range p.Fixed.Tests {
			for _, rate := range t.Rates {
				out = append(out, Cell{Kind: kindFixed, Server: sv, Endpoint: t.Endpoint, Rate: rate})
			}
		}
		for _, e := range p.Tools.Endpoints {
			for _, tool := range toolsSeriesTools {
				c := Cell{Kind: kindTools, Server: sv, Endpoint: e, Tool: tool}
				if tool == toolK6 {
					c.Rate = p.Tools.K6Rate
				}
				out = append(out, c)
			}
		}
		for _, conc := range p.Waiting.Concurrencies {
			out = append(out, Cell{Kind: kindWaiting, Server: sv, Concurrency: conc})
		}
		out = append(out, Cell{Kind: kindLadder, Server: sv, Endpoint: p.Ladder.Endpoint})
	}
	return out
}

// Trial is one pass over every cell of a plan, in its own order.
type Trial struct {
	N     int // 1, 2, ..., K
	Cells []Cell
}

// DrawTrials are the plan's Trials drawn from seed (Schedule).
func (p Plan) DrawTrials(seed uint64) []Trial {
	cells := p.Cells()
	orders := Schedule(len(cells), p.Trials, seed)
	out := make([]Trial, len(orders))
	for t, order := range orders {
		out[t] = Trial{N: t + 1, Cells: make([]Cell, len(order))}
		for i, c := range order {
			out[t].Cells[i] = cells[c]
		}
	}
	return out
}

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

// WriteTrials prints the plan's trials drawn from seed, one cell a line in
// the order it would run, and what they add up to: the dry run of a
// recording, which runs nothing.
func WriteTrials(w io.Writer, p Plan, seed uint64) error {
	trials := p.DrawTrials(seed)
	n := len(p.Cells())
	var b strings.Builder
	fmt.Fprintf(&b, "plan %s, servers %s: %d cells per trial, %d trials, orders drawn from seed %d\n",
		p.Name, strings.Join(p.Servers, ", "), n, len(trials), seed)
	fmt.Fprintf(&b, "scheduled load %s per trial, %s in all (without server starts, warm-ups and calibrations)\n",
		p.TrialEstimate(), p.Estimate())
	for _, tr := range trials {
		fmt.Fprintf(&b, "\ntrial %d: calibration %s-before\n", tr.N, trialPair(tr.N))
		for i, c := range tr.Cells {
			fmt.Fprintf(&b, "  %*d  %s\n", len(strconv.Itoa(n)), i+1, c)
		}
		fmt.Fprintf(&b, "trial %d: calibration %s-after\n", tr.N, trialPair(tr.N))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
