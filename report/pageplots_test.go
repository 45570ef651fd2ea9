package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// plotOf is a plot whose SVG is exactly n bytes long (n >= 100), 540 ×
// 324 pt, padded with a description.
func plotOf(t *testing.T, n int, file string) PagePlot {
	t.Helper()
	head, tail := `<svg width="540pt" height="324pt" viewBox="0 0 540 324"><desc>`, `</desc></svg>`
	svg := head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	if len(svg) != n {
		t.Fatalf("plot of %d bytes has %d", n, len(svg))
	}
	return PagePlot{Caption: "plot " + file, SVG: []byte(svg), File: file}
}

func pageOf(mode InlinePlots, plots ...PagePlot) *Page {
	return &Page{Title: "t", Inline: mode, Sections: []Section{{Title: "s", Plots: plots}}}
}

// The sample page linked: no inline SVG, one <img> per plot with its
// file, size in CSS pixels (the SVG's pt × 4/3) and escaped caption, a
// policy that lets images load from the page's folder alone, the same
// bytes twice; everything but the plots as the inline page has it.
func TestPageLinked(t *testing.T) {
	p := samplePage(t)
	p.Inline = InlineNever
	for i := range p.Sections {
		for j := range p.Sections[i].Plots {
			p.Sections[i].Plots[j].File = "plots/" + strings.ToLower(strings.Fields(p.Sections[i].Title)[0]) + "-" + string(rune('a'+j)) + ".svg"
		}
	}
	page := string(renderPage(t, p))
	if !bytes.Equal([]byte(page), renderPage(t, p)) {
		t.Error("two renderings of the same linked page differ")
	}
	if strings.Contains(page, "<svg") {
		t.Error("the linked page holds an inline <svg>")
	}
	for _, want := range []string{
		`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'self'">`,
		"<style>" + pageCSS + linkedCSS + "</style>",
		"<figure id=\"s1-p1\">\n<img src=\"plots/throughput-a.svg\" width=\"720\" height=\"432\" alt=\"Throughput with &lt;script&gt;alert(1)&lt;/script&gt;\" loading=\"lazy\" decoding=\"async\">\n<figcaption>Throughput with &lt;script&gt;alert(1)&lt;/script&gt;</figcaption>\n</figure>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("linked page lacks %s", want)
		}
	}
	if n := len(regexp.MustCompile(`<img src="plots/[a-z]+-[a-g]\.svg" width="720" height="\d+" alt="[^"]+" loading="lazy" decoding="async">`).FindAllString(page, -1)); n != 8 {
		t.Errorf("linked page has %d <img> of plots, want 8", n)
	}
	// Apart from the head and the figures, the page is the inline one.
	p.Inline = InlineAlways
	inline := string(renderPage(t, p))
	figure := regexp.MustCompile(`(?s)<figure id="[^"]+">\n.*?</figure>`)
	body := func(s string) string { return figure.ReplaceAllString(s[strings.Index(s, "<body>"):], "<figure>") }
	if body(page) != body(inline) {
		t.Error("the linked page differs from the inline one beyond its figures")
	}
}

// InlineAuto holds the plots inline up to InlinePlotsLimitBytes of SVG,
// byte for byte as InlineAlways writes them, and links them above; a
// plot without a file keeps every plot inline; no mode set is auto.
// Above the limit, in every mode, the page's sections are drawn as they
// near the view.
func TestPageInlineAuto(t *testing.T) {
	half := InlinePlotsLimitBytes / 2
	at := []PagePlot{plotOf(t, half, "plots/a.svg"), plotOf(t, half, "plots/b.svg")}
	over := []PagePlot{plotOf(t, half, "plots/a.svg"), plotOf(t, half+1, "plots/b.svg")}
	noFile := []PagePlot{plotOf(t, half, "plots/a.svg"), plotOf(t, half+1, "")}
	for _, c := range []struct {
		name          string
		mode          InlinePlots
		plots         []PagePlot
		linked, large bool
	}{
		{"at the limit", InlineAuto, at, false, false},
		{"one byte over", InlineAuto, over, true, true},
		{"one byte over, no mode", "", over, true, true},
		{"one byte over, a plot without a file", InlineAuto, noFile, false, true},
		{"one byte over, always", InlineAlways, over, false, true},
		{"small, never", InlineNever, at[:1], true, false},
	} {
		page := renderPage(t, pageOf(c.mode, c.plots...))
		if got := bytes.Contains(page, []byte("<img ")); got != c.linked || bytes.Contains(page, []byte("<svg ")) == c.linked {
			t.Errorf("%s: linked %v, want %v", c.name, got, c.linked)
		}
		if got := bytes.Contains(page, []byte(largeCSS)); got != c.large || got != bytes.Contains(page, []byte("content-visibility")) {
			t.Errorf("%s: sections drawn near the view %v, want %v", c.name, got, c.large)
		}
		if !c.linked && !bytes.Equal(page, renderPage(t, pageOf(InlineAlways, c.plots...))) {
			t.Errorf("%s: the inline page differs from the one InlineAlways writes", c.name)
		}
	}
}

