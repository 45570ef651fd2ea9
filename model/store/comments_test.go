package store_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// storeDoc is the page that documents the store, its tables, views and
// table macros, column by column.
const storeDoc = "docs/store.md"

// docColumn is one column as the store's page documents it: the meaning
// cell of its row, and its type where the table has a type column.
type docColumn struct {
	meaning, typ string
	line         int
}

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	cellSplit  = regexp.MustCompile(`(^|[^\\])\|`)
)

// docColumns reads the column tables of docs/store.md, the page "The
// store: tables and columns": every table with a "column" header cell,
// whose rows name one or more columns (`a`, `b`) and give their meaning;
// the relation is the row's "table" cell, else the section's heading.
func docColumns(t *testing.T) map[string]map[string]docColumn {
	t.Helper()
	b, err := os.ReadFile("../../" + storeDoc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) == 0 || lines[0] != "# The store: tables and columns" {
		t.Fatalf("%s: the first line is not the heading \"# The store: tables and columns\"", storeDoc)
	}
	docs := map[string]map[string]docColumn{}
	var heading []string
	var header []string
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "#"):
			heading = names(line)
			header = nil
			continue
		case !strings.HasPrefix(line, "|"):
			header = nil
			continue
		}
		cells := splitRow(line)
		if header == nil {
			header = cells
			continue
		}
		if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue
		}
		at := func(name string) int { return slicesIndex(header, name) }
		if at("column") < 0 || at("meaning") < 0 || len(cells) != len(header) {
			continue
		}
		rels := heading
		if at("table") >= 0 {
			rels = names(cells[at("table")])
		}
		if len(rels) != 1 && at("table") < 0 {
			t.Fatalf("%s:%d: a column table under a heading that names %d relations, want one", storeDoc, i+1, len(rels))
		}
		c := docColumn{meaning: commentText(cells[at("meaning")]), line: i + 1}
		if at("type") >= 0 {
			c.typ = cells[at("type")]
		}
		for _, r := range rels {
			if docs[r] == nil {
				docs[r] = map[string]docColumn{}
			}
			for _, col := range names(cells[at("column")]) {
				if prev, ok := docs[r][col]; ok {
					t.Errorf("%s:%d: %s.%s documented again (first at line %d)", storeDoc, i+1, r, col, prev.line)
				}
				docs[r][col] = c
			}
		}
	}
	return docs
}

// names are the backticked names of a heading or a cell, a macro's
// parameters cut off: "`ladders(p95_ms := 50)`" is ladders.
func names(s string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(s, -1) {
		out = append(out, strings.SplitN(m[1], "(", 2)[0])
	}
	return out
}

// splitRow splits a Markdown table row at its unescaped pipes.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	var cells []string
	start := 1
	for _, m := range cellSplit.FindAllStringIndex(line, -1) {
		end := m[1] - 1
		if end == 0 {
			continue
		}
		cells = append(cells, strings.TrimSpace(line[start:end]))
		start = m[1]
	}
	return cells
}

// commentText is a cell of the page as a comment says it: without Markdown's
// backticks and escapes.
func commentText(cell string) string {
	return strings.TrimSpace(strings.NewReplacer("`", "", `\|`, "|").Replace(cell))
}

func slicesIndex(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// TestColumnComments requires every table and view, its every column and
// every table macro to carry a comment, and each column's comment to be
// docs/store.md's wording of it: a column added without documentation,
// or documentation changed on one side only, fails here.
func TestColumnComments(t *testing.T) {
	docs := docColumns(t)
	s := openStore(t, t.TempDir())
	rels, err := s.Relations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rels {
		if r.Comment == "" {
			t.Errorf("%s %s has no comment", r.Kind, r.Name)
		}
		if r.Columns == nil {
			continue
		}
		for _, c := range r.Columns {
			key := r.Name + "." + c.Name
			seen[key] = true
			d, ok := docs[r.Name][c.Name]
			switch {
			case c.Comment == "":
				t.Errorf("%s has no comment (document it in %s, then COMMENT ON COLUMN in model/store/views)", key, storeDoc)
			case !ok:
				t.Errorf("%s (comment %q) is not in a column table of %s", key, c.Comment, storeDoc)
			case c.Comment != d.meaning:
				t.Errorf("%s: comment %q, %s:%d says %q", key, c.Comment, storeDoc, d.line, d.meaning)
			}
			if ok && d.typ != "" && d.typ != c.Type {
				t.Errorf("%s: type %s, %s:%d says %s", key, c.Type, storeDoc, d.line, d.typ)
			}
		}
	}
	for r, cols := range docs {
		for col, d := range cols {
			if !seen[r+"."+col] {
				t.Errorf("%s:%d documents %s.%s, which the store does not have", storeDoc, d.line, r, col)
			}
		}
	}
	if len(seen) < 200 {
		t.Errorf("%d columns checked, want the store's every column", len(seen))
	}
}
