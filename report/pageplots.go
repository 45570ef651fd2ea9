package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"io/fs"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// InlinePlots says whether a page holds its plots inline, as SVG
// elements of the document, or links each plot's SVG file beside it.
type InlinePlots string

const (
	// InlineAuto holds the plots inline while their SVG adds up to at
	// most InlinePlotsLimitBytes, and links them above that.
	InlineAuto InlinePlots = "auto"
	// InlineAlways holds every plot inline, whatever the page's size.
	InlineAlways InlinePlots = "always"
	// InlineNever links every plot.
	InlineNever InlinePlots = "never"
)

// InlinePlotsModes lists the values of InlinePlots in the order help
// texts show them.
var InlinePlotsModes = []InlinePlots{InlineAuto, InlineAlways, InlineNever}

// InlinePlotsLimitBytes is the most SVG, summed over a page's plots, that
// InlineAuto holds inline: a page of about 2 MiB of plots still opens in
// a browser in well under a second, while a study of 48 stacks makes
// 5.6 MB of plots, which a browser parses, lays out and keeps in memory
// before it shows the first line.
const InlinePlotsLimitBytes = 2 << 20

// ParseInlinePlots reads a mode by its name (auto, always, never).
func ParseInlinePlots(s string) (InlinePlots, error) {
	names := make([]string, len(InlinePlotsModes))
	for i, m := range InlinePlotsModes {
		if string(m) == s {
			return m, nil
		}
		names[i] = string(m)
	}
	return "", fmt.Errorf("expected one of %s, found %q", strings.Join(names, ", "), s)
}

// linksPlots says whether p links its plots rather than holding them
// inline: always under InlineNever (every plot must then have a File),
// under InlineAuto (or no mode set) when the page is large and every
// plot has a File. A page is large when its plots' SVG adds up to more
// than InlinePlotsLimitBytes, whatever the mode.
func (p *Page) linksPlots() (link, large bool, err error) {
	total, files := 0, true
	for _, s := range p.Sections {
		plots := slices.Clone(s.Plots)
		for _, b := range s.Bullets {
			plots = append(plots, b.Plots...)
		}
		for j, pl := range plots {
			total += len(pl.SVG)
			if pl.File == "" {
				if p.Inline == InlineNever {
					return false, false, fmt.Errorf("page section %q: plot %d (%q): no file to link", s.Title, j+1, pl.Caption)
				}
				files = false
			} else if !fs.ValidPath(pl.File) || strings.Contains(pl.File, `\`) {
				return false, false, fmt.Errorf("page section %q: plot %d (%q): file %q is not a path relative to the page's folder, with / between names and no ..", s.Title, j+1, pl.Caption, pl.File)
			}
		}
	}
	large = total > InlinePlotsLimitBytes
	switch p.Inline {
	case InlineAuto, "":
		return files && large, large, nil
	case InlineAlways:
		return false, large, nil
	case InlineNever:
		return true, large, nil
	}
	_, err = ParseInlinePlots(string(p.Inline))
	return false, false, err
}

// linkedCSS is added to the style sheet of a page that links its plots:
// an image scales as an inline plot does.
const linkedCSS = "figure img { display: block; width: 100%; max-width: 900px; height: auto; }\n"

// largeCSS is added to the style sheet of a large page (linksPlots): on
// a screen the browser lays out and paints a section only as it nears
// the view (content-visibility), which on the page of 48 stacks, whose
// tables hold thousands of rows, brings the load event three times
// sooner. Small pages go without it: there it saves next to nothing,
// and Safari's Find does not search a section it has not drawn.
const largeCSS = "@media screen { section { content-visibility: auto; contain-intrinsic-size: auto 1200px; } }\n"

// writeLinkedPlot writes the <img> element of a linked plot: its file
// (each name escaped for a URL, and after ./ where the first holds a
// colon), its size in CSS pixels from the SVG's
// root (so that the page does not move as images arrive), its caption
// as the text read in its place, loaded when it comes near the view.
// The SVG is checked as an inline one would be (sanitizeSVG), so that a
// plot that a page refuses inline it refuses linked too.
func writeLinkedPlot(b *strings.Builder, pl PagePlot) error {
	if _, err := sanitizeSVG(pl.SVG, pl.Caption); err != nil {
		return err
	}
	parts := strings.Split(pl.File, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	src := strings.Join(parts, "/")
	if strings.Contains(parts[0], ":") {
		src = "./" + src // else the name before the colon reads as a scheme
	}
	fmt.Fprintf(b, "<img src=\"%s\"", html.EscapeString(src))
	if w, h, ok := svgPixels(pl.SVG); ok {
		fmt.Fprintf(b, " width=\"%d\" height=\"%d\"", w, h)
	}
	alt := pl.Caption
	if alt == "" {
		alt = "plot"
	}
	fmt.Fprintf(b, " alt=\"%s\" loading=\"lazy\" decoding=\"async\">\n", html.EscapeString(alt))
	return nil
}

// svgPixels is the size of an SVG document's root in CSS pixels,
// rounded to whole pixels: its width and height attributes in pt (4/3
// px, as gonum writes them), px or without a unit. ok is false when
// either is missing or in another unit.
func svgPixels(svg []byte) (w, h int, ok bool) {
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.RawToken()
		if err == io.EOF || err != nil {
			return 0, 0, false
		}
		el, isStart := tok.(xml.StartElement)
		if !isStart {
			continue
		}
		var ws, hs string
		for _, a := range el.Attr {
			switch qname(a.Name) {
			case "width":
				ws = a.Value
			case "height":
				hs = a.Value
			}
		}
		w, okW := cssPixels(ws)
		h, okH := cssPixels(hs)
		return w, h, okW && okH
	}
}

// cssPixels reads a length in pt, px or without a unit as whole CSS
// pixels.
func cssPixels(s string) (int, bool) {
	s = strings.TrimSpace(s)
	scale := 1.0
	switch {
	case strings.HasSuffix(s, "pt"):
		s, scale = strings.TrimSuffix(s, "pt"), 4.0/3
	case strings.HasSuffix(s, "px"):
		s = strings.TrimSuffix(s, "px")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, false
	}
	return int(math.Round(v * scale)), true
}
