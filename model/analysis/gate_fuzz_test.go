package analysis

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// FuzzParseGateLimits feeds the limit parser of wra gate --fail-on
// anything: it never panics; it fails with a GateSpecError naming a part
// of what it was given, or ErrNoLimits; and what it accepts names known
// metrics once each, with finite limits whose sign is their direction,
// and reads back the same from its own String form.
func FuzzParseGateLimits(f *testing.F) {
	for _, seed := range []string{
		// accepted
		"rps:-5%", "rps:-5%,latency_p99_ms:+10%", " rps : -5% , latency_p99_ms:+0.5% ,", "cpu_server_us_per_req:+1e1%",
		"rps:-0%", "latency_p99_ms:+250%",
		// truncated
		"", ",", "rps", "rps:", "rps:-", "rps:-5", "rps:-5%,", "rps:-5%,lat", "rps:-5%,latency_p99_ms:+",
		// wrong: no sign, unknown metric, twice, out of range, not numbers
		"rps:5%", "bogus:+5%", "rps:-5%,rps:-3%", "rps:-100%", "rps:-150%", "rps:-NaN%", "rps:+Inf%",
		"rps:-0x10%", ":+5%", "rps:+5%%", "rps:--5%", "rps;-5%",
		// another tool's thresholds: benchstat's and k6's syntax
		"-alpha 0.05", "http_req_duration: p(95)<500", "p95<200",
	} {
		f.Add(seed)
	}
	metrics := []string{"rps", "latency_p99_ms", "cpu_server_us_per_req"}
	f.Fuzz(func(t *testing.T, spec string) {
		limits, err := ParseGateLimits(spec, metrics, metrics)
		if err != nil {
			var se *GateSpecError
			switch {
			case errors.Is(err, ErrNoLimits):
			case errors.As(err, &se):
				if !strings.Contains(spec, se.Part) {
					t.Errorf("%q: the error names %q, not a part of it", spec, se.Part)
				}
			default:
				t.Errorf("%q: error %v is neither a GateSpecError nor ErrNoLimits", spec, err)
			}
			if limits != nil {
				t.Errorf("%q: limits %v beside the error", spec, limits)
			}
			return
		}
		if len(limits) == 0 {
			t.Fatalf("%q: no limits and no error", spec)
		}
		seen := map[string]bool{}
		var back []string
		for _, l := range limits {
			if !slices.Contains(metrics, l.Metric) || seen[l.Metric] {
				t.Errorf("%q: limit %+v names an unknown metric or one twice", spec, l)
			}
			seen[l.Metric] = true
			if math.IsNaN(l.Pct) || math.IsInf(l.Pct, 0) || (l.FallIsWorse && (l.Pct > 0 || l.Pct <= -100)) || (!l.FallIsWorse && l.Pct < 0) {
				t.Errorf("%q: limit %+v out of range or against its direction", spec, l)
			}
			back = append(back, l.String())
		}
		again, err := ParseGateLimits(strings.Join(back, ","), metrics, metrics)
		if err != nil {
			t.Fatalf("%q: its String form %q does not read back: %v", spec, back, err)
		}
		for i := range limits {
			if again[i] != limits[i] {
				t.Errorf("%q: limit %d reads back as %+v, want %+v", spec, i, again[i], limits[i])
			}
		}
	})
}
