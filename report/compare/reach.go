package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/stats"
)

// reach is what the samples of a comparison table can show at all: an
// interval of a median, and a significant difference.
type reach struct {
	// intervals: some median of the table has a finite interval.
	intervals bool
	// any: some row is significant, or could be with its sample sizes
	// (the exact U test's smallest p, times the rows under Holm, is at
	// most alpha).
	any bool
	// minP is the smallest p any row could reach (after Holm), and
	// n1, n2 the sample sizes of the row that reaches it.
	minP   float64
	n1, n2 int
	// m is the number of rows adjusted together (1 without Holm).
	m int
}

// reachOf finds what the table's samples can show.
func reachOf(rows []row, o Options) reach {
	r := reach{minP: math.Inf(1)}
	m := holmRows(rows, o)
	r.m = m
	for _, row := range rows {
		c := row.Cmp
		r.intervals = r.intervals || c.Base.HasCI() || c.Vs.HasCI()
		r.any = r.any || c.Significant
		if p := math.Min(1, float64(m)*stats.MinUTestP(c.Test.N1, c.Test.N2)); p < r.minP {
			r.minP, r.n1, r.n2 = p, c.Test.N1, c.Test.N2
		}
	}
	r.any = r.any || r.minP <= o.Alpha
	return r
}

// holmRows is the number of rows whose p-values are adjusted together:
// the smallest adjusted p is that many times the smallest raw one.
func holmRows(rows []row, o Options) int {
	if o.Holm && len(rows) > 1 {
		return len(rows)
	}
	return 1
}

// runsNeeded is the fewest runs a side with which the exact U test's
// smallest p, times m rows under Holm, is at most alpha.
func runsNeeded(m int, alpha float64) int {
	n := 2
	for float64(m)*stats.MinUTestP(n, n) > alpha && n < 1000 {
		n++
	}
	return n
}

// notes are the lines that hold for every row: no interval anywhere, no
// significance possible, and the runs it would take.
func (r reach) notes(o Options) []string {
	var out []string
	level := strconv.FormatFloat(o.Confidence*100, 'f', -1, 64) + "%"
	if !r.intervals {
		out = append(out, fmt.Sprintf("No interval: a median's %s distribution-free interval needs at least %d runs, and no side here has as many (%s); the medians are printed alone.",
			level, stats.MinSamplesForCI(o.Confidence), sizes(r.n1, r.n2)))
	}
	if r.any {
		return out
	}
	alpha := strconv.FormatFloat(o.Alpha, 'f', -1, 64)
	m := r.m
	raw := stats.MinUTestP(r.n1, r.n2)
	line := fmt.Sprintf("No difference here can be significant at alpha %s: with %s the U test's smallest possible p is %s", alpha, sizes(r.n1, r.n2), sig3(raw))
	if m > 1 {
		line += fmt.Sprintf(", and the Holm adjustment across the %d rows makes it %s", m, sig3(r.minP))
	}
	line += fmt.Sprintf("; that takes at least %d runs a side", runsNeeded(m, o.Alpha))
	if m > 1 {
		line += fmt.Sprintf(" (%d for a table of one row: one --metric and one match; or --holm=false)", runsNeeded(1, o.Alpha))
	}
	return append(out, line+". The delta column gives the change of the medians without a verdict.")
}

// sizes says the sample sizes of a row: "5 runs a side", "3 and 4 runs".
func sizes(n1, n2 int) string {
	if n1 == n2 && n1 == 1 {
		return "1 run a side"
	}
	if n1 == n2 {
		return fmt.Sprintf("%d runs a side", n1)
	}
	return fmt.Sprintf("%d and %d runs", n1, n2)
}

func sig3(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// signTestReaches reports whether the sign test within trials can reach
// alpha in some row: with n ratios off 1 its smallest two-sided p is
// 2^(1-n).
func signTestReaches(rows []row, alpha float64) bool {
	for _, r := range rows {
		if r.Paired != nil && (r.Paired.P <= alpha || math.Pow(2, float64(1-r.Paired.N)) <= alpha) {
			return true
		}
	}
	return false
}

// pairedNote says how far the comparison within trials reaches: the
// coverage of its intervals, and whether its sign test can reach alpha.
func pairedNote(rows []row, alpha float64, withP bool) string {
	var ns []int
	cover := map[int]float64{}
	for _, r := range rows {
		if r.Paired != nil && !math.IsNaN(r.Paired.Median) {
			if !slices.Contains(ns, r.Paired.N) {
				ns = append(ns, r.Paired.N)
			}
			cover[r.Paired.N] = r.Paired.Coverage
		}
	}
	slices.Sort(ns)
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprintf("over %d trials with probability %s", n, strconv.FormatFloat(100*cover[n], 'g', 4, 64)+"%"))
	}
	line := "Within trials: the interval covers the median ratio " + strings.Join(parts, ", ")
	if withP || len(ns) == 0 {
		return line + "."
	}
	n := ns[len(ns)-1]
	need := n
	for math.Pow(2, float64(1-need)) > alpha {
		need++
	}
	return line + fmt.Sprintf("; the sign test's smallest possible p with %d trials is %s, above alpha %s (%d trials reach it), so no p is printed: read the ratio and its interval.",
		n, sig3(math.Pow(2, float64(1-n))), strconv.FormatFloat(alpha, 'f', -1, 64), need)
}
