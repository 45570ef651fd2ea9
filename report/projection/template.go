package projection

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wra-bench/wra/report"
)

// A template lays out the metrics of one cell: literal text with
// {name} placeholders, "{rps} ({latency_p99_ms})". A placeholder may
// carry a format after a colon and a fallback after a bar,
// {name:format|fallback}: "{rps:,.0f}", "{cpu_db_us:.0f|–}" (see
// report.NumberFormat); a figure without a format is printed at the
// one precision of its column (report.Precision), and a
// missing figure prints its fallback, or "–" when it has none. A part in
// square brackets is dropped whole when a figure in it is missing:
// "{cpu_user_us:.0f} + {cpu_kernel_us:.0f}[; {cpu_db_us:.0f}]" prints
// "54 + 57; 74", or "16 + 32" where the database is absent. "{{", "}}",
// "[[" and "]]" are literal braces and brackets.
type template struct {
	text    string   // as written
	pieces  []piece  // in order
	metrics []string // the metric of each field, in order
	fields  []field
}

// piece is literal text or a field, in an optional group (-1 for none).
type piece struct {
	lit   string
	field int // index into fields, -1 for literal text
	group int
}

type field struct {
	format      report.NumberFormat
	fallback    string
	hasFallback bool
}

// cellFigure is what a field prints: a median with the range of its
// rounds (followed by that range where spread is set), or ready text (a
// ladder cell); missing when there is none. column, when set, is the
// one Precision of the field in the figure's column (a table sets it);
// without it the figure is printed at the precision its own spread
// supports.
type cellFigure struct {
	median, min, max float64
	text             string
	missing          bool
	spread           bool
	column           *report.Precision
}

// precision is the Precision the default format prints fg at.
func (fg cellFigure) precision() report.Precision {
	if fg.column != nil {
		return *fg.column
	}
	var p report.Precision
	fg.addTo(&p)
	return p
}

// addTo widens p to what fg's printed figures need.
func (fg cellFigure) addTo(p *report.Precision) {
	if fg.missing || fg.text != "" {
		return
	}
	p.Add(fg.median, fg.min, fg.max)
	if fg.spread {
		p.Add(fg.min, fg.min, fg.max)
		p.Add(fg.max, fg.min, fg.max)
	}
}

// TemplateError is a cell template that cannot be read: Pos is the
// 1-based byte of the template where it goes wrong.
type TemplateError struct {
	Template string
	Pos      int
	Msg      string
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("cell template %q, byte %d: %s", e.Template, e.Pos, e.Msg)
}

func parseTemplate(s string) (template, error) {
	t := template{text: s}
	var lit strings.Builder
	group, groups := -1, 0
	groupStart := 0
	bad := func(pos int, format string, args ...any) (template, error) {
		return template{}, &TemplateError{Template: s, Pos: pos + 1, Msg: fmt.Sprintf(format, args...)}
	}
	flush := func() {
		if lit.Len() > 0 {
			t.pieces = append(t.pieces, piece{lit: lit.String(), field: -1, group: group})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		doubled := i+1 < len(s) && s[i+1] == c
		switch {
		case doubled && (c == '{' || c == '}' || c == '[' || c == ']'):
			lit.WriteByte(c)
			i++
		case c == '[':
			if group >= 0 {
				return bad(i, "[ inside the [ at byte %d: groups do not nest (write [[ for a literal [)", groupStart+1)
			}
			flush()
			group, groupStart = groups, i
			groups++
		case c == ']':
			if group < 0 {
				return bad(i, "] has no [ (write ]] for a literal ])")
			}
			flush()
			if !groupHasField(t.pieces, group) {
				return bad(groupStart, "the group [...] names no metric: it would never be dropped")
			}
			group = -1
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return bad(i, "{ is not closed")
			}
			inner := s[i+1 : i+end]
			f, name, err := parseField(inner)
			if err != nil {
				var se *report.SpecError
				if errors.As(err, &se) {
					return bad(i+1+len(name)+1+se.Pos, "%s", se.Msg)
				}
				return bad(i, "%v", err)
			}
			flush()
			t.pieces = append(t.pieces, piece{field: len(t.fields), group: group})
			t.fields = append(t.fields, f)
			t.metrics = append(t.metrics, name)
			i += end
		case c == '}':
			return bad(i, "} has no { (write }} for a literal })")
		default:
			lit.WriteByte(c)
		}
	}
	if group >= 0 {
		return bad(groupStart, "[ is not closed")
	}
	flush()
	if len(t.metrics) == 0 {
		return template{}, &TemplateError{Template: s, Pos: 1, Msg: "names no metric: write one as {rps}"}
	}
	return t, nil
}

// groupHasField reports whether a group holds a field.
func groupHasField(pieces []piece, group int) bool {
	for _, p := range pieces {
		if p.group == group && p.field >= 0 {
			return true
		}
	}
	return false
}

// parseField reads the inside of {name:format|fallback}.
func parseField(inner string) (field, string, error) {
	var f field
	body, fallback, hasFallback := strings.Cut(inner, "|")
	f.fallback, f.hasFallback = fallback, hasFallback
	name, spec, _ := strings.Cut(body, ":")
	if strings.TrimSpace(name) != name {
		return f, name, errors.New("a metric name has no spaces around it")
	}
	if name == "" {
		return f, name, errors.New("empty {}: expected a metric name, as {rps}")
	}
	format, err := report.ParseNumberFormat(spec)
	if err != nil {
		return f, name, err
	}
	f.format, err = format.ForFigure(name)
	return f, name, err
}

// bare reports whether the template is one metric alone, with no text,
// format or fallback: a column of numbers.
func (t template) bare() bool {
	return len(t.pieces) == 1 && t.pieces[0].group < 0 && t.fields[0].format.Default() && !t.fields[0].hasFallback
}

// render prints the figures, one per field: a group with a missing figure
// is left out, a missing figure elsewhere prints its fallback or "–".
func (t template) render(figs []cellFigure) string {
	dropped := map[int]bool{}
	for _, p := range t.pieces {
		if p.field >= 0 && p.group >= 0 && figs[p.field].missing {
			dropped[p.group] = true
		}
	}
	var b strings.Builder
	for _, p := range t.pieces {
		switch {
		case p.group >= 0 && dropped[p.group]:
		case p.field < 0:
			b.WriteString(p.lit)
		default:
			b.WriteString(t.fields[p.field].print(figs[p.field]))
		}
	}
	return b.String()
}

// print is one field's text.
func (f field) print(fg cellFigure) string {
	switch {
	case fg.missing && f.hasFallback:
		return f.fallback
	case fg.missing:
		return "–"
	case fg.text != "":
		return fg.text
	}
	p := fg.precision()
	if fg.spread {
		return f.format.Format(fg.median, p) + " [" + f.format.Format(fg.min, p) + "–" + f.format.Format(fg.max, p) + "]"
	}
	return f.format.Format(fg.median, p)
}
