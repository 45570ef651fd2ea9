package main

// The world: public repositories that commit the raw outputs of a load
// tool beside the table their author computed from them. Each case under
// testdata/world/<case>/ keeps
//
//   - repo/: the files as committed (PROVENANCE.md says where from),
//     with the manifest a new user writes after reading docs/manifest.md,
//     repo/wra.toml, where the files do not name the design themselves;
//     its [[tables]] lay out the author's tables;
//   - published/<table>.csv: the author's table, each cell as printed;
//   - world.toml: which [[tables]] entry lays out each published table,
//     how many of its first columns name the row, and every cell where
//     wra's layout and the author's table differ, with why and who is
//     right (the author where the files say otherwise, wra where it
//     cannot yet lay out what the author printed).
//
// TestWorld runs wra analyze on each repo/ as a user would, reads the
// Markdown of each layout, and compares every published cell with wra's
// as printed: a cell not listed must be the author's to the character,
// and a listed one must differ (a fix that makes it agree takes it off the
// list). testdata/world/RESULTS.md, a golden file, counts them.

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// worldCase is a case's world.toml.
type worldCase struct {
	Repository string       `toml:"repository"`
	Shape      string       `toml:"shape"`
	Tables     []worldTable `toml:"tables"`
}

type worldTable struct {
	Published string `toml:"published"` // under published/
	Layout    string `toml:"layout"`    // the title of its [[tables]] entry
	Keys      int    `toml:"keys"`      // leading columns that name the row
	Differ    []struct {
		Row, Col string // "" for every row or column
		Who      string // author or wra
		Why      string
	} `toml:"differ"`
}

// worldCount is what a case came to.
type worldCount struct {
	cells, same, author, wra int
}

func TestWorld(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "world", "*", "world.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no cases under testdata/world")
	}
	counts := map[string]worldCount{}
	var names []string
	for _, p := range dirs {
		dir := filepath.Dir(p)
		name := filepath.Base(dir)
		names = append(names, name)
		t.Run(name, func(t *testing.T) {
			var wc worldCase
			if _, err := toml.DecodeFile(p, &wc); err != nil {
				t.Fatal(err)
			}
			counts[name] = runWorldCase(t, dir, wc)
		})
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("| case | published cells | as printed | differ: the author's | differ: wra's |\n|---|---:|---:|---:|---:|\n")
	var total worldCount
	for _, n := range names {
		c := counts[n]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", n, c.cells, c.same, c.author, c.wra)
		total.cells, total.same, total.author, total.wra = total.cells+c.cells, total.same+c.same, total.author+c.author, total.wra+c.wra
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d | %d |\n", total.cells, total.same, total.author, total.wra)
	golden(t, "world/RESULTS.md", b.String())
}

// runWorldCase analyzes one case's repo/ and compares its layouts with
// the published tables.
func runWorldCase(t *testing.T, dir string, wc worldCase) worldCount {
	out := filepath.Join(t.TempDir(), "report")
	r := wra(t, filepath.Join(t.TempDir(), "w.duckdb"), "--quiet", "analyze", "--out", out, filepath.Join(dir, "repo"))
	if r.code != 0 {
		t.Fatalf("wra analyze: exit %d: %s", r.code, r.stderr)
	}
	layouts := readLayouts(t, filepath.Join(out, "tables"))
	var c worldCount
	for _, wt := range wc.Tables {
		pub := readPublished(t, filepath.Join(dir, "published", wt.Published))
		got, ok := layouts[wt.Layout]
		if !ok {
			t.Errorf("%s: no [[tables]] layout titled %q among %v", wt.Published, wt.Layout, keysOf(layouts))
			continue
		}
		gotCells := got.cells(wt.Keys)
		used := make([]bool, len(wt.Differ))
		for _, row := range pub.rows {
			key := strings.Join(row[:wt.Keys], " / ")
			for ci := wt.Keys; ci < len(row) && ci < len(pub.header); ci++ {
				col := pub.header[ci]
				want := normCell(row[ci])
				c.cells++
				have, found := gotCells[key+"\x00"+col]
				listed := -1
				for i, d := range wt.Differ {
					if (d.Row == "" || d.Row == key) && (d.Col == "" || d.Col == col) {
						listed = i
						break
					}
				}
				switch {
				case found && have == want && listed < 0:
					c.same++
				case found && have == want:
					t.Errorf("%s: row %q, column %q: wra prints %q as the author does, but world.toml lists it as differing (%s)", wt.Published, key, col, have, wt.Differ[listed].Why)
					c.same++
				case listed < 0 && !found:
					t.Errorf("%s: row %q, column %q: the author prints %q, wra's layout has no such cell (rows %v)", wt.Published, key, col, want, got.keys(wt.Keys))
				case listed < 0:
					t.Errorf("%s: row %q, column %q: the author prints %q, wra %q", wt.Published, key, col, want, have)
				default:
					used[listed] = true
					switch wt.Differ[listed].Who {
					case "author":
						c.author++
					case "wra":
						c.wra++
					default:
						t.Errorf("%s: differ %q/%q: who is %q: expected author or wra", wt.Published, wt.Differ[listed].Row, wt.Differ[listed].Col, wt.Differ[listed].Who)
					}
				}
			}
		}
		for i, u := range used {
			if !u {
				t.Errorf("%s: world.toml lists row %q, column %q as differing, but no published cell is it", wt.Published, wt.Differ[i].Row, wt.Differ[i].Col)
			}
		}
	}
	return c
}
