package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
)

// Page is the report page: one HTML document with the tables, the
// plots and the footnotes, readable offline and without scripts;
// self-contained, or with its plots linked as files beside it when they
// are large (Inline).
type Page struct {
	Title string
	// Inline says whether the plots are inline or linked; empty is
	// InlineAuto.
	Inline InlinePlots
	// Intro holds paragraphs under the title: the corpus, the rules
	// used, the tables skipped for want of data.
	Intro    []string
	Sections []Section
	// Notes are the page's footnotes, listed at its end.
	Notes []string
}

// Section is one part of the page: a heading, paragraphs, a list, then
// its tables and its plots.
type Section struct {
	Title string
	Intro []string
	// Bullets are a list under the heading, before any table: the
	// sentences of a summary.
	Bullets []Bullet
	// Remarks are paragraphs in small print after the list.
	Remarks []string
	Tables  []*Data
	Plots   []PagePlot
	// Opening sections (the answer and its context) come before the
	// list of contents; the page lists only the others.
	Opening bool
}

// Bullet is one item of a section's list: a lead in bold, its sentence,
// its parts as a list of their own (one line each), and what must be
// said beside it (caveats) in smaller print.
type Bullet struct {
	Lead, Text string
	Lines      []string
	Notes      []string
	// Details are paragraphs of evidence, folded under the bullet (a
	// <details> element on the page) until the reader opens them.
	Details []string
	// Plots draw the bullet, beside its text.
	Plots []PagePlot
}

// Untitled is d without its title when the title only repeats its
// section's heading (a page never prints the same heading twice), else
// d itself.
func Untitled(d *Data, section string) *Data {
	if d == nil || d.Title != section {
		return d
	}
	c := *d
	c.Title = ""
	return &c
}

// PagePlot is a plot on the page: an SVG document as SVG returns it, and
// a caption. File, when set, is where the same SVG is written beside the
// page, as a path relative to the page's folder (plots/memory.svg), which
// a page that links its plots refers to in place of the SVG.
type PagePlot struct {
	Caption string
	SVG     []byte
	File    string
}

// pageCSS is the page's whole style sheet.
const pageCSS = `
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; color: #1a1a1a; background: #fff; max-width: 1100px; margin: 0 auto; padding: 1em 1.5em 3em; }
h1 { font-size: 1.6em; margin: 0.4em 0; }
h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
nav ol { columns: 2; padding-left: 1.4em; }
nav { font-size: 0.9em; }
nav ol ul { padding-left: 1.2em; margin: 0.1em 0 0.3em; list-style: circle; font-size: 0.92em; }
ul.bullets { padding-left: 1.2em; margin: 0.4em 0; font-size: 0.95em; }
ul.bullets li { margin: 0.25em 0; }
ul.bullets ul { padding-left: 1.2em; margin: 0.1em 0; list-style: circle; }
ul.bullets ul li { margin: 0.05em 0; }
section.opening h2 { margin-top: 0.6em; }
.caveat { display: block; font-size: 0.85em; color: #8a4b00; }
p.remark { font-size: 0.85em; color: #555; margin: 0.3em 0; }
a { color: #0072B2; }
.scroll { overflow-x: auto; margin: 1.2em 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.3em 0; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #f4f4f4; text-align: left; }
td.num { text-align: right; white-space: nowrap; }
td.src { font-size: 0.85em; }
td.src ul { margin: 0.2em 0; padding-left: 1.2em; }
details summary { cursor: pointer; color: #0072B2; }
ul.bullets details { font-size: 0.85em; color: #444; margin: 0.1em 0 0.4em; }
ul.bullets details p { margin: 0.2em 0; }
ol.notes { font-size: 0.9em; color: #444; margin: 0.4em 0 0; }
figure { margin: 1.5em 0; }
figure svg { display: block; width: 100%; max-width: 900px; height: auto; }
div.charts { display: flex; flex-wrap: wrap; gap: 0 1.5em; }
div.charts figure { margin: 0.4em 0 0.8em; flex: 0 1 500px; }
div.charts figcaption { font-size: 0.8em; }
figcaption { font-size: 0.9em; color: #444; margin-top: 0.3em; }
footer { margin-top: 3em; font-size: 0.9em; }
`

