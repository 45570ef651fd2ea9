package ingest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// A loop of wrk runs into one log: a script's lines around the reports are
// not part of them, each report is a run, and runs of the same settings
// are rounds 1, 2 … in file order.
func TestReportsInOneFile(t *testing.T) {
	plain := readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt")
	non2xx := readTestdata(t, "testdata/wrk/wrk_non2xx_go1_err5pct.txt")
	log := "=== round 1\n$ wrk -t2 -c32 -d8s http://127.0.0.1:8080/static.json\n" + plain +
		"RESULT requests=204051\n=== other\n" + non2xx + "\n=====\n" + plain + "done\n"
	c, err := readAsFormat(t, "wrk", "x.txt", log)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 3 {
		t.Fatalf("%d runs, want 3", len(c.Runs))
	}
	// Hand-read from the two captures: 204051 requests at 25280.18/s,
	// 154391 at 25696.74/s with 7808 non-2xx.
	want := []struct {
		index, line int
		requests    int64
		rps         float64
		non2xx      int64
		round       int64
	}{{0, 3, 204051, 25280.18, 0, 1}, {1, 13, 154391, 25696.74, 7808, 0}, {2, 29, 204051, 25280.18, 0, 2}}
	for i, w := range want {
		r := c.Runs[i]
		if r.Index != w.index || r.Line != w.line {
			t.Errorf("run %d: index %d line %d, want %d %d", i, r.Index, r.Line, w.index, w.line)
		}
		expectI(t, "requests", r.Requests, w.requests)
		expectF(t, "rps", r.RPS, w.rps)
		expectI(t, "non_2xx", r.Non2xx, w.non2xx)
		// runs whose settings no other run of the file shares are no
		// rounds: the second measured another URL
		if w.round == 0 {
			if r.Round.Valid {
				t.Errorf("run %d: round %d, want none", i, r.Round.V)
			}
			continue
		}
		expectI(t, "round", r.Round, w.round)
		if r.Labels["round_by"] != "file order" {
			t.Errorf("run %d: round_by %q, want \"file order\"", i, r.Labels["round_by"])
		}
	}

	// One report: no round.
	c, err = readAsFormat(t, "wrk", "x.txt", "echo start\n"+plain+"echo end\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 1 || c.Runs[0].Round.Valid || c.Runs[0].Line != 2 {
		t.Errorf("one report: %d runs, round %v, line %d; want 1 run, no round, line 2", len(c.Runs), showOptI(c.Runs[0].Round), c.Runs[0].Line)
	}

	// A round label of the manifest or the command line wins.
	col := &model.Collector{}
	sink := &guardSink{name: "x.txt", Sink: &labelSink{Sink: col, manifest: map[string]string{"round": "7"}, name: "x.txt"}}
	if err := readWrk(&Input{Name: "x.txt", R: strings.NewReader(plain + plain)}, sink); err != nil {
		t.Fatal(err)
	}
	for _, r := range col.Runs {
		expectI(t, "round", r.Round, 7)
	}
}

