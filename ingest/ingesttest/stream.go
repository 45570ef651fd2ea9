// Package ingesttest makes large inputs for the tests of the packages
// that ingest them: files too large to keep under testdata/.
package ingesttest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// k6Capture is a real k6 --out json stream (see ingest/testdata/k6/MANIFEST.md).
func k6Capture(t testing.TB) []byte {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "testdata", "k6", "k6_constant_go2_ping_points.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// K6Stream writes to path a k6 NDJSON stream of at least size bytes
// (before compression, gzip-compressed when compress is set): a real
// capture, then its Point lines over and over.
func K6Stream(t testing.TB, path string, size int64, compress bool) {
	t.Helper()
	src := k6Capture(t)
	var points bytes.Buffer
	for _, l := range bytes.SplitAfter(src, []byte("\n")) {
		if bytes.Contains(l, []byte(`"type":"Point"`)) {
			points.Write(l)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if compress {
		zw = gzip.NewWriter(f)
		w = zw
	}
	bw := bufio.NewWriter(w)
	bw.Write(src)
	for n := int64(len(src)); n < size; n += int64(points.Len()) {
		bw.Write(points.Bytes())
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Gzip is b gzip-compressed, as one gzip member, at the best compression.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// GzipRepeat is head, then chunk over and over to n bytes or more,
// gzip-compressed: head as one gzip member, then copies of one member of
// chunk, which a gzip reader reads on as one stream (RFC 1952), so that a
// file of gigabytes of content is made in a moment.
func GzipRepeat(head, chunk []byte, n int64) []byte {
	out := Gzip(head)
	member := Gzip(chunk)
	for w := int64(0); w < n; w += int64(len(chunk)) {
		out = append(out, member...)
	}
	return out
}
