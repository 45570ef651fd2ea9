package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/wra-bench/wra/model"
)

// groups are two groups: one with two runs, a variant label that needs
// escaping and a server whose name ends as a GOMAXPROCS suffix would;
// one without a database or test, one run, and a caveat.
func groups() []model.BenchGroup {
	nan := math.NaN()
	run := func(id string, rps, p99 float64) model.BenchRun {
		return model.BenchRun{RunID: id, Source: "a/" + id + ".txt", Line: 1, RPS: rps, P50MS: nan, P95MS: nan, P99MS: p99,
			CPUServerUS: nan, CPUDBUS: nan, CPUTotalUS: nan, WorkingSetMB: nan, Errors: 0}
	}
	a := model.BenchGroup{Mode: "fixed-rate", Tool: "wrk2", Server: "node-18", Database: "postgres", Test: "db",
		Connections: 64, TargetRPS: 1000, Factors: map[string]string{"note": "a b/c"},
		GroupFigures: model.GroupFigures{GroupID: "ga", Passes: 2,
			RPSMedian: 995, RPSMin: 990, RPSMax: 1000, P50MSMedian: nan, P95MSMedian: nan, P99MSMedian: 2.5, P99MSMin: 2, P99MSMax: 3,
			CPUServerUSMed: nan, CPUServerUSMin: nan, CPUServerUSMax: nan, CPUDBUSMedian: nan, CPUTotalUSMedian: nan,
			CPUTotalUSMin: nan, CPUTotalUSMax: nan, WorkingSetMBMax: nan, ErrorsTotal: 0},
		Runs: []model.BenchRun{run("r1", 990, 2), run("r2", 1000, 3)}}
	b := model.BenchGroup{Mode: "full-speed", Tool: "ab", Server: "go", Connections: -1, TargetRPS: nan,
		GroupFigures: model.GroupFigures{GroupID: "gb", Passes: 1,
			RPSMedian: 5000, RPSMin: 5000, RPSMax: 5000, P50MSMedian: nan, P95MSMedian: nan, P99MSMedian: nan, P99MSMin: nan, P99MSMax: nan,
			CPUServerUSMed: nan, CPUServerUSMin: nan, CPUServerUSMax: nan, CPUDBUSMedian: nan, CPUTotalUSMedian: nan,
			CPUTotalUSMin: nan, CPUTotalUSMax: nan, WorkingSetMBMax: nan, ErrorsTotal: -1},
		Caveats: []model.Caveat{{GroupID: "gb", Kind: "passes", Text: "one run:\nno spread"}},
		Runs:    []model.BenchRun{run("r3", 5000, nan)}}
	b.Runs[0].Errors = -1
	return []model.BenchGroup{a, b}
}

func TestName(t *testing.T) {
	g := groups()
	for i, want := range []string{
		"db/tool=wrk2/database=postgres/mode=fixed-rate/server=node-18/connections=64/target_rps=1000/note=a%20b%2Fc",
		"Run/tool=ab/mode=full-speed/server=go",
	} {
		if got := Name(g[i]); got != want {
			t.Errorf("Name(%s) = %q, want %q", g[i].GroupID, got, want)
		}
	}
	g[0].Factors = nil
	if got, want := Name(g[0]), "db/tool=wrk2/database=postgres/mode=fixed-rate/server=node-18/connections=64/target_rps=1000"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	g[0].Connections, g[0].TargetRPS = -1, math.NaN()
	if got, want := Name(g[0]), "db/tool=wrk2/database=postgres/mode=fixed-rate/server=node%2D18"; got != want {
		t.Errorf("a name ending in -N: %q, want %q", got, want)
	}
}