// wrk stopped with Ctrl-C: the terminal's "^C" stands in front of the
// Thread Stats line and the figures after it are complete; a report cut
// after Requests/sec (Transfer/sec, kept only as a label, left out) loads.
func TestWrkInterruptedAndExcerpt(t *testing.T) {
	plain := readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt")
	stopped := strings.Replace(plain, "  Thread Stats", "^C  Thread Stats", 1)
	for name, in := range map[string]string{"^C": stopped, "no Transfer/sec": headLines(plain, 7)} {
		c, err := readAsFormat(t, "wrk", "x.txt", in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := c.Runs[0]
		expectI(t, "requests", r.Requests, 204051)
		expectF(t, "rps", r.RPS, 25280.18)
		expectF(t, "latency_mean_ms", r.LatencyMeanMS, 1.76)
		expectF(t, "duration_s", r.DurationS, 8.07)
	}
	if f := Detect([]byte(stopped)); f == nil || f.Name != "wrk" {
		t.Errorf("detected as %v, want wrk", f)
	}
}

// The labels sinkLabel reads reach a reader through the guard, as Ingest
// passes them.
func TestSinkLabelThroughGuard(t *testing.T) {
	sink := &guardSink{Sink: &labelSink{Sink: &model.Collector{}, manifest: map[string]string{"unit": "us"}}}
	if v, ok := sinkLabel(sink, "unit"); !ok || v != "us" {
		t.Errorf("sinkLabel = %q %v, want us", v, ok)
	}
}

// wrk2_no_latency_stalled_after_calibration.txt is wrk2's report of a run
// that measured nothing after its calibration (the server answered 300
// requests and then held every other one past the end of the run): wrk2
// keeps nothing of what it measured before the calibration, so it prints
// NaN statistics and an empty histogram (one row of count 0, -nan
// footers), while the request count and rate are real.
func TestWrk2NoLatency(t *testing.T) {
	wrk2NoLatency := readTestdata(t, "testdata/wrk2/wrk2_no_latency_stalled_after_calibration.txt")
	const warning = "wrk2 recorded no latency (it printed -nanus -nanus for the mean and deviation): the latency columns are NULL"
	for name, tc := range map[string]struct{ in, warning string }{
		"one row of count 0": {wrk2NoLatency, warning},
		"no rows":            {strings.Replace(wrk2NoLatency, "       0.000     1.000000            0          inf\n", "", 1), warning},
		// The same report with a calibration longer than the run.
		"calibration outlasted the run": {strings.ReplaceAll(wrk2NoLatency, "rate sampling interval: 103ms", "rate sampling interval: 15695ms"),
			warning + "; its calibration (a rate sampling interval of 15695 ms) outlasted the 12.13 s run"},
	} {
		in := tc.in
		if f := Detect([]byte(in)); f == nil || f.Name != "wrk2" {
			t.Fatalf("%s: detected as %v, want wrk2", name, f)
		}
		c, err := readAsFormat(t, "wrk2", "x.txt", in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := c.Runs[0]
		expectI(t, "requests", r.Requests, 300)
		expectI(t, "errors", r.Errors, 200)
		expectF(t, "rps", r.RPS, 24.74)
		expectF(t, "duration_s", r.DurationS, 12.13)
		for _, col := range []struct {
			name string
			v    model.Opt[float64]
		}{{"mean", r.LatencyMeanMS}, {"stdev", r.LatencyStdevMS}, {"max", r.LatencyMaxMS}, {"p50", r.LatencyP50MS}, {"p99", r.LatencyP99MS}} {
			expectF(t, col.name, col.v, nullWant)
		}
		if len(r.Percentiles) != 0 {
			t.Errorf("%s: %d percentiles, want none", name, len(r.Percentiles))
		}
		if got, want := r.Labels["warning"], tc.warning; got != want {
			t.Errorf("%s: warning %q\nwant %q", name, got, want)
		}
	}
	// A mean of NaN beside a histogram that counted requests is broken.
	bad := strings.NewReplacer("Total count    =            0", "Total count    =            5", "1.000000            0", "1.000000            5").Replace(wrk2NoLatency)
	if _, err := readAsFormat(t, "wrk2", "x.txt", bad); err == nil || err.Error() != "x.txt:22:21: a mean and deviation of NaN for a Total count of 5" {
		t.Errorf("got %v", err)
	}
}

// An excerpt may start at the threads line or at the Thread Stats table;
// wrk 1.x began its report with "Making N requests to url".
func TestWrkReportStarts(t *testing.T) {
	plain := readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt")
	running, rest, _ := strings.Cut(plain, "\n")
	threads, stats, _ := strings.Cut(rest, "\n")
	for name, c := range map[string]struct {
		in          string
		conns, line int64
		url         string
	}{
		"threads line": {"# the run\n" + rest, 32, 2, ""},
		"thread stats": {stats, int64(nullWant), 1, ""},
		"wrk 1.x":      {"Making 10000000 requests to http://localhost:8080/index.html\n" + rest, 32, 1, "http://localhost:8080/index.html"},
		"running":      {running + "\n" + threads + "\n" + stats, 32, 1, "http://127.0.0.1:8080/static.json"},
	} {
		col, err := readAsFormat(t, "wrk", "x.txt", c.in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := col.Runs[0]
		expectI(t, name+" connections", r.Connections, c.conns)
		expectI(t, name+" requests", r.Requests, 204051)
		if int64(r.Line) != c.line || r.Labels["url"] != c.url {
			t.Errorf("%s: line %d url %q, want %d %q", name, r.Line, r.Labels["url"], c.line, c.url)
		}
	}
}

// The sample set's harness log: 48 wrk runs, each after a "### … round=N
// … cmd: wrk …" line and followed by the RESULT line of its Lua script.
// Every run loads with the requests and rate its RESULT line repeats, and
// the rounds numbered from the file (same URL, threads and connections)
// are the harness's own.
func TestWrkHarnessLog(t *testing.T) {
	log := readTestdata(t, "testdata/wrk/wrk_log_harness_48_runs.log")
	c, err := readAsFormat(t, "wrk", "x.log", log)
	if err != nil {
		t.Fatal(err)
	}
	var rounds []string
	var results [][2]string
	for _, line := range strings.Split(log, "\n") {
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "### "):
			rounds = append(rounds, strings.TrimPrefix(f[3], "round="))
		case strings.HasPrefix(line, "RESULT "):
			results = append(results, [2]string{strings.TrimPrefix(f[1], "requests="), strings.TrimPrefix(f[3], "rps=")})
		}
	}
	if len(c.Runs) != 48 || len(rounds) != 48 || len(results) != 48 {
		t.Fatalf("%d runs, %d ### lines, %d RESULT lines; want 48 each", len(c.Runs), len(rounds), len(results))
	}
	for i, r := range c.Runs {
		rps, _ := strconv.ParseFloat(results[i][1], 64)
		if fmtLabelNum(float64(r.Requests.V)) != results[i][0] || r.RPS.V != rps {
			t.Errorf("run %d: requests %v rps %v, RESULT says %s %s", i, r.Requests.V, r.RPS.V, results[i][0], results[i][1])
		}
		if got := fmtLabelNum(float64(r.Round.V)); !r.Round.Valid || got != rounds[i] {
			t.Errorf("run %d: round %v, the log says %s", i, showOptI(r.Round), rounds[i])
		}
	}
}

// A write-up that pastes several reports, each under a Markdown heading
// naming the server: the heading level whose texts differ between the
// reports fills the label the manifest names (server by default), and
// the reports are servers, not rounds of one.
func TestReportsUnderHeadings(t *testing.T) {
	ab := readTestdata(t, "testdata/ab/ab_keepalive_go2_ping_n10000_c20.txt")
	writeUp := "# Results\n\nSame machine, same flags.\n\n## PHP — Swoole 6.2 (port 9501)\n\n```\n" + ab + "```\n\n## Go — net/http (port 8080)\n\n" + ab
	read := func(d design, in string) (*model.Collector, *Input, error) {
		c := &model.Collector{}
		sink := &guardSink{name: "f.md", Sink: &labelSink{Sink: c, design: d, name: "f.md"}}
		input := &Input{Name: "f.md", R: strings.NewReader(in)}
		return c, input, formatByName(t, "ab").Read(input, sink)
	}
	c, _, err := read(design{}, writeUp)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(c.Runs))
	}
	for i, want := range []struct {
		server string
		line   string
	}{{"PHP — Swoole 6.2 (port 9501)", "5"}, {"Go — net/http (port 8080)", strings.TrimSpace(strconv.Itoa(10 + strings.Count(ab, "\n")))}} {
		r := c.Runs[i]
		if r.Server != want.server || r.Labels["heading_line"] != want.line {
			t.Errorf("run %d: server %q heading_line %s, want %q %s", i, r.Server, r.Labels["heading_line"], want.server, want.line)
		}
		if r.Round.Valid {
			t.Errorf("run %d: round %d, want none (two servers)", i, r.Round.V)
		}
	}

	// The manifest names another label, or none.
	test := "test"
	c, _, err = read(design{heading: &test}, writeUp)
	if err != nil {
		t.Fatal(err)
	}
	if c.Runs[0].Test != "PHP — Swoole 6.2 (port 9501)" || c.Runs[0].Server != "" {
		t.Errorf("heading_label = test: test %q server %q", c.Runs[0].Test, c.Runs[0].Server)
	}
	none := ""
	for _, d := range []design{{heading: &none}, {headings: []string{}}} {
		c, _, err = read(d, writeUp)
		if err != nil {
			t.Fatal(err)
		}
		if c.Runs[0].Server != "" || c.Runs[1].Round.V != 2 {
			t.Errorf("headings off (%v): server %q, second round %v; want none and round 2", d, c.Runs[0].Server, showOptI(c.Runs[1].Round))
		}
	}

	// Prose, a command line and a sub-heading between the heading and
	// its report: the nearest heading of each level still names it. The
	// common layout, "## <stack>", "### GET", a paragraph, the output:
	// the stacks differ, GET does not, so GET names nothing.
	layered := "# Results\n\n## nginx\n\n### GET\n\nWe ran `ab -k -n 10000 -c 20 http://127.0.0.1:8082/ping`:\n\n```\n" + ab + "```\n\n" +
		"## caddy\n\n### GET\n\nThe same command:\n\n```\n" + ab + "```\n"
	c, _, err = read(design{}, layered)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 || c.Runs[0].Server != "nginx" || c.Runs[1].Server != "caddy" || c.Runs[0].Test != "" {
		t.Errorf("## stack / ### GET: %d runs, servers %q %q, test %q; want nginx and caddy, no test", len(c.Runs), c.Runs[0].Server, c.Runs[1].Server, c.Runs[0].Test)
	}
	if c.Runs[0].Labels["keep_alive"] != "true" || c.Runs[0].Labels["requested_requests"] != "10000" || c.Runs[0].Labels["command_line"] != "7" {
		t.Errorf("the command above the first report: labels %v", c.Runs[0].Labels)
	}

	// Two levels that differ: the outer fills server, the inner test.
	two := "## nginx\n### GET /ping\n" + ab + "### POST /echo\n" + ab + "## caddy\n### GET /ping\n" + ab
	c, _, err = read(design{}, two)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, r := range c.Runs {
		got = append(got, r.Server+"|"+r.Test)
	}
	if strings.Join(got, " ") != "nginx|GET /ping nginx|POST /echo caddy|GET /ping" {
		t.Errorf("two levels: %v", got)
	}

	// Headings that number repeats are rounds.
	c, _, err = read(design{}, "## Run 1\n"+ab+"## Run 2\n"+ab)
	if err != nil {
		t.Fatal(err)
	}
	if c.Runs[0].Server != "" || c.Runs[1].Round.V != 2 || c.Runs[1].Labels["round_by"] != "heading" {
		t.Errorf("Run 1, Run 2: server %q round %v", c.Runs[0].Server, showOptI(c.Runs[1].Round))
	}

	// A heading that cannot fill the label named is an error at it; one
	// that the report itself prints keeps the report's value, with a
	// warning.
	dbs := "threads"
	if _, _, err := read(design{heading: &dbs}, writeUp); err == nil || err.Error() != `f.md:5:1: the heading above the report of line 8 fills the label threads (wra.toml headings): label threads="PHP — Swoole 6.2 (port 9501)": want a whole number` {
		t.Errorf("heading_label = threads: %v", err)
	}
	conns := "connections"
	c, in, err := read(design{heading: &conns}, writeUp)
	if err != nil {
		t.Fatal(err)
	}
	if c.Runs[0].Connections.V != 20 || !strings.Contains(fileWarning(in), "the heading at line 5 gives connections") {
		t.Errorf("heading_label = connections: connections %v, warning %q", showOptI(c.Runs[0].Connections), fileWarning(in))
	}

	// Real write-ups: four Gatling blocks under "#" headings, five wrk
	// runs under "#" headings with their commands between.
	for _, w := range []struct {
		file    string
		servers []string
	}{
		{"testdata/wild/gatling/test-microservice-frameworks-2020-headings-classic.md", []string{
			":: Spring Boot :: (v2.3.3.RELEASE) Started DemoApplication in 2.159 seconds (JVM running for 2.63)",
			"powered by Quarkus 1.7.0.Final) started in 1.098s. Listening on: http://0.0.0.0:8080",
			"micronaut version:2.0.1 Startup completed in 1370ms. Server Running: http://DESKTOP-NF90OD6:8080",
			"Helidon SE 2.0.1 features: [Config, Health, Metrics, WebServer]"}},
	} {
		c := &model.Collector{}
		if _, err := ReadFile(w.file, c); err != nil {
			t.Fatal(err)
		}
		if len(c.Runs) != len(w.servers) {
			t.Fatalf("%s: %d runs, want %d", w.file, len(c.Runs), len(w.servers))
		}
		for i, r := range c.Runs {
			if r.Server != w.servers[i] || r.Round.Valid {
				t.Errorf("%s run %d: server %q round %v, want %q and no round", w.file, i, r.Server, showOptI(r.Round), w.servers[i])
			}
		}
	}
}

// wra.toml's heading_label names the label a heading fills, through the
// walker as a user ingests a folder.
func TestHeadingLabelFromManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "writeup")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := readTestdata(t, "testdata/wild/gatling/test-microservice-frameworks-2020-headings-classic.md")
	for name, content := range map[string]string{"results.md": src, ManifestName: "heading_label = \"test\"\n[labels]\nserver = \"jvm-frameworks\"\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, st := ingestDir(t, dir)
	if f := res["results.md"]; f.Status != Loaded {
		t.Fatalf("results.md: %s %v", f.Status, f.Err)
	}
	runs := st.loads["writeup/results.md"].Runs
	if len(runs) != 4 || runs[3].Test != "Helidon SE 2.0.1 features: [Config, Health, Metrics, WebServer]" || runs[3].Server != "jvm-frameworks" {
		t.Errorf("%d runs; last test %q server %q", len(runs), runs[3].Test, runs[3].Server)
	}
}
