package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// benchStore is a small store: bombardier runs of two servers in three
// trials of data/, labelled by a manifest as data/ labels them.
func benchStore(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "in")
	files := map[string]string{}
	for _, trial := range []string{"1", "2", "3"} {
		for _, server := range []string{"go-pgx", "go-pq"} {
			p := "tools/t" + trial + "/bombardier/" + server + "/one-c16.txt"
			files[p] = "../../data/" + p
		}
	}
	copyTree(t, dir, files)
	manifest := `blocks = ["trial"]
[[files]]
pattern = "tools/t{trial}/bombardier/{server}/{test}-c{connections}.txt"
labels = { duration_s = "3", tool = "bombardier" }
`
	if err := os.WriteFile(filepath.Join(dir, "wra.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if r := wra(t, db, "--quiet", "ingest", dir); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	return db
}

// TestExportBenchmarkFormats writes the four formats of a small store
// and reads each back: the JSONs decoded and compared field by field
// with run_medians' and group_caveats' rows, the text parsed by
// golang.org/x/perf's benchfmt and compared with each run's rps.
func TestExportBenchmarkFormats(t *testing.T) {
	db := benchStore(t)
	out := t.TempDir()
	path := func(n string) string { return filepath.Join(out, n) }
	r := wra(t, db, "--format", "csv", "export", "--bmf", path("bmf.json"), "--github-smaller", path("smaller.json"),
		"--github-bigger", path("bigger.json"), "--gobench", path("new.txt"))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if want := "name,kind,rows,path\nbmf,benchmark,2," + path("bmf.json") + "\n"; !strings.HasPrefix(r.stdout, want) {
		t.Errorf("stdout = %q, want it to begin %q", r.stdout, want)
	}

	// run_medians, as the store has it
	type med struct{ rps, lo, hi, p99, errs float64 }
	meds := map[string]med{}
	for _, line := range sqlRows(t, db, `SELECT server, rps_median, rps_min, rps_max, latency_p99_ms_median, errors_total FROM run_medians ORDER BY server`) {
		f := strings.Split(line, ",")
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			return v
		}
		meds[f[0]] = med{num(1), num(2), num(3), num(4), num(5)}
	}
	if len(meds) != 2 {
		t.Fatalf("run_medians has %d groups, want 2", len(meds))
	}
	name := func(server string) string {
		return "one/tool=bombardier/mode=full-speed/server=" + server + "/connections=16"
	}

	var bmf map[string]map[string]map[string]float64
	readJSON(t, path("bmf.json"), &bmf)
	if len(bmf) != 2 {
		t.Errorf("BMF has %d benchmarks, want 2: %v", len(bmf), bmf)
	}
	for server, m := range meds {
		b := bmf[name(server)]
		for measure, fields := range map[string]map[string]float64{
			"rps_median":            {"value": m.rps, "lower_value": m.lo, "upper_value": m.hi},
			"latency_p99_ms_median": {"value": m.p99},
			"errors_total":          {"value": m.errs},
		} {
			for k, v := range fields {
				if got, ok := b[measure][k]; !ok || got != v {
					t.Errorf("BMF %s %s %s = %v (present %v), want %v", server, measure, k, got, ok, v)
				}
			}
		}
	}

	caveats := sqlRows(t, db, `SELECT DISTINCT caveat FROM group_caveats ORDER BY 1`)
	if len(caveats) != 1 {
		t.Fatalf("the fixture's groups have caveats %q, want the one of uncorrected latency", caveats)
	}
	type entry struct {
		Name, Unit, Range, Extra string
		Value                    float64
	}
	var bigger, smaller []entry
	readJSON(t, path("bigger.json"), &bigger)
	readJSON(t, path("smaller.json"), &smaller)
	if len(bigger) != 2 {
		t.Fatalf("bigger-is-better has %d entries, want 2 (rps per group): %+v", len(bigger), bigger)
	}
	for i, server := range []string{"go-pgx", "go-pq"} {
		e, m := bigger[i], meds[server]
		want := entry{Name: name(server) + " - rps_median", Unit: "req/s", Value: m.rps,
			Range: "min " + strconv.FormatFloat(m.lo, 'g', -1, 64) + ", max " + strconv.FormatFloat(m.hi, 'g', -1, 64)}
		if e.Name != want.Name || e.Unit != want.Unit || e.Value != want.Value || e.Range != want.Range {
			t.Errorf("bigger entry %d = %+v, want %+v", i, e, want)
		}
		if !strings.HasPrefix(e.Extra, "3 runs\ngroup: {") {
			t.Errorf("bigger entry %d extra = %q", i, e.Extra)
		}
		for _, c := range caveats {
			if !strings.Contains(e.Extra, "caveat: "+strings.Trim(c, `"`)) {
				t.Errorf("bigger entry %d extra lacks the caveat %q: %q", i, c, e.Extra)
			}
		}
	}
	for _, e := range smaller {
		if strings.HasSuffix(e.Name, "rps_median") {
			t.Errorf("smaller-is-better holds %s", e.Name)
		}
	}
	if !slices.ContainsFunc(smaller, func(e entry) bool {
		return e.Name == name("go-pq")+" - latency_p99_ms_median" && e.Value == meds["go-pq"].p99
	}) {
		t.Errorf("smaller-is-better lacks go-pq's p99 %v: %+v", meds["go-pq"].p99, smaller)
	}

	// the text, as benchstat reads it: a result per run
	rps := map[string][]float64{}
	for _, line := range sqlRows(t, db, `SELECT g.server, r.rps FROM run_groups g JOIN runs r USING (run_id) ORDER BY g.run_id`) {
		f := strings.Split(line, ",")
		v, _ := strconv.ParseFloat(f[1], 64)
		rps[f[0]] = append(rps[f[0]], v)
	}
	fh, err := os.Open(path("new.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	br := benchfmt.NewReader(fh, "new.txt")
	got := map[string][]float64{}
	for br.Scan() {
		switch x := br.Result().(type) {
		case *benchfmt.Result:
			if c := x.GetConfig("tool") + " " + x.GetConfig("mode"); c != "bombardier full-speed" {
				t.Errorf("%s: config %q", x.Name, c)
			}
			v, ok := x.Value("rps")
			if !ok {
				t.Errorf("%s: no rps", x.Name)
			}
			got[string(x.Name)] = append(got[string(x.Name)], v)
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", x)
		}
	}
	if err := br.Err(); err != nil {
		t.Fatal(err)
	}
	for server, want := range rps {
		g := got["one/server="+server+"/connections=16"]
		if !slices.Equal(g, want) {
			t.Errorf("%s: rps of the text's results %v, want the runs' %v", server, g, want)
		}
	}
	if len(got) != 2 {
		t.Errorf("the text names %d benchmarks, want 2: %v", len(got), got)
	}
}

func readJSON(t *testing.T, p string, v any) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

// TestExportBenchmarkFileRefused checks that an existing file is kept
// without --replace (exit 2, the file as it was), replaced with it, and
// that two formats cannot both go to stdout.
func TestExportBenchmarkFileRefused(t *testing.T) {
	db := benchStore(t)
	p := filepath.Join(t.TempDir(), "bmf.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := wra(t, db, "export", "--bmf", p)
	if r.code != 2 || !strings.Contains(r.stderr, "--bmf "+p+": the file exists; give --replace") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("the refused file was written: %q", b)
	}
	if r := wra(t, db, "--quiet", "export", "--bmf", p, "--replace"); r.code != 0 {
		t.Fatalf("--replace: exit %d: %s", r.code, r.stderr)
	}
	var v map[string]any
	readJSON(t, p, &v)
	if len(v) != 2 {
		t.Errorf("replaced file has %d benchmarks, want 2", len(v))
	}
	r = wra(t, db, "export", "--bmf", "-", "--gobench", "-")
	if r.code != 2 || !strings.Contains(r.stderr, "only one format can go to stdout") {
		t.Errorf("two on stdout: exit %d, stderr %q", r.code, r.stderr)
	}
	r = wra(t, db, "export", "--gobench", "-")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Unit rps better=higher\n") {
		t.Errorf("--gobench -: exit %d, stdout %.80q", r.code, r.stdout)
	}
}
