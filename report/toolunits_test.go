package report

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// toolFormat is spec bound to the figure name, as a cell template binds
// it.
func toolFormat(t *testing.T, spec, figure string) NumberFormat {
	t.Helper()
	f, err := ParseNumberFormat(spec)
	if err != nil {
		t.Fatalf("%q: %v", spec, err)
	}
	f, err = f.ForFigure(figure)
	if err != nil {
		t.Fatalf("%q of %s: %v", spec, figure, err)
	}
	return f
}

// The wanted texts follow each tool's code: wrk's src/units.c,
// bombardier's format.go, k6's summary (humanizeGenericDuration,
// humanizeBytes); the edges are where the two ports of wrk's loop part.
func TestToolUnits(t *testing.T) {
	for _, c := range []struct {
		spec, figure string
		x            float64
		want         string
	}{
		{"wrk", "latency_mean_ms", 0.77581, "775.81us"},
		{"wrk", "latency_mean_us", 849.99, "849.99us"},
		{"wrk", "latency_mean_us", 850, "0.85ms"}, // the next unit from 0.85 of the scale
		{"wrk", "latency_p99_ms", 2.36, "2.36ms"},
		{"wrk", "latency_max_ms", 900, "900.00ms"}, // wrk's loop never reaches its last unit, s
		{"wrk", "latency_max_ms", 7590, "7.59s"},   // from a second: seconds, minutes
		{"wrk", "latency_max_s", 59, "0.98m"},
		{"wrk", "latency_max_s", 10800, "180.00m"}, // never h
		{"wrk", "latency_mean_ms", 0, "0.00us"},
		{"wrk", "reported_transfer_bytes_per_s", 175982510.08, "167.83MB"},
		{"wrk", "reported_transfer_bytes_per_s_p99", 512, "512.00B"},
		{"wrk", "working_set_mb", 1.5, "1.50MB"},
		{"wrk", "rps", 2110, "2.11k"},
		{"wrk", "thread_rps_stdev", 212.65, "212.65"},
		{"bombardier", "latency_max_ms", 900, "0.90s"}, // bombardier's loop does reach it
		{"bombardier", "latency_max_s", 10800, "3.00h"},
		{"bombardier", "latency_mean_ms", 0.82743, "827.43us"},
		{"bombardier", "reported_transfer_bytes_per_s", 4183818, "3.99MB"},
		{"bombardier", "reported_transfer_bytes_per_s", 512, "512.00"}, // no unit below a KB
		{"k6", "latency_p50_ms", 0.666758, "666.75µs"},                 // cut, not rounded (666.76)
		{"k6", "latency_p90_ms", 1.108398, "1.1ms"},                    // trailing zeros dropped
		{"k6", "latency_max_ms", 30.534123, "30.53ms"},
		{"k6", "latency_max_ms", 0, "0s"},
		{"k6", "latency_min_ms", 0.0005, "500ns"},
		{"k6", "latency_max_ms", 1500, "1.5s"},
		{"k6", "latency_max_ms", 65432, "1m5s"},
		{"k6", "latency_max_ms", 3725000, "1h2m5s"},
		{"k6", "reported_bytes_read", 119119, "119 kB"},
		{"k6", "reported_sent_bytes_per_s", 7405.478601922216, "7.4 kB"},
		{"k6", "reported_bytes_read", 5, "5 B"},
		{"vegeta", "latency_min_ms", 0.579427, "579.427µs"},
		{"vegeta", "latency_p99_ms", 1.0281234, "1.028ms"}, // from a ms, to the µs
		{"vegeta", "latency_max_s", 1.0425, "1.043s"},      // half away from zero, as time.Duration.Round
		{"vegeta", "duration_s", 60.4, "1m0s"},
		{"vegeta", "duration_s", 3725, "1h2m0s"},
		{"vegeta", "latency_min_ms", 0.0005, "500ns"},
		{"vegeta", "latency_min_ms", 0, "0s"},
	} {
		f := toolFormat(t, c.spec, c.figure)
		if got := f.Format(c.x, Precision{}); got != c.want {
			t.Errorf("%s of %s %v = %q, want %q", c.spec, c.figure, c.x, got, c.want)
		}
	}
}

func TestFigureQuantity(t *testing.T) {
	for _, c := range []struct {
		figure string
		want   quantity
	}{
		{"latency_p99_ms", quantity{timeQuantity, -3}},
		{"cpu_server_us_per_req", quantity{timeQuantity, -6}},
		{"startup_s", quantity{timeQuantity, 0}},
		{"reported_transfer_bytes_per_s_p99", quantity{bytesQuantity, 0}},
		{"reported_bytes_read", quantity{bytesQuantity, 0}},
		{"working_set_mb", quantity{bytesQuantity, 20}},
		{"rps", quantity{countQuantity, 0}},
		{"client_rps_per_s", quantity{countQuantity, 0}},
	} {
		if got := figureQuantity(c.figure); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.figure, got, c.want)
		}
	}
}