// TestGoBenchReadBack parses GoBench's text with golang.org/x/perf's
// benchfmt, the reader of benchstat: one result per run, with its name,
// configuration, values by unit and the units' directions.
func TestGoBenchReadBack(t *testing.T) {
	var buf bytes.Buffer
	if err := GoBench(&buf, groups()); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(&buf, "new.txt")
	type got struct {
		name, config string
		values       map[string]float64
	}
	var results []got
	units := map[string]string{}
	for r.Scan() {
		switch x := r.Result().(type) {
		case *benchfmt.Result:
			var cfg []string
			for _, c := range x.Config {
				cfg = append(cfg, c.Key+"="+string(c.Value))
			}
			if x.Iters != 1 {
				t.Errorf("%s: %d iterations, want 1", x.Name, x.Iters)
			}
			g := got{name: x.Name.String(), config: strings.Join(cfg, " "), values: map[string]float64{}}
			for _, v := range x.Values {
				g.values[v.Unit] = v.Value
			}
			results = append(results, g)
		case *benchfmt.UnitMetadata:
			units[x.Unit+" "+x.Key] = x.Value
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", x)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	wantName := "db/server=node-18/connections=64/target_rps=1000/note=a%20b%2Fc"
	want := []got{
		{wantName, "tool=wrk2 database=postgres mode=fixed-rate", map[string]float64{"rps": 990, "latency_p99_ms": 2, "errors": 0}},
		{wantName, "tool=wrk2 database=postgres mode=fixed-rate", map[string]float64{"rps": 1000, "latency_p99_ms": 3, "errors": 0}},
		{"Run/server=go", "tool=ab mode=full-speed", map[string]float64{"rps": 5000}},
	}
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(results), len(want), results)
	}
	for i, w := range want {
		g := results[i]
		if g.name != w.name || g.config != w.config || len(g.values) != len(w.values) {
			t.Errorf("result %d = %+v, want %+v", i, g, w)
			continue
		}
		for u, v := range w.values {
			if g.values[u] != v {
				t.Errorf("result %d: %s = %v, want %v", i, u, g.values[u], v)
			}
		}
	}
	for unit, better := range map[string]string{"rps": "higher", "latency_p99_ms": "lower", "cpu_total_us_per_req": "lower"} {
		if got := units[unit+" better"]; got != better {
			t.Errorf("Unit %s better=%q, want %q", unit, got, better)
		}
	}
}

func TestGoBenchCaveatsAndEmptyRuns(t *testing.T) {
	g := groups()
	g[1].Runs[0].RPS = math.NaN()
	var buf bytes.Buffer
	if err := GoBench(&buf, g); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"# caveat Run/tool=ab/mode=full-speed/server=go: one run: no spread\n",
		"# no figures: run r3 (a/r3.txt:1) of Run/tool=ab/mode=full-speed/server=go\n",
		"database:\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("GoBench lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "BenchmarkRun/") {
		t.Errorf("a run without figures got a result line:\n%s", out)
	}
}

func TestBMF(t *testing.T) {
	var buf bytes.Buffer
	if err := BMF(&buf, groups()); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]map[string]float64
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]map[string]float64{
		Name(groups()[0]): {
			"rps_median":            {"value": 995, "lower_value": 990, "upper_value": 1000},
			"latency_p99_ms_median": {"value": 2.5, "lower_value": 2, "upper_value": 3},
			"errors_total":          {"value": 0},
		},
		Name(groups()[1]): {"rps_median": {"value": 5000, "lower_value": 5000, "upper_value": 5000}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d benchmarks, want %d:\n%s", len(got), len(want), buf.String())
	}
	for name, ms := range want {
		if len(got[name]) != len(ms) {
			t.Errorf("%s: measures %v, want %v", name, got[name], ms)
		}
		for m, fields := range ms {
			if len(got[name][m]) != len(fields) {
				t.Errorf("%s %s = %v, want %v", name, m, got[name][m], fields)
			}
			for k, v := range fields {
				if got[name][m][k] != v {
					t.Errorf("%s %s %s = %v, want %v", name, m, k, got[name][m][k], v)
				}
			}
		}
	}
}

func TestGitHub(t *testing.T) {
	for _, bigger := range []bool{false, true} {
		var buf bytes.Buffer
		if err := GitHub(&buf, groups(), bigger); err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(&buf)
		dec.DisallowUnknownFields()
		var got []GitHubEntry
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			t.Errorf("more than one JSON value: %v", err)
		}
		a, b := Name(groups()[0]), Name(groups()[1])
		extraA := "2 runs\ngroup: ga"
		want := []GitHubEntry{
			{a + " - latency_p99_ms_median", "ms", 2.5, "min 2, max 3", extraA},
			{a + " - errors_total", "errors", 0, "", extraA},
		}
		if bigger {
			want = []GitHubEntry{
				{a + " - rps_median", "req/s", 995, "min 990, max 1000", extraA},
				{b + " - rps_median", "req/s", 5000, "min 5000, max 5000", "1 runs\ngroup: gb\ncaveat: one run: no spread"},
			}
		}
		if len(got) != len(want) {
			t.Fatalf("bigger %v: %d entries, want %d: %+v", bigger, len(got), len(want), got)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("bigger %v: entry %d = %+v, want %+v", bigger, i, got[i], want[i])
			}
		}
	}
}
