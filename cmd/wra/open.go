package main

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/wra-bench/wra/cmd/wra/internal/browser"
)

// browserSystem is what --open needs from the process.
func (e *env) browserSystem() browser.System {
	return browser.System{GOOS: runtime.GOOS, Getenv: e.getenv, LookPath: e.lookPath, Start: e.start}
}

// reportWritten ends wra analyze with one line: where the report is and
// how to open it, or that --open opened it.
func reportWritten(e *env, g *globals, out string, open, upToDate bool) {
	index := filepath.Join(out, "index.html")
	what := "report written to " + index
	if upToDate {
		what = "report in " + index + " is up to date"
	}
	u, err := browser.FileURL(index)
	if err != nil {
		u = index
	}
	if open {
		if e.lookPath == nil {
			err = &browser.NoBrowserError{Reason: "this process cannot look for programs"}
		} else {
			var name string
			if name, err = browser.Open(e.browserSystem(), index); err == nil {
				if !g.quiet {
					fmt.Fprintf(e.stderr, "wra: %s, opened with %s\n", what, name)
				}
				return
			}
		}
		fmt.Fprintf(e.stderr, "wra: %s; --open: %v; open %s in a browser\n", what, err, u)
		return
	}
	if !g.quiet {
		fmt.Fprintf(e.stderr, "wra: %s; open %s in a browser, or run wra analyze with --open\n", what, u)
	}
}
