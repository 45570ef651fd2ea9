package record

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// recompress rewrites a gzip file at the best compression, without a
// name or a time in its header (what gzip -9 -n writes), so that a point
// stream k6 gzipped at its default level takes less room in the corpus.
// The content is k6's byte for byte: the new file is read back and its
// SHA-256 compared with the old one's before it replaces it; on any
// difference or error the old file stays. It returns the sizes before
// and after.
func recompress(path string) (before, after int64, err error) {
	src, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return 0, 0, err
	}
	zr, err := gzip.NewReader(src)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".recompress-*")
	if err != nil {
		return 0, 0, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	zw, err := gzip.NewWriterLevel(tmp, gzip.BestCompression)
	if err != nil {
		return 0, 0, err
	}
	want := sha256.New()
	if _, err := io.Copy(io.MultiWriter(zw, want), zr); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	if err := zw.Close(); err != nil {
		return 0, 0, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return 0, 0, err
	}
	check, err := gzip.NewReader(tmp)
	if err != nil {
		return 0, 0, err
	}
	got := sha256.New()
	if _, err := io.Copy(got, check); err != nil {
		return 0, 0, err
	}
	if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		return 0, 0, fmt.Errorf("%s: the recompressed stream differs from k6's; kept k6's", path)
	}
	n, err := tmp.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, 0, err
	}
	return st.Size(), n, nil
}
