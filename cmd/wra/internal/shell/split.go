package shell

import "strings"

// splitter gathers the lines typed into statements: a statement ends at
// a semicolon outside a string ('…'), a quoted name ("…"), a line
// comment (-- …) and a block comment (/* … */), so that one statement
// may span lines and one line may hold several.
type splitter struct {
	buf   strings.Builder
	state int
	lines []string // the lines of the statement being typed, for history
}

const (
	inCode = iota
	inString
	inIdent
	inLineComment
	inBlockComment
)

// empty reports whether no statement is being typed.
func (s *splitter) empty() bool { return strings.TrimSpace(s.buf.String()) == "" }

// reset drops the statement being typed.
func (s *splitter) reset() {
	s.buf.Reset()
	s.state = inCode
	s.lines = nil
}

// add takes one line and returns the statements it completes, each
// with its semicolon, and the text for history of the last one: the
// lines it was typed on, joined by spaces, without their line comments
// (which would comment out what follows them on one line).
func (s *splitter) add(line string) (stmts []string, history string) {
	src := []rune(line + "\n")
	code := len(src) - 1 // of the line, before a line comment
	semi := -1           // the line's last statement-ending semicolon
	for i := 0; i < len(src); i++ {
		c := src[i]
		next := rune(0)
		if i+1 < len(src) {
			next = src[i+1]
		}
		s.buf.WriteRune(c)
		switch s.state {
		case inCode:
			switch {
			case c == '\'':
				s.state = inString
			case c == '"':
				s.state = inIdent
			case c == '-' && next == '-':
				s.state = inLineComment
				code = min(code, i)
			case c == '/' && next == '*':
				s.buf.WriteRune(next)
				i++
				s.state = inBlockComment
			case c == ';':
				if st := strings.TrimSpace(s.buf.String()); st != ";" {
					stmts = append(stmts, st)
				}
				s.buf.Reset()
				semi = i
			}
		case inString:
			if c == '\'' {
				s.state = inCode // a doubled '' leaves and re-enters
			}
		case inIdent:
			if c == '"' {
				s.state = inCode
			}
		case inLineComment:
			if c == '\n' {
				s.state = inCode
			}
		case inBlockComment:
			if c == '*' && next == '/' {
				s.buf.WriteRune(next)
				i++
				s.state = inCode
			}
		}
	}
	if semi < 0 {
		s.lines = append(s.lines, strings.TrimSpace(string(src[:code])))
		return nil, ""
	}
	s.lines = append(s.lines, strings.TrimSpace(string(src[:min(semi+1, code)])))
	if len(stmts) > 0 {
		history = strings.Join(nonEmpty(s.lines), " ")
	}
	s.lines = nil
	// What follows the last semicolon starts the next statement; a
	// comment alone after it is dropped.
	if rest := strings.TrimSpace(string(src[semi+1 : max(semi+1, code)])); rest != "" || s.state != inCode && s.state != inLineComment {
		s.lines = []string{rest}
	} else {
		s.buf.Reset()
		s.state = inCode
	}
	return stmts, history
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
