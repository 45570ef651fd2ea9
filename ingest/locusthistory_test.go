package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// The stats history tables (PROVENANCE.md), with the
// numbers they hold.
func TestLocustHistoryAndFailures(t *testing.T) {
	const d = "testdata/wild/locust/"
	for _, tc := range []loadToolCase{
		// The last row's totals: 223 requests, 95 failures, median 120,
		// average 227.6789591928331, max 544.0575000002354; 31 s from
		// 1752739295 to 1752739326.
		{file: d + "rezanurridwan-2025-v2.37-reqres-stats-history.csv", format: "locust-history-csv",
			requests: 223, ok2xx: nullCount, non2xx: nullCount, errors: 95, rps: nullWant, p50: 120, p99: nullWant, mean: 227.6789591928331, max: 544.0575000002354,
			spectrum: 0, startLine: 2, connections: nullWant, durationS: 31, samples: 31*5 + 30*11,
			labels: map[string]string{"request_name": "Aggregated", "aggregated": "true", "history_rows": "31"}},
		// --csv-full-history: a run per name; "Get Login Page" holds 50
		// requests in each of its rows of the excerpt.
		{file: d + "odoo-locust-2025-full-history-excerpt.csv", format: "locust-history-csv", runs: 17, run: 1,
			requests: 50, ok2xx: nullCount, non2xx: nullCount, errors: 0, rps: nullWant, p50: 240, p99: nullWant, mean: 326.8253808600049, max: 1044.5638329999838,
			spectrum: 0, startLine: 3, connections: nullWant, durationS: 2, samples: 48,
			labels: map[string]string{"request_name": "Get Login Page", "request_type": "GET"}},
	} {
		t.Run(filepath.Base(tc.file)+"#"+string(rune('0'+tc.run)), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// The history's last row holds the run's totals: they equal the
// Aggregated row of the _stats.csv Locust wrote beside it.
func TestLocustHistoryMatchesStats(t *testing.T) {
	const d = "testdata/wild/locust/rezanurridwan-2025-v2.37-reqres-"
	read := func(f string) *sampleCounter {
		c := &sampleCounter{}
		if _, err := ReadFile(d+f, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	h, s := read("stats-history.csv").Runs[0], read("stats.csv")
	agg := s.Runs[len(s.Runs)-1]
	if h.Requests != agg.Requests || h.Errors != agg.Errors || h.LatencyMeanMS != agg.LatencyMeanMS || h.LatencyP50MS != agg.LatencyP50MS || h.LatencyMaxMS != agg.LatencyMaxMS {
		t.Errorf("history totals %v %v %v %v %v, stats Aggregated %v %v %v %v %v", h.Requests, h.Errors, h.LatencyMeanMS, h.LatencyP50MS, h.LatencyMaxMS,
			agg.Requests, agg.Errors, agg.LatencyMeanMS, agg.LatencyP50MS, agg.LatencyMaxMS)
	}
}

func TestLocustHistoryErrors(t *testing.T) {
	h := readTestdata(t, "testdata/wild/locust/rezanurridwan-2025-v2.37-reqres-stats-history.csv")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"before the first request", "locust-history-csv", readTestdata(t, "testdata/wild/notreport/locust-stats-history-head-all-na.csv"),
			"f.txt:40: Locust stats history counts no request up to its last row: expected a Total Request Count above 0"},
		{"header only", "locust-history-csv", headLines(h, 1), "f.txt:2: Locust stats history CSV has a header but no rows"},
		{"no totals", "locust-history-csv", "Timestamp,User Count,Type,Name,Requests/s\n1,1,,Aggregated,1\n",
			"f.txt:1: Locust stats history CSV: the header has no requests column"},
		{"formatted time", "locust-history-csv", strings.Replace(h, "1752739296,10,", "2025-07-17 08:01:36,10,", 1),
			`f.txt:3:1: Timestamp: expected epoch seconds, found "2025-07-17 08:01:36"`},
		{"totals going down", "locust-history-csv", strings.Replace(h, ",540,12,2,", ",540,9,2,", 1),
			"f.txt:4:89: Total Request Count: 9 is below the 10 of an earlier row: the totals never go down"},
	})
}

func FuzzLocustHistory(f *testing.F) {
	addWildSeeds(f, "locust", "jmeter", "notreport")
	addFuzzSeeds(f, "testdata/k6/*.csv", "testdata/records/*.csv")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "locust-history-csv") })
}
