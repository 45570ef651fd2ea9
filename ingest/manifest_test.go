package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

func manifestOf(t *testing.T, text string) (*Manifest, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return ReadManifest(dir)
}

// [labels] holds the labels of every file and, as tables, how people
// read a label's values; every run keeps the display, which is no factor.
func TestManifestLabelDisplay(t *testing.T) {
	m, err := manifestOf(t, `
[labels]
database = "postgresql"

[labels.server]
order = ["node", "dext"]
names = { dext = "Dext 1.0.1 (HTTP.sys)", node = "Node 24 · Fastify, 6 processes" }
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Labels) != 1 || m.Labels["database"] != "postgresql" {
		t.Errorf("labels %v", m.Labels)
	}
	got := m.LabelsFor("a.txt")[model.DisplayLabel]
	want := `{"server":{"order":["node","dext"],"names":{"dext":"Dext 1.0.1 (HTTP.sys)","node":"Node 24 · Fastify, 6 processes"}}}`
	if got != want {
		t.Errorf("display label %s\nwant %s", got, want)
	}
	d, err := model.ParseDisplay(got)
	if err != nil || d.Name("server", "dext") != "Dext 1.0.1 (HTTP.sys)" || d.Name("server", "go") != "go" || d.Compare("server", "dext", "node") <= 0 {
		t.Errorf("display %+v %v", d, err)
	}
	if m.design().factor(model.DisplayLabel) {
		t.Error("the display label must not be a factor")
	}
}

func TestManifestLabelDisplayErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[labels.server]\norder = \"dext\"\n", `[labels.server] order: expected a list of the label's values, as text`},
		{"[labels.server]\nnames = { dext = 1 }\n", `[labels.server] names: expected a table of value = "display name"`},
		{"[labels.server]\nname = { dext = \"D\" }\n", `[labels.server] has name: expected order = ["value", …], names = { value = "name" }, title = "heading", from = "label" and pattern = "regexp"`},
		{"[labels]\nround = 3\n", `[labels] round = 3: expected text (a label of every file) or a table [labels.round] with order and names`},
	} {
		_, err := manifestOf(t, c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v\nwant %s", c.text, err, c.want)
		}
	}
}
