package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusFixture is a small copy of the repository's corpus, data/, under
// the same names: its manifest, the first two trials of every cell (the
// ladders by their k6 summaries, and the point streams of go-pgx's and
// node-pg's first only, which are large), the
// harness rows and memory points of those trials, and their calibration.
// It returns the folder that holds data/.
func corpusFixture(t *testing.T) string {
	t.Helper()
	const from = "../../data"
	root := t.TempDir()
	to := filepath.Join(root, "data")
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		rel = filepath.ToSlash(rel)
		parts := strings.Split(rel, "/")
		switch {
		case d.IsDir() && (rel == "harness" || len(parts) == 2 && strings.HasPrefix(parts[1], "t") && parts[1] != "t1" && parts[1] != "t2"):
			return filepath.SkipDir
		case d.IsDir(), strings.HasSuffix(rel, ".ndjson.gz") && rel != "ladder/t1/go-pgx/page.ndjson.gz" && rel != "ladder/t1/node-pg/page.ndjson.gz":
			return nil
		case parts[0] == "calibration" && !strings.HasPrefix(parts[1], "trial-1-") && !strings.HasPrefix(parts[1], "trial-2-") && !strings.HasPrefix(parts[1], "noise-"):
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch parts[0] {
		case "records":
			b = firstTrials(t, b, "trial")
		case "memory":
			b = firstTrials(t, b, "pass")
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(to, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// firstTrials keeps the header of a CSV file and its rows whose column
// col is 1 or 2 (the corpus's CSV files quote nothing).
func firstTrials(t *testing.T, b []byte, col string) []byte {
	t.Helper()
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(b))
	i := -1
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		if i < 0 {
			for j, f := range fields {
				if f == col {
					i = j
				}
			}
			if i < 0 {
				t.Fatalf("no column %q in %q", col, sc.Text())
			}
		} else if fields[i] != "1" && fields[i] != "2" {
			continue
		}
		out.WriteString(sc.Text() + "\n")
	}
	return out.Bytes()
}

// TestTableTitlesOfCorpus: laid out by server and connections, the
// corpus's runs split by tool, test and rate into tables whose titles name
// the labels their runs set, no "(none)" for one only another tool sets,
// and no two alike (a k6 ladder's points and its summary are told apart
// by their format).
func TestTableTitlesOfCorpus(t *testing.T) {
	root := corpusFixture(t)
	db := filepath.Join(root, "wra.duckdb")
	if r := wra(t, db, "--quiet", "ingest", filepath.Join(root, "data")); r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	r := wra(t, db, "--format", "table", "table", "--metric", "rps", "--row", "server", "--col", "connections")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var titles []string
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "rps by server") {
			titles = append(titles, line)
		}
	}
	want := []string{
		"tool ab, test one", "tool ab, test waiting", "tool bombardier, test one",
		"tool k6, format k6-ndjson, test page", "tool k6, format k6-summary-export, test page",
		"tool k6, format k6-text, test one, target_rps 500",
		"tool wrk2, test one, threads 2, target_rps 100", "tool wrk2, test one, threads 2, target_rps 500",
		"tool wrk2, test page, threads 2, target_rps 250",
	}
	if len(titles) != len(want) || strings.Contains(strings.Join(titles, "\n"), "(none)") {
		t.Fatalf("%d tables, want %d:\n%s", len(titles), len(want), strings.Join(titles, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(titles[i], "rps by server (rows) and connections (columns): "+w) {
			t.Errorf("table %d: %q, want it to name %q", i+1, titles[i], w)
		}
	}
}
