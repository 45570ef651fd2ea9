package record

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A point stream gzipped at the fastest level comes back smaller, with the
// same content byte for byte and no name or time in its header; a file
// that is not gzip is left as it was.
func TestRecompress(t *testing.T) {
	var lines strings.Builder
	for i := range 20000 {
		lines.WriteString(`{"metric":"http_req_duration","type":"Point","data":{"time":"2026-12-01T15:16:34.04879Z","value":0.`)
		lines.WriteString(strings.Repeat("3", i%7+1))
		lines.WriteString(`,"tags":{"step":"100","status":"200"}}}` + "\n")
	}
	content := []byte(lines.String())
	var fast bytes.Buffer
	zw, err := gzip.NewWriterLevel(&fast, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	zw.Name = "page.ndjson"
	zw.Write(content)
	zw.Close()
	p := filepath.Join(t.TempDir(), "page.ndjson.gz")
	if err := os.WriteFile(p, fast.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	before, after, err := recompress(p)
	if err != nil {
		t.Fatal(err)
	}
	if before != int64(fast.Len()) || !(after < before) {
		t.Errorf("sizes %d -> %d, want smaller than %d", before, after, fast.Len())
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("content changed (err %v)", err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("header keeps name %q and time %v", zr.Name, zr.ModTime)
	}
	plain := filepath.Join(t.TempDir(), "plain.ndjson.gz")
	os.WriteFile(plain, content[:100], 0o644)
	if _, _, err := recompress(plain); err == nil {
		t.Error("a file that is not gzip was recompressed")
	}
	if b, _ := os.ReadFile(plain); !bytes.Equal(b, content[:100]) {
		t.Error("a file that is not gzip was changed")
	}
}
