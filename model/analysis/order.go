package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/wra-bench/wra/model"
)

// The order of a table's rows: the manifest's order of the servers where
// it gives one ([labels.server] order = [...]), else a figure of the
// rows, best first, said in a footnote. A ranking keeps its own order.

// permute reorders xs by order (xs[order[0]] first).
func permute[T any](xs []T, order []int) []T {
	out := make([]T, len(order))
	for j, i := range order {
		out[j] = xs[i]
	}
	return out
}

// identity is 0, 1, … n-1.
func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// byManifest orders rows stably by their server as the manifest orders
// the servers; as they are where it gives them no order.
func byManifest[T any](rows []T, disp model.Display, server func(T) string) []T {
	if !disp.Ordered("server") {
		return rows
	}
	order := identity(len(rows))
	slices.SortStableFunc(order, func(x, y int) int { return disp.Compare("server", server(rows[x]), server(rows[y])) })
	return permute(rows, order)
}

// orderServers is servers in the manifest's order of the servers (else
// as given).
func orderServers(servers []string, disp model.Display) []string {
	return byManifest(slices.Clone(servers), disp, func(s string) string { return s })
}

// byKey orders a table's rows, when the manifest gives the servers no
// order, by a figure of each row (key), best first (the highest when
// higherFirst), keeping the order of equal ones and putting a row
// without the figure last; tie, where given, breaks equal keys, true
// first. Rows of one group (a test, say; nil for none) stay together,
// in the order the groups come. what names the figure in the footnote.
func byKey[T any](a *analysis, rows []T, n *notes, key func(T) float64, tie func(T) bool, higherFirst bool, group func(T) string, what string) []T {
	if a.disp.Ordered("server") || len(rows) < 2 {
		return rows
	}
	groups := make([]int, len(rows))
	if group != nil {
		seen := map[string]int{}
		for i, r := range rows {
			v := group(r)
			if _, ok := seen[v]; !ok {
				seen[v] = len(seen)
			}
			groups[i] = seen[v]
		}
	}
	order := identity(len(rows))
	slices.SortStableFunc(order, func(x, y int) int {
		if c := cmp.Compare(groups[x], groups[y]); c != 0 {
			return c
		}
		kx, ky := key(rows[x]), key(rows[y])
		switch {
		case math.IsNaN(kx) || math.IsNaN(ky):
			return cmp.Compare(b2i(math.IsNaN(kx)), b2i(math.IsNaN(ky)))
		case kx != ky && higherFirst:
			return cmp.Compare(ky, kx)
		case kx != ky:
			return cmp.Compare(kx, ky)
		case tie != nil:
			return cmp.Compare(b2i(tie(rows[y])), b2i(tie(rows[x])))
		}
		return 0
	})
	best := "lowest first"
	if higherFirst {
		best = "highest first"
	}
	n.add(fmt.Sprintf("rows in order of their %s, %s; [labels.server] order = [...] in wra.toml sets another", what, best))
	return permute(rows, order)
}
