package notebook

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/wra-bench/wra/report"
)

// ChartFile names the SVG file of a block's plot, relative to the
// Markdown output: the output's name without its extension, a dot, the
// block's index, ".svg" (cpu.md → cpu.2.svg for the second sql block).
func ChartFile(output string, b *Block) string {
	base := output
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return fmt.Sprintf("%s.%d.svg", base, b.Index)
}

// WriteMarkdown writes the notebook with each block's result after it.
// A plot is linked as chartFile(block), which the caller writes from
// Result.Chart.SVG. It returns the line of each block's opening fence in
// the output (the first block's at index 0), which the error shown in
// place also names: a line that stays the same when the output is run
// again.
func WriteMarkdown(w io.Writer, nb *Notebook, results []Result, chartFile func(*Block) string) ([]int, error) {
	var b strings.Builder
	lines := make([]int, len(nb.Blocks))
	n := 1 // the line being written
	for _, p := range nb.parts {
		if p.block == nil {
			b.WriteString(p.text)
			n += strings.Count(p.text, "\n")
			continue
		}
		line := n
		lines[p.block.Index-1] = line
		var sec strings.Builder
		sec.WriteString(p.text)
		sec.WriteString("\n" + ResultStart + "\n\n")
		markdownResult(&sec, resultOf(results, p.block), line, chartFile)
		sec.WriteString("\n" + ResultEnd + "\n")
		b.WriteString(sec.String())
		n += strings.Count(sec.String(), "\n")
	}
	_, err := io.WriteString(w, b.String())
	return lines, err
}

func resultOf(results []Result, b *Block) Result {
	for _, r := range results {
		if r.Block == b {
			return r
		}
	}
	return Result{Block: b, Err: fmt.Errorf("the block was not run")}
}

func markdownResult(b *strings.Builder, r Result, line int, chartFile func(*Block) string) {
	if r.Err != nil {
		fmt.Fprintf(b, "**Error** in the block at line %d:\n\n", line)
		fence := strings.Repeat("`", max(3, longestRun(r.Err.Error(), '`')+1))
		fmt.Fprintf(b, "%stext\n%s\n%s\n", fence, strings.TrimRight(r.Err.Error(), "\n"), fence)
		return
	}
	report.Write(b, r.Data, report.Markdown)
	if len(r.Data.Rows) == 0 {
		b.WriteString("\n_No rows._\n")
	}
	if r.Chart != nil && chartFile != nil {
		fmt.Fprintf(b, "\n![%s](%s)\n", report.EscapeMarkdown(r.Chart.Title), escapeLink(chartFile(r.Block)))
		for _, n := range r.Chart.Notes {
			fmt.Fprintf(b, "\n%s\n", report.EscapeMarkdown(n))
		}
	}
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// escapeLink makes a file name safe as a Markdown link destination.
func escapeLink(s string) string {
	r := strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E")
	return r.Replace(s)
}

// WriteHTML writes the notebook as a self-contained HTML page: the prose
// rendered from Markdown (raw HTML in it is left out, so a notebook
// cannot put script into the page), each query, and its result with the
// plot inline.
func WriteHTML(w io.Writer, nb *Notebook, results []Result) error {
	// The prose is rendered in one piece, so that lists and paragraphs
	// around a block stay whole; each block becomes a placeholder
	// paragraph that is then replaced by the query and its result.
	var md strings.Builder
	placeholder := func(i int) string { return fmt.Sprintf("wra-notebook-block-%d-placeholder", i) }
	for _, p := range nb.parts {
		if p.block != nil {
			fmt.Fprintf(&md, "\n%s\n\n", placeholder(p.block.Index))
			continue
		}
		md.WriteString(p.text)
	}
	var prose bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	if err := gm.Convert([]byte(md.String()), &prose); err != nil {
		return err
	}
	page := prose.String()
	for _, blk := range nb.Blocks {
		var b strings.Builder
		htmlBlock(&b, resultOf(results, blk))
		page = strings.Replace(page, "<p>"+placeholder(blk.Index)+"</p>", b.String(), 1)
	}
	title := nb.Name
	if i := strings.LastIndexAny(title, `/\`); i >= 0 {
		title = title[i+1:]
	}
	if h := firstHeading(nb); h != "" {
		title = h
	}
	var out strings.Builder
	fmt.Fprintf(&out, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Arial,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111}
pre{background:#f5f5f5;padding:.6rem .8rem;overflow-x:auto}
code{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:.9em}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.2rem .5rem}
th{background:#f0f0f0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.wra-result{margin:0 0 1.5rem 0}
.wra-error{background:#fdecea;border-left:4px solid #d55e00}
figure{margin:.5rem 0}
figure svg{max-width:100%%;height:auto}
</style>
</head>
<body>
`, html.EscapeString(title))
	out.WriteString(page)
	out.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, out.String())
	return err
}

func htmlBlock(b *strings.Builder, r Result) {
	fmt.Fprintf(b, "<pre><code class=\"language-sql\">%s</code></pre>\n", html.EscapeString(r.Block.SQL))
	fmt.Fprintf(b, "<div class=\"wra-result\" id=\"block-%d\">\n", r.Block.Index)
	defer b.WriteString("</div>\n")
	if r.Err != nil {
		fmt.Fprintf(b, "<p><strong>Error</strong> in the block at line %d:</p>\n<pre class=\"wra-error\">%s</pre>\n", r.Block.Line, html.EscapeString(r.Err.Error()))
		return
	}
	report.WriteHTMLTable(b, r.Data, "")
	if len(r.Data.Rows) == 0 {
		b.WriteString("<p><em>No rows.</em></p>\n")
	}
	if r.Chart != nil {
		fmt.Fprintf(b, "<figure>\n%s\n<figcaption>%s</figcaption>\n</figure>\n", inlineSVG(r.Chart.SVG), html.EscapeString(r.Chart.Title))
		for _, n := range r.Chart.Notes {
			fmt.Fprintf(b, "<p>%s</p>\n", html.EscapeString(n))
		}
	}
}

// inlineSVG drops the XML declaration and doctype of an SVG document so
// that it can stand inside HTML.
func inlineSVG(svg []byte) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

// firstHeading is the text of the notebook's first # heading.
func firstHeading(nb *Notebook) string {
	for _, p := range nb.parts {
		if p.block != nil {
			continue
		}
		for _, ln := range strings.Split(p.text, "\n") {
			if t := strings.TrimSpace(ln); strings.HasPrefix(t, "# ") {
				return strings.TrimSpace(t[2:])
			}
		}
	}
	return ""
}
