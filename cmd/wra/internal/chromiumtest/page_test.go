package chromiumtest_test

import (
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wra-bench/wra/cmd/wra/internal/chromiumtest"
)

var shot = flag.String("shot", "", "also copy the headless Chromium screenshot of the report page to this file, to look at")

// TestPageInChromium loads the report package's sample page (its golden
// file, report/testdata/page.html, which TestPageGolden keeps equal to
// what the page writer makes of it), which holds every table and
// plot kind and a server named <script>alert(1)</script>, in headless
// Chromium: the DOM Chromium built must hold every table and every plot
// (an <svg> with its text), the hostile label as text, and no <script>
// element. A screenshot must be a real image.
func TestPageInChromium(t *testing.T) {
	bin := chromiumtest.Find(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "index.html")
	html, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "report", "testdata", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	dom := chromiumtest.DumpDOM(t, bin, dir, page)

	if strings.Contains(strings.ToLower(dom), "<script") {
		t.Errorf("Chromium's DOM has a <script> element")
	}
	for _, id := range []string{"s1-t1", "s2-t1", "s3-t1"} {
		if !regexp.MustCompile(`<table id="` + id + `">`).MatchString(dom) {
			t.Errorf("DOM lacks table %s", id)
		}
	}
	for _, id := range []string{"s1-p1", "s4-p1", "s4-p2", "s4-p3", "s4-p4", "s4-p5", "s4-p6", "s4-p7"} {
		re := regexp.MustCompile(`(?s)<figure id="` + id + `">\s*<svg [^>]*>.*?<text [^>]*>[^<]+</text>.*?</svg>`)
		if !re.MatchString(dom) {
			t.Errorf("DOM lacks plot %s as an <svg> with text", id)
		}
	}
	for _, want := range []string{
		"<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>",
		"&lt;script&gt;alert(1)&lt;/script&gt;</text>",
		"<code>evil/&lt;img src=x onerror=alert(2)&gt;.txt:7</code>",
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("DOM lacks the hostile label as text: %s", want)
		}
	}
	if strings.Contains(dom, "<img") {
		t.Errorf("DOM has an <img> element made from a label")
	}

	img := chromiumtest.Screenshot(t, bin, dir, page, 1200, 4000)
	// The page is not blank.
	if dark := chromiumtest.Ink(img); dark < 1000 {
		t.Errorf("screenshot is nearly blank (%d dark samples)", dark)
	}
	if *shot != "" {
		f, err := os.Create(*shot)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
	}
}
