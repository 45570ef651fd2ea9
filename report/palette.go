package report

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// OkabeIto is the colour-blind-safe palette of Okabe and Ito (2008),
// "Color Universal Design", in the order plots use it: orange, sky blue,
// bluish green, blue, vermillion, reddish purple, yellow, black. Yellow
// and black come last: yellow is faint on white and black is the colour
// of axes and reference lines.
var OkabeIto = []color.RGBA{
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	{0x00, 0x00, 0x00, 0xFF}, // black
}

// glyphs are the point shapes series take in turn, so that series stay
// apart where colours cannot be told apart (print in grey, colour
// blindness beyond what the palette covers, more than eight series).
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.BoxGlyph{},
	draw.PyramidGlyph{},
	draw.RingGlyph{},
	draw.SquareGlyph{},
	draw.TriangleGlyph{},
	draw.PlusGlyph{},
	draw.CrossGlyph{},
}

// dashes are the line patterns series take in turn after each round of
// eight colours: seven patterns, so that no two of the first 56 series
// share both colour and pattern.
var dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)},
	{vg.Points(1), vg.Points(3)},
	{vg.Points(12), vg.Points(4)},
	{vg.Points(5), vg.Points(2), vg.Points(1), vg.Points(2), vg.Points(1), vg.Points(2)},
}

// Palette gives every series (usually a server) the same colour and
// point shape in every plot of a report. Keys are given colours in the
// order they are first seen, so a palette built from the sorted list of
// servers gives stable styles even when a plot lacks some servers. A nil
// *Palette is valid: each plot then numbers its series in order of
// appearance. A Palette is not safe for concurrent use.
type Palette struct {
	index map[string]int
}

// NewPalette returns a palette that has given keys their styles in order.
func NewPalette(keys ...string) *Palette {
	p := &Palette{index: map[string]int{}}
	for _, k := range keys {
		p.indexOf(k)
	}
	return p
}

func (p *Palette) indexOf(key string) int {
	if i, ok := p.index[key]; ok {
		return i
	}
	i := len(p.index)
	p.index[key] = i
	return i
}

// SeriesStyle is how one series is drawn.
type SeriesStyle struct {
	Color color.RGBA
	Glyph draw.GlyphDrawer
	// Dashes is the line pattern: nil for solid lines.
	Dashes []vg.Length
}

// styleAt returns the style of the i-th series: colours in palette
// order; after every eight series the colours repeat with the next dash
// pattern, and the point shapes shift by one, so that of the first 56
// series no two share colour and dashes, and of the first 64 no two
// share colour and shape.
func styleAt(i int) SeriesStyle {
	n := len(OkabeIto)
	round := i / n
	return SeriesStyle{
		Color:  OkabeIto[i%n],
		Glyph:  glyphs[(i+round)%len(glyphs)],
		Dashes: dashes[round%len(dashes)],
	}
}

// Style returns the style of a key, giving the key the next style when
// it is new.
func (p *Palette) Style(key string) SeriesStyle {
	return styleAt(p.indexOf(key))
}

// styler hands out styles for one plot: from the report's palette when
// there is one, else in order of appearance in this plot.
type styler struct {
	p     *Palette
	local *Palette
}

func newStyler(p *Palette) styler {
	return styler{p: p, local: NewPalette()}
}

func (s styler) style(key string) SeriesStyle {
	if s.p != nil {
		return s.p.Style(key)
	}
	return s.local.Style(key)
}

// seriesStyles are the styles of n series, each coloured by its server
// and told apart by its name: a server's first named series has the
// server's style, its further ones (another tool, database or load) keep
// its colour with a dashed line and a hollow shape that no other series
// of the plot has in that colour; series of one name share a style.
func (s styler) seriesStyles(n int, server, name func(i int) string) []SeriesStyle {
	type colourDash struct {
		c color.RGBA
		d string
	}
	type colourGlyph struct {
		c color.RGBA
		g draw.GlyphDrawer
	}
	usedDash, usedGlyph := map[colourDash]bool{}, map[colourGlyph]bool{}
	use := func(st SeriesStyle) {
		usedDash[colourDash{st.Color, fmt.Sprint(st.Dashes)}] = true
		usedGlyph[colourGlyph{st.Color, st.Glyph}] = true
	}
	// Every server's first series first, so that further series take
	// only what no server's own style uses.
	first := map[string]string{}
	for i := range n {
		if _, ok := first[server(i)]; !ok {
			first[server(i)] = name(i)
			use(s.style(server(i)))
		}
	}
	styles := make([]SeriesStyle, n)
	byName := map[string]SeriesStyle{}
	seen := map[string]int{}
	for i := range n {
		st, ok := byName[name(i)]
		if !ok {
			srv := server(i)
			st = s.style(srv)
			if first[srv] != name(i) {
				k := seen[srv] - 1
				st.Dashes = pick(dashes[1:], k, func(d []vg.Length) bool { return !usedDash[colourDash{st.Color, fmt.Sprint(d)}] })
				st.Glyph = pick(append(slices.Clone(hollow), glyphs...), k, func(g draw.GlyphDrawer) bool { return !usedGlyph[colourGlyph{st.Color, g}] })
				use(st)
			}
			seen[srv]++
			byName[name(i)] = st
		}
		styles[i] = st
	}
	return styles
}

// pick returns the first of xs, from the k-th on and round, that free
// accepts; the k-th when none does.
func pick[T any](xs []T, k int, free func(T) bool) T {
	for j := range xs {
		if x := xs[(k+j)%len(xs)]; free(x) {
			return x
		}
	}
	return xs[k%len(xs)]
}
