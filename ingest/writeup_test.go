package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// Command lines above reports, as write-ups and logs paste them: a prompt
// with its user and folder, a command in backticks inside a sentence, a
// wrapper (sudo, time, npx), a pipeline; a sentence that only names a
// tool, or a flag the tool does not have, is no command line.
func TestFindCommand(t *testing.T) {
	for _, c := range []struct {
		line, tool string
		want       map[string]string
	}{
		{"$ wrk -t4 -c100 -d30s http://127.0.0.1:8080/ping", "wrk", map[string]string{"threads": "4", "connections": "100", "requested_duration": "30s", "url": "http://127.0.0.1:8080/ping"}},
		{"steve@joy:~/tool/wrk$ wrk -t4 -c128 -d30s http://localhost:8080 -s pipeline.lua --latency -- / 16", "wrk",
			map[string]string{"threads": "4", "connections": "128", "requested_duration": "30s", "script": "pipeline.lua", "url": "http://localhost:8080", "script_args": "/ 16"}},
		{"We ran `ab -k -n 10000 -c 20 http://127.0.0.1:8082/ping` three times.", "ab", map[string]string{"keep_alive": "true", "requested_requests": "10000", "connections": "20", "url": "http://127.0.0.1:8082/ping"}},
		{"time sudo hey -n 2000 -c 50 -q 10 -m POST http://x/y", "hey", map[string]string{"requested_requests": "2000", "connections": "50", "target_rps": "500", "method": "POST", "url": "http://x/y"}},
		{"npx autocannon -c 100 -d 10 -p 10 http://localhost:3000", "autocannon", map[string]string{"connections": "100", "requested_duration": "10s", "pipelining": "10", "url": "http://localhost:3000"}},
		{`echo "GET http://localhost:8080/" | vegeta attack -rate=450 -duration=30s | vegeta report`, "vegeta", map[string]string{"target_rps": "450", "requested_duration": "30s"}},
		{"# ./bombardier -c 125 -n 1000000 http://localhost:3000/", "bombardier", map[string]string{"connections": "125", "requested_requests": "1000000", "url": "http://localhost:3000/"}},
		{"k6 run --vus 50 --duration 1m script.js", "k6", map[string]string{"connections": "50", "requested_duration": "60s", "script": "script.js"}},
		{"bombardier --fasthttp -c 500 -d 10s -m POST -H Content-Type:application/json -f ./scripts/body.json http://127.0.0.1:3000/json", "bombardier",
			map[string]string{"connections": "500", "requested_duration": "10s", "method": "POST", "request_body": "./scripts/body.json", "url": "http://127.0.0.1:3000/json"}},
	} {
		got, ok := findCommand(c.line, 7)
		if !ok || got.tool != c.tool || got.line != 7 {
			t.Errorf("%q: %v %+v, want %s", c.line, ok, got, c.tool)
			continue
		}
		if len(got.settings) != len(c.want) {
			t.Errorf("%q: settings %v, want %v", c.line, got.settings, c.want)
		}
		for k, v := range c.want {
			if got.settings[k] != v {
				t.Errorf("%q: %s = %q, want %q", c.line, k, got.settings[k], v)
			}
		}
	}
	for _, line := range []string{"We used wrk for this test.", "wrk --frobnicate", "ab", "The ab results are below:", "| wrk | 12,000 |", "hey -n many http://x"} {
		if c, ok := findCommand(line, 1); ok {
			t.Errorf("%q read as a command line: %+v", line, c)
		}
	}
}

// A command line that disagrees with what the report prints keeps the
// report's value and warns, naming both lines.
func TestCommandDisagrees(t *testing.T) {
	plain := readTestdata(t, "testdata/wrk/wrk_plain_nginx_static.txt") // 8s, 2 threads, 32 connections
	in := &Input{Name: "f.md", R: strings.NewReader("$ wrk -t2 -c64 -d8s http://127.0.0.1:8080/static.json\n" + plain)}
	c, err := readWithSink(t, "wrk", in, &labelSink{name: "f.md"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Runs[0].Connections.V != 32 {
		t.Errorf("connections %v, want the report's 32", c.Runs[0].Connections.V)
	}
	if w := fileWarning(in); w != "line 1: the command line gives connections 64, but the report of line 2 prints 32; the report's is kept" {
		t.Errorf("warning %q", w)
	}
}

// The manifest's [[reports]] give labels to some reports of a file: by the
// line of text above them (its named groups), or by their lines; and
// [labels.<key>] from makes a label from another.
func TestReportRulesAndDerivedLabels(t *testing.T) {
	ab := readTestdata(t, "testdata/ab/ab_keepalive_go2_ping_n10000_c20.txt")
	text := "Here is the light-java server:\n\n" + ab + "\nAnd now the netty one, warm:\n\n" + ab + "\n" + ab
	manifest := `[[reports]]
file = "log.txt"
above = 'the (?P<server>[a-z-]+) (?:server|one)'

[[reports]]
file = "log.txt"
lines = [55, 1000]
labels = { phase = "late" }

[labels.test]
from = "endpoint"
pattern = '^/(\w+)'
`
	res, st := ingestDir(t, writeFolder(t, map[string]string{"log.txt": text, ManifestName: manifest}))
	if f := res["log.txt"]; f.Status != Loaded {
		t.Fatalf("log.txt: %s %v", f.Status, f.Err)
	}
	runs := st.loads["w/log.txt"].Runs
	if len(runs) != 3 {
		t.Fatalf("%d runs", len(runs))
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Server+"|"+r.Labels["phase"]+"|"+r.Test+"|"+r.Labels["label_keys"])
	}
	// the third report has no line of text above it since the second:
	// no rule names it, and it is the only one of its server; the later
	// two are "late"
	want := "light-java||ping| netty|late|ping|phase |late|ping|phase"
	if strings.Join(got, " ") != want {
		t.Errorf("runs %q,\nwant %q", strings.Join(got, " "), want)
	}
	for _, bad := range []struct{ toml, msg string }{
		{"[[reports]]\nlabels = { a = \"b\" }\n", "[[reports]] entry 1: expected file, lines or above to say which reports"},
		{"[[reports]]\nfile = \"x\"\n", "[[reports]] entry 1: expected labels, or named groups in above"},
		{"[[reports]]\nlines = [5, 2]\nlabels = { a = \"b\" }\n", "[[reports]] entry 1: lines = [5 2]: expected [first, last], line numbers from 1"},
		{"[labels.test]\npattern = 'x'\n", "[labels.test] has a pattern but no from: expected from = \"label\" to say what the pattern reads"},
	} {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, ManifestName), []byte(bad.toml), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadManifest(d); err == nil || !strings.HasSuffix(err.Error(), bad.msg) {
			t.Errorf("%q: %v, want %q", bad.toml, err, bad.msg)
		}
	}
}

