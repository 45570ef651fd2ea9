// Command wra turns the raw records of web-server benchmarks into the
// tables, plots and cost figures people publish: it loads load-tool reports
// and harness records into a DuckDB store and computes from there.
//
// Exit codes: 0 ok, 1 error, 2 bad usage, 3 partial (some inputs failed,
// the rest loaded), 4 a regression and 5 too few runs to tell (wra
// gate), 130 interrupted.
package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/term"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := &env{
		stdin:     os.Stdin,
		stdout:    os.Stdout,
		stderr:    os.Stderr,
		getenv:    os.Getenv,
		stdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		stdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		stderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		lookPath:  exec.LookPath,
		start:     startProgram,
	}
	code := run(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}

// startProgram starts a program, such as a browser, and lets it run on
// after wra exits.
func startProgram(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// userMessage is an error as a user reads it: the words of Go's own
// packages that say which function failed (os's "stat", "open"; strconv's
// "strconv.ParseFloat: parsing") give way to the file or the value and
// what was wrong with it. It reads the chain of the error's types: each
// link that wraps another keeps its own words before the other's, and a
// *fs.PathError or *strconv.NumError is written from its fields.
func userMessage(err error) string {
	var pe *fs.PathError
	var ne *strconv.NumError
	switch {
	case errors.As(err, &pe) && err == error(pe) && pe.Path != "":
		return pe.Path + ": " + userMessage(pe.Err)
	case errors.As(err, &ne) && err == error(ne):
		want := "a number"
		if strings.Contains(ne.Func, "Int") || strings.Contains(ne.Func, "Atoi") {
			want = "a whole number"
		}
		if errors.Is(ne.Err, strconv.ErrRange) {
			want += " in range"
		}
		return strconv.Quote(ne.Num) + ": expected " + want
	}
	inner := errors.Unwrap(err)
	if inner == nil {
		return err.Error()
	}
	// the link's own words are what its message holds before its
	// inner error's
	own, ok := strings.CutSuffix(err.Error(), inner.Error())
	if !ok {
		return err.Error()
	}
	return own + userMessage(inner)
}
