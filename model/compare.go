package model

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// CompareRun is one run of a side of a comparison (wra compare, wra
// gate): its id, its side ("base" or "vs"), the values of the labels
// that match it with runs of the other side (nil for NULL), and its
// metrics by name, those it has.
type CompareRun struct {
	ID, Side string
	Key      []any
	Values   map[string]float64
	// Block is the run's block of the experiment's design
	// (run_groups.block: its trial), "" where it has none.
	Block string
	// Source and Line are where the run was read (runs.source and
	// runs.source_line, 0 when unknown): how a table cites it.
	Source string
	Line   int
	// StillHolding: the run is a ladder that still held at its top step,
	// so its HighestHeld figure is a lower bound.
	StillHolding bool
	// Caveats are those of the run's groups (group_caveats, as
	// DesignCaveats gives them for its Source and Line), in their order:
	// what a comparison says beside its side's figures.
	Caveats []Caveat
}

// HighestHeld is the metric of a ladder run's highest step held
// (ladder_figures.highest_held_rps), which wra compare and wra gate
// compare beside the figures of model.CompareMetrics.
const HighestHeld = "highest_held_rps"

// LowerBoundCaveat is what every surface that compares HighestHeld says
// of a side whose ladder still held at its top step.
const LowerBoundCaveat = "a ladder still held at its top step: its highest held rps is a lower bound"

// CompareKeyString is the identity of a match of the two sides: runs
// with equal keys are compared.
func CompareKeyString(key []any) string {
	var b strings.Builder
	for _, v := range key {
		fmt.Fprintf(&b, "%T:%v|", v, v)
	}
	return b.String()
}

// CompareKeysOrder sorts matches by their labels, NULLs first, numbers
// as numbers.
func CompareKeysOrder(a, b []any) int {
	for i := range a {
		x, y := a[i], b[i]
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			return -1
		case y == nil:
			return 1
		}
		fx, fy := keyNumber(x), keyNumber(y)
		if !math.IsNaN(fx) && !math.IsNaN(fy) {
			if c := cmp.Compare(fx, fy); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(fmt.Sprint(x), fmt.Sprint(y)); c != 0 {
			return c
		}
	}
	return 0
}

// keyNumber is a key value as a number, NaN where it is none.
func keyNumber(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case float64:
		return x
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
	}
	return math.NaN()
}
