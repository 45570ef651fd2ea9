package main

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The examples of the README and of docs/ are what wra does: its help's
// examples, which TestHelpExamples runs, and its output.

// TestReadmeExamples: every wra command line in the README's section
// "Commands" is an example of wra's own help, which TestHelpExamples
// runs against the corpus, so the README shows nothing the help does
// not.
func TestReadmeExamples(t *testing.T) {
	help := map[string]bool{}
	for _, ex := range helpExamples() {
		words, err := shellWords(ex)
		if err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		help[strings.Join(words, "\x00")] = true
	}
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	in := false
	var shown []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = line == "## Commands"
			continue
		}
		if l := strings.TrimSpace(line); in && strings.HasPrefix(line, "    ") && strings.HasPrefix(l, "wra ") {
			shown = append(shown, l)
		}
	}
	var commands []string
	for _, l := range shown {
		words, err := shellWords(l)
		if err != nil {
			t.Errorf("README.md: %s: %v", l, err)
			continue
		}
		if !help[strings.Join(words, "\x00")] {
			t.Errorf("README.md: %q is not an example of wra's help", l)
		}
		commands = append(commands, words[1])
	}
	sort.Strings(commands)
	want := []string{"analyze", "compare", "cost", "export", "gate", "ingest", "notebook", "record", "sql", "table"}
	if !reflect.DeepEqual(commands, want) {
		t.Errorf("README.md's section Commands shows an example of %v, want one each of %v", commands, want)
	}
}

// TestDocsCostWorkedExample: the worked example of docs/cost.md is the
// command and the CSV that wra cost prints for it (the figures the tests
// of cost and TestCostCheckedExampleFormats check by hand).
func TestDocsCostWorkedExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(docsDir, "cost.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n## A worked example\n\n```\n")
	block, _, closed := strings.Cut(after, "\n```\n")
	if !ok || !closed {
		t.Fatal("docs/cost.md: no code block under the heading \"A worked example\"")
	}
	var command, output []string
	more := true // the command goes on: a line ending in a backslash
	for _, line := range strings.Split(block, "\n") {
		if more {
			line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
			more = strings.HasSuffix(line, `\`)
			command = append(command, strings.TrimSuffix(line, `\`))
			continue
		}
		output = append(output, line)
	}
	words, err := shellWords(strings.Join(command, " "))
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{"wra"}, append(checkedExample, "--format", "csv")...)
	if !reflect.DeepEqual(words, want) {
		t.Errorf("docs/cost.md's worked example runs %q, want %q", words, want)
	}
	r := wra(t, filepath.Join(t.TempDir(), "none.duckdb"), words[1:]...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := strings.Join(output, "\n") + "\n"; got != r.stdout {
		t.Errorf("docs/cost.md's worked example prints\n%s\nwra cost prints\n%s", got, r.stdout)
	}
}
