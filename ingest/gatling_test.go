package ingest

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// The Gatling captures (PROVENANCE.md): the numbers as printed for the
// console blocks and the report's JSON; for simulation.log the reference
// values were computed from the same records by a separate script
// (Python, type 7 written out), and TestGatlingLogMatchesReport checks
// them against the report Gatling wrote from that log.
func TestGatlingWild(t *testing.T) {
	const d = "testdata/wild/gatling/"
	for _, tc := range []loadToolCase{
		// Classic layout, first of four blocks: 200 (OK=200 KO=0).
		{file: d + "test-microservice-frameworks-2020-headings-classic.md", format: "gatling", runs: 4, run: 0,
			requests: 200, ok2xx: nullCount, non2xx: nullCount, errors: 0, rps: 40, p50: 3, p99: 21, mean: 4, max: 28,
			spectrum: 4, startLine: 3, connections: nullWant, durationS: nullWant,
			labels: map[string]string{"latency_min_ms": "1"}},
		// Table layout: "|   206,892 |", "| 8,275.68 |".
		{file: d + "test-microservice-frameworks-2026-table-layout.md", format: "gatling", runs: 4, run: 0,
			requests: 206892, ok2xx: nullCount, non2xx: nullCount, errors: 0, rps: 8275.68, p50: 19, p99: 1523, mean: 41, max: 2320,
			spectrum: 4, startLine: 4, connections: nullWant, durationS: nullWant},
		{file: d + "ppppp-2021-v3.5-global_stats.json", format: "gatling-stats-json",
			requests: 64, ok2xx: nullCount, non2xx: nullCount, errors: 26, rps: 0.9552238805970149, p50: 37, p99: 10106, mean: 3398, max: 10116,
			spectrum: 4, startLine: 1, connections: nullWant, durationS: nullWant,
			labels: map[string]string{"request_name": "Global Information", "aggregated": "true", "latency_min_ms": "2", "percentile_levels": gatlingPctLevels}},
		// favicon.ico: 7 requests, 2 KO.
		{file: d + "ppppp-2021-v3.5-stats.json", format: "gatling-stats-json", runs: 47, run: 2,
			requests: 7, ok2xx: nullCount, non2xx: nullCount, errors: 2, rps: 0.1044776119402985, p50: 7, p99: 5045, mean: 1444, max: 5046,
			spectrum: 4, startLine: 1, connections: nullWant, durationS: nullWant,
			labels: map[string]string{"request_name": "favicon.ico"}},
		// All 64 requests, from 1613487971809 to 1613488037989 + 18... :
		// 64 over 66.198 s; type 7 p50 36.5 and p99 10105.92, which the
		// report prints as 37 and 10106.
		{file: d + "ppppp-2021-v3.5-simulation.log", format: "gatling-simulation-log", runs: 47, run: 0,
			requests: 64, ok2xx: nullCount, non2xx: nullCount, errors: 26, rps: perSecond(64000, 66198), p50: 36.5, p99: 10105.92, mean: 3397.78125, max: 10116,
			spectrum: 6, startLine: 3, connections: nullWant, durationS: 66.198,
			labels: map[string]string{"request_name": "Global Information", "aggregated": "true", "users": "1", "percentile_method": gatlingMethod.name}},
		{file: d + "ppppp-2021-v3.5-simulation.log", format: "gatling-simulation-log", runs: 47, run: 2,
			requests: 7, ok2xx: nullCount, non2xx: nullCount, errors: 2, rps: 0.10634903754121025, p50: 7, p99: 5045.16, mean: 1443.857142857143, max: 5046,
			spectrum: 6, startLine: 4, connections: nullWant, durationS: 65.821,
			labels: map[string]string{"request_name": "favicon.ico"}},
	} {
		t.Run(filepath.Base(tc.file)+"#"+string(rune('0'+tc.run)), func(t *testing.T) { checkLoadToolCase(t, tc) })
	}
}

