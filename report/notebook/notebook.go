// Package notebook runs wra notebooks: Markdown files whose ```sql blocks
// are queries against the store. Running a notebook puts each block's
// result (a table, and a plot for a block that asks for one) right after
// the block, between the lines <!-- wra:result --> and <!-- /wra:result -->,
// so that a notebook run again has its old results replaced and its
// source stays readable. The output is Markdown (plots as SVG files
// beside it) or a self-contained HTML page.
//
// The package knows no database: it asks a Querier for each block's rows.
// A failing block shows its error in place and the other blocks still run.
package notebook

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Markers that enclose the output of a block.
const (
	ResultStart = "<!-- wra:result -->"
	ResultEnd   = "<!-- /wra:result -->"
)

// Notebook is a parsed notebook: its text with earlier results taken out,
// and its sql blocks.
type Notebook struct {
	Name   string // the file name, used in error messages
	Blocks []*Block
	parts  []part
}

// part is a stretch of the source: text, or one sql block (fences
// included).
type part struct {
	text  string
	block *Block
}

// Block is one ```sql block.
type Block struct {
	Index int    // 1 for the first sql block of the notebook, 2 for the next …
	Line  int    // line of the opening fence, from 1
	SQL   string // the query: the lines between the fences
	Chart *Chart // nil when the block asks for no plot
	Rows  int    // rows=N: at most N rows shown, 0 for all; -1 when the block does not say
	// Err is a mistake in the block's info string (an unknown attribute,
	// a bad chart kind); such a block is not run and shows the error.
	Err error
}

// Chart is what a block's info string asks to plot, e.g.
// ```sql chart=bar x=server y=cpu_ms series=test title="CPU per request".
type Chart struct {
	Kind   string // bar or line
	X, Y   string // column names
	Series string // column whose values split the bars or lines; "" for none
	Title  string
}

// ChartKinds are the plots a block can ask for.
var ChartKinds = []string{"bar", "line"}

// attributes are the keys a ```sql info string may hold.
var attributes = []string{"chart", "x", "y", "series", "title", "rows"}

// SyntaxError is a notebook that cannot be run at all: an unclosed block
// or result section.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// fence is an open fenced code block.
type fence struct {
	char  byte
	n     int
	line  int
	isSQL bool
	info  string
	text  strings.Builder
	body  strings.Builder
}

// Parse reads a notebook. Earlier results (between the result markers
// outside code blocks) are dropped, together with the blank line before
// them, so that running the notebook again replaces them.
func Parse(name string, src []byte) (*Notebook, error) {
	if !utf8.Valid(src) {
		return nil, &SyntaxError{name, 1 + strings.Count(string(src[:firstInvalid(src)]), "\n"), "the notebook is not valid UTF-8"}
	}
	nb := &Notebook{Name: name}
	var text strings.Builder
	var open *fence
	resultLine := 0 // line of an open ResultStart
	lines := splitLines(string(src))
	for i, ln := range lines {
		no := i + 1
		trimmed := strings.TrimSpace(ln)
		switch {
		case resultLine > 0:
			if trimmed == ResultEnd {
				resultLine = 0
			}
		case open != nil:
			open.text.WriteString(ln)
			if closesFence(ln, open) {
				if open.isSQL {
					b := newBlock(len(nb.Blocks)+1, open.line, open.info, open.body.String())
					nb.Blocks = append(nb.Blocks, b)
					nb.parts = append(nb.parts, part{text: text.String()}, part{text: open.text.String(), block: b})
					text.Reset()
				} else {
					text.WriteString(open.text.String())
				}
				open = nil
				continue
			}
			open.body.WriteString(ln)
		case trimmed == ResultStart:
			resultLine = no
			dropTrailingBlank(&text)
		case trimmed == ResultEnd:
			return nil, &SyntaxError{name, no, ResultEnd + " without " + ResultStart + " before it"}
		default:
			if f := opensFence(ln, no); f != nil {
				open = f
				open.text.WriteString(ln)
				continue
			}
			text.WriteString(ln)
		}
	}
	if resultLine > 0 {
		return nil, &SyntaxError{name, resultLine, ResultStart + " is not closed by " + ResultEnd}
	}
	if open != nil {
		if open.isSQL {
			return nil, &SyntaxError{name, open.line, "the ```sql block is not closed"}
		}
		text.WriteString(open.text.String())
	}
	nb.parts = append(nb.parts, part{text: text.String()})
	return nb, nil
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// splitLines splits after every \n, keeping it; a last line without one
// gets one.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s+"\n")
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// dropTrailingBlank removes a blank last line from b: the one the runner
// writes before a result section.
func dropTrailingBlank(b *strings.Builder) {
	s := b.String()
	body := strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
	i := strings.LastIndexByte(body, '\n')
	if strings.TrimSpace(body[i+1:]) != "" || len(s) == 0 {
		return
	}
	b.Reset()
	b.WriteString(s[:i+1])
}

// opensFence recognises a CommonMark fence opening: at most three spaces,
// then three or more backticks or tildes, then the info string.
func opensFence(ln string, no int) *fence {
	s := strings.TrimRight(ln, "\r\n")
	indent := len(s) - len(strings.TrimLeft(s, " "))
	if indent > 3 {
		return nil
	}
	s = s[indent:]
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return nil
	}
	n := len(s) - len(strings.TrimLeft(s, s[:1]))
	if n < 3 {
		return nil
	}
	info := strings.TrimSpace(s[n:])
	if s[0] == '`' && strings.Contains(info, "`") {
		return nil
	}
	lang, _, _ := strings.Cut(info, " ")
	return &fence{char: s[0], n: n, line: no, isSQL: lang == "sql", info: info}
}

