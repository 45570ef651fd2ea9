package model

import (
	"regexp"
	"slices"
	"strings"
)

// The selection of a comparison (wra compare, wra gate): two sides told
// apart by a label or by the folder they were ingested from, the labels
// that match a run of one side with runs of the other, and the metrics
// compared. The store reads the runs it selects (store.CompareRuns).

// CompareByColumns are the runs columns a comparison's By may name; any
// other name is a key of the runs' labels.
var CompareByColumns = []string{"server", "database", "test", "tool", "tool_version", "connections", "threads", "target_rps", "round"}

// CompareKeys are the labels that match a base run with a vs run: the
// factors of the experiment's design (run_groups) that a comparison holds
// fixed. variant is run_groups' but for the label that tells the sides
// apart: runs of two variants of the design are never one side's runs.
var CompareKeys = []string{"tool", "database", "test", "connections", "target_rps", "mode", "server", "variant"}

// compareMetrics are the metrics a comparison compares by default, in
// their order.
var compareMetrics = []string{"rps", "latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "cpu_server_us_per_req", "cpu_db_us_per_req", "working_set_mb"}

// CompareMetrics names the metrics a comparison compares by default.
func CompareMetrics() []string { return slices.Clone(compareMetrics) }

// MetricNamed is the metric of metrics that name m gives: m itself or,
// for a per-request CPU figure named as run_figures and wra table name
// it (cpu_server_us), the metric named as cpu_per_request and a
// comparison name it (cpu_server_us_per_req); false when m names none.
func MetricNamed(metrics []string, m string) (string, bool) {
	switch {
	case slices.Contains(metrics, m):
		return m, true
	case strings.HasPrefix(m, "cpu_") && strings.HasSuffix(m, "_us") && slices.Contains(metrics, m+"_per_req"):
		return m + "_per_req", true
	}
	return "", false
}

// LabelKey is the form of a label key a comparison may be by.
var LabelKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// IsCompareBy reports whether by can tell the sides apart: a column of
// CompareByColumns or a label key.
func IsCompareBy(by string) bool {
	return slices.Contains(CompareByColumns, by) || LabelKey.MatchString(by)
}

// CompareSides selects the two sides: by the value of the label By, or,
// with Folders, by the folder a run's source starts with.
type CompareSides struct {
	Folders  bool
	By       string
	Base, Vs string
	// All, when "base" or "vs", makes every run of the store that side:
	// a gate whose two sides are two stores reads each whole.
	All string
}

// Keys are the labels that match runs of the two sides: CompareKeys but By.
func (s CompareSides) Keys() []string {
	if s.Folders || s.All != "" {
		return CompareKeys
	}
	var keys []string
	for _, k := range CompareKeys {
		if k != s.By {
			keys = append(keys, k)
		}
	}
	return keys
}

// Servers selects runs by their server (runs.server). Every grouping of
// the store holds servers apart: a group of run_groups, a harness record
// paired with a report (run_pairs) and a ladder run of ladder_steps each
// belong to one server, so the rows of a server's runs are the same
// whether the other servers are read or not. A reader that takes a
// *Servers adds its condition to the rows of its view, and the store
// pushes it below the views' windows and joins into the scans of runs: a
// command that reads two stacks of forty computes the groups of those two.
// A nil *Servers selects every run.
type Servers struct {
	// Names are the servers selected.
	Names []string
	// Unnamed selects the runs without a server too.
	Unnamed bool
}
