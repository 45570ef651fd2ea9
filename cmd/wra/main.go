// Command wra turns the raw records of web-server benchmarks into the
// tables, plots and cost figures people publish: it loads load-tool reports
// and harness records into a DuckDB store and computes from there.
//
// Exit codes: 0 ok, 1 error, 2 bad usage, 3 partial (some inputs failed,
// the rest loaded), 130 interrupted.
package main

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
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
