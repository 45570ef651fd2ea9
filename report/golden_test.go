package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var (
	update = flag.Bool("update", false, "rewrite the golden files under testdata/")
	pngDir = flag.String("pngdir", "", "also write every golden plot as PNG into this folder, to look at")
)

// golden compares got with testdata/name. With -update it rewrites the
// file instead; on a mismatch it writes testdata/name.got beside it.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		if err := os.WriteFile(path+".got", got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s differs from the golden file; the output is in %s.got (go test -update accepts it)", path, path)
	}
}
