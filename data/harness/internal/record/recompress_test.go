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

// The ladders of a stage whose folder's name is a glob pattern (a
// user's -out of run[1]) are recompressed, and those of the folder it
// would match are not.
func TestRecompressLaddersOfTheStageNamed(t *testing.T) {
	var fast bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&fast, gzip.BestSpeed)
	zw.Write(bytes.Repeat([]byte(`{"type":"Point","metric":"http_reqs","data":{"value":1}}`+"\n"), 5000))
	zw.Close()
	parent := t.TempDir()
	var paths []string
	for _, stage := range []string{"run[1]", "run1"} {
		p := filepath.Join(parent, stage, "ladder", "t1", "go-pgx", "page.ndjson.gz")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, fast.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var log strings.Builder
	r := &Runner{Log: &log, stage: filepath.Join(parent, "run[1]")}
	if err := r.recompressLadders(); err != nil {
		t.Fatal(err)
	}
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if changed := !bytes.Equal(b, fast.Bytes()); changed != (i == 0) {
			t.Errorf("%s: recompressed %v, want %v\n%s", p, changed, i == 0, log.String())
		}
	}
}