// A figure asked for in another unit reads the same figure in each other
// unit of its kind, nearest the name's end first; "per s" is a rate, not
// a unit to convert.
func TestConversions(t *testing.T) {
	for _, c := range []struct {
		name string
		want []Conversion
	}{
		{"latency_mean_s", []Conversion{{"latency_mean_us", 1e-6}, {"latency_mean_ms", 1e-3}}},
		{"latency_p99_us", []Conversion{{"latency_p99_ms", 1e3}, {"latency_p99_s", 1e6}}},
		{"reported_transfer_mib_per_s_mean", []Conversion{{"reported_transfer_bytes_per_s_mean", 1.0 / (1 << 20)},
			{"reported_transfer_kib_per_s_mean", 1.0 / (1 << 10)}, {"reported_transfer_mb_per_s_mean", 1},
			{"reported_transfer_gib_per_s_mean", 1 << 10}}},
		{"rps", nil},
	} {
		if got := Conversions(c.name); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestToolUnitsRefuse(t *testing.T) {
	for _, c := range []struct{ spec, figure, want string }{
		{"k6", "rps", `format "k6", byte 1: k6 prints no count in units: rps is a count (a time ends in _s, _ms or _us, a size in bytes, _kib, _mb, _mib or _gib)`},
		{"bombardier", "requests", `format "bombardier", byte 1: bombardier prints no count in units: requests is a count (a time ends in _s, _ms or _us, a size in bytes, _kib, _mb, _mib or _gib)`},
		{"vegeta", "reported_bytes_read", `format "vegeta", byte 1: vegeta prints no size in bytes in units: reported_bytes_read is a size in bytes (a time ends in _s, _ms or _us, a size in bytes, _kib, _mb, _mib or _gib)`},
	} {
		f, err := ParseNumberFormat(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.ForFigure(c.figure); err == nil || err.Error() != c.want {
			t.Errorf("%s of %s: %v, want %s", c.spec, c.figure, err, c.want)
		}
	}
}

// A tool's own report, read back: each figure it printed in units, read
// as a number and printed again in the tool's units, is the same text.
// Every unit the reports use is met (us, ms, s; B, KB, MB; k).
func TestToolUnitsAsWrkAndBombardierPrint(t *testing.T) {
	timeRe := regexp.MustCompile(`^(\d+\.\d\d)(us|ms|s|m|h)$`)
	bytesRe := regexp.MustCompile(`^(\d+\.\d\d)(K|M|G)?B$`)         // wrk's Transfer/sec
	bombBytesRe := regexp.MustCompile(`^(\d+\.\d\d)(KB|MB|GB)?/s$`) // bombardier's Throughput
	countRe := regexp.MustCompile(`^(\d+\.\d\d)(k|M|G)?$`)
	scale := map[string]float64{"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600,
		"": 1, "K": 1024, "M": 1 << 20, "G": 1 << 30, "KB": 1024, "MB": 1 << 20, "GB": 1 << 30, "k": 1e3}
	read := func(m []string) float64 {
		x, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		return x * scale[m[2]]
	}
	seen := map[string]int{}
	check := func(file string, line int, tool, text string) {
		t.Helper()
		var x float64
		var got string
		units, _ := toolStyle(tool)
		switch {
		case timeRe.MatchString(text):
			m := timeRe.FindStringSubmatch(text)
			x, got = read(m), units.time(read(m))
			seen["time "+m[2]]++
		case tool == "wrk" && bytesRe.MatchString(text):
			m := bytesRe.FindStringSubmatch(text)
			x, got = read(m), units.bytes(read(m))
			seen["bytes "+m[2]+"B"]++
		case tool == "bombardier" && bombBytesRe.MatchString(text):
			m := bombBytesRe.FindStringSubmatch(text)
			x, got = read(m), units.bytes(read(m))+"/s"
			seen["bytes "+m[2]]++
		case tool == "wrk" && countRe.MatchString(text):
			m := countRe.FindStringSubmatch(text)
			x, got = read(m), units.count(read(m))
			seen["count "+m[2]]++
		default:
			t.Errorf("%s:%d: %q is no figure in %s's units", file, line, text, tool)
			return
		}
		if got != text {
			t.Errorf("%s:%d: %s prints %q, read back as %v and printed again as %q", file, line, tool, text, x, got)
		}
	}
	files, _ := filepath.Glob("testdata/toolunits/*.txt")
	checked := 0
	for _, path := range files {
		name := filepath.Base(path)
		tool := ""
		switch {
		case strings.HasPrefix(name, "wrk"):
			tool = "wrk" // wrk2's units.c is wrk's
		case strings.HasPrefix(name, "bombardier"):
			tool = "bombardier"
		default:
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		inDistribution := false
		for n := 1; sc.Scan(); n++ {
			fields := strings.Fields(sc.Text())
			switch {
			case len(fields) == 0:
				inDistribution = false
			case strings.HasPrefix(fields[0], "Latency") && len(fields) > 1 && fields[1] == "Distribution":
				inDistribution = true
			case (fields[0] == "Latency" || tool == "wrk" && fields[0] == "Req/Sec") && len(fields) >= 4:
				// wrk's Thread Stats, bombardier's Statistics: mean, stdev, max
				for _, v := range fields[1:4] {
					if !strings.HasSuffix(v, "nan") { // wrk2's of too few samples
						check(name, n, tool, v)
						checked++
					}
				}
			case fields[0] == "Transfer/sec:" || fields[0] == "Throughput:":
				check(name, n, tool, fields[1])
				checked++
			case inDistribution && len(fields) == 2 && strings.HasSuffix(fields[0], "%"):
				check(name, n, tool, fields[1])
				checked++
			case fields[0] == "Detailed" || fields[0] == "HTTP":
				inDistribution = false
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"time us", "time ms", "time s", "bytes KB", "bytes MB", "count k"} {
		if seen[k] == 0 {
			t.Errorf("no figure in %s among the reports: %v", k, seen)
		}
	}
	if checked < 100 {
		t.Errorf("%d figures checked, want at least 100", checked)
	}
	t.Logf("%d figures checked: %v", checked, seen)
}

// k6's summary export keeps each figure exactly (ms, bytes); the same
// run's end-of-test summary prints them in k6's units. Each of the
// export's times and data sizes, printed in k6's units, is the text of
// the summary.
func TestToolUnitsAsK6Prints(t *testing.T) {
	exports, _ := filepath.Glob("testdata/toolunits/k6_*_summary_export.json")
	k6, _ := toolStyle("k6")
	checked := 0
	for _, export := range exports {
		stdout := strings.TrimSuffix(export, "_summary_export.json") + "_stdout.txt"
		var sum struct {
			Metrics map[string]map[string]any `json:"metrics"`
		}
		b, err := os.ReadFile(export)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		printed := k6Summary(t, stdout)
		for name, stats := range sum.Metrics {
			line, ok := printed[name]
			if !ok {
				continue
			}
			switch {
			case name == "data_received" || name == "data_sent":
				want := k6.bytes(stats["count"].(float64)) + " " + k6.bytes(stats["rate"].(float64)) + "/s"
				if got := strings.Join(strings.Fields(line), " "); got != want {
					t.Errorf("%s: %s is %q, printed in k6's units %q", filepath.Base(stdout), name, got, want)
				}
				checked++
			case stats["avg"] != nil:
				for _, kv := range strings.Fields(line) {
					stat, text, _ := strings.Cut(kv, "=")
					x, ok := stats[stat].(float64)
					if !ok {
						t.Fatalf("%s: %s has no %s in %s", filepath.Base(stdout), name, stat, filepath.Base(export))
					}
					if got := k6.time(x / 1000); got != text {
						t.Errorf("%s: %s %s is %q; %v ms printed in k6's units is %q", filepath.Base(stdout), name, stat, text, x, got)
					}
					checked++
				}
			}
		}
	}
	if checked < 150 {
		t.Errorf("%d figures checked, want at least 150", checked)
	}
	t.Logf("%d figures of %d summaries checked", checked, len(exports))
}

// k6Summary is the figures of the metric lines of k6's end-of-test
// summary, by the name the summary export gives the metric: a
// submetric's line, "{ step:1500 }", follows its metric's and is named
// http_req_duration{step:1500}.
func k6Summary(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^\s*(\{ [^}]+ \}|[a-z_]+)\.*: (.*)$`)
	out := map[string]string{}
	parent := ""
	for _, l := range strings.Split(string(b), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name := m[1]
		if strings.HasPrefix(name, "{") {
			name = parent + "{" + strings.TrimSpace(strings.Trim(name, "{}")) + "}"
		} else {
			parent = name
		}
		out[name] = m[2]
	}
	if len(out) == 0 {
		t.Fatalf("%s: no metric lines", path)
	}
	return out
}

// vegeta's JSON report keeps each time in whole nanoseconds; its text
// report of the same results prints them rounded, in Go's units. Each
// figure of the JSON, printed in vegeta's units, is the text's.
func TestToolUnitsAsVegetaPrints(t *testing.T) {
	reports, _ := filepath.Glob("testdata/toolunits/vegeta_report_*.json")
	vegeta, _ := toolStyle("vegeta")
	checked := 0
	for _, path := range reports {
		var r struct {
			Latencies map[string]float64 `json:"latencies"`
			Duration  float64            `json:"duration"`
			Wait      float64            `json:"wait"`
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		text, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		l := r.Latencies
		for _, line := range []struct {
			head string
			ns   []float64
		}{
			{"Duration      [total, attack, wait]             ", []float64{r.Duration + r.Wait, r.Duration, r.Wait}},
			{"Latencies     [min, mean, 50, 90, 95, 99, max]  ", []float64{l["min"], l["mean"], l["50th"], l["90th"], l["95th"], l["99th"], l["max"]}},
		} {
			var printed []string
			for _, x := range line.ns {
				printed = append(printed, vegeta.time(x/1e9))
			}
			want := line.head + strings.Join(printed, ", ") + "\n"
			if !strings.Contains(string(text), want) {
				t.Errorf("%s: no line %q in the text report:\n%s", filepath.Base(path), want, text)
			}
			checked += len(line.ns)
		}
	}
	if checked < 20 {
		t.Errorf("%d figures checked, want at least 20", checked)
	}
	t.Logf("%d figures of %d reports checked", checked, len(reports))
}
