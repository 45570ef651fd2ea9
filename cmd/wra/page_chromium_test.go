package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wra-bench/wra/cmd/wra/internal/chromiumtest"
)

// TestAnalyzePageTablesInChromium publishes a folder whose manifest lists
// one [[tables]] layout and loads the page wra analyze wrote in headless
// Chromium: the DOM Chromium built holds the layout's title and its cells
// (alpha's rounds at 16 connections are 12,100, 12,900 and 12,500
// requests/s with p99 2, 3.5 and 2.5 ms: medians 12,500 and 2.50 printed to three figures; beta's
// 8,300, 8,100, 8,200 and 4, 6, 5: 8,200 and 5.00), and no <script> element.
func TestAnalyzePageTablesInChromium(t *testing.T) {
	bin := chromiumtest.Find(t)
	dir := filepath.Join(t.TempDir(), "bench")
	copyTree(t, dir, map[string]string{
		"records.csv": "testdata/page_tables/records.csv",
		"wra.toml":    "testdata/page_tables/wra.toml",
	})
	out := filepath.Join(t.TempDir(), "out")
	if r := wra(t, filepath.Join(t.TempDir(), "s.duckdb"), "--quiet", "analyze", "--out", out, dir); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	dom := chromiumtest.DumpDOM(t, bin, t.TempDir(), filepath.Join(out, "index.html"))
	if strings.Contains(strings.ToLower(dom), "<script") {
		t.Errorf("Chromium's DOM has a <script> element")
	}
	title := "Ping: requests/s by connections, median of 3 rounds (p99 ms)"
	table := regexp.MustCompile(`(?s)<table id="[^"]+">\s*<caption>` + regexp.QuoteMeta(title) + `</caption>.*?</table>`).FindString(dom)
	if table == "" {
		t.Fatalf("Chromium's DOM lacks the manifest's table %q", title)
	}
	for _, want := range []string{"<td>alpha</td><td><strong>12,500 (2.5)</strong></td>", "<td>beta</td><td>8,200 (5.0)</td>"} {
		if !strings.Contains(table, want) {
			t.Errorf("the manifest's table in Chromium's DOM lacks %q:\n%s", want, table)
		}
	}
}
