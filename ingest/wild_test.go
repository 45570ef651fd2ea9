package ingest

// The wild corpus: real outputs of the load tools taken from public
// repositories (READMEs, benchmark logs, issue threads), kept as their
// authors printed them under testdata/wild/<tool>/ (PROVENANCE.md says
// where each comes from). testdata/wild/expected.json holds, for every
// file, the numbers it prints, read off the file by hand: each file must
// load through detection and its reader with exactly those numbers, or,
// for the files under notreport/, be skipped or refused at a line.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

const wildDir = "testdata/wild"

// wildRun holds the numbers one report of a file prints. A field left
// out is not compared; a field given as null is one the report does not
// print (and cannot be derived from what it prints), so the run must leave
// it NULL rather than invent a zero. Latencies are in milliseconds,
// converted by hand from the printed unit.
type wildRun struct {
	Requests wildNum[int64]   `json:"requests"`
	RPS      wildNum[float64] `json:"rps"`
	Errors   wildNum[int64]   `json:"errors"`
	Non2xx   wildNum[int64]   `json:"non2xx"`
	MeanMS   wildNum[float64] `json:"mean_ms"`
	P50MS    wildNum[float64] `json:"p50_ms"`
	P99MS    wildNum[float64] `json:"p99_ms"`
}

// wildNum is an expected number: absent, null (not printed) or a value.
type wildNum[T int64 | float64] struct {
	set, null bool
	v         T
}

func (n *wildNum[T]) UnmarshalJSON(b []byte) error {
	n.set = true
	if string(b) == "null" {
		n.null = true
		return nil
	}
	return json.Unmarshal(b, &n.v)
}

// compareNum words the difference between a loaded value and an expected
// one, or returns "" when they agree.
func compareNum[T int64 | float64](run int, name string, got model.Opt[T], want wildNum[T]) string {
	switch {
	case !want.set:
	case want.null && got.Valid:
		return fmt.Sprintf("run %d %s %v, want NULL (not printed)", run, name, got.V)
	case want.null:
	case !got.Valid:
		return fmt.Sprintf("run %d %s NULL, want %v", run, name, want.v)
	case !closeTo(float64(got.V), float64(want.v)) || (isInt(want.v) && got.V != want.v):
		return fmt.Sprintf("run %d %s %v, want %v", run, name, got.V, want.v)
	}
	return ""
}

// isInt reports whether a value is a count, compared exactly.
func isInt[T int64 | float64](v T) bool {
	_, ok := any(v).(int64)
	return ok
}

// wildFile is the entry of one file: the tool its runs name and its runs
// in file order, or notReport for a file that holds no report.
type wildFile struct {
	Tool      string    `json:"tool"`
	NotReport bool      `json:"not_report"`
	Runs      []wildRun `json:"runs"`
}

// stillRefused lists the valid reports that the readers refuse or skip
// today, with the exact error they give. The test asserts that each still
// fails with that text: when a reader learns the layout, the test fails
// and the entry is to be deleted, so that the file's numbers are checked.
var stillRefused = map[string]string{
	"bombardier/bombardier-pr73-2021-after-total-and-2xx-distributions.txt": "bombardier-pr73-2021-after-total-and-2xx-distributions.txt:4:1: bombardier report from line 1: unexpected line \"  Latency Distribution (Total)\" in the Statistics table",
}

// stillWrong lists the files that load today with a number other than the
// one they print: the mismatches, as compareWild words them, joined by
// "; ". Asserted like stillRefused.
var stillWrong = map[string]string{}

func readWildExpected(t *testing.T) map[string]wildFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(wildDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]wildFile
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	return exp
}

