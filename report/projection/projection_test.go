package projection

import (
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
)

var cols = []string{"run_id", "source", "source_line", "tool", "server", "round", "connections", "rps", "latency_p99_ms", "latency_corrected", "drift_pct", "labels"}

type r struct {
	server    string
	round     int64
	conns     int64
	rps, p99  float64
	labels    string
	drift     float64
	corrected bool
}

func runsOf(rs ...r) Runs {
	out := Runs{Columns: cols}
	for i, x := range rs {
		out.Rows = append(out.Rows, []any{"f:" + string(rune('a'+i)), "f", int64(i + 1), "records", x.server, x.round, x.conns,
			x.rps, x.p99, x.corrected, x.drift, x.labels})
	}
	return out
}

func write(t *testing.T, d *report.Data, f report.Format) string {
	t.Helper()
	var b strings.Builder
	if err := report.Write(&b, d, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Two experiments kept apart only by a label the manifest set (variant)
// are two tables of three rounds per cell, never one of six.
func TestSplitByManifestLabel(t *testing.T) {
	var rs []r
	for _, v := range []struct {
		variant string
		base    float64
	}{{"no-auth", 100}, {"jwt", 50}} {
		for round := int64(1); round <= 3; round++ {
			labels := `{"label_keys":"utc,variant","variant":"` + v.variant + `","utc":"t` + string(rune('0'+round)) + `"}`
			rs = append(rs, r{server: "a", round: round, conns: 8, rps: v.base + float64(round), p99: 1, labels: labels, corrected: true})
		}
	}
	// utc differs in every run: with it in NoSplit the rounds are cells.
	tables, err := Project(runsOf(rs...), Spec{Cell: "{rps}", Rows: []string{"server"}, Cols: []string{"connections"}, NoSplit: []string{"utc"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 {
		t.Fatalf("%d tables, want 2 (one per variant)", len(tables))
	}
	for i, want := range []struct{ title, csv string }{
		{"rps by server (rows) and connections (columns): variant jwt", "server,8\na,52\n"},
		{"rps by server (rows) and connections (columns): variant no-auth", "server,8\na,102\n"},
	} {
		if tables[i].Title != want.title || write(t, tables[i], report.CSV) != want.csv {
			t.Errorf("table %d: %q\n%s", i, tables[i].Title, write(t, tables[i], report.CSV))
		}
		if !strings.Contains(strings.Join(tables[i].Notes, "\n"), "split by variant") {
			t.Errorf("table %d notes: %q", i, tables[i].Notes)
		}
	}
	// Without NoSplit, a timestamp per run splits every run apart: each
	// cell is one round, and the footnote says so.
	tables, err = Project(runsOf(rs...), Spec{Cell: "{rps}", Rows: []string{"server"}, Cols: []string{"connections"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 6 || !strings.Contains(strings.Join(tables[0].Notes, "\n"), "1 of 1 cells have fewer than 3 rounds") {
		t.Errorf("%d tables; notes %q", len(tables), tables[0].Notes)
	}
	// The variant as a column key is an axis, not a split.
	tables, err = Project(runsOf(rs...), Spec{Cell: "{rps}", Rows: []string{"server"}, Cols: []string{"variant"}, NoSplit: []string{"utc"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 || write(t, tables[0], report.CSV) != "server,jwt,no-auth\na,52,102\n" {
		t.Errorf("variant as a column: %d tables\n%s", len(tables), write(t, tables[0], report.CSV))
	}
}

// A label set by no manifest (a tool's own figure) never splits.
func TestToolLabelsDoNotSplit(t *testing.T) {
	rs := []r{
		{server: "a", round: 1, conns: 8, rps: 10, labels: `{"ab_failed_length":"3"}`},
		{server: "a", round: 2, conns: 8, rps: 20, labels: `{"ab_failed_length":"4"}`},
		{server: "a", round: 3, conns: 8, rps: 30, labels: `{}`},
	}
	tables, err := Project(runsOf(rs...), Spec{Cell: "{rps}", Rows: []string{"server"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 || write(t, tables[0], report.CSV) != "server,rps\na,20\n" {
		t.Errorf("%d tables\n%s", len(tables), write(t, tables[0], report.CSV))
	}
}

func TestTemplateSpreadAndNotes(t *testing.T) {
	rs := []r{
		{server: "a", round: 1, conns: 8, rps: 31000, p99: 2.4, drift: 7},
		{server: "a", round: 2, conns: 8, rps: 31550, p99: 2.5},
		{server: "a", round: 3, conns: 8, rps: 32000, p99: 2.9},
		{server: "b", round: 1, conns: 8, rps: 31224, p99: 7.8},
		{server: "b", round: 1, conns: 32, rps: 1, p99: 1},
		{server: "b", round: 1, conns: 32, rps: 3, p99: 3},
	}
	// The caveats of the cells' groups, as the store words them: every
	// group's latency, a's drift, b at 8's one run.
	runs := runsOf(rs...)
	latency := model.Caveat{Kind: "latency", Text: "latency not corrected for coordinated omission: its percentiles understate the waiting under load"}
	runs.Caveats = model.NewDesignCaveats(map[string][]model.Caveat{
		"a8":  {{Kind: "drift", Text: "1 of 3 runs are covered by a calibration drift above 5% (the largest 7.0%)"}, latency},
		"b8":  {{Kind: "passes", Text: "one run: no spread is known"}, latency},
		"b32": {latency},
	}, []model.RunGroupRef{{Source: "f", Line: 1, GroupID: "a8"}, {Source: "f", Line: 2, GroupID: "a8"}, {Source: "f", Line: 3, GroupID: "a8"},
		{Source: "f", Line: 4, GroupID: "b8"}, {Source: "f", Line: 5, GroupID: "b32"}, {Source: "f", Line: 6, GroupID: "b32"}})
	tables, err := Project(runs, Spec{Cell: "{rps} ({latency_p99_ms})", Rows: []string{"server"}, Cols: []string{"connections"}, Spread: true})
	if err != nil {
		t.Fatal(err)
	}
	d := tables[0]
	if got, want := write(t, d, report.Markdown), "### {rps} ({latency\\_p99\\_ms}) by server (rows) and connections (columns)\n\n"+
		"| server | 8 | 32 |\n|---|---|---|\n"+
		// a's p99 alone supports tenths; b's single run, hundredths:
		// the column prints both at hundredths.
		"| a | 31,550 \\[31,000–32,000\\] (2.50 \\[2.40–2.90\\]) |  |\n"+
		"| b | 31,224 (7.80) | 2.0 \\[1.0–3.0\\] (2.0 \\[1.0–3.0\\]) |\n\n"; !strings.HasPrefix(got, want) {
		t.Errorf("markdown:\n%s\nwant prefix\n%s", got, want)
	}
	csv := write(t, d, report.CSV)
	if !strings.HasPrefix(csv, "server,8_rps,8_rps_min,8_rps_max,8_rps_rounds,8_latency_p99_ms,") ||
		!strings.Contains(csv, "\na,31550,31000,32000,3,2.5,2.4,2.9,3,,,,,,,,\n") {
		t.Errorf("csv:\n%s", csv)
	}
	notes := strings.Join(d.Notes, "\n")
	for _, want := range []string{
		// b at 8's one run is said by its group's caveat
		"\n1 of 3 cells have fewer than 3 rounds (the fewest 2): their median is of what there is\n",
		"1 cells hold two runs of the same round",
		"\na at connections 8: 1 of 3 runs are covered by a calibration drift above 5% (the largest 7.0%)\n",
		"\nevery cell: " + latency.Text + "\n",
		"\nb at connections 8: one run: no spread is known",
	} {
		if !strings.Contains(notes+"\n", want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// Without the caveats, no caveat is footnoted, and b at 8 counts
	// among the cells of few rounds.
	tables, err = Project(runsOf(rs...), Spec{Cell: "{rps} ({latency_p99_ms})", Rows: []string{"server"}, Cols: []string{"connections"}, Spread: true})
	if err != nil {
		t.Fatal(err)
	}
	notes = strings.Join(tables[0].Notes, "\n")
	if strings.Contains(notes, "coordinated omission") || strings.Contains(notes, "drift above") || !strings.Contains(notes, "2 of 3 cells have fewer than 3 rounds (the fewest 1)") {
		t.Errorf("notes without caveats:\n%s", notes)
	}
}

func TestSortAndErrors(t *testing.T) {
	rs := runsOf(r{server: "a", round: 1, rps: 5, p99: 9}, r{server: "b", round: 1, rps: 7, p99: 3}, r{server: "c", round: 1, rps: 6, p99: 1})
	for sort, want := range map[string]string{"": "b,c,a", "rps": "b,c,a", "+latency_p99_ms": "c,b,a"} {
		tables, err := Project(rs, Spec{Cell: "{rps} {latency_p99_ms}", Rows: []string{"server"}, Sort: sort})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, row := range tables[0].Rows {
			got = append(got, row[0].(string))
		}
		if strings.Join(got, ",") != want {
			t.Errorf("sort %q: %v, want %s", sort, got, want)
		}
	}
	for _, c := range []struct {
		spec Spec
		msg  string
	}{
		{Spec{Cell: "{nope}"}, `no metric "nope": the metrics are rps, latency_p99_ms, drift_pct`},
		{Spec{Cell: "{server}"}, `no metric "server"`},
		{Spec{Cell: "rps"}, "names no metric"},
		{Spec{Cell: "{rps"}, "is not closed"},
		{Spec{Cell: "rps}"}, "has no {"},
		{Spec{Cell: "{rps}", Rows: []string{"variant"}}, `no column or label "variant"`},
		{Spec{Cell: "{rps}", Sort: "cpu_db_us"}, `sort by "cpu_db_us": not a metric of the cell`},
	} {
		_, err := Project(rs, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%+v: error %v, want %q", c.spec, err, c.msg)
		}
	}
	if _, err := Project(Runs{Columns: cols}, Spec{Cell: "{rps}"}); err != ErrNoRuns {
		t.Errorf("no runs: %v", err)
	}
}

// Figures side by side: each template is a column of its own with its
// heading, the rows those of the first figure in its order, every cell
// the median of its cell's rounds as the template alone gives it, and in
// CSV each figure's exact value under its name.
func TestFigures(t *testing.T) {
	runs := runsOf(
		r{server: "a", round: 1, conns: 8, rps: 100, p99: 3, corrected: true},
		r{server: "a", round: 2, conns: 8, rps: 120, p99: 5, corrected: true},
		r{server: "b", round: 1, conns: 8, rps: 300, p99: 9, corrected: true},
	)
	spec := Spec{Rows: []string{"server"}, Figures: []Figure{
		{Title: "Requests/sec", Cell: "{rps:.1f}"}, {Title: "p99", Cell: "{latency_p99_ms:.2f} ms", Name: "p99_ms"}}}
	tables, err := Project(runs, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 {
		t.Fatalf("%d tables", len(tables))
	}
	md := write(t, tables[0], report.Markdown)
	for _, want := range []string{"### Requests/sec, p99 by server", "| server | Requests/sec | p99 |", "| b | **300.0** | 9.00 ms |", "| a | 110.0 | **4.00 ms** |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "latency_p99_ms, lowest first") {
		t.Errorf("a second figure's order is footnoted, though the rows follow the first:\n%s", md)
	}
	csv := write(t, tables[0], report.CSV)
	if want := "server,requests_sec,p99_ms\nb,300,9\na,110,4\n"; csv != want {
		t.Errorf("csv:\n%s\nwant\n%s", csv, want)
	}
	if _, err := Project(runs, Spec{Cell: "{rps}", Figures: spec.Figures}); err == nil {
		t.Error("a cell and figures: no error")
	}
	if _, err := Project(runs, Spec{Figures: []Figure{{Title: "x", Cell: "{nope}"}}}); err == nil || !strings.Contains(err.Error(), `figure "x": no metric "nope"`) {
		t.Errorf("unknown metric: %v", err)
	}
}

// A figure asked for in another unit than its column's reads the column
// converted: latency_p99_s is latency_p99_ms / 1000.
func TestFigureInAnotherUnit(t *testing.T) {
	runs := runsOf(r{server: "a", round: 1, conns: 8, rps: 100, p99: 2345.6, corrected: true}, r{server: "b", round: 1, conns: 8, rps: 90, p99: 12, corrected: true})
	tables, err := Project(runs, Spec{Rows: []string{"server"}, Cell: "{latency_p99_s:.3f} s"})
	if err != nil {
		t.Fatal(err)
	}
	md := write(t, tables[0], report.Markdown)
	if !strings.Contains(md, "| a | 2.346 s |") || !strings.Contains(md, "| b | **0.012 s** |") {
		t.Errorf("p99 in seconds:\n%s", md)
	}
	if _, err := Project(runs, Spec{Rows: []string{"server"}, Cell: "{rps_s}"}); err == nil {
		t.Error("rps_s: no error (rps has no unit to convert)")
	}
}

// A size asked for in KiB, MiB or GiB reads the column in bytes divided:
// reported_transfer_mib_per_s_mean is reported_transfer_bytes_per_s_mean
// / 2^20, as autocannon's authors print its throughput.
func TestBytesInAnotherUnit(t *testing.T) {
	runs := Runs{Columns: []string{"run_id", "source", "source_line", "tool", "server", "reported_transfer_bytes_per_s_mean", "labels"}}
	for i, x := range []struct {
		server string
		bytes  float64
	}{{"express", 2116633.6}, {"fastify", 12 << 20}} {
		runs.Rows = append(runs.Rows, []any{"f:" + x.server, "f", int64(i + 1), "autocannon", x.server, x.bytes, ""})
	}
	tables, err := Project(runs, Spec{Rows: []string{"server"}, Cell: "{reported_transfer_mib_per_s_mean:.2f} / {reported_transfer_kib_per_s_mean:.0f} / {reported_transfer_mib_per_s_mean:wrk}"})
	if err != nil {
		t.Fatal(err)
	}
	md := write(t, tables[0], report.Markdown)
	for _, want := range []string{"| express | 2.02 / 2067 / 2.02MB |", "| fastify | 12.00 / 12288 / 12.00MB |"} {
		if !strings.Contains(md, want) {
			t.Errorf("no row %q in:\n%s", want, md)
		}
	}
}

// A per-request CPU figure asked for by the name a comparison gives it
// (cpu_server_us_per_req) is run_figures' cpu_server_us, in the same
// cells, and may order the rows.
func TestCPUByItsComparisonName(t *testing.T) {
	runs := Runs{Columns: []string{"run_id", "source", "source_line", "tool", "server", "cpu_server_us", "labels"}}
	for i, x := range []struct {
		server string
		us     float64
	}{{"a", 154.84515484515484}, {"b", 199.8}, {"c", 120}} {
		runs.Rows = append(runs.Rows, []any{"f:" + x.server, "f", int64(i + 1), "records", x.server, x.us, ""})
	}
	var got []string
	for _, m := range []string{"cpu_server_us", "cpu_server_us_per_req"} {
		tables, err := Project(runs, Spec{Rows: []string{"server"}, Cell: "{" + m + "}", Sort: "+" + m})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		csv := write(t, tables[0], report.CSV)
		got = append(got, csv[strings.IndexByte(csv, '\n')+1:])
	}
	if got[0] != got[1] || !strings.HasPrefix(got[1], "c,120\na,154.84515484515484\nb,199.8") {
		t.Errorf("cells by cpu_server_us:\n%s\nby cpu_server_us_per_req:\n%s", got[0], got[1])
	}
	if _, err := Project(runs, Spec{Rows: []string{"server"}, Cell: "{cpu_db_us_per_req}"}); err == nil {
		t.Error("cpu_db_us_per_req: no error, and the runs have no cpu_db_us")
	}
}
