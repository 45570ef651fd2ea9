package stats

import (
	"math"
	"slices"
	"testing"
)

// FuzzParseSchedule: a schedule string never panics the parser; what it
// accepts writes back (FormatSchedule) to a string that parses to the same
// stages, and every stage has a positive duration and a non-negative rate.
func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{
		"1500:3s,3000:3s", // the documented form
		"1500:1s,1500:3s,3000:1s,3000:3s,6000:1s,6000:3s,12000:1s,12000:3s", // the ladder.js stages of the k6 capture
		"200:1s,200:5s,400:1s,400:5s,800:1s,800:5s,1600:1s,1600:5s,3200:1s,3200:5s",
		"1500:3s,3000",          // truncated
		"1500:",                 // truncated
		"RATE=100 DURATION=10s", // another tool's syntax
		"Running 15s test @ http://127.0.0.1:8080/static.json",
		"1e3:1m30s, 0:500ms",
		"-1:3s", "NaN:3s", "Inf:1s", "1:-1s", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		stages, err := ParseSchedule(s)
		if err != nil {
			if stages != nil {
				t.Fatalf("ParseSchedule(%q) returned stages with an error", s)
			}
			return
		}
		for _, st := range stages {
			if st.Duration <= 0 || !(st.TargetRPS >= 0) || math.IsInf(st.TargetRPS, 0) {
				t.Fatalf("ParseSchedule(%q) accepted stage %+v", s, st)
			}
		}
		again, err := ParseSchedule(FormatSchedule(stages))
		if err != nil || !slices.Equal(again, stages) {
			t.Fatalf("round trip of %q: %v, %v; want %v", s, again, err, stages)
		}
		w := WindowsFromSchedule(0, stages)
		for i := 1; i < len(w); i++ {
			if w[i].FromS != w[i-1].ToS || w[i].TargetRPS == w[i-1].TargetRPS {
				t.Fatalf("windows of %q not contiguous and merged: %v", s, w)
			}
		}
	})
}
