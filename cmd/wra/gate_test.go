package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joshdk/go-junit"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// runGateBinary runs the built wra and returns its stdout, stderr and
// exit status.
func runGateBinary(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(wraBinary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), 0
}

// TestGateStatuses runs wra gate on data/'s store: go-pq against go-pgx,
// which ran in the same five trials. Their server CPU per request at
// 100 and 500 requests/s is higher by 28% and 12% in all five trials
// (sign test 1/32), at 250 not in all.
func TestGateStatuses(t *testing.T) {
	db := filepath.Join(t.TempDir(), "data.duckdb")
	if _, stderr, code := runGateBinary(t, "ingest", "--db", db, "-q", "../../data"); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	sides := []string{"gate", "--db", db, "--by", "server", "--base", "go-pgx", "--vs", "go-pq", "--holm=false"}

	// a regression: JUnit read back against the schema's elements
	out, stderr, code := runGateBinary(t, append(sides, "--fail-on", "cpu_server_us_per_req:+5%", "--format", "junit")...)
	if code != exitRegression {
		t.Fatalf("exit %d, want %d (regression): %s", code, exitRegression, stderr)
	}
	var suites struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &suites); err != nil {
		t.Fatalf("JUnit: %v\n%s", err, out)
	}
	failed := 0
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				failed++
				if c.Failure.Type != "regression" || !strings.Contains(c.Failure.Message, "cpu_server_us_per_req") {
					t.Errorf("failure of %s: %+v", c.Name, c.Failure)
				}
			}
		}
	}
	if suites.Tests != 3 || suites.Failures != 2 || failed != 2 || len(suites.Suites) != 1 || suites.Suites[0].Name != "cpu_server_us_per_req" {
		t.Errorf("JUnit: %d tests, %d failures (%d failure elements), suites %d; want 3, 2, 2, 1\n%s", suites.Tests, suites.Failures, failed, len(suites.Suites), out)
	}
	// and as a JUnit consumer reads it (go-junit, the parser CI
	// reporters use): the same suites, cases and statuses.
	read, err := junit.Ingest([]byte(out))
	if err != nil {
		t.Fatalf("go-junit: %v\n%s", err, out)
	}
	if len(read) != 1 || read[0].Name != "cpu_server_us_per_req" || read[0].Totals.Tests != 3 || read[0].Totals.Failed != 2 || read[0].Totals.Passed != 1 {
		t.Errorf("go-junit reads %d suites: %+v; want one of 3 tests, 2 failed, 1 passed", len(read), read)
	}
	for _, s := range read {
		for _, c := range s.Tests {
			if c.Status == junit.StatusFailed && (c.Error == nil || !strings.Contains(c.Message, "cpu_server_us_per_req") || !strings.Contains(c.Message, "limit cpu_server_us_per_req:+5%")) {
				t.Errorf("go-junit: failed case %s without its message: %+v", c.Name, c)
			}
		}
	}

	// too few runs: five trials, Holm across the rps checks
	out, stderr, code = runGateBinary(t, "gate", "--db", db, "--by", "server", "--base", "go-pgx", "--vs", "go-pq", "--fail-on", "rps:-5%", "--format", "json")
	if code != exitTooFew {
		t.Fatalf("exit %d, want %d (too few runs): %s", code, exitTooFew, stderr)
	}
	var doc struct {
		Verdict    string `json:"verdict"`
		RunsNeeded int    `json:"runs_needed"`
		Checks     []struct {
			Verdict string   `json:"verdict"`
			P       *float64 `json:"p"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	if doc.Verdict != "too-few-runs" || doc.RunsNeeded <= 5 || len(doc.Checks) == 0 {
		t.Errorf("JSON: verdict %q, runs_needed %d, %d checks", doc.Verdict, doc.RunsNeeded, len(doc.Checks))
	}

	// a pass: Markdown read by goldmark, the verdict first, then the table
	out, stderr, code = runGateBinary(t, append(sides, "--fail-on", "cpu_server_us_per_req:+50%", "--format", "markdown")...)
	if code != exitOK {
		t.Fatalf("exit %d, want 0 (pass): %s", code, stderr)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	root := md.Parser().Parse(text.NewReader([]byte(out)))
	first := root.FirstChild()
	if h, ok := first.(*ast.Heading); !ok || !strings.Contains(string(h.Lines().Value([]byte(out))), "wra gate: pass") {
		t.Errorf("Markdown does not open with the verdict's heading:\n%s", out)
	}
	rows := 0
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := n.(*east.TableRow); ok && entering {
			rows++
		}
		return ast.WalkContinue, nil
	})
	if rows != 3 {
		t.Errorf("Markdown table: %d body rows, want 3\n%s", rows, out)
	}

	// bad limits: usage errors naming the part
	for _, c := range []struct{ spec, part string }{
		{"rps:5%", `"5%"`}, {"rps", `"rps"`}, {"nope:+5%", `"nope"`}, {"rps:-5%,rps:-1%", `"rps:-1%"`},
	} {
		_, stderr, code := runGateBinary(t, append(sides, "--fail-on", c.spec)...)
		if code != exitUsage || !strings.Contains(stderr, c.part) || !strings.Contains(stderr, "expected") {
			t.Errorf("--fail-on %q: exit %d, stderr %q; want 2 naming %s", c.spec, code, stderr, c.part)
		}
	}
}
