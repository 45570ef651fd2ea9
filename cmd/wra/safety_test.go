package main

// Output safety: labels and file names a benchmarker does not control
// (a server called <script>, a report file called <img src=x>.txt) stay
// text in every output; a CSV cell that a spreadsheet would run as a
// formula is neutralised; the store changes only through wra ingest and
// wra sql --write.

import (
	"encoding/csv"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hostileStore ingests real captures under hostile labels and a hostile
// file name, and returns the store.
func hostileStore(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.duckdb")
	for _, tc := range []struct {
		file, capture, server, test string
	}{
		{"<img src=x>.txt", "../../ingest/testdata/ab/ab_plain_nginx_static_n5000_c10.txt", "<script>alert(1)</script>", "ping"},
		{"pipe.txt", "../../ingest/testdata/bombardier/bombardier_default_go2_ping.txt", "|**x**|", "ping"},
		{"formula.txt", "../../ingest/testdata/hey/hey_go2_ping_n5000_c20.txt", `=HYPERLINK("http://example.invalid","x")`, "@SUM(A1)"},
		{"signs.txt", "../../ingest/testdata/ab/ab_keepalive_go2_ping_n10000_c20.txt", "+1+1", "-2+3"},
	} {
		dir := filepath.Join(t.TempDir(), "in")
		copyTree(t, dir, map[string]string{tc.file: tc.capture})
		r := wra(t, db, "ingest", "--label", "server="+tc.server, "--label", "test="+tc.test, dir)
		if r.code != 0 {
			t.Fatalf("ingest %s: exit %d: %s", tc.file, r.code, r.stderr)
		}
	}
	return db
}

func TestSafetyAnalyzeEscapes(t *testing.T) {
	db := hostileStore(t)
	out := filepath.Join(t.TempDir(), "out")
	r := wra(t, db, "analyze", "--no-ingest", "--out", out)
	if r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	files := readTree(t, out)
	var md, csvs []string
	for name := range files {
		switch {
		case strings.HasPrefix(filepath.Base(name), "."):
			// the analysis cache, not a published file
		case strings.HasSuffix(name, ".md"):
			md = append(md, name)
		case strings.HasSuffix(name, ".csv"):
			csvs = append(csvs, name)
		}
	}
	if len(md) < 2 || len(csvs) < 1 {
		t.Fatalf("analyze wrote %d Markdown and %d CSV files", len(md), len(csvs))
	}

	// HTML: no element a label or a file name could open; the labels are
	// there, as text.
	page := string(files["index.html"])
	for _, raw := range []string{"<script", "<img", "onerror", "javascript:"} {
		if strings.Contains(strings.ToLower(page), raw) {
			t.Errorf("index.html contains %q", raw)
		}
	}
	for name, b := range files {
		if strings.HasSuffix(name, ".svg") && strings.Contains(strings.ToLower(string(b)), "<script") {
			t.Errorf("%s contains <script", name)
		}
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("index.html does not show the server label <script>alert(1)</script> as text")
	}
	if !strings.Contains(page, "&lt;img src=x&gt;.txt") {
		t.Errorf("index.html does not show the file name <img src=x>.txt as text")
	}

	// Markdown: HTML as entities, table syntax escaped. (Sources, and so
	// file names, are listed on the page only.)
	seenScript, seenPipe := false, false
	for _, name := range md {
		s := string(files[name])
		for _, raw := range []string{"<script", "<img", "|**x**|"} {
			if strings.Contains(s, raw) {
				t.Errorf("%s contains %q unescaped", name, raw)
			}
		}
		seenScript = seenScript || strings.Contains(s, "&lt;script&gt;alert(1)&lt;/script&gt;")
		seenPipe = seenPipe || strings.Contains(s, `\|\*\*x\*\*\|`)
	}
	if !seenScript || !seenPipe {
		t.Errorf("the Markdown files do not show the labels escaped (script %v, pipe %v)", seenScript, seenPipe)
	}

	// CSV: every cell a spreadsheet would run is neutralised.
	neutralised := 0
	for _, name := range csvs {
		neutralised += checkCSVNeutral(t, name, files[name])
	}
	if neutralised == 0 {
		t.Errorf("no neutralised cell in %v: the hostile labels are not in any table", csvs)
	}
}

// checkCSVNeutral fails on a cell that starts with =, +, -, @, a tab or a
// carriage return and is not a number, and returns how many cells carry
// the leading apostrophe.
func checkCSVNeutral(t *testing.T, name string, b []byte) int {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return 0
	}
	n := 0
	for i, row := range rows {
		for _, cell := range row {
			if cell == "" {
				continue
			}
			if strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				if _, err := strconv.ParseFloat(cell, 64); err != nil {
					t.Errorf("%s row %d: cell %q would run in a spreadsheet", name, i+1, cell)
				}
			}
			if strings.HasPrefix(cell, "'") && len(cell) > 1 && strings.ContainsRune("=+-@", rune(cell[1])) {
				n++
			}
		}
	}
	return n
}

func TestSafetySQLCSV(t *testing.T) {
	db := hostileStore(t)
	r := wra(t, db, "sql", "--format", "csv",
		`SELECT server, test, -1.5 AS negative, 0 - 7 AS minus_seven, '-x' AS dash FROM runs ORDER BY server, test`)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := checkCSVNeutral(t, "wra sql --format csv", []byte(r.stdout)); n != 4+4 {
		t.Errorf("%d neutralised cells, want 8: the 4 labels that start with = + - @ and the text '-x' on each of 4 rows:\n%s", n, r.stdout)
	}
	for _, want := range []string{`"'=HYPERLINK(""http://example.invalid"",""x"")",'@SUM(A1),-1.5,-7,'-x`, "'+1+1,'-2+3,-1.5,-7,'-x"} {
		if !strings.Contains(r.stdout, want+"\n") {
			t.Errorf("no row %s in\n%s", want, r.stdout)
		}
	}
}

func TestSafetyExportCSV(t *testing.T) {
	db := hostileStore(t)
	dir := filepath.Join(t.TempDir(), "export")
	if r := wra(t, db, "export", "--csv", dir); r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.stderr)
	}
	files := readTree(t, dir)
	n := 0
	for name, b := range files {
		if strings.HasSuffix(name, ".csv") {
			n += checkCSVNeutral(t, name, b)
		}
	}
	if n < 4 {
		t.Errorf("%d neutralised cells in %d files, want at least the 4 labels that start with = + - @", n, len(files))
	}
}