// The root of the report is the run of all requests whatever Gatling
// named it: "Global Information", "All Requests" in later versions.
func TestGatlingStatsRootName(t *testing.T) {
	js := readTestdata(t, "testdata/wild/gatling/ppppp-2021-v3.5-stats.json")
	c, err := readAsFormat(t, "gatling-stats-json", "f.json", strings.ReplaceAll(js, `"Global Information"`, `"All Requests"`))
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Runs[0]; r.Labels["request_name"] != "All Requests" || r.Labels["aggregated"] != "true" || c.Runs[1].Labels["aggregated"] != "" {
		t.Errorf("root %v, first request %v", r.Labels, c.Runs[1].Labels)
	}
}

// The runs computed from simulation.log equal, name by name, the report
// Gatling wrote from the same log: counts and max exactly, the mean and
// percentiles 50, 75, 95, 99 once rounded to whole ms as Gatling prints
// them (it computes type 7, as wra does).
func TestGatlingLogMatchesReport(t *testing.T) {
	read := func(p string) []*model.Run {
		c := &model.Collector{}
		if _, err := ReadFile(p, c); err != nil {
			t.Fatal(err)
		}
		return c.Runs
	}
	log := read("testdata/wild/gatling/ppppp-2021-v3.5-simulation.log")
	report := read("testdata/wild/gatling/ppppp-2021-v3.5-stats.json")
	if len(log) != len(report) || len(log) != 47 {
		t.Fatalf("%d runs from the log, %d in the report; want 47 each", len(log), len(report))
	}
	pct := func(r *model.Run, p float64) float64 {
		for _, q := range r.Percentiles {
			if q.Percentile == p {
				return q.LatencyMS
			}
		}
		return math.NaN()
	}
	byName := map[string]*model.Run{}
	for _, w := range report {
		byName[w.Labels["request_name"]] = w
	}
	for _, g := range log {
		name := g.Labels["request_name"]
		w := byName[name]
		if w == nil {
			t.Errorf("%q: not in the report", name)
			continue
		}
		if g.Requests != w.Requests || g.Errors != w.Errors || g.LatencyMaxMS != w.LatencyMaxMS {
			t.Errorf("%q: requests %v errors %v max %v; the report %v %v %v", name, g.Requests, g.Errors, g.LatencyMaxMS,
				w.Requests, w.Errors, w.LatencyMaxMS)
		}
		if math.Round(g.LatencyMeanMS.V) != w.LatencyMeanMS.V {
			t.Errorf("%q mean %v, the report %v", name, g.LatencyMeanMS.V, w.LatencyMeanMS.V)
		}
		for _, p := range []float64{50, 75, 95, 99} {
			if got, want := math.Round(pct(g, p)), pct(w, p); got != want {
				t.Errorf("%q p%v %v (%v), the report %v", name, p, got, pct(g, p), want)
			}
		}
	}
}

