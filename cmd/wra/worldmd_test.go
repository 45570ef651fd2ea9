package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// published is an author's table: its header and rows, as printed.
type published struct {
	header []string
	rows   [][]string
}

func readPublished(t *testing.T, path string) published {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := csv.NewReader(f)
	rd.FieldsPerRecord = -1
	recs, err := rd.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) < 2 {
		t.Fatalf("%s: no rows", path)
	}
	for i := range recs[0] {
		recs[0][i] = normCell(recs[0][i])
	}
	for _, r := range recs[1:] {
		for i := range r {
			r[i] = normCell(r[i])
		}
	}
	return published{header: recs[0], rows: recs[1:]}
}

// mdTable is a Markdown table as wra wrote it.
type mdTable struct {
	header []string
	rows   [][]string
}

// cells are the table's cells by row key (the first keys cells joined by
// " / ") and column heading.
func (m mdTable) cells(keys int) map[string]string {
	out := map[string]string{}
	for _, r := range m.rows {
		if len(r) < keys {
			continue
		}
		key := strings.Join(r[:keys], " / ")
		for ci := keys; ci < len(r) && ci < len(m.header); ci++ {
			out[key+"\x00"+m.header[ci]] = r[ci]
		}
	}
	return out
}

func (m mdTable) keys(keys int) []string {
	var out []string
	for _, r := range m.rows {
		if len(r) >= keys {
			out = append(out, strings.Join(r[:keys], " / "))
		}
	}
	return out
}

// readLayouts reads the Markdown of the [[tables]] layouts of a report,
// by their titles (the "### " line before each table).
func readLayouts(t *testing.T, dir string) map[string]mdTable {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "table-*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]mdTable{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var title string
		var tab *mdTable
		for _, line := range strings.Split(string(b), "\n") {
			switch {
			case strings.HasPrefix(line, "### "):
				title = unescapeMD(strings.TrimPrefix(line, "### "))
				tab = nil
			case strings.HasPrefix(line, "|") && tab == nil:
				tab = &mdTable{header: mdCells(line)}
			case strings.HasPrefix(line, "|---") || strings.HasPrefix(line, "| ---"):
			case strings.HasPrefix(line, "|"):
				tab.rows = append(tab.rows, mdCells(line))
				out[title] = *tab
			}
		}
	}
	return out
}

// mdCells splits a Markdown table row into its cells as people read
// them: escapes undone, bold marks dropped.
func mdCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(strings.TrimSuffix(line, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
		case line[i] == '|':
			cells = append(cells, normCell(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, normCell(cur.String()))
}

func unescapeMD(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// normCell is a cell as compared: without the marks of the best
// (bold, a terminal's *) and the spaces around it.
func normCell(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "**", "")
	return strings.TrimSpace(s)
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
