package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCompletion asks the completion command, as the shells' scripts do
// (wra __complete ARGS... WORD), for the values of flags and arguments,
// from a store of real harness records.
func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.duckdb")
	if r := wra(t, db, "ingest", "../../ingest/testdata/records/records.csv"); r.code != 0 {
		t.Fatalf("ingest: exit %d\n%s", r.code, r.stderr)
	}
	const (
		noFile        = ":4"
		noFileNoSpace = ":6"
	)
	for _, tc := range []struct {
		args []string
		want []string // the candidates, then the directive
	}{
		{[]string{"--format", "c"}, []string{"csv", noFile}},
		{[]string{"sql", "--format", ""}, []string{"table", "csv", "json", "markdown", "html", noFile}},
		{[]string{"compare", "--by", "server", "--base", ""}, []string{"go-gmp1", "go-gmp2", "nginx", noFile}},
		{[]string{"compare", "--by", "test", "--vs", "w"}, []string{"wait", noFile}},
		{[]string{"compare", "--base", ""}, []string{noFile}}, // no --by yet
		{[]string{"compare", "--by", "tes"}, []string{"test", noFile}},
		{[]string{"ingest", "--label", "serv"}, []string{"server=", noFileNoSpace}},
		{[]string{"ingest", "--label", "server=go"}, []string{"server=go-gmp1", "server=go-gmp2", noFile}},
		{[]string{"analyze", "--label", "test=d"}, []string{"test=db", noFile}},
		{[]string{"cost", "--server", "n"}, []string{"nginx", noFile}},
		{[]string{"cost", "--provider", "gcp-"}, []string{"gcp-cloud-run", "gcp-n2", "gcp-e2", noFile}},
		{[]string{"sql", "SELECT * FROM cpu_"}, []string{"SELECT * FROM cpu_per_request", noFile}},
		{[]string{"sql", "SELECT"}, []string{noFile}}, // the first word is not a name
		{[]string{"table", "--metric", "latency_p9"}, []string{"latency_p90_ms", "latency_p95_ms", "latency_p99_ms", "latency_p999_ms", "latency_p97_5_ms", "latency_p98_ms", "latency_p99_99_ms", "latency_p99_999_ms", noFile}},
		{[]string{"table", "--row", "server,connec"}, []string{"server,connections", noFileNoSpace}},
	} {
		r := complete(t, db, tc.args...)
		if r.code != 0 {
			t.Fatalf("%q: exit %d\n%s", tc.args, r.code, r.stderr)
		}
		if got := strings.Split(strings.TrimSpace(r.stdout), "\n"); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.args, got, tc.want)
		}
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		if r := wra(t, db, "completion", sh); r.code != 0 || !strings.Contains(r.stdout, "__complete") {
			t.Errorf("wra completion %s: exit %d, %d bytes without __complete", sh, r.code, len(r.stdout))
		}
	}
	// No store: the values that need one are none, and nothing is made.
	missing := filepath.Join(dir, "none.duckdb")
	if r := complete(t, missing, "compare", "--by", "server", "--base", ""); strings.TrimSpace(r.stdout) != noFile {
		t.Errorf("without a store: %q", r.stdout)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("completion made a store: %v", err)
	}
}

// complete runs wra __complete --db db ARGS..., as the shells do.
func complete(t *testing.T, db string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := run(context.Background(), e, append([]string{"__complete", "--db", db}, args...))
	return result{out.String(), errb.String(), code}
}
