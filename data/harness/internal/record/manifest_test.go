package record

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// manifestFile is wra.toml's layout as wra reads it.
type manifestFile struct {
	Ignore []string          `toml:"ignore"`
	Blocks []string          `toml:"blocks"`
	Labels map[string]string `toml:"labels"`
	Files  []struct {
		Pattern string            `toml:"pattern"`
		Glob    string            `toml:"glob"`
		Labels  map[string]string `toml:"labels"`
	} `toml:"files"`
}

func TestManifestRoundTrip(t *testing.T) {
	r := &Runner{Plan: Full(), Seed: 42}
	global, entries := r.manifest()
	text := renderManifest(r.Plan, r.Seed, global, entries)
	var m manifestFile
	md, err := toml.Decode(string(text), &m)
	if err != nil {
		t.Fatalf("wra.toml does not parse: %v\n%s", err, text)
	}
	if und := md.Undecoded(); len(und) > 0 {
		t.Errorf("undecoded keys %v", und)
	}
	if !reflect.DeepEqual(m.Ignore, manifestIgnore) || !reflect.DeepEqual(m.Blocks, []string{"trial"}) || !reflect.DeepEqual(m.Labels, global) || len(m.Files) != len(entries) {
		t.Fatalf("decoded %+v", m)
	}
	for i, f := range m.Files {
		e := entries[i]
		if f.Pattern != e.Pattern || f.Glob != e.Glob || len(f.Labels) != len(e.Labels) {
			t.Errorf("entry %d: decoded %+v, wrote %+v", i, f, e)
		}
		for k, v := range e.Labels {
			if f.Labels[k] != v {
				t.Errorf("entry %d label %s: decoded %q, wrote %q", i, k, f.Labels[k], v)
			}
		}
	}
	stages := 0
	for _, f := range m.Files {
		if f.Labels["stages"] == Full().Ladder.Stages() {
			stages++
		}
	}
	if stages != 2 {
		t.Errorf("%d entries carry the ladder's stages, want 2 (points and summary)", stages)
	}
	for _, want := range []string{"# Recorded in 5 trials: each ran every one of the plan's 128 cells once, in an\n# order drawn for it from seed 42 (go run ./cmd/record -dry-run -plan full -seed 42 prints\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("wra.toml lacks %q:\n%s", want, text)
		}
	}
}

// Every file of a trial's folder gets trial=N from its pattern and
// round=N from exactly one overlay; the calibration pair of a trial gets
// its trial, the noise pair none.
func TestManifestTrials(t *testing.T) {
	r := &Runner{Plan: Short()}
	_, entries := r.manifest()
	for _, f := range PlannedFiles(r.Plan) {
		var trial string
		var rounds []string
		for _, e := range entries {
			ok, err := e.matches(f)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue
			}
			if e.Overlay {
				if v, ok := e.Labels["round"]; ok {
					rounds = append(rounds, v)
				}
				continue
			}
			if e.Pattern != "" {
				re, _ := patternRegexp(e.Pattern)
				if i := re.SubexpIndex("trial"); i >= 0 {
					trial = re.FindStringSubmatch(f)[i]
				}
			}
		}
		want := ""
		if m := regexp.MustCompile(`^[a-z0-9]+/t(\d+)/|^calibration/trial-(\d+)-`).FindStringSubmatch(f); m != nil {
			want = m[1] + m[2]
		}
		if trial != want {
			t.Errorf("%s: trial %q, want %q", f, trial, want)
		}
		if strings.HasPrefix(f, "calibration/") || !strings.Contains(f, "/t") {
			if len(rounds) != 0 {
				t.Errorf("%s: round overlays %v", f, rounds)
			}
		} else if len(rounds) != 1 || rounds[0] != want {
			t.Errorf("%s: rounds %v, want [%s]", f, rounds, want)
		}
	}
}

// With servers on two databases, every file of a server gets its server's
// database from exactly one overlay, and no file outside the servers'
// folders gets one; with one database it is a global label.
func TestManifestDatabases(t *testing.T) {
	r := &Runner{Plan: Full()}
	global, entries := r.manifest()
	if _, ok := global["database"]; ok {
		t.Errorf("two databases, yet a global database label %v", global)
	}
	for _, f := range PlannedFiles(r.Plan) {
		var got []string
		for _, e := range entries {
			if ok, err := e.matches(f); err != nil {
				t.Fatal(err)
			} else if db, isDB := e.Labels["database"]; ok && e.Overlay && isDB {
				got = append(got, db)
			}
		}
		server := ""
		for _, name := range r.Plan.Servers {
			if strings.Contains("/"+f, "/"+name+"/") {
				server = name
			}
		}
		if server == "" {
			if len(got) != 0 {
				t.Errorf("%s: database %v", f, got)
			}
			continue
		}
		st, _ := StackOf(server)
		if len(got) != 1 || got[0] != st.Database {
			t.Errorf("%s (server %s): database labels %v, want [%s]", f, server, got, st.Database)
		}
	}
	if err := checkEntries(entries, PlannedFiles(r.Plan)); err != nil {
		t.Error(err)
	}
	r.Plan.Servers = []string{"go-pgx", "node-pg"}
	global, _ = r.manifest()
	if global["database"] != PostgreSQL {
		t.Errorf("PostgreSQL-only plan: global labels %v", global)
	}
}

func TestTOMLStringEscapes(t *testing.T) {
	for _, s := range []string{`plain`, `quote " and \ backslash`, "tab\tnewline\n", "µs <&>"} {
		var v struct{ S string }
		if _, err := toml.Decode("S = "+tomlString(s), &v); err != nil || v.S != s {
			t.Errorf("tomlString(%q) decodes to %q, %v", s, v.S, err)
		}
	}
}

// Every file of both plans matches exactly one entry, and a file the
// harness never writes matches none.
func TestManifestCoversPlannedFiles(t *testing.T) {
	for _, p := range []Plan{Full(), Compact(), Short()} {
		r := &Runner{Plan: p}
		_, entries := r.manifest()
		if err := checkEntries(entries, PlannedFiles(p)); err != nil {
			t.Errorf("plan %s: %v", p.Name, err)
		}
		if err := checkEntries(entries, []string{"wrk2/go-pgx/one.txt"}); err == nil {
			t.Errorf("plan %s: an unplanned name matched an entry", p.Name)
		}
	}
}

func TestPatternLabels(t *testing.T) {
	re, err := patternRegexp("wrk2/{server}/{test}-r{target_rps}-c{connections}-p{round}.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := re.FindStringSubmatch("wrk2/go-pgx/one-r500-c16-p3.txt")
	if m == nil {
		t.Fatal("no match")
	}
	got := map[string]string{}
	for i, name := range re.SubexpNames() {
		if name != "" {
			got[name] = m[i]
		}
	}
	want := map[string]string{"server": "go-pgx", "test": "one", "target_rps": "500", "connections": "16", "round": "3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	if re.MatchString("wrk2/a/b/one-r500-c16-p3.txt") {
		t.Error("a capture spanned a /")
	}
	for _, bad := range []string{"x/{Server}.txt", "x/{server.txt"} {
		if _, err := patternRegexp(bad); err == nil {
			t.Errorf("patternRegexp(%q): no error", bad)
		}
	}
}