func closesFence(ln string, f *fence) bool {
	s := strings.TrimRight(ln, "\r\n")
	indent := len(s) - len(strings.TrimLeft(s, " "))
	if indent > 3 {
		return false
	}
	s = strings.TrimRight(s[indent:], " \t")
	return len(s) >= f.n && strings.Trim(s, string(f.char)) == ""
}

func newBlock(index, line int, info, body string) *Block {
	b := &Block{Index: index, Line: line, SQL: body, Rows: -1}
	attrs, err := parseInfo(strings.TrimSpace(strings.TrimPrefix(info, "sql")))
	if err != nil {
		b.Err = err
		return b
	}
	for _, k := range attributes {
		if _, ok := attrs[k]; !ok {
			continue
		}
		switch v := attrs[k]; k {
		case "rows":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				b.Err = fmt.Errorf("rows=%q: expected a whole number of rows, 0 or more", v)
				return b
			}
			b.Rows = n
		case "chart":
			if !contains(ChartKinds, v) {
				b.Err = fmt.Errorf("chart=%q: expected one of %s", v, strings.Join(ChartKinds, ", "))
				return b
			}
			b.Chart = &Chart{Kind: v, X: attrs["x"], Y: attrs["y"], Series: attrs["series"], Title: attrs["title"]}
			if b.Chart.X == "" || b.Chart.Y == "" {
				b.Err = fmt.Errorf("chart=%s needs x=COLUMN and y=COLUMN", v)
				return b
			}
		}
	}
	if b.Chart == nil {
		for _, k := range []string{"x", "y", "series", "title"} {
			if _, ok := attrs[k]; ok {
				b.Err = fmt.Errorf("%s= is an attribute of a chart; add chart=bar or chart=line", k)
				return b
			}
		}
	}
	return b
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// parseInfo reads key=value pairs; a value with spaces is quoted with
// double quotes, in which \" and \\ stand for " and \.
func parseInfo(s string) (map[string]string, error) {
	attrs := map[string]string{}
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		eq := strings.IndexAny(s, "= ")
		if eq <= 0 || s[eq] != '=' {
			word, _, _ := strings.Cut(s, " ")
			return nil, fmt.Errorf("%q in the info string: expected key=value with key one of %s", word, strings.Join(attributes, ", "))
		}
		key := s[:eq]
		if !contains(attributes, key) {
			return nil, fmt.Errorf("unknown attribute %q: expected one of %s", key, strings.Join(attributes, ", "))
		}
		if _, dup := attrs[key]; dup {
			return nil, fmt.Errorf("attribute %q given twice", key)
		}
		s = s[eq+1:]
		var val string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("attribute %q: the quoted value is not closed", key)
			}
			val, s = b.String(), s[i+1:]
			if s != "" && s[0] != ' ' {
				return nil, fmt.Errorf("attribute %q: expected a space after the quoted value", key)
			}
		} else {
			val, s, _ = strings.Cut(s, " ")
		}
		attrs[key] = val
	}
	return attrs, nil
}
