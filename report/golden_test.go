package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
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

// A rank prints "=1" for people and 1 for machines; a machine column is
// left out of the human formats.
func TestRankAndMachineColumns(t *testing.T) {
	d := &Data{
		Columns: []Column{{Name: "rank"}, {Name: "tied", Machine: true}, {Name: "server"}},
		Rows:    [][]any{{Rank{N: 1, Tied: true}, true, "a"}, {Rank{N: 1, Tied: true}, true, "b"}, {Rank{N: 3}, false, "c"}},
	}
	want := map[Format]string{
		CSV:      "rank,tied,server\n1,true,a\n1,true,b\n3,false,c\n",
		JSON:     "[\n  {\"rank\": 1, \"tied\": true, \"server\": \"a\"},\n  {\"rank\": 1, \"tied\": true, \"server\": \"b\"},\n  {\"rank\": 3, \"tied\": false, \"server\": \"c\"}\n]\n",
		Markdown: "| rank | server |\n|---:|---|\n| =1 | a |\n| =1 | b |\n| 3 | c |\n",
	}
	for f, w := range want {
		var b strings.Builder
		if err := Write(&b, d, f); err != nil {
			t.Fatal(err)
		}
		if b.String() != w {
			t.Errorf("%s:\ngot  %q\nwant %q", f, b.String(), w)
		}
	}
	var b strings.Builder
	if err := Write(&b, d, HTML); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "tied") || !strings.Contains(b.String(), `<td class="num">=1</td>`) {
		t.Errorf("html: %s", b.String())
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"page k6 (k6-ndjson)": "page-k6-k6-ndjson", "one 250rps": "one-250rps", "  ": "none", "Go/Gin 1.9": "go-gin-1.9"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
