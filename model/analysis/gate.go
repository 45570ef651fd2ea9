package analysis

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// A GateLimit is one threshold of a regression gate: the metric fails
// when it got worse by more than Pct percent, Pct signed by the direction
// that is worse (-5: a fall of more than 5%; +10: a rise of more than
// 10%).
type GateLimit struct {
	Metric      string
	Pct         float64
	FallIsWorse bool
}

// String is the limit as it is written: "rps:-5%".
func (l GateLimit) String() string {
	sign := "+"
	if l.FallIsWorse {
		sign = "-"
	}
	return l.Metric + ":" + sign + strconv.FormatFloat(math.Abs(l.Pct), 'f', -1, 64) + "%"
}

// A GateSpecError is a part of a gate's thresholds that cannot be read:
// the part as written and what was expected.
type GateSpecError struct {
	Part, Want string
}

func (e *GateSpecError) Error() string {
	return fmt.Sprintf("%q: expected %s", e.Part, e.Want)
}

// ErrNoLimits is a gate given no thresholds.
var ErrNoLimits = errors.New("no thresholds: expected METRIC:±N% pairs, such as rps:-5%,latency_p99_ms:+10%")

// ParseGateLimits reads thresholds written "rps:-5%,latency_p99_ms:+10%":
// comma-separated METRIC:±N% pairs, the sign the direction that is worse,
// each metric one of metrics and named once; an unknown metric's error
// lists those of listed.
func ParseGateLimits(spec string, metrics, listed []string) ([]GateLimit, error) {
	var out []GateLimit
	for part := range strings.SplitSeq(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, limit, ok := strings.Cut(part, ":")
		name, limit = strings.TrimSpace(name), strings.TrimSpace(limit)
		if !ok || name == "" {
			return nil, &GateSpecError{part, "METRIC:±N%, such as rps:-5% or latency_p99_ms:+10%"}
		}
		metric, ok := model.MetricNamed(metrics, name)
		if !ok {
			return nil, &GateSpecError{name, "a metric (" + strings.Join(listed, ", ") + ", or a column of run_reported)"}
		}
		name = metric
		if slices.ContainsFunc(out, func(l GateLimit) bool { return l.Metric == name }) {
			return nil, &GateSpecError{part, "each metric once; " + name + " is given twice"}
		}
		num, isPct := strings.CutSuffix(limit, "%")
		if !isPct || (!strings.HasPrefix(num, "-") && !strings.HasPrefix(num, "+")) {
			return nil, &GateSpecError{limit, "a signed percentage for " + name + ": -N% fails a fall of more than N%, +N% a rise"}
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) >= 100 && num[0] == '-' {
			return nil, &GateSpecError{limit, "a signed percentage for " + name + ", such as -5% or +10% (a fall below -100% cannot happen)"}
		}
		out = append(out, GateLimit{Metric: name, Pct: v, FallIsWorse: num[0] == '-'})
	}
	if len(out) == 0 {
		return nil, ErrNoLimits
	}
	return out, nil
}

// GateOptions are the settings of a gate.
type GateOptions struct {
	Alpha, Confidence float64
	// Holm adjusts the p-values of every check of the gate together, so
	// that the gate as a whole fires on an A/A comparison with
	// probability at most Alpha.
	Holm bool
}

// A GateRow is one check: a metric for one match of the two sides.
type GateRow struct {
	Limit GateLimit
	// Key holds the values of the gate's Keys that match the runs.
	Key   []any
	Check stats.GateCheck
	// Caveats are the match's caveats beside the check, as wra compare
	// prints them, each after its side's name: its groups' caveats and
	// a highest held rate that is a lower bound.
	Caveats []string
}

// A GateResult is a gate over every metric given a limit and every
// match of the two sides.
type GateResult struct {
	Keys    []string
	Limits  []GateLimit
	Options GateOptions
	Rows    []GateRow
	// Verdict is GateRegression when a row regressed, else GateTooFew
	// when a row could not tell, else GatePass.
	Verdict stats.GateVerdict
	// RunsNeeded is, for GateTooFew, the most runs a side (trials for
	// the paired test) any row that could not tell would take.
	RunsNeeded int
}

// Regressions counts the rows that regressed.
func (r *GateResult) Regressions() int {
	n := 0
	for _, row := range r.Rows {
		if row.Check.Verdict == stats.GateRegression {
			n++
		}
	}
	return n
}

// Gate checks every limit's metric for every match of the two sides'
// runs (runs of equal Key are matched, as wra compare matches them):
// within trials where the sides share two blocks or more
// (PairedByBlock), else with the U test over all their runs.
func Gate(runs []*model.CompareRun, keys []string, limits []GateLimit, o GateOptions) *GateResult {
	res := &GateResult{Keys: keys, Limits: limits, Options: o, Verdict: stats.GatePass}
	var falls []bool
	for _, l := range limits {
		for _, g := range matchSides(runs, l.Metric) {
			if len(g.base) == 0 || len(g.vs) == 0 {
				continue
			}
			pb, pv := PairedByBlock(g.baseBlocks, g.vsBlocks)
			c := stats.Gate(g.base, g.vs, pb, pv, l.Pct, l.FallIsWorse, o.Alpha, o.Confidence)
			res.Rows = append(res.Rows, GateRow{Limit: l, Key: g.key, Check: c, Caveats: warningTexts(g.caveats(l.Metric))})
			falls = append(falls, l.FallIsWorse)
		}
	}
	if o.Holm && len(res.Rows) > 1 {
		cs := make([]stats.GateCheck, len(res.Rows))
		for i := range res.Rows {
			cs[i] = res.Rows[i].Check
		}
		stats.AdjustGate(cs, falls)
		for i := range res.Rows {
			res.Rows[i].Check = cs[i]
		}
	}
	for _, row := range res.Rows {
		switch row.Check.Verdict {
		case stats.GateRegression:
			res.Verdict = stats.GateRegression
		case stats.GateTooFew:
			if res.Verdict == stats.GatePass {
				res.Verdict = stats.GateTooFew
			}
			res.RunsNeeded = max(res.RunsNeeded, row.Check.RunsNeeded)
		}
	}
	return res
}

// PairedByBlock pairs two sides' values by block: for each block both
// have values in (sorted by name), the median of each side's values
// there (one run each in a trial). Fewer than two shared blocks give nil.
// Every within-trial pairing of wra (the gate, compare, and the CPU
// tables, the summary and the findings of analyze) is made here.
func PairedByBlock(base, vs map[string][]float64) (b, v []float64) {
	for _, block := range slices.Sorted(maps.Keys(base)) {
		if w, ok := vs[block]; ok && len(w) > 0 && len(base[block]) > 0 {
			b = append(b, stats.Median(base[block]))
			v = append(v, stats.Median(w))
		}
	}
	if len(b) < 2 {
		return nil, nil
	}
	return b, v
}

// warningTexts are the messages of ws.
func warningTexts(ws []stats.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Msg)
	}
	return out
}
