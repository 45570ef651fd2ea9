package ingest

import (
	"errors"
	"fmt"
)

// SyntaxError is a malformed input: the file, the 1-based line and column
// (0 when unknown) and what was expected.
type SyntaxError struct {
	File string
	Line int
	Col  int
	Msg  string
	// Err is the cause, when it is a named error (ErrTooLarge).
	Err error
}

func (e *SyntaxError) Unwrap() error { return e.Err }

func (e *SyntaxError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Errorf returns a *SyntaxError at a position of a file.
func Errorf(file string, line, col int, format string, args ...any) *SyntaxError {
	return &SyntaxError{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// ErrUnknownFormat is returned for a file that no reader recognises.
var ErrUnknownFormat = errors.New("no known format")

// ErrTooLarge is returned when a compressed input expands beyond the limit
// (see MaxExpansion).
var ErrTooLarge = errors.New("input too large")

// SkipError is a file whose format a reader knows but which it does not
// load on its own (Locust's failures table without the statistics it
// belongs to): the walker skips it with Reason.
type SkipError struct {
	File   string
	Reason string
}

func (e *SkipError) Error() string { return e.File + ": skipped: " + e.Reason }