func TestPageLinkedRefuses(t *testing.T) {
	for _, c := range []struct {
		page *Page
		want string
	}{
		{pageOf(InlineNever, plotOf(t, 200, "")), `page section "s": plot 1 ("plot "): no file to link`},
		{pageOf(InlineNever, plotOf(t, 200, "../a.svg")), `page section "s": plot 1 ("plot ../a.svg"): file "../a.svg" is not a path relative to the page's folder, with / between names and no ..`},
		{pageOf(InlineAuto, plotOf(t, 200, "/tmp/a.svg")), `page section "s": plot 1 ("plot /tmp/a.svg"): file "/tmp/a.svg" is not a path relative to the page's folder, with / between names and no ..`},
		{pageOf(InlineNever, plotOf(t, 200, `plots\a.svg`)), `page section "s": plot 1 ("plot plots\\a.svg"): file "plots\\a.svg" is not a path relative to the page's folder, with / between names and no ..`},
		{pageOf("sometimes", plotOf(t, 200, "plots/a.svg")), `expected one of auto, always, never, found "sometimes"`},
		{pageOf(InlineNever, PagePlot{Caption: "c", SVG: []byte(`<svg><script/></svg>`), File: "plots/c.svg"}), `page section "s": plot 1 ("c"): SVG line 1: element <script> is not allowed in a plot`},
	} {
		err := WritePage(&bytes.Buffer{}, c.page)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// A file's names are escaped for a URL, then for HTML, and a first name
// with a colon is not read as a scheme; a plot without a caption is read
// as "plot"; an SVG without a size in pt or px gets no width and height.
func TestLinkedPlotElement(t *testing.T) {
	var b strings.Builder
	if err := writeLinkedPlot(&b, PagePlot{SVG: []byte(`<svg viewBox="0 0 10 10"></svg>`), File: `plots/a b#"c".svg`}); err != nil {
		t.Fatal(err)
	}
	if want := "<img src=\"plots/a%20b%23%22c%22.svg\" alt=\"plot\" loading=\"lazy\" decoding=\"async\">\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := writeLinkedPlot(&b, PagePlot{Caption: "c", SVG: []byte(`<svg width="3px" height="4px"></svg>`), File: "javascript:x.svg"}); err != nil {
		t.Fatal(err)
	}
	if want := "<img src=\"./javascript:x.svg\" width=\"3\" height=\"4\" alt=\"c\" loading=\"lazy\" decoding=\"async\">\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestCSSPixels(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"540pt", 720, true}, {"553.06pt", 737, true}, {"324pt", 432, true},
		{"100px", 100, true}, {"99.5", 100, true}, {" 12 ", 12, true},
		{"10cm", 0, false}, {"", 0, false}, {"-3pt", 0, false}, {"0", 0, false}, {"NaNpt", 0, false}, {"100%", 0, false},
	} {
		got, ok := cssPixels(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("cssPixels(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParseInlinePlots(t *testing.T) {
	for _, m := range InlinePlotsModes {
		if got, err := ParseInlinePlots(string(m)); got != m || err != nil {
			t.Errorf("ParseInlinePlots(%q) = %q, %v", m, got, err)
		}
	}
	if _, err := ParseInlinePlots("Auto"); err == nil || err.Error() != `expected one of auto, always, never, found "Auto"` {
		t.Errorf("got %v", err)
	}
}
