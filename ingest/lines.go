package ingest

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
)

// MaxLineBytes is the longest line a text reader accepts. No load tool
// prints a longer one; a longer line is an error, not a reason to use
// unbounded memory.
const MaxLineBytes = 1 << 20

// Lines scans the lines of a text input and keeps their numbers. Line ends
// may be LF or CRLF.
type Lines struct {
	in     *Input
	s      *bufio.Scanner
	n      int
	text   string
	err    error
	unread bool
}

// NewLines returns a line scanner over the input.
func NewLines(in *Input) *Lines {
	s := bufio.NewScanner(in.R)
	s.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	return &Lines{in: in, s: s}
}

// Scan advances to the next line. The terminal's echo of Ctrl-C ("^C",
// printed where the cursor was when a run was stopped, in front of the
// tool's next line) is blanked at the start of a line, so that the line
// reads as the tool printed it and its columns stay those of the file.
func (l *Lines) Scan() bool {
	if l.unread {
		l.unread = false
		return true
	}
	if l.err != nil {
		return false
	}
	if !l.s.Scan() {
		if err := l.s.Err(); err != nil {
			var se *SyntaxError
			switch {
			case errors.Is(err, bufio.ErrTooLong):
				l.err = Errorf(l.in.Name, l.n+1, 0, "line longer than %d bytes: not a load-tool report", MaxLineBytes)
			case errors.As(err, &se):
				// Names the file (a gzip bomb stopped at the limit): add
				// the line it stopped in.
				at := *se
				if at.Line == 0 {
					at.Line = l.n + 1
				}
				l.err = &at
			default:
				l.err = fmt.Errorf("%s: %w", l.in.Name, err)
			}
		}
		return false
	}
	l.n++
	l.text = strings.TrimSuffix(l.s.Text(), "\r")
	for i := 0; strings.HasPrefix(l.text[i:], "^C"); i += 2 {
		l.text = l.text[:i] + "  " + l.text[i+2:]
	}
	return true
}

// Unread makes the next Scan return the current line again: a reader that
// meets the first line after its report leaves it to the next one.
func (l *Lines) Unread() { l.unread = true }

// Text is the current line without its line end.
func (l *Lines) Text() string { return l.text }

// Line is the 1-based number of the current line.
func (l *Lines) Line() int { return l.n }

// Err is the first error met while scanning.
func (l *Lines) Err() error { return l.err }

// Errorf returns a *SyntaxError at the current line.
func (l *Lines) Errorf(col int, format string, args ...any) *SyntaxError {
	return Errorf(l.in.Name, l.n, col, format, args...)
}
