package analyze_test

import (
	"slices"
	"testing"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
)

// The fixed-rate records the harness recorded on 2026-11-29 (a copy of
// that recording's data/records/fixed-rate.csv) plotted as achieved
// against target rate: a plot per test, a series per server naming its
// test, tool and load, each run a point (node-pg fell behind at 1000
// requests/s in one pass: 904.61); and their CPU bars name test, tool and
// load too.
func TestAchievedAgainstTarget(t *testing.T) {
	st := newStore(t, nil, map[string]string{"records/fixed-rate.csv": "@../testdata/harness_fixed_rate_2026-11-29.csv"})
	res := run(t, st, analyze.DefaultOptions())
	sec := section(t, res, "achieved")
	var names []string
	for _, f := range sec.Figures {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{"achieved-one", "achieved-page"}) {
		t.Fatalf("figures %v, want achieved-one, achieved-page", names)
	}
	one := sec.Figures[0].Figure.(*report.RateChart)
	var labels []string
	for _, s := range one.Series {
		labels = append(labels, s.Label)
	}
	if want := []string{"go-pgx: one, records, fixed rate", "go-pq: one, records, fixed rate", "node-pg: one, records, fixed rate"}; !slices.Equal(labels, want) {
		t.Errorf("series %q, want %q", labels, want)
	}
	node := one.Series[2].Points
	if len(node) != 9 || !slices.Contains(node, report.RatePoint{TargetRPS: 1000, AchievedRPS: 904.61}) {
		t.Errorf("node-pg's runs of one: %v, want 9 with (1000, 904.61)", node)
	}
	bars := section(t, res, "cpu-per-request").Figures[0].Figure.(*report.BarChart)
	var series []string
	for _, g := range bars.Groups {
		if !slices.Contains(series, g.Series) {
			series = append(series, g.Series)
		}
	}
	if want := []string{"one, records, 250 requests/s", "one, records, 500 requests/s", "one, records, 1,000 requests/s",
		"page, records, 250 requests/s", "page, records, 500 requests/s"}; !slices.Equal(series, want) {
		t.Errorf("CPU series %q, want %q", series, want)
	}
}

// CPU per request at full speed is plotted like the fixed-rate one: a
// bar per server, a series per test, tool and connections, each pass's
// stack CPU (records.csv: go-gmp1 db at 16 connections, 3 passes).
func TestCPUFullSpeedPlot(t *testing.T) {
	st := newStore(t, nil, map[string]string{"records.csv": "@../../ingest/testdata/records/records.csv"})
	sec := section(t, run(t, st, analyze.DefaultOptions()), "cpu-split")
	if len(sec.Figures) != 1 || sec.Figures[0].Name != "cpu-per-request-full-speed" {
		t.Fatalf("figures %+v, want one cpu-per-request-full-speed", sec.Figures)
	}
	bars := sec.Figures[0].Figure.(*report.BarChart)
	i := slices.IndexFunc(bars.Groups, func(g report.BarGroup) bool {
		return g.Label == "go-gmp1" && g.Series == "db, records, 16 connections"
	})
	if i < 0 {
		t.Fatalf("no go-gmp1 bar of db, records, 16 connections in %+v", bars.Groups)
	}
	if n := len(bars.Groups[i].Values); n != 3 {
		t.Errorf("go-gmp1 db at 16 connections: %d passes, want 3", n)
	}
	if len(bars.Groups) != 16 {
		t.Errorf("%d bars, want 16 (go-gmp1 and go-gmp2: db, ping, wait; nginx: ping, static; each at 16 and 64 connections)", len(bars.Groups))
	}
}

// The throughput bars of runs at full speed name test, tool and load.
func TestThroughputLegend(t *testing.T) {
	st := newStore(t, nil, map[string]string{"records.csv": "@../../ingest/testdata/records/records.csv"})
	sec := section(t, run(t, st, analyze.DefaultOptions()), "rounds")
	var series []string
	for _, f := range sec.Figures {
		if f.Name != "throughput-db" {
			continue
		}
		for _, g := range f.Figure.(*report.BarChart).Groups {
			if !slices.Contains(series, g.Series) {
				series = append(series, g.Series)
			}
		}
	}
	if want := []string{"db, records, 16 connections", "db, records, 64 connections"}; !slices.Equal(series, want) {
		t.Errorf("throughput-db series %q, want %q", series, want)
	}
}

// A server's fixed-rate runs against two databases are two lines, each
// named by its database and drawn through its own group's medians, never
// one line through both.
func TestAchievedSplitsByDatabase(t *testing.T) {
	st := newStore(t, nil, map[string]string{"records/fixed.csv": `server,database,test,target_rps,round,requests_per_s,latency_p95_ms,responses_2xx,errors
go,postgresql,one,100,1,100,5,1000,0
go,postgresql,one,100,2,98,5,980,0
go,mariadb,one,100,1,60,5,600,0
go,mariadb,one,100,2,62,5,620,0
`})
	sec := section(t, run(t, st, analyze.DefaultOptions()), "achieved")
	one := sec.Figures[0].Figure.(*report.RateChart)
	var labels []string
	var medians []float64
	for _, s := range one.Series {
		labels = append(labels, s.Label)
		for _, m := range s.Medians {
			medians = append(medians, m.AchievedRPS)
		}
	}
	if want := []string{"go: one, records, fixed rate, mariadb", "go: one, records, fixed rate, postgresql"}; !slices.Equal(labels, want) {
		t.Errorf("series %q, want %q", labels, want)
	}
	if want := []float64{61, 99}; !slices.Equal(medians, want) {
		t.Errorf("medians %v, want %v (each database's own; pooled would be 80)", medians, want)
	}
}
