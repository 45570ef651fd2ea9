package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// exampleSkipped are the examples that need what a corpus cannot give,
// each with the reason.
var exampleSkipped = map[string]string{
	"wra sql": "the shell needs a terminal",
	"wra ingest --label server=go --label test=ping results/*.txt": "a user's own reports",
	"wra --db bench.duckdb ingest --strict run-2026-11-29/":        "a user's own folder",
	"wra analyze --out site/bench --rps 5000 --wait 20ms results/": "a user's own reports",
	"wra sql --format markdown -f questions/cpu.sql":               "a user's own query file",
	"wra cost --list-providers --prices my-prices.toml":            "a user's own price file",
	"wra record --server api=4242 --database postgresql=unit:postgresql.service --label test=one --out results -- wrk2 -t2 -c16 -d30s -R1000 http://127.0.0.1:8080/one":                "a user's own server and database",
	"wra record --server go --server-cmd './server -addr 127.0.0.1:8080' --ready http://127.0.0.1:8080/ping --out results -- bombardier -c 16 -d 10s -r 500 -l http://127.0.0.1:8080/": "a user's own server",
	"wra record --plan plan.toml --out results --dry-run":                                                 "a user's own plan",
	"wra record --plan plan.toml --out results --seed 42":                                                 "a user's own plan and stacks",
	"wra gate --fail-on 'rps:-5%,latency_p99_ms:+10%,cpu_server_us_per_req:+5%' release.parquet results/": "a user's own export and folder",
	"wra gate --fail-on 'latency_p99_ms:+10%' main.duckdb pr.duckdb --format junit":                       "a user's own stores",
}

// exampleVerdicts are the exit statuses other than 0 that an example
// may end with: a verdict, documented in docs/commands.md, not a failure
// (wra gate: 4 a regression, 5 too few runs to tell).
var exampleVerdicts = map[string][]int{"gate": {4, 5}}

// TestHelpExamples runs every example in wra's help, in order, against a
// store of a copy of data/ (the first two trials), from the folder that
// holds it: each must succeed and print something. Those of wra compare
// and wra table must print a table on stdout.
func TestHelpExamples(t *testing.T) {
	root := corpusFixture(t)
	nbs, err := filepath.Glob("../../notebooks/*.md")
	if err != nil || len(nbs) == 0 {
		t.Fatalf("the notebooks: %v", err)
	}
	for _, nb := range nbs {
		copyTree(t, filepath.Join(root, "notebooks"), map[string]string{filepath.Base(nb): nb})
	}
	db := filepath.Join(root, "wra.duckdb")
	t.Chdir(root)
	if r := wra(t, db, "--quiet", "ingest", "data"); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	ran := 0
	for _, ex := range helpExamples() {
		stdin, args, err := exampleArgs(ex)
		if err != nil {
			t.Errorf("%s: %v", ex, err)
			continue
		}
		line := "wra " + strings.Join(args, " ")
		if why, ok := exampleSkipped[strings.TrimSpace(strings.SplitN(ex, "#", 2)[0])]; ok {
			t.Logf("not run: %s (%s)", ex, why)
			continue
		}
		var out, errb bytes.Buffer
		env := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
		code := run(context.Background(), env, append([]string{"--db", db}, args...))
		ran++
		switch {
		case code != 0 && !slices.Contains(exampleVerdicts[args[0]], code):
			t.Errorf("%s: exit %d: %s", line, code, errb.String())
		case out.Len()+errb.Len() == 0:
			t.Errorf("%s printed nothing", line)
		case (args[0] == "compare" || args[0] == "table") && strings.Count(out.String(), "\n") < 4:
			t.Errorf("%s: no table on stdout:\n%s\n%s", line, out.String(), errb.String())
		}
	}
	if ran < 20 {
		t.Errorf("ran %d examples; the help holds more", ran)
	}
}

// helpExamples are the lines of every example in wra's help, in the
// order of the commands.
func helpExamples() []string {
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	var examples []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				examples = append(examples, line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(e, &globals{}))
	return examples
}

// exampleArgs reads an example line as a shell would: a "# comment" is
// dropped, quotes group words, "echo TEXT | wra ..." gives TEXT on stdin,
// a --db of the example's own is left out for the test's store, and a
// file under /tmp is written under the test's folder instead.
func exampleArgs(line string) (stdin string, args []string, err error) {
	words, err := shellWords(line)
	if err != nil {
		return "", nil, err
	}
	if len(words) > 3 && words[0] == "echo" && words[2] == "|" {
		stdin, words = words[1]+"\n", words[3:]
	}
	if len(words) == 0 || words[0] != "wra" {
		return "", nil, errNotWra
	}
	for i := 1; i < len(words); i++ {
		if words[i] == "--db" && i+1 < len(words) {
			i++
			continue
		}
		if m, _ := filepath.Glob(words[i]); strings.Contains(words[i], "*") && len(m) > 0 {
			args = append(args, m...)
			continue
		}
		args = append(args, strings.TrimPrefix(words[i], "/tmp/"))
	}
	return stdin, args, nil
}

var errNotWra = errorString("an example must call wra")

type errorString string

func (e errorString) Error() string { return string(e) }

// shellWords splits a line into words as sh does for the quoting the
// examples use: single and double quotes, and # starting a comment
// outside quotes.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return append(words, finish(&cur, inWord)...), nil
		case r == ' ' || r == '\t':
			words = append(words, finish(&cur, inWord)...)
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errorString("an unclosed quote")
	}
	return append(words, finish(&cur, inWord)...), nil
}

func finish(b *strings.Builder, inWord bool) []string {
	if !inWord {
		return nil
	}
	w := b.String()
	b.Reset()
	return []string{w}
}
