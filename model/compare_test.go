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

// TestMetricNamed: a metric by its own name, or a per-request CPU figure
// by run_figures' name of it; nothing else.
func TestMetricNamed(t *testing.T) {
	metrics := CompareMetrics()
	for _, c := range []struct {
		name, want string
		ok         bool
	}{
		{"rps", "rps", true},
		{"cpu_server_us_per_req", "cpu_server_us_per_req", true},
		{"cpu_server_us", "cpu_server_us_per_req", true},
		{"cpu_db_us", "cpu_db_us_per_req", true},
		{"cpu_user_us", "", false}, // not among these metrics
		{"latency_p99", "", false},
		{"rps_per_req", "", false},
		{"", "", false},
	} {
		got, ok := MetricNamed(metrics, c.name)
		if got != c.want || ok != c.ok {
			t.Errorf("MetricNamed(%q) = %q, %v, want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestScannablePath: a path DuckDB's scanners can be given unless it has
// a backslash and a glob character (on a system whose separator is /).
func TestScannablePath(t *testing.T) {
	for path, want := range map[string]bool{
		"data/a.ndjson":     true,
		"data/a[1].ndjson":  true,
		`data/a\b.ndjson`:   true,
		`data/a\[1].ndjson`: false,
		`data/x*\y.jtl`:     false,
		`data\?/run.csv.gz`: false,
		"~/b*.ndjson":       true,
	} {
		if got := ScannablePath(path); got != want {
			t.Errorf("ScannablePath(%q) = %v, want %v", path, got, want)
		}
	}
}
