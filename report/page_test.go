package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wra-bench/wra/stats"
)

// evilServer is a server name that is markup; it must stay text.
const evilServer = "<script>alert(1)</script>"

// roundsTable is the rounds table of test ping from records.csv: the
// median of rounds of requests/s per server and connections, the best
// marked, with the records behind each row as sources (line 1 is the
// header). One row is added for a server whose name is markup, with a
// source file named like an HTML tag.
func roundsTable(t *testing.T) *Data {
	type key struct{ server, conns string }
	var keys []key
	rps := map[key][]float64{}
	src := map[key][]Source{}
	for i, r := range readCSV(t, "records.csv") {
		if r["test"] != "ping" {
			continue
		}
		k := key{r["server"], r["connections"]}
		if _, ok := rps[k]; !ok {
			keys = append(keys, k)
		}
		rps[k] = append(rps[k], num(t, r["requests_per_s"]))
		src[k] = append(src[k], Source{File: "records/records.csv", Line: i + 2})
	}
	d := &Data{
		Title: "Rounds, test ping: requests/s, median of rounds",
		Columns: []Column{
			{Name: "server"},
			{Name: "connections"},
			{Name: "rps", Title: "requests/s", Human: func(v any) string { return strconv.FormatFloat(v.(float64), 'f', 0, 64) }},
			{Name: "rounds"},
		},
		Notes: []string{"median of 3 rounds; " + evilServer + " is a label from a hostile file"},
	}
	best := 0.0
	for _, k := range keys {
		best = max(best, stats.Median(rps[k]))
	}
	for _, k := range keys {
		m := stats.Median(rps[k])
		c, _ := strconv.ParseInt(k.conns, 10, 64)
		d.Rows = append(d.Rows, []any{k.server, c, Cell{Value: m, Best: m == best}, int64(len(rps[k]))})
		d.RowSources = append(d.RowSources, src[k])
	}
	d.Rows = append(d.Rows, []any{evilServer, int64(1), 1.5, int64(1)})
	d.RowSources = append(d.RowSources, []Source{{File: `evil/<img src=x onerror=alert(2)>.txt`, Line: 7}})
	return d
}

// ladderTable lists the highest step held by each k6 ladder of the
// plots' fixture.
func ladderTable(t *testing.T) *Data {
	d := &Data{
		Title:   "Held-rate ladders: highest step held (p95 < 50 ms, errors < 1%)",
		Columns: Columns("server", "highest_held_rps", "last_step_held"),
	}
	for _, s := range ladderChart(t).Series {
		held, last := 0.0, false
		for _, st := range s.Steps {
			if st.Held {
				held = st.TargetRPS
			}
			last = st.Held
		}
		d.Rows = append(d.Rows, []any{s.Server, held, last})
		d.RowSources = append(d.RowSources, []Source{{File: "k6/" + s.Run}})
	}
	return d
}

func costTable(t *testing.T) *Data {
	d := &Data{Title: "Cost per month at 1000 requests/s", Columns: Columns("server", "stack_usd", "db_usd", "total_usd")}
	for _, s := range costChart(t).Stacks {
		d.Rows = append(d.Rows, []any{s.Server, s.StackUSD, s.DBUSD, s.StackUSD + s.DBUSD})
	}
	d.Notes = []string{"assumed $0.04 per vCPU-hour, 60% utilisation"}
	return d
}

