package report

import (
	"image/color"

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

// dashes are the line patterns of series beyond the first eight.
var dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
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
// order, each with its own point shape; after the eighth series the
// colours repeat with dashed lines and shifted shapes.
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
// its colour with a dashed line and a hollow shape; series of one name
// share a style.
func (s styler) seriesStyles(n int, server, name func(i int) string) []SeriesStyle {
	styles := make([]SeriesStyle, n)
	byName := map[string]SeriesStyle{}
	seen := map[string]int{}
	for i := range n {
		st, ok := byName[name(i)]
		if !ok {
			srv := server(i)
			st = s.style(srv)
			if k := seen[srv]; k > 0 {
				st.Dashes = dashes[1+(k-1)%(len(dashes)-1)]
				st.Glyph = hollow[(k-1)%len(hollow)]
			}
			seen[srv]++
			byName[name(i)] = st
		}
		styles[i] = st
	}
	return styles
}