func TestGatlingErrors(t *testing.T) {
	text := readTestdata(t, "testdata/wild/gatling/test-microservice-frameworks-2020-headings-classic.md")
	table := readTestdata(t, "testdata/wild/gatling/test-microservice-frameworks-2026-table-layout.md")
	log := readTestdata(t, "testdata/wild/gatling/ppppp-2021-v3.5-simulation.log")
	js := readTestdata(t, "testdata/wild/gatling/ppppp-2021-v3.5-global_stats.json")
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "gatling", "", `f.txt:1: gatling report ends early: expected "---- Global Information ----"`},
		{"header only", "gatling", headLines(text, 3),
			`f.txt:4: Gatling Global Information from line 3 ends before its "> request count" line`},
		{"counts that do not add up", "gatling", strings.Replace(text, "200 (OK=200    KO=0     )", "200 (OK=190    KO=0     )", 1),
			`f.txt:4:56: Gatling request count: expected a count and its OK and KO counts that add up to it, found "> request count                                        200 (…"`},
		{"a unit in a value", "gatling", strings.Replace(table, "|     2,320 |", "|   2,320ms |", 1),
			`f.txt:7:90: Gatling max response time: expected a number >= 0 or -, found "2320ms"`},
		{"log without RUN", "gatling-simulation-log", log[strings.Index(log, "\n")+1:],
			`f.txt:1:1: Gatling simulation.log: expected the RUN record first (after any ASSERTION records), found "USER\tppppp\tSTART\t1613487971783"`},
		{"log bad time", "gatling-simulation-log", strings.Replace(log, "1613487971809", "16134879718O9", 1),
			`f.txt:3:51: Gatling REQUEST record: expected a time in epoch milliseconds, found "16134879718O9"`},
		{"log no status", "gatling-simulation-log", strings.Replace(log, "\tOK\t \n", "\tfine\t \n", 1),
			`f.txt:3:1: Gatling REQUEST record: expected group, name, start, end and OK or KO, found "REQUEST\t\tppppp_0:GET_http://localhost:8080/signup\t1613487971…"`},
		{"log without requests", "gatling-simulation-log", headLines(log, 2),
			"f.txt:3: Gatling simulation.log holds no REQUEST record"},
		{"log unknown record", "gatling-simulation-log", strings.Replace(log, "USER\t", "SESSION\t", 1),
			`f.txt:2:1: Gatling simulation.log: expected a RUN, USER, REQUEST, GROUP or ERROR record, found "SESSION\tppppp\tSTART\t1613487971783"`},
		{"json cut", "gatling-stats-json", js[:300], "f.txt:17:1: truncated Gatling stats JSON: the document ends before it closes"},
		{"json without counts", "gatling-stats-json", `{"name": "x", "numberOfRequests": {"ok": 1}, "meanResponseTime": {"total": 1}}`,
			"f.txt:1: Gatling stats JSON: an entry lacks numberOfRequests or meanResponseTime"},
		{"json ko above total", "gatling-stats-json", `{"numberOfRequests": {"total": 1, "ok": 0, "ko": 2}, "meanResponseTime": {"total": 1}}`,
			"f.txt:1: Gatling stats JSON: numberOfRequests total 1, ko 2: expected counts, ko at most total"},
	})
}

// Gatling's captures are claimed by their own readers only, and no other
// tool's file is taken for them.
func TestGatlingDetection(t *testing.T) {
	want := func(p string) string {
		switch {
		case strings.HasSuffix(p, ".json"):
			return "gatling-stats-json"
		case strings.HasSuffix(p, "binary-simulation.log"):
			return "gatling-simulation-log-binary"
		case strings.HasSuffix(p, ".log"):
			return "gatling-simulation-log"
		}
		return "gatling"
	}
	checkClaims(t, "gatling", want, "gatling", "gatling-stats-json", "gatling-simulation-log", "gatling-simulation-log-binary")
}

func FuzzGatling(f *testing.F) {
	addWildSeeds(f, "gatling", "siege", "notreport")
	addFuzzSeeds(f, "testdata/wrk/wrk_plain*.txt")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "gatling", "gatling-simulation-log") })
}

func FuzzGatlingStats(f *testing.F) {
	addWildSeeds(f, "gatling", "jmeter", "notreport")
	addFuzzSeeds(f, "testdata/k6/*.json", "testdata/bombardier/*.json")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "gatling-stats-json") })
}

// Gatling 3.x before its binary log writes a simulation's assertions as
// ASSERTION records, which can come before the RUN record: such a log
// was skipped as of no known format. No real log with them could be
// found: the real 3.5 log of ppppp-2021 is given an ASSERTION record
// (its payload, Gatling's serialized assertion, is not read) before its
// RUN record, and must read to the same runs.
func TestGatlingLogAssertionFirst(t *testing.T) {
	const f = "testdata/wild/gatling/ppppp-2021-v3.5-simulation.log"
	log := "ASSERTION\tAQIDBA==\n" + readTestdata(t, f)
	want := &model.Collector{}
	if _, err := ReadFile(f, want); err != nil {
		t.Fatal(err)
	}
	fm := Detect([]byte(log))
	if fm == nil || fm.Name != "gatling-simulation-log" {
		t.Fatalf("detected as %v", fm)
	}
	got, err := readWith(fm, "simulation.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != len(want.Runs) || got.Runs[0].Requests != want.Runs[0].Requests || got.Runs[0].ToolVersion != "3.5.0" {
		t.Errorf("%d runs, %v requests, version %q; want %d, %v", len(got.Runs), got.Runs[0].Requests, got.Runs[0].ToolVersion, len(want.Runs), want.Runs[0].Requests)
	}
}