// samplePage has every table shape and plot kind, with the hostile
// server name in a table, a plot, a heading, a caption and the notes.
func samplePage(t *testing.T) *Page {
	svg := func(f Figure) []byte {
		b, err := SVG(f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tp := throughputChart(t)
	tp.Groups = append(tp.Groups, BarGroup{Label: evilServer, Series: "16 connections", Values: []float64{1000, 1200}, Median: 1100})
	var plots []PagePlot
	for _, f := range figures(t) {
		plots = append(plots, PagePlot{Caption: f.name, SVG: svg(f.fig)})
	}
	return &Page{
		Title: "wra report: samples",
		Intro: []string{
			"Corpus: the sample captures of wrk2, k6 and the harness (records.csv, memory_waiting.csv).",
			"Rule: a ladder step is held when p95 < 50 ms and fewer than 1% of requests fail.",
		},
		Sections: []Section{
			{Title: "Throughput", Intro: []string{"Median of rounds; the best value is in bold."}, Tables: []*Data{roundsTable(t)},
				Plots: []PagePlot{{Caption: "Throughput with " + evilServer, SVG: svg(tp)}}},
			{Title: "Ladders </section><script>alert(3)</script>", Tables: []*Data{ladderTable(t)}},
			{Title: "Cost", Tables: []*Data{costTable(t)}},
			{Title: "Every plot", Plots: plots},
		},
		Notes: []string{"wrk2 -U latencies are uncorrected for coordinated omission & shown dashed", evilServer},
	}
}

func renderPage(t *testing.T, p *Page) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WritePage(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPageGolden(t *testing.T) {
	golden(t, "page.html", renderPage(t, samplePage(t)))
}

func TestPageDeterministic(t *testing.T) {
	if !bytes.Equal(renderPage(t, samplePage(t)), renderPage(t, samplePage(t))) {
		t.Error("two renderings of the same page differ")
	}
}

// TestPageEscapes: the page has no script at all, so any "<script" in it
// would come from a label; every hostile label must appear escaped.
func TestPageEscapes(t *testing.T) {
	page := string(renderPage(t, samplePage(t)))
	if i := strings.Index(strings.ToLower(page), "<script"); i >= 0 {
		t.Fatalf("page contains <script at byte %d: %q", i, page[max(0, i-80):min(len(page), i+80)])
	}
	for _, want := range []string{
		"<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>",                      // table cell
		"<li><code>evil/&lt;img src=x onerror=alert(2)&gt;.txt:7</code></li>", // source
		"<h2>Ladders &lt;/section&gt;&lt;script&gt;alert(3)&lt;/script&gt;</h2>",
		"<figcaption>Throughput with &lt;script&gt;alert(1)&lt;/script&gt;</figcaption>",
		"<li>&lt;script&gt;alert(1)&lt;/script&gt;</li>", // page note
		">&lt;script&gt;alert(1)&lt;/script&gt;</text>",  // plot tick label
		"coordinated omission &amp; shown dashed",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "<?xml") || strings.Contains(page, "<!--") {
		t.Error("page keeps the SVG's XML declaration or comment")
	}
}

func TestPageStructure(t *testing.T) {
	page := string(renderPage(t, samplePage(t)))
	for _, id := range []string{"s1-t1", "s1-p1", "s2-t1", "s3-t1", "s4-p1", "s4-p7"} {
		if !strings.Contains(page, ` id="`+id+`"`) {
			t.Errorf("page lacks element %s", id)
		}
	}
	if n := strings.Count(page, "<svg "); n != 8 {
		t.Errorf("page has %d SVG plots, want 8", n)
	}
	// 6 rounds rows (3 servers × 2 connection counts), the hostile row
	// and 3 ladder rows have sources; the cost table has none.
	if n := strings.Count(page, "<details>"); n != 10 {
		t.Errorf("page has %d source lists, want 10", n)
	}
	for _, bad := range []string{"http://", "https://"} {
		for _, line := range strings.Split(page, "\n") {
			if strings.Contains(line, bad) && !strings.Contains(line, "xmlns") {
				t.Errorf("page refers to the network: %s", line)
			}
		}
	}
}

func TestRowSourcesHTML(t *testing.T) {
	d := &Data{
		Columns:    Columns("server", "rps"),
		Rows:       [][]any{{"a", 1.5}, {"b", 2.0}},
		RowSources: [][]Source{{{File: "x/a.txt", Line: 3}, {File: "x/b.txt"}}},
	}
	var b bytes.Buffer
	if err := WriteHTMLTable(&b, d, ""); err != nil {
		t.Fatal(err)
	}
	want := "<table>\n<thead><tr><th>server</th><th>rps</th><th>runs</th></tr></thead>\n<tbody>\n" +
		"<tr><td>a</td><td class=\"num\">1.5</td><td class=\"src\"><details><summary>2 runs</summary><ul><li><code>x/a.txt:3</code></li><li><code>x/b.txt</code></li></ul></details></td></tr>\n" +
		"<tr><td>b</td><td class=\"num\">2</td><td class=\"src\"></td></tr>\n" +
		"</tbody>\n</table>\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestSanitizeSVG(t *testing.T) {
	ok := `<?xml version="1.0"?>
<!-- made by hand -->
<svg width="10pt" height="10pt" viewBox="0 0 10 10" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
<g transform="scale(1, -1)"><text x="1" y="2" style="font-size:3px">a &lt;b&gt; &amp; &quot;c&quot;</text></g>
</svg>
`
	got, err := sanitizeSVG([]byte(ok), `a "b" <c>`)
	if err != nil {
		t.Fatal(err)
	}
	want := `<svg width="10pt" height="10pt" viewBox="0 0 10 10" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" role="img" aria-label="a &#34;b&#34; &lt;c&gt;">
<g transform="scale(1, -1)"><text x="1" y="2" style="font-size:3px">a &lt;b&gt; &amp; &#34;c&#34;</text></g>
</svg>
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct{ in, want string }{
		{`<svg><script>alert(1)</script></svg>`, "SVG line 1: element <script> is not allowed in a plot"},
		{`<svg onload="alert(1)"></svg>`, `SVG line 1: attribute onload="alert(1)" is not allowed in a plot`},
		{`<svg><a xlink:href="javascript:alert(1)"></a></svg>`, "SVG line 1: element <a> is not allowed in a plot"},
		{`<svg><path xlink:href="#x"/></svg>`, `SVG line 1: attribute xlink:href="#x" is not allowed in a plot`},
		{"<svg>\n<path style=\"fill:url(http://x/)\"/></svg>", `SVG line 2: attribute style="fill:url(http://x/)" is not allowed in a plot`},
		{`<svg><foreignObject/></svg>`, "SVG line 1: element <foreignObject> is not allowed in a plot"},
		{`<!DOCTYPE svg><svg></svg>`, "SVG line 1: directive <!DOCTYPE svg> is not allowed in a plot"},
		{`<svg></svg><svg></svg>`, "SVG line 1: element <svg> outside the root <svg>"},
		{`<svg><g></svg>`, "SVG line 1: </svg> closes no open element"},
		{`<svg><g>`, "SVG has no complete <svg> root element"},
		{`<g></g>`, "SVG line 1: element <g> outside the root <svg>"},
		{`<svg><text>a</text>`, "SVG has no complete <svg> root element"},
	} {
		_, err := sanitizeSVG([]byte(c.in), "")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got error %v, want %s", c.in, err, c.want)
		}
	}
}

func TestPageRefusesBadPlot(t *testing.T) {
	p := &Page{Title: "t", Sections: []Section{{Title: "s", Plots: []PagePlot{{Caption: "c", SVG: []byte(`<svg><script/></svg>`)}}}}}
	err := WritePage(&bytes.Buffer{}, p)
	if want := `page section "s": plot 1 ("c"): SVG line 1: element <script> is not allowed in a plot`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, fmt.Sprint(want))
	}
}

// FuzzSanitizeSVG: whatever the input, sanitizeSVG does not panic, and
// what it accepts holds no script or event attribute and comes out the
// same when sanitised again.
func FuzzSanitizeSVG(f *testing.F) {
	for _, name := range []string{"cost.svg", "ladder.svg"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte(`<svg><script>alert(1)</script></svg>`))
	f.Add([]byte(`<svg onload="alert(1)"><text>&lt;script&gt;</text></svg>`))
	f.Add([]byte(`<svg><text><![CDATA[</text><script>alert(1)</script>]]></text></svg>`))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := sanitizeSVG(in, "")
		if err != nil {
			return
		}
		low := strings.ToLower(string(out))
		if strings.Contains(low, "<script") || strings.Contains(low, " on") && regexp.MustCompile(`\son[a-z]*=`).MatchString(low) {
			t.Fatalf("accepted output has a script or an event attribute: %q", out)
		}
		again, err := sanitizeSVG(out, "")
		if err != nil {
			t.Fatalf("output does not sanitise again: %v\n%q", err, out)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("sanitising twice changes the output:\n%q\n%q", out, again)
		}
	})
}

// Opening sections come first, before the list of contents, which lists
// only the others; a bullet's lead, text, lines and notes are escaped
// text; a table titled as its section is written without the title, so
// no heading is printed twice; ids follow the order the sections were
// given.
func TestPageOpening(t *testing.T) {
	d := &Data{Title: "Findings", Columns: []Column{{Name: "rule"}}, Rows: [][]any{{"drift"}}}
	p := &Page{Title: "Report", Sections: []Section{
		{Title: "Findings", Tables: []*Data{d}},
		{Title: "Summary", Opening: true, Bullets: []Bullet{{Lead: "CPU <b>", Text: "a & b", Lines: []string{"x < y"}, Notes: []string{"caveat >"}}}},
		{Title: "Memory", Tables: []*Data{{Title: "Growth", Columns: []Column{{Name: "server"}}, Rows: [][]any{{"a"}}}}},
	}}
	page := string(renderPage(t, p))
	summary := strings.Index(page, `<section id="s2" class="opening">`)
	nav := strings.Index(page, "<nav>")
	findings := strings.Index(page, `<section id="s1">`)
	if summary < 0 || nav < summary || findings < nav {
		t.Errorf("summary at %d, contents at %d, findings at %d: want that order", summary, nav, findings)
	}
	if contents := page[nav:strings.Index(page, "</nav>")]; strings.Contains(contents, "Summary") || !strings.Contains(contents, `<a href="#s1">Findings</a>`) {
		t.Errorf("contents: %s", contents)
	}
	for _, want := range []string{"<strong>CPU &lt;b&gt;.</strong> a &amp; b", "<ul><li>x &lt; y</li></ul>", `<span class="caveat">caveat &gt;</span>`, "<caption>Growth</caption>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "<caption>Findings</caption>") {
		t.Error("the findings table repeats its section's heading")
	}
	if d.Title != "Findings" {
		t.Error("writing the page changed the table's title")
	}
}
