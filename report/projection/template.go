package projection

import (
	"fmt"
	"strings"
)

// A template lays out the metrics of one cell: literal text with {name}
// placeholders, "{rps} ({latency_p99_ms})" or "{cpu_user_us} +
// {cpu_kernel_us}; {cpu_db_us}". "{{" and "}}" are literal braces.
type template struct {
	text    []string // text[i] comes before metric i; the last after all
	metrics []string
}

func parseTemplate(s string) (template, error) {
	var t template
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{', c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return t, fmt.Errorf("cell template %q: { at byte %d is not closed", s, i+1)
			}
			name := strings.TrimSpace(s[i+1 : i+end])
			if name == "" {
				return t, fmt.Errorf("cell template %q: empty {} at byte %d", s, i+1)
			}
			t.text = append(t.text, lit.String())
			lit.Reset()
			t.metrics = append(t.metrics, name)
			i += end
		case c == '}':
			return t, fmt.Errorf("cell template %q: } at byte %d has no {", s, i+1)
		default:
			lit.WriteByte(c)
		}
	}
	t.text = append(t.text, lit.String())
	if len(t.metrics) == 0 {
		return t, fmt.Errorf("cell template %q names no metric: write one as {rps}", s)
	}
	return t, nil
}

// render fills the placeholders with the formatted values.
func (t template) render(vals []string) string {
	var b strings.Builder
	for i, m := range vals {
		b.WriteString(t.text[i])
		b.WriteString(m)
	}
	b.WriteString(t.text[len(t.text)-1])
	return b.String()
}
