package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// TestImpossiblePercentile: wrk prints "99%    0.00us" under "90%
// 1.92ms" (networknt's README, 110603088 requests): the p99 is stored as
// NULL, its row left out of the spectrum, the text kept in raw.*, the run
// and the file warned at the run's line (3, its Running line); --strict
// refuses the file.
func TestImpossiblePercentile(t *testing.T) {
	const f = "testdata/wild/wrk/networknt-2019-two-runs-p99-0.00us-below-p90.txt"
	c := &model.Collector{}
	if _, err := ReadFile(f, c); err != nil {
		t.Fatal(err)
	}
	r := c.Runs[0]
	expectF(t, "latency_p50_ms", r.LatencyP50MS, 0.286)
	expectF(t, "latency_p90_ms", r.LatencyP90MS, 1.92)
	expectF(t, "latency_p99_ms", r.LatencyP99MS, nullWant)
	if len(r.Percentiles) != 3 || r.Percentiles[2].Percentile != 90 {
		t.Errorf("spectrum %v, want the 50, 75 and 90 rows", r.Percentiles)
	}
	for k, want := range map[string]string{"raw.latency_p99_ms": "0", "raw.latency_percentiles": "99=0"} {
		if r.Labels[k] != want {
			t.Errorf("label %s = %q, want %q", k, r.Labels[k], want)
		}
	}
	if w := r.Labels["warning"]; !strings.Contains(w, "line 3: latency_p99_ms 0 below latency_p90_ms 1.92") {
		t.Errorf("warning %q", w)
	}
	// The second run of the file is whole.
	expectF(t, "run 1 latency_p99_ms", c.Runs[1].LatencyP99MS, 22.17)

	dir := t.TempDir()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wrk.txt"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := ingestDir(t, dir)
	if fr := res["wrk.txt"]; fr.Status != Loaded || !strings.Contains(fr.Warning, "line 3 latency_p99_ms 0") {
		t.Errorf("ingest: %s, warning %q", fr.Status, fr.Warning)
	}
	strict := &memStore{}
	sres, err := Ingest(t.Context(), strict, []string{dir}, Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var se *SyntaxError
	if fr := sres.Files[0]; fr.Status != Failed || !errors.As(fr.Err, &se) || se.Line != 3 || !strings.Contains(fr.Err.Error(), "impossible values (--strict)") {
		t.Errorf("--strict: %s %v", fr.Status, fr.Err)
	}
}

// TestEscapeNonUTF8 keeps every byte: valid characters as they are, the
// others as \xNN.
func TestEscapeNonUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"caf\xe9":              `caf\xe9`,
		"\xb5\xc7\xc2\xbc":     `\xb5\xc7` + "\u00bc", // GBK 登录: c2 bc is also UTF-8's ¼
		"登录 ok":                "登录 ok",
		"a\xffb\u00e9\xe9\x80": `a\xffb` + "\u00e9" + `\xe9\x80`,
	} {
		if got := escapeNonUTF8(in); got != want {
			t.Errorf("escapeNonUTF8(%q) = %q, want %q", in, got, want)
		}
	}
}
