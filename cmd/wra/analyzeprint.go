package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
)

// briefStdout names what a terminal gets of wra analyze in place of a
// format: the summary and the findings' headlines (analyze.WriteBrief).
const briefStdout = "brief"

func formatNames() []string {
	var out []string
	for _, f := range report.Formats {
		out = append(out, string(f))
	}
	return out
}

// printAnalysis prints what stdout shows (every table in a format, or
// the brief summary), then a note per skipped section on stderr, as the
// report's cache replays them.
func printAnalysis(stdout, stderr io.Writer, res *analyze.Result, shown string) error {
	if err := printShown(stdout, res, shown); err != nil {
		return err
	}
	for _, sec := range res.Sections {
		if sec.Skipped != "" {
			fmt.Fprintf(stderr, "wra: skipped %s: %s\n", strings.ToLower(sec.Title), sec.Skipped)
		}
	}
	return nil
}

func printShown(stdout io.Writer, res *analyze.Result, shown string) error {
	if shown == briefStdout {
		return analyze.WriteBrief(stdout, res)
	}
	first := true
	for _, sec := range res.Sections {
		if sec.Skipped != "" {
			continue
		}
		for _, t := range sec.Tables {
			if !first {
				if _, err := fmt.Fprintln(stdout); err != nil {
					return err
				}
			}
			first = false
			if err := report.Write(stdout, t, report.Format(shown)); err != nil {
				return err
			}
		}
	}
	return nil
}

// tablesHint says, after the brief summary, where every table is.
func tablesHint(e *env, out, shown string) {
	if shown == briefStdout {
		fmt.Fprintf(e.stdout, "\nEvery table: %s (CSV, JSON, Markdown), or wra analyze --tables.\n", filepath.Join(out, "tables"))
	}
}
