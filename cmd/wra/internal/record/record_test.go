package record

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wra-bench/wra/ingest"
)

func TestParseTarget(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Target
	}{
		{"api=4242", Target{"api", TargetPID, "4242"}},
		{"api=pid:4242", Target{"api", TargetPID, "4242"}},
		{"pg=cgroup:/system.slice/postgresql.service", Target{"pg", TargetCgroup, "/system.slice/postgresql.service"}},
		{"pg=/sys/fs/cgroup/system.slice/x.service", Target{"pg", TargetCgroup, "/sys/fs/cgroup/system.slice/x.service"}},
		{"pg=unit:postgresql@15-main.service", Target{"pg", TargetUnit, "postgresql@15-main.service"}},
		{"pg=postgresql.service", Target{"pg", TargetUnit, "postgresql.service"}},
		{"db=container:mariadb-1", Target{"db", TargetContainer, "mariadb-1"}},
	} {
		got, err := ParseTarget(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"4242", "=4242", "api=", "api=0", "api=pid:x", "api=12x", "a/b=12", "api=cgroup:relative", "api=container:", "api=what:1", "api=unit:a b"} {
		if _, err := ParseTarget(bad); !errors.Is(err, ErrTarget) {
			t.Errorf("ParseTarget(%q) = %v, want ErrTarget", bad, err)
		}
	}
}

