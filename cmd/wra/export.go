package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

type exportOptions struct {
	parquet string
	csv     string
	replace bool
	bench   benchExport
}

func (o *exportOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.parquet, "parquet", "", "write Parquet files into this new folder")
	cmd.Flags().StringVar(&o.csv, "csv", "", "write CSV files (with a header line) into this new folder")
	cmd.Flags().BoolVar(&o.replace, "replace", false, "replace the folder when it holds an earlier wra export, and a benchmark format's file")
	o.bench.addFlags(cmd.Flags())
}

func newExportCmd(e *env, g *globals) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export (--parquet DIR | --csv DIR | --bmf FILE | --github-smaller FILE | --github-bigger FILE | --gobench FILE)…",
		Short: "Write every table and view of the store as Parquet or CSV files, or its groups for benchmark dashboards",
		Long: `Write every table of the store, and every view as its own file, into a
new folder that DuckDB, Spark, Trino, ClickHouse and pandas read as it is:

    DIR/runs.parquet, DIR/calibration.parquet, …   one file per table
    DIR/samples/tool=k6/server=go-pgx/data_0.parquet  samples, hive-partitioned
    DIR/views/cpu_per_request.parquet, …           one file per view
    DIR/_wra_export.json                           what was written, with row counts

samples, the one table that grows with the length of the runs, is
partitioned by its run's tool and server (taken from runs; the two
columns come back from the folder names); the other tables are small
and stay one file each. Types are those every reader knows: JSON and
UUID become VARCHAR, unsigned and 128-bit integers BIGINT, timestamps
TIMESTAMP in microseconds. CSV text cells that begin with =, +, -, @,
a tab or a carriage return get a leading apostrophe, so that a
spreadsheet does not run them; Parquet keeps every value as stored.

The folder is written beside DIR under a temporary name and renamed
into place at the end: a failed export leaves no half folder. See
docs/export.md for querying the files on Spark, Trino, ClickHouse
and pandas.

For CI dashboards, the groups of the experiment's design (run_groups),
with the figures of run_medians, each named by its test and factors
("db/tool=wrk2/database=postgres/mode=fixed-rate/server=go-pgx/…"):

    --bmf FILE             Bencher Metric Format: median, min and max per measure
    --github-smaller FILE  github-action-benchmark, tool customSmallerIsBetter
    --github-bigger FILE   github-action-benchmark, tool customBiggerIsBetter
    --gobench FILE         Go's benchmark text format, a line per run (benchstat)

Each file is written whole or not at all; - writes one to stdout. The
groups' caveats are in the JSON's extra and the text's "# caveat"
lines, and on stderr for --bmf. See docs/export.md.`,
		Example: `  wra export --parquet corpus.parquet
  wra sql "SELECT count(*) FROM read_parquet('corpus.parquet/samples/**/*.parquet', hive_partitioning = true)"
  wra export --csv corpus.csv --replace
  wra export --bmf results.json
  wra export --gobench new.txt --github-smaller smaller.json --github-bigger bigger.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd.Context(), e, g, o)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runExport(ctx context.Context, e *env, g *globals, o *exportOptions) error {
	format, dir := "parquet", o.parquet
	switch {
	case o.parquet != "" && o.csv != "":
		return usagef("give --parquet DIR or --csv DIR, not both")
	case o.csv != "":
		format, dir = "csv", o.csv
	case o.parquet == "" && len(o.bench.files()) == 0:
		return usagef("give --parquet DIR, --csv DIR, or a benchmark format: --bmf, --github-smaller, --github-bigger or --gobench FILE")
	}
	if err := o.bench.check(o.replace); err != nil {
		return err
	}
	outFormat, err := g.outputFormat(e)
	if err != nil {
		return err
	}
	st, err := g.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	d := &report.Data{Columns: report.Columns("name", "kind", "rows", "path")}
	if dir != "" {
		dir = filepath.Clean(dir)
		info, err := st.Export(ctx, dir, format, o.replace)
		if errors.Is(err, store.ErrEarlierExport) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		var total int64
		for _, f := range info.Files {
			d.Rows = append(d.Rows, []any{f.Name, f.Kind, f.Rows, filepath.ToSlash(filepath.Join(dir, f.Path))})
			total += f.Rows
		}
		if !g.quiet {
			fmt.Fprintf(e.stderr, "wra: exported %d tables and views (%d rows) as %s to %s\n", len(info.Files), total, format, dir)
		}
	}
	if err := o.bench.write(ctx, e, st, g.quiet, d); err != nil {
		return err
	}
	if o.bench.toStdout() {
		return nil
	}
	return report.Write(e.stdout, d, outFormat)
}