// WritePage writes a page as one HTML document: inline CSS, plots inline
// as SVG, no script, no request to any network (a Content-Security-Policy
// forbids both). Every text is escaped, and every plot's SVG is read as
// XML and written again from what was read, keeping only drawing
// elements; an SVG with anything else (a script, an event attribute, a
// link, a url() reference) is refused. A page that links its plots
// (Inline, linksPlots) has an <img> with the plot's File, size and
// caption in place of each SVG, and its policy lets images load from
// the page's own folder ('self') and from nowhere else; a large page has
// its sections drawn as they near the view (largeCSS). The opening
// sections come first, then a list of contents of the others, then
// those. Sections, tables and plots get element ids s1, s1-t1, s1-p1, …
// in the order given. The same page gives the same bytes.
func WritePage(w io.Writer, p *Page) error {
	link, large, err := p.linksPlots()
	if err != nil {
		return err
	}
	policy, css := "default-src 'none'; style-src 'unsafe-inline'", pageCSS
	if link {
		policy, css = policy+"; img-src 'self'", css+linkedCSS
	}
	if large {
		css += largeCSS
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", policy)
	fmt.Fprintf(&b, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", html.EscapeString(p.Title), css)
	fmt.Fprintf(&b, "<header>\n<h1>%s</h1>\n", html.EscapeString(p.Title))
	writeParagraphs(&b, p.Intro)
	b.WriteString("</header>\n")
	// The opening sections first, then the contents of the others.
	var rest []int
	for i, s := range p.Sections {
		if s.Opening {
			if err := writeSection(&b, i, s, link); err != nil {
				return err
			}
		} else {
			rest = append(rest, i)
		}
	}
	if len(rest) > 1 {
		b.WriteString("<nav>\n<h2>Contents</h2>\n<ol>\n")
		for _, i := range rest {
			fmt.Fprintf(&b, "<li><a href=\"#s%d\">%s</a>", i+1, html.EscapeString(p.Sections[i].Title))
			// The section's charts, each by its caption's subject.
			if plots := p.Sections[i].Plots; len(plots) > 0 {
				b.WriteString("<ul>")
				for j, pl := range plots {
					name, _, _ := strings.Cut(pl.Caption, ":")
					if name == "" {
						name = fmt.Sprintf("plot %d", j+1)
					}
					fmt.Fprintf(&b, "<li><a href=\"#s%d-p%d\">%s</a></li>", i+1, j+1, html.EscapeString(name))
				}
				b.WriteString("</ul>")
			}
			b.WriteString("</li>\n")
		}
		b.WriteString("</ol>\n</nav>\n")
	}
	for _, i := range rest {
		if err := writeSection(&b, i, p.Sections[i], link); err != nil {
			return err
		}
	}
	if len(p.Notes) > 0 {
		b.WriteString("<footer>\n<h2>Notes</h2>\n")
		writeHTMLNotes(&b, p.Notes)
		b.WriteString("</footer>\n")
	}
	b.WriteString("</body>\n</html>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// writeSection writes the i-th section (0-based) with its element ids,
// its plots inline or, with link, linked.
func writeSection(b *strings.Builder, i int, s Section, link bool) error {
	id := "s" + strconv.Itoa(i+1)
	class := ""
	if s.Opening {
		class = ` class="opening"`
	}
	fmt.Fprintf(b, "<section id=\"%s\"%s>\n<h2>%s</h2>\n", id, class, html.EscapeString(s.Title))
	writeParagraphs(b, s.Intro)
	if len(s.Bullets) > 0 {
		b.WriteString("<ul class=\"bullets\">\n")
		for k, it := range s.Bullets {
			b.WriteString("<li>")
			if it.Lead != "" {
				fmt.Fprintf(b, "<strong>%s.</strong>", html.EscapeString(it.Lead))
				if it.Text != "" {
					b.WriteString(" ")
				}
			}
			b.WriteString(html.EscapeString(it.Text))
			if len(it.Lines) > 0 {
				b.WriteString("\n<ul>")
				for _, l := range it.Lines {
					fmt.Fprintf(b, "<li>%s</li>", html.EscapeString(l))
				}
				b.WriteString("</ul>")
			}
			for _, n := range it.Notes {
				fmt.Fprintf(b, "\n<span class=\"caveat\">%s</span>", html.EscapeString(n))
			}
			if len(it.Details) > 0 {
				b.WriteString("\n<details><summary>evidence</summary>")
				for _, d := range it.Details {
					fmt.Fprintf(b, "<p>%s</p>", html.EscapeString(d))
				}
				b.WriteString("</details>")
			}
			if len(it.Plots) > 0 {
				b.WriteString("\n<div class=\"charts\">\n")
				for j, pl := range it.Plots {
					if err := writePlot(b, fmt.Sprintf("%s-b%d-p%d", id, k+1, j+1), fmt.Sprintf("bullet %d: plot %d", k+1, j+1), pl, link); err != nil {
						return fmt.Errorf("page section %q: %w", s.Title, err)
					}
				}
				b.WriteString("</div>")
			}
			b.WriteString("</li>\n")
		}
		b.WriteString("</ul>\n")
	}
	for _, r := range s.Remarks {
		fmt.Fprintf(b, "<p class=\"remark\">%s</p>\n", html.EscapeString(r))
	}
	for j, d := range s.Tables {
		if d == nil {
			return fmt.Errorf("page section %q: table %d is nil", s.Title, j+1)
		}
		b.WriteString("<div class=\"scroll\">\n")
		if err := WriteHTMLTable(b, Untitled(d, s.Title), fmt.Sprintf("%s-t%d", id, j+1)); err != nil {
			return err
		}
		b.WriteString("</div>\n")
	}
	for j, pl := range s.Plots {
		if err := writePlot(b, fmt.Sprintf("%s-p%d", id, j+1), fmt.Sprintf("plot %d", j+1), pl, link); err != nil {
			return fmt.Errorf("page section %q: %w", s.Title, err)
		}
	}
	b.WriteString("</section>\n")
	return nil
}

// writePlot writes a plot as a <figure> with its id and caption, its
// SVG inline or, with link, linked; what names it in an error.
func writePlot(b *strings.Builder, id, what string, pl PagePlot, link bool) error {
	fmt.Fprintf(b, "<figure id=\"%s\">\n", id)
	var err error
	if link {
		err = writeLinkedPlot(b, pl)
	} else {
		var svg []byte
		if svg, err = sanitizeSVG(pl.SVG, pl.Caption); err == nil {
			b.Write(svg)
		}
	}
	if err != nil {
		return fmt.Errorf("%s (%q): %w", what, pl.Caption, err)
	}
	if pl.Caption != "" {
		fmt.Fprintf(b, "<figcaption>%s</figcaption>\n", html.EscapeString(pl.Caption))
	}
	b.WriteString("</figure>\n")
	return nil
}

func writeParagraphs(b *strings.Builder, ps []string) {
	for _, s := range ps {
		fmt.Fprintf(b, "<p>%s</p>\n", html.EscapeString(s))
	}
}

// svgElements are the SVG elements a plot may hold: drawing and text,
// nothing that runs, links or loads.
var svgElements = map[string]bool{
	"svg": true, "g": true, "path": true, "text": true, "tspan": true,
	"rect": true, "circle": true, "ellipse": true, "line": true,
	"polyline": true, "polygon": true, "title": true, "desc": true,
}

// sanitizeSVG reads an SVG document as XML and writes its root element
// again from the tokens read, for inclusion in HTML: the XML
// declaration and comments are dropped, text and attribute values are
// escaped anew, and only svgElements with attributes that neither run
// (on…), link (href) nor load (url(…)) are accepted. The root gets
// role="img" and, when label is set, label as its accessible name.
func sanitizeSVG(src []byte, label string) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	var out bytes.Buffer
	var open []string
	done := false
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("SVG is not well-formed: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := qname(t.Name)
			if done || (len(open) == 0 && name != "svg") {
				return nil, fmt.Errorf("SVG line %d: element <%s> outside the root <svg>", lineAt(src, d.InputOffset()), name)
			}
			if !svgElements[name] {
				return nil, fmt.Errorf("SVG line %d: element <%s> is not allowed in a plot", lineAt(src, d.InputOffset()), name)
			}
			out.WriteString("<" + name)
			for _, a := range t.Attr {
				an := qname(a.Name)
				low := strings.ToLower(an)
				if strings.HasPrefix(low, "on") || strings.HasSuffix(low, "href") || strings.Contains(strings.ToLower(a.Value), "url(") {
					return nil, fmt.Errorf("SVG line %d: attribute %s=%q is not allowed in a plot", lineAt(src, d.InputOffset()), an, a.Value)
				}
				if !validName(an) {
					return nil, fmt.Errorf("SVG line %d: attribute name %q", lineAt(src, d.InputOffset()), an)
				}
				if len(open) == 0 && (low == "role" || low == "aria-label") {
					continue // set below
				}
				fmt.Fprintf(&out, " %s=\"%s\"", an, html.EscapeString(a.Value))
			}
			if len(open) == 0 {
				out.WriteString(` role="img"`)
				if label != "" {
					fmt.Fprintf(&out, ` aria-label="%s"`, html.EscapeString(label))
				}
			}
			out.WriteString(">")
			open = append(open, name)
		case xml.EndElement:
			name := qname(t.Name)
			if len(open) == 0 || open[len(open)-1] != name {
				return nil, fmt.Errorf("SVG line %d: </%s> closes no open element", lineAt(src, d.InputOffset()), name)
			}
			open = open[:len(open)-1]
			fmt.Fprintf(&out, "</%s>", name)
			if len(open) == 0 {
				done = true
				out.WriteString("\n")
			}
		case xml.CharData:
			if len(open) > 0 {
				out.WriteString(html.EscapeString(string(t)))
			} else if len(bytes.TrimSpace(t)) > 0 {
				return nil, fmt.Errorf("SVG line %d: text outside the root <svg>", lineAt(src, d.InputOffset()))
			}
		case xml.Comment, xml.ProcInst:
			// Dropped: gonum writes an XML declaration and a comment
			// before the root, and neither belongs in HTML.
		case xml.Directive:
			return nil, fmt.Errorf("SVG line %d: directive <!%s> is not allowed in a plot", lineAt(src, d.InputOffset()), t)
		}
	}
	if !done {
		return nil, errors.New("SVG has no complete <svg> root element")
	}
	return out.Bytes(), nil
}

// qname is an element or attribute name as written, prefix included.
func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// validName accepts the characters of ordinary SVG names, so that a
// name cannot break out of its tag.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == ':' || r == '.') {
			return false
		}
	}
	return true
}

// lineAt is the 1-based line of a byte offset.
func lineAt(src []byte, off int64) int {
	return bytes.Count(src[:min(int(off), len(src))], []byte("\n")) + 1
}
