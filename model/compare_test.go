package model

import (
	"slices"
	"testing"
)

// TestKeysOrder: matches sort by their labels, NULL first, numbers as
// numbers (9 before 10), text as text.
func TestKeysOrder(t *testing.T) {
	keys := [][]any{
		{"wrk", int64(10), 2000.0},
		{"wrk", int64(9), 2000.0},
		{nil, int64(64), nil},
		{"ab", nil, 500.0},
		{"wrk", int64(9), 1000.0},
	}
	slices.SortFunc(keys, CompareKeysOrder)
	want := [][]any{
		{nil, int64(64), nil},
		{"ab", nil, 500.0},
		{"wrk", int64(9), 1000.0},
		{"wrk", int64(9), 2000.0},
		{"wrk", int64(10), 2000.0},
	}
	for i := range want {
		if !slices.Equal(keys[i], want[i]) {
			t.Errorf("row %d: %v, want %v", i, keys[i], want[i])
		}
	}
	if CompareKeyString([]any{int64(1)}) == CompareKeyString([]any{"1"}) {
		t.Error("the number 1 and the text 1 are one match")
	}
}