// wildFiles lists the corpus files relative to wildDir, in order.
func wildFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(wildDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(wildDir, p)
		rel = filepath.ToSlash(rel)
		if rel == "expected.json" || rel == "PROVENANCE.md" {
			return nil
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// closeTo compares floats to a relative 1e-9: the printed decimal and the
// reader's conversion of it may differ in the last binary digit.
func closeTo(got, want float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= 1e-9*math.Max(math.Abs(got), math.Abs(want))
}

// compareWild lists the differences between the runs a file loaded and
// the runs it prints.
func compareWild(w wildFile, runs []*model.Run) []string {
	var bad []string
	if len(runs) != len(w.Runs) {
		return []string{fmt.Sprintf("%d runs, want %d", len(runs), len(w.Runs))}
	}
	for i, r := range runs {
		e := w.Runs[i]
		if r.Tool != w.Tool {
			bad = append(bad, fmt.Sprintf("run %d tool %q, want %q", i, r.Tool, w.Tool))
		}
		for _, d := range []string{
			compareNum(i, "requests", r.Requests, e.Requests),
			compareNum(i, "rps", r.RPS, e.RPS),
			compareNum(i, "errors", r.Errors, e.Errors),
			compareNum(i, "non2xx", r.Non2xx, e.Non2xx),
			compareNum(i, "mean_ms", r.LatencyMeanMS, e.MeanMS),
			compareNum(i, "p50_ms", r.LatencyP50MS, e.P50MS),
			compareNum(i, "p99_ms", r.LatencyP99MS, e.P99MS),
		} {
			if d != "" {
				bad = append(bad, d)
			}
		}
	}
	return bad
}

// TestWildCorpus loads every file of the wild corpus as ReadFile does
// (detection, then the reader behind the run checks) and compares every
// number it prints.
func TestWildCorpus(t *testing.T) {
	exp := readWildExpected(t)
	files := wildFiles(t)
	if len(files) < 70 {
		t.Fatalf("only %d files under %s", len(files), wildDir)
	}
	seen := map[string]bool{}
	for _, rel := range files {
		seen[rel] = true
		w, ok := exp[rel]
		if !ok {
			t.Errorf("%s: no entry in expected.json", rel)
			continue
		}
		if !w.NotReport && len(w.Runs) == 0 {
			t.Errorf("%s: expected.json lists no run", rel)
		}
		t.Run(rel, func(t *testing.T) {
			c := &model.Collector{}
			_, err := ReadFile(filepath.Join(wildDir, rel), c)
			if want, ok := stillRefused[rel]; ok {
				switch {
				case err == nil:
					t.Errorf("loads now (%d runs): delete it from stillRefused so that its numbers are checked", len(c.Runs))
				case err.Error() != want:
					t.Errorf("error changed:\n got %v\nwant %s\n(update or delete its stillRefused entry)", err, want)
				}
				return
			}
			if w.NotReport {
				var se *SyntaxError
				switch {
				case err == nil:
					t.Errorf("not a report, but loaded %d runs", len(c.Runs))
				case errors.Is(err, ErrUnknownFormat):
				case errors.As(err, new(*SkipError)):
				case !errors.As(err, &se):
					t.Errorf("refused with %q (%T), not a *SyntaxError", err, err)
				case se.File != filepath.Base(rel) || se.Line < 1:
					t.Errorf("refusal %q does not name the file and a line", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v\nstillRefused entry: %q: %q,", err, rel, err.Error())
			}
			got := strings.Join(compareWild(w, c.Runs), "; ")
			if want, ok := stillWrong[rel]; ok {
				if got != want {
					t.Errorf("mismatches changed:\n got %s\nwant %s\n(update or delete its stillWrong entry)", got, want)
				}
				return
			}
			if got != "" {
				t.Errorf("%s\nstillWrong entry: %q: %q,", got, rel, got)
			}
		})
	}
	for rel := range exp {
		if !seen[rel] {
			t.Errorf("expected.json lists %s, which is not in %s", rel, wildDir)
		}
	}
	for _, m := range []map[string]string{stillRefused, stillWrong} {
		for rel := range m {
			if !seen[rel] {
				t.Errorf("ratchet entry %s names no file", rel)
			}
		}
	}
}

// addWildSeeds seeds a fuzz target with the wild corpus files of the
// named folders (a tool, or notreport), whole and cut, as addFuzzSeeds does.
func addWildSeeds(f *testing.F, folders ...string) {
	for _, d := range folders {
		addFuzzSeeds(f, filepath.Join(wildDir, d, "*"))
	}
}

// wildSeeds returns the wild corpus files of the named folders whose names
// end in ext ("" for all), for the fuzz targets that take their seeds as
// bytes.
func wildSeeds(f *testing.F, ext string, folders ...string) [][]byte {
	var out [][]byte
	for _, d := range folders {
		paths, err := filepath.Glob(filepath.Join(wildDir, d, "*"+ext))
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			out = append(out, []byte(readTestdata(f, p)))
		}
	}
	return out
}

// checkClaims checks that each capture of the folder dir, in the wild
// corpus and under testdata, is detected as want(path), and that no other
// capture under testdata is detected as any of the formats mine.
func checkClaims(t *testing.T, dir string, want func(path string) string, mine ...string) {
	t.Helper()
	own, _ := filepath.Glob(filepath.Join(wildDir, dir, "*"))
	made, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
	own = append(own, made...)
	for _, p := range own {
		if strings.HasSuffix(p, ".md") {
			continue // the folder's notes on its captures
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			continue // a run kept as a folder of files, tested where it is read
		}
		if f, err := DetectFile(p); err != nil || f == nil || f.Name != want(p) {
			t.Errorf("%s detected as %v (%v), want %s", p, f, err, want(p))
		}
	}
	all, _ := filepath.Glob("testdata/*/*")
	more, _ := filepath.Glob(filepath.Join(wildDir, "*", "*"))
	for _, p := range append(all, more...) {
		if strings.HasPrefix(p, filepath.Join(wildDir, dir)+"/") || strings.HasPrefix(p, filepath.Join("testdata", dir)+"/") || strings.HasSuffix(p, ".md") {
			continue
		}
		f, err := DetectFile(p)
		if err != nil || f == nil {
			continue // a folder, or no format
		}
		for _, m := range mine {
			if f.Name == m {
				t.Errorf("%s, another tool's output, detected as %s", p, m)
			}
		}
	}
}

// always returns a want function for checkClaims of one format.
func always(format string) func(string) string { return func(string) string { return format } }
