package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wra-bench/wra/cmd/wra/internal/chromiumtest"
)

// pageTablesFolder is a copy of testdata/page_tables: one harness CSV
// of two servers and a manifest with one [[tables]] layout.
func pageTablesFolder(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "bench")
	copyTree(t, dir, map[string]string{
		"records.csv": "testdata/page_tables/records.csv",
		"wra.toml":    "testdata/page_tables/wra.toml",
	})
	return dir
}

// TestAnalyzePageTablesInChromium publishes a folder whose manifest lists
// one [[tables]] layout and loads the page wra analyze wrote in headless
// Chromium: the DOM Chromium built holds the layout's title and its cells
// (alpha's rounds at 16 connections are 12,100, 12,900 and 12,500
// requests/s with p99 2, 3.5 and 2.5 ms: medians 12,500 and 2.50 printed to three figures; beta's
// 8,300, 8,100, 8,200 and 4, 6, 5: 8,200 and 5.00), and no <script> element.
func TestAnalyzePageTablesInChromium(t *testing.T) {
	bin := chromiumtest.Find(t)
	dir := pageTablesFolder(t)
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

// TestAnalyzePageLinkedPlotsInChromium publishes the same folder with its
// plots inline (--inline-plots always) and linked (never), moves the
// linked report's folder elsewhere, and loads both pages in headless
// Chromium. The linked page holds no <svg> and one <img> per plot, each
// with a src that is a file beside the page, the plot's SVG; Chromium's
// DOM holds those images; and its screenshot is the inline page's,
// pixel for pixel but for a few font edges: the linked plot loaded and
// drew where the inline one draws (with Chromium's lazy loading off, so
// that the image is loaded when the screenshot is taken). As a control,
// the linked page with its plots/ folder gone differs from the inline
// page by the plot.
func TestAnalyzePageLinkedPlotsInChromium(t *testing.T) {
	bin := chromiumtest.Find(t)
	dir := pageTablesFolder(t)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	outs := map[string]string{}
	for _, mode := range []string{"always", "never"} {
		outs[mode] = filepath.Join(t.TempDir(), mode)
		if r := wra(t, db, "--quiet", "analyze", "--inline-plots", mode, "--out", outs[mode], dir); r.code != 0 {
			t.Fatalf("analyze --inline-plots %s: exit %d: %s", mode, r.code, r.stderr)
		}
	}
	moved := filepath.Join(t.TempDir(), "moved", "report")
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(outs["never"], moved); err != nil {
		t.Fatal(err)
	}
	inline, linked := filepath.Join(outs["always"], "index.html"), filepath.Join(moved, "index.html")
	page, err := os.ReadFile(linked)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "<svg") {
		t.Errorf("the linked page holds an inline <svg>")
	}
	srcs := regexp.MustCompile(`<img src="([^"]+)" width="\d+" height="\d+" alt="[^"]+"`).FindAllStringSubmatch(string(page), -1)
	figures := strings.Count(string(page), "<figure ")
	if len(srcs) == 0 || len(srcs) != figures {
		t.Fatalf("the linked page has %d <img> with src, size and alt for %d figures", len(srcs), figures)
	}
	for _, m := range srcs {
		svg, err := os.ReadFile(filepath.Join(moved, filepath.FromSlash(m[1])))
		if err != nil {
			t.Errorf("<img src=%q> resolves to no file beside the page: %v", m[1], err)
		} else if !strings.HasPrefix(m[1], "plots/") || !strings.Contains(string(svg), "<svg") {
			t.Errorf("<img src=%q> is not a plot's SVG under plots/", m[1])
		}
	}
	dom := chromiumtest.DumpDOM(t, bin, t.TempDir(), linked)
	for _, m := range srcs {
		if !strings.Contains(dom, `<img src="`+m[1]+`"`) {
			t.Errorf("Chromium's DOM lacks <img src=%q>", m[1])
		}
	}
	const w, h = 1200, 4000
	want := chromiumtest.Screenshot(t, bin, t.TempDir(), inline, w, h)
	got := chromiumtest.Screenshot(t, bin, t.TempDir(), linked, w, h, chromiumtest.Eager)
	ink, d := chromiumtest.Ink(want), chromiumtest.Differ(want, got)
	if d*100 > ink {
		t.Errorf("the linked page's screenshot differs from the inline page's at %d of %d inked samples", d, ink)
	}
	if err := os.RemoveAll(filepath.Join(moved, "plots")); err != nil {
		t.Fatal(err)
	}
	missing := chromiumtest.Differ(want, chromiumtest.Screenshot(t, bin, t.TempDir(), linked, w, h, chromiumtest.Eager))
	if missing*10 < ink {
		t.Errorf("control: without its plots the linked page's screenshot differs from the inline page's at only %d of %d inked samples", missing, ink)
	}
	t.Logf("inked samples %d; linked differs at %d, without plots/ at %d", ink, d, missing)
}

// TestAnalyzeFirstScreenInChromium loads the page of data/ in headless
// Chromium at 1400 × 1000, as a reader opens it: a chart of a plot is in
// view on the first screen, no more than one screen of text stands
// above it, and the findings' headlines (their evidence folded) fit in
// one screen.
func TestAnalyzeFirstScreenInChromium(t *testing.T) {
	bin := chromiumtest.Find(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "rep")
	if r := wra(t, filepath.Join(dir, "d.duckdb"), "--quiet", "analyze", "--out", out, "../../data/"); r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	const script = `(() => {
		const h = window.innerHeight;
		const plots = [...document.querySelectorAll('figure svg, figure img')];
		const first = plots.map(p => p.getBoundingClientRect()).find(r => r.height > 0);
		const heads = [...document.querySelectorAll('section')].find(s => s.querySelector('h2').textContent === 'Findings');
		const list = heads ? heads.querySelector('ul.bullets').getBoundingClientRect() : null;
		return {viewport: h, plots: plots.length, firstTop: first ? first.top : -1, firstBottom: first ? first.bottom : -1,
			findings: heads ? heads.querySelectorAll('ul.bullets > li').length : 0, findingsHeight: list ? list.height : -1};
	})()`
	var m struct {
		Viewport, FirstTop, FirstBottom, FindingsHeight float64
		Plots, Findings                                 int
	}
	chromiumtest.Measure(t, bin, dir, filepath.Join(out, "index.html"), 1400, 1000, script, &m)
	t.Logf("viewport %v px: %d plots, the first from %v to %v px; %d findings in %v px", m.Viewport, m.Plots, m.FirstTop, m.FirstBottom, m.Findings, m.FindingsHeight)
	if m.Viewport != 1000 {
		t.Fatalf("viewport %v px high, want 1000", m.Viewport)
	}
	if m.Plots == 0 || m.FirstTop < 0 || m.FirstTop >= m.Viewport {
		t.Errorf("no plot in view on the first screen (the first plot's top at %v px of %v)", m.FirstTop, m.Viewport)
	}
	if m.Findings == 0 || m.FindingsHeight <= 0 || m.FindingsHeight > m.Viewport {
		t.Errorf("%d findings' headlines take %v px, want at most one screen (%v px)", m.Findings, m.FindingsHeight, m.Viewport)
	}
}
