package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestShippedNotebooks runs every notebook in notebooks/ over the corpus
// in data/ and compares the output with its golden copy under
// testdata/notebooks/. The notebooks are shipped with these results in
// them, so the test also checks that each one is up to date. -update
// rewrites the golden copies and the notebooks with their plots.
func TestShippedNotebooks(t *testing.T) {
	if _, err := os.Stat("../../data/wra.toml"); err != nil {
		t.Fatalf("the corpus is missing: %v", err)
	}
	db := filepath.Join(t.TempDir(), "data.duckdb")
	if r := wra(t, db, "--quiet", "ingest", "../../data"); r.code != 0 {
		t.Fatalf("ingest data/: exit %d: %s", r.code, r.stderr)
	}
	files, err := filepath.Glob("../../notebooks/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var shipped []string
	for _, f := range files {
		if filepath.Base(f) != "README.md" {
			shipped = append(shipped, f)
		}
	}
	if len(shipped) < 4 {
		t.Fatalf("%d notebooks in notebooks/, want at least 4", len(shipped))
	}
	for _, src := range shipped {
		name := filepath.Base(src)
		t.Run(strings.TrimSuffix(name, ".md"), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), name)
			r := wra(t, db, "--quiet", "notebook", "run", "--out", out, src)
			if r.code != 0 {
				t.Errorf("exit %d: %s", r.code, r.stderr)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("notebooks", name), string(got))
			// The same run again gives the same bytes, plots included.
			again := filepath.Join(t.TempDir(), name)
			wra(t, db, "--quiet", "notebook", "run", "--out", again, src)
			plots, _ := filepath.Glob(strings.TrimSuffix(out, ".md") + ".*.svg")
			for _, p := range plots {
				a, _ := os.ReadFile(p)
				b, _ := os.ReadFile(filepath.Join(filepath.Dir(again), filepath.Base(p)))
				if len(a) == 0 || string(a) != string(b) {
					t.Errorf("%s differs between two runs", filepath.Base(p))
				}
			}
			if b, _ := os.ReadFile(again); string(b) != string(got) {
				t.Errorf("a second run gave other output")
			}
			if *update {
				if err := os.WriteFile(src, got, 0o644); err != nil {
					t.Fatal(err)
				}
				for _, p := range plots {
					b, _ := os.ReadFile(p)
					if err := os.WriteFile(filepath.Join(filepath.Dir(src), filepath.Base(p)), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			if shippedText, _ := os.ReadFile(src); string(shippedText) != string(got) {
				t.Errorf("%s is not up to date with its results over data/; run the test with -update", src)
			}
			for _, p := range plots {
				a, _ := os.ReadFile(p)
				b, err := os.ReadFile(filepath.Join(filepath.Dir(src), filepath.Base(p)))
				if err != nil || string(a) != string(b) {
					t.Errorf("notebooks/%s is missing or not up to date; run the test with -update", filepath.Base(p))
				}
			}
		})
	}
}

// TestNotebookChartOfSums plots a HUGEINT column (a sum of BIGINTs) and a
// DECIMAL one: both are numbers to a chart.
func TestNotebookChartOfSums(t *testing.T) {
	db := ingestedSamples(t)
	src := filepath.Join(t.TempDir(), "sums.md")
	text := "# Sums\n\n```sql chart=bar x=server y=requests\nSELECT server, sum(responses_2xx) AS requests FROM runs GROUP BY 1 ORDER BY 1\n```\n\n" +
		"```sql chart=bar x=server y=d\nSELECT server, 1.25::DECIMAL(5,2) AS d FROM runs GROUP BY 1 ORDER BY 1\n```\n"
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := wra(t, db, "--quiet", "notebook", "run", src)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, n := range []int{1, 2} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(src), "sums."+strconv.Itoa(n)+".svg")); err != nil {
			t.Errorf("chart %d: %v", n, err)
		}
	}
}
