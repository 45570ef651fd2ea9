package ingest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
	"golang.org/x/text/encoding/simplifiedchinese"
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

// readContent reads a capture as the readers see it: decompressed.
func readContent(t *testing.T, path string) []byte {
	t.Helper()
	o, err := open(path, filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	b, err := io.ReadAll(o.R)
	if err != nil {
		t.Fatal(err)
	}
	return b
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

// A tool on a Chinese Windows writes its text in GBK: a field that is not
// UTF-8 is kept with its bytes escaped and a warning naming its line,
// and the file's figures load (it was refused whole). No real GBK capture
// could be had: the real JTL of http-jmeter-report-2019, whose labels
// are Chinese ("api/account/list新", thread "提测接口 1-1"), is encoded
// in GBK here, as JMeter writes it where GBK is the platform's charset.
func TestNonUTF8FieldsKept(t *testing.T) {
	const f = "testdata/wild/jmeter/http-jmeter-report-2019-non-http-failures.jtl.gz"
	want := readCase(t, f)
	b := readContent(t, f)
	gbk, err := simplifiedchinese.GBK.NewEncoder().Bytes(b)
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{Name: "gbk.jtl", R: bytes.NewReader(gbk)}
	got := &model.Collector{}
	fm := Detect(gbk)
	if fm == nil {
		t.Fatal("GBK JTL: no format")
	}
	if err := fm.Read(in, &guardSink{Sink: got, name: "gbk.jtl", in: in}); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != len(want.Runs) {
		t.Fatalf("%d runs, want %d", len(got.Runs), len(want.Runs))
	}
	for i, r := range got.Runs {
		if r.Requests != want.Runs[i].Requests || r.Errors != want.Runs[i].Errors || r.LatencyP99MS != want.Runs[i].LatencyP99MS {
			t.Errorf("run %d: %v requests, %v errors, p99 %v; want %v, %v, %v", i, r.Requests, r.Errors, r.LatencyP99MS,
				want.Runs[i].Requests, want.Runs[i].Errors, want.Runs[i].LatencyP99MS)
		}
	}
	// 新 is GBK d0 c2.
	if name := got.Runs[1].Labels["request_name"]; name != `api/account/list\xd0\xc2` {
		t.Errorf("request_name %q", name)
	}
	if w := fileWarning(in); !strings.Contains(w, "not UTF-8, kept with each byte") || !strings.Contains(w, "line 2 threadName") {
		t.Errorf("warning %q", w)
	}
}
