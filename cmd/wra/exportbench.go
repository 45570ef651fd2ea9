package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/pflag"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/bench"
	"github.com/wra-bench/wra/stats"
)

// benchExport is where wra export writes the groups in the formats of
// benchmark dashboards, a file each ("" for not, "-" for stdout), and
// the rule of the groups' caveats.
type benchExport struct {
	bmf, githubSmaller, githubBigger, gobench string
	rule                                      stats.LadderRule
	drift                                     float64
}

func (b *benchExport) addFlags(f *pflag.FlagSet) {
	f.StringVar(&b.bmf, "bmf", "", "write the groups' figures as Bencher Metric Format JSON into this file (- for stdout)")
	f.StringVar(&b.githubSmaller, "github-smaller", "", "write the groups' smaller-is-better figures as github-action-benchmark JSON (tool customSmallerIsBetter) into this file")
	f.StringVar(&b.githubBigger, "github-bigger", "", "write the groups' bigger-is-better figures as github-action-benchmark JSON (tool customBiggerIsBetter) into this file")
	f.StringVar(&b.gobench, "gobench", "", "write every run as a line of Go's benchmark text format (benchstat reads it) into this file")
	addLadderRuleFlags(f, &b.rule)
	addDriftFlag(f, &b.drift, analysis.DefaultOptions().DriftTolerance)
}

// benchFile is one file of a benchmark export and how it is laid out.
type benchFile struct {
	flag, path string
	write      func(io.Writer, []model.BenchGroup) error
}

func (b *benchExport) files() []benchFile {
	all := []benchFile{
		{"--bmf", b.bmf, bench.BMF},
		{"--github-smaller", b.githubSmaller, func(w io.Writer, g []model.BenchGroup) error { return bench.GitHub(w, g, false) }},
		{"--github-bigger", b.githubBigger, func(w io.Writer, g []model.BenchGroup) error { return bench.GitHub(w, g, true) }},
		{"--gobench", b.gobench, bench.GoBench},
	}
	var out []benchFile
	for _, f := range all {
		if f.path != "" {
			out = append(out, f)
		}
	}
	return out
}

// check refuses two formats on stdout, and an existing file unless
// replace.
func (b *benchExport) check(replace bool) error {
	stdout := ""
	for _, f := range b.files() {
		if f.path == "-" {
			if stdout != "" {
				return usagef("%s - and %s -: only one format can go to stdout", stdout, f.flag)
			}
			stdout = f.flag
			continue
		}
		if _, err := os.Stat(f.path); err == nil && !replace {
			return usagef("%s %s: the file exists; give --replace to replace it", f.flag, f.path)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// toStdout reports whether a format goes to stdout.
func (b *benchExport) toStdout() bool {
	for _, f := range b.files() {
		if f.path == "-" {
			return true
		}
	}
	return false
}

// write reads the groups once and writes each file whole (or, for "-",
// to stdout), adding a row per file to d. Where BMF is written, which
// has no place for them, the groups' caveats go to stderr.
func (b *benchExport) write(ctx context.Context, e *env, st *store.Store, quiet bool, d *report.Data) error {
	files := b.files()
	if len(files) == 0 {
		return nil
	}
	groups, err := st.BenchGroups(ctx, model.DesignRule{Tolerance: b.drift, LadderRule: b.rule})
	if err != nil {
		return err
	}
	runs := 0
	for _, g := range groups {
		runs += len(g.Runs)
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.write(&buf, groups); err != nil {
			return fmt.Errorf("%s: %w", f.flag, err)
		}
		if f.path == "-" {
			if _, err := e.stdout.Write(buf.Bytes()); err != nil {
				return err
			}
		} else if err := writeFileAtomic(f.path, buf.Bytes()); err != nil {
			return fmt.Errorf("%s: %w", f.flag, err)
		}
		rows := int64(len(groups))
		if f.flag == "--gobench" {
			rows = int64(runs)
		}
		d.Rows = append(d.Rows, []any{f.flag[2:], "benchmark", rows, f.path})
		if f.flag == "--bmf" && !quiet {
			for _, c := range bench.Caveats(groups) {
				fmt.Fprintln(e.stderr, "wra: caveat: "+c)
			}
		}
	}
	return nil
}
