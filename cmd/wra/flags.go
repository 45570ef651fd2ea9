package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// addLadderRuleFlags registers --p95, --max-errors and --min-achieved,
// the rule by which a held-rate ladder's step (and a fixed-rate run) is
// held, at stats.DefaultLadderRule: the same flags, defaults and words for
// every command that judges ladders.
func addLadderRuleFlags(f *pflag.FlagSet, r *stats.LadderRule) {
	*r = stats.DefaultLadderRule
	f.Var(boundedFloat{&r.P95MS, 0, math.Inf(1), false, "a latency in ms above 0"}, "p95",
		"ladder rule: a step is held while its p95 latency is under this many ms (SQL: ladders(p95_ms := …))")
	f.Var(boundedFloat{&r.MaxErrorRate, 0, 1, false, "a fraction above 0 and at most 1"}, "max-errors",
		"ladder rule: and while under this fraction of its requests fail (SQL: ladders(max_error_rate := …))")
	f.Var(boundedFloat{&r.MinAchievedRatio, 0, 1, true, "a fraction from 0 to 1"}, "min-achieved",
		"ladder rule: and while it achieved at least this share of its target rate; 0 leaves the achieved rate out (SQL: ladders(min_achieved_ratio := …))")
}

// addDriftFlag registers --drift, the calibration drift beyond which a
// pair is flagged, at def: the same flag and words for every command
// that reads calibration_drift.
func addDriftFlag(f *pflag.FlagSet, p *float64, def float64) {
	*p = def
	f.Var(boundedFloat{p, 0, math.Inf(1), false, "a fraction above 0, such as 0.05"}, "drift",
		"flag a calibration that moved by more than this fraction (SQL: calibration_drift(tolerance := …))")
}

// boundedFloat is a number flag that a value outside (lo, hi], or [lo,
// hi] when withLo, refuses as it is parsed, saying what was expected (a
// usage error, exit 2).
type boundedFloat struct {
	p      *float64
	lo, hi float64
	withLo bool
	want   string
}

func (b boundedFloat) String() string { return strconv.FormatFloat(*b.p, 'g', -1, 64) }
func (b boundedFloat) Type() string   { return "number" }
func (b boundedFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v <= b.hi && (v > b.lo || b.withLo && v == b.lo)) {
		return fmt.Errorf("expected %s, found %q", b.want, s)
	}
	*b.p = v
	return nil
}

// inlinePlots is --inline-plots, refused as it is parsed unless it names
// a report.InlinePlots mode.
type inlinePlots struct{ p *report.InlinePlots }

func (f inlinePlots) String() string { return string(*f.p) }
func (f inlinePlots) Type() string   { return "mode" }
func (f inlinePlots) Set(s string) error {
	m, err := report.ParseInlinePlots(s)
	if err == nil {
		*f.p = m
	}
	return err
}