func TestSplitWordsAndExpand(t *testing.T) {
	got, err := SplitWords(`wrk2 -t2 -c{connections} 'a b' "c \"d\"" e\ f`)
	if want := []string{"wrk2", "-t2", "-c{connections}", "a b", `c "d"`, "e f"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("SplitWords = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{`a 'b`, `a "b`, `a\`} {
		if _, err := SplitWords(bad); err == nil {
			t.Errorf("SplitWords(%q): no error", bad)
		}
	}
	vars := map[string]string{"connections": "16", "url": "http://h/x?a=1&b=2"}
	for in, want := range map[string]string{
		"-c{connections}": "-c16", "-n {connections*2}": "-n 32", "{url}": "http://h/x?a=1&b=2", "{{.State.Pid}}": "{.State.Pid}",
	} {
		if got, err := Expand(in, vars); err != nil || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"{rate}", "{connections", "{url*2}", "{connections*x}"} {
		if _, err := Expand(bad, vars); err == nil {
			t.Errorf("Expand(%q): no error", bad)
		}
	}
}

func TestRateOf(t *testing.T) {
	for in, want := range map[string]string{
		"wrk2 -t2 -c16 -d20s -R500 http://x/":  "500",
		"wrk2 -R 250 http://x/":                "250",
		"wrk2 --rate=1000 http://x/":           "1000",
		"/usr/bin/bombardier -c 16 -r 200 url": "200",
		"oha -q 50 url":                        "50",
		"vegeta -rate=100/s":                   "100",
		"ab -c 16 -n 1000 url":                 "",
		"wrk -t2 -c16 -d10s url":               "",
	} {
		got, ok := RateOf(strings.Fields(in))
		if got != want || ok != (want != "") {
			t.Errorf("RateOf(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// The user and system split of a cgroup reading is the tick samples'
// proportion of the exact total's change.
func TestCPUTimeSub(t *testing.T) {
	a := CPUTime{TotalNS: 1000e6, UserNS: 500e6, SystemNS: 400e6}
	b := CPUTime{TotalNS: 3000e6, UserNS: 2000e6, SystemNS: 900e6}
	if got, want := b.Sub(a), (CPUTime{TotalNS: 2000e6, UserNS: 1500e6, SystemNS: 500e6}); got != want {
		t.Errorf("Sub = %+v, want %+v", got, want)
	}
	if got := (CPUTime{TotalNS: 5e6, UserNS: 1e6}).Sub(CPUTime{TotalNS: 1e6, UserNS: 1e6}); got != (CPUTime{TotalNS: 4e6, UserNS: 4e6}) {
		t.Errorf("no tick between the readings: %+v, want the whole as user", got)
	}
}

// A folder's files, rows and wra.toml: what one commit writes, another
// commit adds to, and wra's own manifest reader reads back.
func TestFolderCommit(t *testing.T) {
	dir := t.TempDir()
	f, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	stage, _ := f.Stage()
	os.WriteFile(filepath.Join(stage, "out"), []byte("report"), 0o644)
	f.Ignore(TrialsFile)
	row := func(n string) Row {
		return Row{File: RecordsFile, Header: RecordsHeader[:3], Fields: []string{"2026-12-01T00:00:00Z", "2026-12-01T00:00:01Z", n}, Comment: "rows"}
	}
	if err := f.Commit(Commit{Files: map[string]string{"go/wrk-1.txt": filepath.Join(stage, "out")}, Labels: map[string]string{"server": "go", "test": "one", "empty": ""}, Rows: []Row{row("go")}}); err != nil {
		t.Fatal(err)
	}
	f.Unstage(stage)
	g, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Commit(Commit{Rows: []Row{row("rust")}}); err != nil {
		t.Fatal(err)
	}
	if err := g.Commit(Commit{Files: map[string]string{"go/wrk-1.txt": "/nonexistent"}}); err == nil {
		t.Error("a commit over a file already there: no error")
	}
	b, _ := os.ReadFile(filepath.Join(dir, RecordsFile))
	if want := "utc,end_utc,server\n2026-12-01T00:00:00Z,2026-12-01T00:00:01Z,go\n2026-12-01T00:00:00Z,2026-12-01T00:00:01Z,rust\n"; string(b) != want {
		t.Errorf("records.csv:\n%s\nwant\n%s", b, want)
	}
	m, err := ingest.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.LabelsFor("go/wrk-1.txt"); !reflect.DeepEqual(got, map[string]string{"server": "go", "test": "one"}) {
		t.Errorf("labels of go/wrk-1.txt: %v", got)
	}
	if !m.Ignored(TrialsFile) {
		t.Errorf("trials.csv is not ignored: %+v", m.Ignore)
	}
	if _, err := os.Stat(filepath.Join(dir, stagingDir)); err == nil {
		t.Error(".wra-record is left behind")
	}
	os.WriteFile(filepath.Join(dir, "wra.toml"), []byte("ignore = []\n"), 0o644)
	if _, err := OpenFolder(dir); !errors.Is(err, ErrNotOurs) {
		t.Errorf("a wra.toml of someone else's: %v, want ErrNotOurs", err)
	}
}

func TestParsePlanErrors(t *testing.T) {
	const stack = "[[stacks]]\nserver = \"a\"\nserver_target = \"1\"\nurl = \"http://h\"\n"
	for _, c := range []struct{ in, want string }{
		{"trials = \n", "p.toml:1:"},
		{"trials = 2\nextra = 1\n", `unknown key "extra"`},
		{stack, "expected at least one [[stacks]] and one [[loads]]"},
		{stack + "[[loads]]\nname = \"x\"\n", "[[loads]] 1 (x): no command"},
		{stack + "[[loads]]\nname = \"x y\"\ncommand = \"ab {url}\"\n", `name = "x y"`},
		{stack + "[[loads]]\nname = \"x\"\ncommand = \"ab 'open\"\n", "unclosed"},
		{stack + "[[loads]]\nname = \"x\"\ncommand = \"ab\"\nrates = [0]\n", "rates: 0 is not above 0"},
		{stack + "[[loads]]\nname = \"x\"\ncommand = \"ab\"\nduration = \"soon\"\n", "expected a duration"},
		{stack + "[[loads]]\nname = \"x\"\ncommand = \"ab\"\n[[loads]]\nname = \"y\"\ncommand = \"wrk\"\ntest = \"x\"\n", "cells x a and y a would give records of the same"},
		{"[[stacks]]\nserver = \"a\"\n[[loads]]\nname = \"x\"\ncommand = \"ab\"\n", "expected one of server_cmd"},
	} {
		_, err := ParsePlan("p.toml", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePlan(%q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
}

func FuzzParsePlan(f *testing.F) {
	for _, name := range []string{"testdata/plan.toml"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte("trials = 2\n"))
	f.Add([]byte("usage_usec 1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParsePlan("fuzz.toml", b)
		if err != nil {
			return
		}
		if p.Trials < 1 || len(p.Cells()) == 0 {
			t.Fatalf("a plan that parsed has %d trials, %d cells", p.Trials, len(p.Cells()))
		}
		for _, tr := range p.DrawTrials(1) {
			if len(tr.Cells) != len(p.Cells()) {
				t.Fatal("a trial without every cell")
			}
		}
	})
}

func FuzzExpand(f *testing.F) {
	f.Add("wrk2 -t2 -c{connections} -R{rate} '{url}'")
	f.Add("ab -n {connections*2} {{literal}}")
	f.Add("{unclosed")
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitWords(s)
		if err != nil {
			return
		}
		vars := map[string]string{"connections": "16", "rate": "500", "url": "http://h/"}
		for _, w := range words {
			Expand(w, vars)
		}
	})
}
