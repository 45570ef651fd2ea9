package main

import (
	"context"
	"fmt"
	"github.com/wra-bench/wra/cost"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/cmd/wra/internal/progress"
	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/report"
)

type ingestOptions struct {
	labels []string
	strict bool
	list   bool
}

func (o *ingestOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringArrayVarP(&o.labels, "label", "l", nil, "a label key=value for every file (repeatable); overrides wra.toml and the records")
	f.BoolVar(&o.strict, "strict", false, "treat a file of no known format as a failure instead of skipping it")
	f.BoolVar(&o.list, "list", false, "print one row per file (source, format, status, rows, message) on stdout in --format")
}

func newIngestCmd(e *env, g *globals) *cobra.Command {
	o := &ingestOptions{}
	cmd := &cobra.Command{
		Use:   "ingest [flags] PATH...",
		Short: "Load raw benchmark records into the store",
		Long: `Load files and folders of raw benchmark records into the store.

Folders are read recursively (hidden files skipped, .gz read as it is);
each file's format is detected from its content. A folder's wra.toml
gives labels to its files. Each file lands whole or not at all (a
folder's k6 point streams are scanned several at once, in groups that
are loaded again file by file when one fails): an unchanged file (same
SHA-256) is skipped, a changed one replaces its rows, and a file that
fails to parse leaves nothing behind while the rest still load (exit 3).`,
		Example: `  wra ingest data/
  wra ingest --label server=go --label test=ping results/*.txt
  wra --db bench.duckdb ingest --strict run-2026-11-29/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runIngest(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func parseLabels(kvs []string) (map[string]string, error) { return parsePairs("--label", kvs) }

// parsePairs reads the key=value pairs a flag was given, a usage error
// naming the flag and the pair that is none.
func parsePairs(flag string, kvs []string) (map[string]string, error) {
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, usagef("%s %q: expected key=value", flag, kv)
		}
		m[k] = v
	}
	return m, nil
}

func runIngest(ctx context.Context, e *env, g *globals, o *ingestOptions, args []string) error {
	labels, err := parseLabels(o.labels)
	if err != nil {
		return err
	}
	var format report.Format
	if o.list {
		if format, err = g.outputFormat(e); err != nil {
			return err
		}
	}
	st, err := g.openStore(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := g.ingest(ctx, e, st, args, ingest.Options{Labels: labels, Strict: o.strict})
	if err != nil {
		return err
	}
	// The price presets, for SQL over the store (wra cost only reads it).
	if err := putPrices(ctx, st, cost.NewBook()); err != nil {
		return err
	}
	if o.list {
		if err := report.Write(e.stdout, ingestTable(res), format); err != nil {
			return err
		}
	}
	failed := res.Count(ingest.Failed)
	switch {
	case failed > 0 && failed == len(res.Files):
		return silentError{exitError}
	case failed > 0:
		return silentError{exitPartial}
	}
	return nil
}

// ingest runs an ingest with its progress bar on a terminal's stderr,
// and prints its summary there.
func (g *globals) ingest(ctx context.Context, e *env, st ingest.Store, args []string, opts ingest.Options) (*ingest.Result, error) {
	finish := func() {}
	if e.stderrTTY && !g.quiet {
		opts.Progress, finish = progress.Ingest(e.stderr, progress.Options{Throttle: 100 * time.Millisecond})
	}
	res, err := ingest.Ingest(ctx, st, args, opts)
	finish()
	if res != nil && !g.quiet {
		printIngestSummary(e.stderr, res, err != nil)
	}
	return res, err
}

func printIngestSummary(w io.Writer, res *ingest.Result, interrupted bool) {
	for _, f := range res.Files {
		switch f.Status {
		case ingest.Failed:
			fmt.Fprintf(w, "wra: %v\n", f.Err)
		case ingest.Skipped:
			fmt.Fprintf(w, "wra: %s: skipped: %s\n", f.Source, f.Reason)
		case ingest.Loaded, ingest.Replaced:
			if f.Warning != "" {
				fmt.Fprintf(w, "wra: %s: warning: %s\n", f.Source, f.Warning)
			}
		}
	}
	verb := "ingested"
	if interrupted {
		verb = "interrupted after"
	}
	fmt.Fprintf(w, "wra: %s %d files: %d loaded, %d replaced, %d unchanged, %d skipped, %d failed; %d rows stored\n",
		verb, len(res.Files), res.Count(ingest.Loaded), res.Count(ingest.Replaced), res.Count(ingest.Unchanged),
		res.Count(ingest.Skipped), res.Count(ingest.Failed), res.Rows())
}

func ingestTable(res *ingest.Result) *report.Data {
	d := &report.Data{Columns: report.Columns("source", "format", "status", "rows", "message")}
	for _, f := range res.Files {
		msg := f.Reason
		if f.Warning != "" {
			msg = f.Warning
		}
		if f.Err != nil {
			msg = f.Err.Error()
		}
		var format any
		if f.Format != "" {
			format = f.Format
		}
		var m any
		if msg != "" {
			m = msg
		}
		d.Rows = append(d.Rows, []any{f.Source, format, f.Status.String(), f.Rows, m})
	}
	return d
}
