package analysis

import (
	"fmt"
	"testing"
)

// TestListed: a finding names up to maxListed subjects; beyond that the
// first listedHead and how many more.
func TestListed(t *testing.T) {
	var items []string
	for i := range 20 {
		items = append(items, fmt.Sprintf("s%d", i))
	}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, ""},
		{1, "s0"},
		{12, "s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11"},
		{13, "s0, s1, s2, s3, s4, s5, s6, s7 and 5 more"},
		{20, "s0, s1, s2, s3, s4, s5, s6, s7 and 12 more"},
	} {
		if got := listed(items[:tc.n]); got != tc.want {
			t.Errorf("listed(%d items) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