// Reports that the manifest's [[reports]] rules tell apart by their lines
// are no rounds of one another, though their settings are the same
// (networknt's README names its two spring-boot runs only in prose):
// the rules count before the file's runs are numbered. Two reports the
// rules name alike are rounds 1 and 2.
func TestLineRulesTellRoundsApart(t *testing.T) {
	readme := readTestdata(t, "testdata/wild/wrk/networknt-2016-two-spring-boot-runs-named-in-prose.txt")
	for _, c := range []struct {
		name, second string
		want         string
	}{
		{"named apart", "spring-boot-undertow", "spring-boot-tomcat/0/ spring-boot-undertow/0/"},
		{"named alike", "spring-boot-tomcat", "spring-boot-tomcat/1/file order spring-boot-tomcat/2/file order"},
	} {
		t.Run(c.name, func(t *testing.T) {
			manifest := "[[reports]]\nfile = \"README.md\"\nlines = [1, 19]\nlabels = { server = \"spring-boot-tomcat\" }\n\n" +
				"[[reports]]\nfile = \"README.md\"\nlines = [21, 38]\nlabels = { server = \"" + c.second + "\" }\n"
			res, st := ingestDir(t, writeFolder(t, map[string]string{"README.md": readme, ManifestName: manifest}))
			if f := res["README.md"]; f.Status != Loaded {
				t.Fatalf("README.md: %s %v", f.Status, f.Err)
			}
			var got []string
			for _, r := range st.loads["w/README.md"].Runs {
				got = append(got, fmt.Sprintf("%s/%d/%s", r.Server, r.Round.V, r.Labels["round_by"]))
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("runs %q, want %q", strings.Join(got, " "), c.want)
			}
		})
	}
}

// writeFolder writes files (name: content) into a new folder named w,
// whose runs are stored under w/<name>, and returns its path.
func writeFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "w")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readWithSink reads an input with the named format into a collector
// behind sink (a labelSink whose Sink it sets), as the walker does.
func readWithSink(t *testing.T, format string, in *Input, sink *labelSink) (*model.Collector, error) {
	t.Helper()
	c := &model.Collector{}
	sink.Sink = c
	return c, formatByName(t, format).Read(in, &guardSink{name: in.Name, Sink: sink})
}

// FuzzFindCommand: any line either is no command line or gives settings
// whose values read back as their kind (counts and rates as numbers,
// durations in seconds), and it never panics.
func FuzzFindCommand(f *testing.F) {
	for _, s := range []string{
		"$ wrk -t4 -c100 -d30s http://127.0.0.1:8080/ping",
		"steve@joy:~/tool/wrk$ wrk -t4 -c128 -d30s -s pipeline.lua http://localhost:8080",
		"We ran `ab -k -n 10000 -c 20 http://127.0.0.1:8082/ping` three times.",
		`echo "GET http://localhost:8080/" | vegeta attack -rate=450 -duration=30s | vegeta report`,
		"hey -n 2000 -c 50 -q 10 http://x", "wrk -t", "ab -n", "ab -n x http://a", "wrk '-c", "`", "``", "# ", "PS C:\\> .\\bombardier.exe -c 10 http://a",
		"Running 30s test @ http://127.0.0.1:8080/", "| wrk | 1 |", "k6 run -u 10 -d 1h x.js",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, ok := findCommand(line, 1)
		if !ok {
			return
		}
		if _, known := toolFlags[c.tool]; !known {
			t.Fatalf("%q: tool %q", line, c.tool)
		}
		for k, v := range c.settings {
			switch k {
			case "connections", "threads", "requested_requests":
				if _, err := strconv.ParseInt(v, 10, 64); err != nil {
					t.Fatalf("%q: %s = %q", line, k, v)
				}
			case "requested_duration":
				if _, ok := durationSeconds(strings.TrimSuffix(v, "s")); !ok || !strings.HasSuffix(v, "s") {
					t.Fatalf("%q: %s = %q", line, k, v)
				}
			}
		}
	})
}
