package store_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeColumn is one column as the README's section on the store
// documents it: the meaning cell of its row, and its type where the
// table has a type column.
type readmeColumn struct {
	meaning, typ string
	line         int
}

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	cellSplit  = regexp.MustCompile(`(^|[^\\])\|`)
)

// readmeColumns reads the column tables of the README's section "The
// store: tables and columns": every table with a "column" header cell,
// whose rows name one or more columns (`a`, `b`) and give their meaning;
// the relation is the row's "table" cell, else the section's heading.
func readmeColumns(t *testing.T) map[string]map[string]readmeColumn {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	docs := map[string]map[string]readmeColumn{}
	in := false
	var heading []string
	var header []string
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "## "):
			in = strings.HasPrefix(line, "## The store: tables and columns")
			continue
		case !in:
			continue
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
			t.Fatalf("README.md:%d: a column table under a heading that names %d relations, want one", i+1, len(rels))
		}
		c := readmeColumn{meaning: commentText(cells[at("meaning")]), line: i + 1}
		if at("type") >= 0 {
			c.typ = cells[at("type")]
		}
		for _, r := range rels {
			if docs[r] == nil {
				docs[r] = map[string]readmeColumn{}
			}
			for _, col := range names(cells[at("column")]) {
				if prev, ok := docs[r][col]; ok {
					t.Errorf("README.md:%d: %s.%s documented again (first at line %d)", i+1, r, col, prev.line)
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

// commentText is a README cell as a comment says it: without Markdown's
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
// the README's wording of it: a column added without documentation, or
// documentation changed on one side only, fails here.
func TestColumnComments(t *testing.T) {
	docs := readmeColumns(t)
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
				t.Errorf("%s has no comment (document it in README.md, then COMMENT ON COLUMN in model/store/views)", key)
			case !ok:
				t.Errorf("%s (comment %q) is not in a column table of README.md's section on the store", key, c.Comment)
			case c.Comment != d.meaning:
				t.Errorf("%s: comment %q, README.md:%d says %q", key, c.Comment, d.line, d.meaning)
			}
			if ok && d.typ != "" && d.typ != c.Type {
				t.Errorf("%s: type %s, README.md:%d says %s", key, c.Type, d.line, d.typ)
			}
		}
	}
	for r, cols := range docs {
		for col, d := range cols {
			if !seen[r+"."+col] {
				t.Errorf("README.md:%d documents %s.%s, which the store does not have", d.line, r, col)
			}
		}
	}
	if len(seen) < 200 {
		t.Errorf("%d columns checked, want the store's every column", len(seen))
	}
}
