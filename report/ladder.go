package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/stats"
)

// LadderText is a ladder's result for people, as people publish ladders:
// the median of its runs with a "+" where that median still held its
// last step, and every run listed in order when they differ: "1,397
// (500, 1,397, 1,397)". achieved picks the rate achieved at the highest
// step held (rounded to whole requests/s) instead of the step's target;
// "–" when there are no runs or a figure is unknown.
func LadderText(s stats.LadderSummary, achieved bool) string {
	median, of := s.MedianHeldRPS, func(r stats.LadderResult) float64 { return r.HighestHeldRPS }
	if achieved {
		median, of = s.MedianAchievedRPS, func(r stats.LadderResult) float64 { return r.HighestHeldAchievedRPS }
	}
	if len(s.Runs) == 0 || math.IsNaN(median) {
		return "–"
	}
	text := func(x float64, plus bool) string {
		if achieved {
			x = math.Round(x)
		}
		t := Thousands(strconv.FormatFloat(x, 'f', -1, 64))
		if plus {
			t += "+"
		}
		return t
	}
	out := text(median, s.StillHolding)
	var each []string
	differ := false
	for _, r := range s.Runs {
		each = append(each, text(of(r), r.StillHolding))
		differ = differ || each[len(each)-1] != each[0]
	}
	if differ {
		out += " (" + strings.Join(each, ", ") + ")"
	}
	return out
}

// LadderRuleText names the rule a ladder step is held by, as every ladder
// table prints it: "p95 < 50 ms, errors < 1%, ≥ 95% of the rate
// achieved" (the last part left out where the rule leaves the achieved
// rate out).
func LadderRuleText(r stats.LadderRule) string {
	t := fmt.Sprintf("p95 < %g ms, errors < %g%%", r.P95MS, r.MaxErrorRate*100)
	if r.MinAchievedRatio > 0 {
		t += fmt.Sprintf(", ≥ %g%% of the rate achieved", r.MinAchievedRatio*100)
	}
	return t
}
