package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wra-bench/wra/cmd/wra/internal/browser"
)

// lastLine is the last line a command printed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestAnalyzeSaysHowToOpen checks the line wra analyze ends with, and
// that --open starts the browser command on the report's URL where
// there is a graphical session and says why not where there is none.
// Nothing is started: the test's env records what would be.
func TestAnalyzeSaysHowToOpen(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	copyTree(t, corpus, map[string]string{"records/records.csv": "../../ingest/testdata/records/records.csv"})
	db, out := filepath.Join(dir, "t.duckdb"), filepath.Join(dir, "report")
	u, err := browser.FileURL(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	var started [][]string
	run1 := func(vars map[string]string, args ...string) result {
		var stdout, stderr bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
			getenv: func(k string) string { return vars[k] },
			lookPath: func(name string) (string, error) {
				if name == "xdg-open" {
					return "/usr/bin/xdg-open", nil
				}
				return "", exec.ErrNotFound
			},
			start: func(name string, args ...string) error {
				started = append(started, append([]string{name}, args...))
				return nil
			},
		}
		code := run(context.Background(), e, append([]string{"--db", db, "analyze", "--out", out}, args...))
		return result{stdout.String(), stderr.String(), code}
	}
	r := run1(nil, corpus)
	if want := "wra: report written to " + filepath.Join(out, "index.html") + "; open " + u + " in a browser, or run wra analyze with --open"; r.code != 0 || lastLine(r.stderr) != want {
		t.Fatalf("exit %d, last line\n%s\nwant\n%s", r.code, lastLine(r.stderr), want)
	}
	r = run1(map[string]string{"DISPLAY": ":0"}, "--no-ingest", "--open")
	if want := "wra: report in " + filepath.Join(out, "index.html") + " is up to date, opened with xdg-open"; r.code != 0 || lastLine(r.stderr) != want {
		t.Errorf("exit %d, last line\n%s\nwant\n%s", r.code, lastLine(r.stderr), want)
	}
	if want := [][]string{{"xdg-open", u}}; !reflect.DeepEqual(started, want) {
		t.Errorf("started %q, want %q", started, want)
	}
	r = run1(nil, "--no-ingest", "--open")
	if want := "--open: no browser to open: no graphical session ($DISPLAY and $WAYLAND_DISPLAY are unset) and no $BROWSER; open " + u + " in a browser"; r.code != 0 || !strings.HasSuffix(lastLine(r.stderr), want) {
		t.Errorf("exit %d, last line\n%s\nwant it to end with\n%s", r.code, lastLine(r.stderr), want)
	}
	if len(started) != 1 {
		t.Errorf("without a graphical session something was started: %q", started[1:])
	}
}
