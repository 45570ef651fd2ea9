package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/notebook"
)

type notebookOptions struct {
	out     string
	maxRows int
}

func (o *notebookOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "write the run notebook here (.md, or .html for a page) instead of updating FILE in place")
	cmd.Flags().IntVar(&o.maxRows, "max-rows", 200, "rows a table shows when its block does not say rows=N; 0 shows all")
}

func newNotebookCmd(e *env, g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "notebook",
		Short: "Run Markdown notebooks of SQL against the store",
		Long: `A notebook is a Markdown file whose ` + "```sql" + ` blocks are queries against
the store. 'wra notebook run' puts each block's result after it, as a
table, and as a plot for a block whose first line asks for one:

    ` + "```sql chart=bar x=server y=cpu_ms series=test title=\"CPU per request\"" + `
    ` + "```sql chart=line x=target_rps y=cpu_db_us_per_req series=server" + `

Results sit between <!-- wra:result --> and <!-- /wra:result --> lines,
so a notebook run again has them replaced. Plots are SVG files beside
the Markdown output (NAME.N.svg for the N-th block), or inline in an
HTML page. See notebooks/README.md.`,
		Example: `  wra notebook run notebooks/cpu-per-request-vs-rate.md
  wra notebook run --out /tmp/ladders.html notebooks/ladder-headroom.md`,
	}
	o := &notebookOptions{}
	run := &cobra.Command{
		Use:   "run FILE...",
		Short: "Run the sql blocks of notebooks and insert their results",
		Long: `Run every ` + "```sql" + ` block of each notebook against the store, in order,
and insert its result after it. Without --out the notebook is updated in
place; with --out the result goes there (.md or .html) and FILE is left
as it is.

The store opens read-only, and each block must be a single query
(SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW or SUMMARIZE): a notebook
can neither change the store nor read or write other files. A block that
fails shows its error in place; the other blocks still run, and wra
then names each failed block (file:line) and exits 1.`,
		Example: `  wra notebook run notebooks/cpu-per-request-vs-rate.md
  wra notebook run notebooks/*.md
  wra notebook run --out /tmp/ladders.html notebooks/ladder-headroom.md`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runNotebook(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(run)
	cmd.AddCommand(run)
	return cmd
}

func runNotebook(ctx context.Context, e *env, g *globals, o *notebookOptions, args []string) error {
	html := false
	if o.out != "" {
		if len(args) > 1 {
			return usagef("--out takes one notebook; without it each notebook is updated in place")
		}
		switch strings.ToLower(filepath.Ext(o.out)) {
		case ".md", ".markdown":
		case ".html", ".htm":
			html = true
		default:
			return usagef("--out %q: expected a file ending in .md or .html", o.out)
		}
	}
	if o.maxRows < 0 {
		return usagef("--max-rows must be 0 or more, not %d", o.maxRows)
	}
	st, err := g.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	sb, err := st.Sandbox(ctx)
	if err != nil {
		return err
	}
	q := notebookQuerier{sb}
	var failed []*notebook.BlockError
	blocks := 0
	for _, file := range args {
		errs, n, err := runOneNotebook(ctx, e, g, o, q, file, html)
		if err != nil {
			return err
		}
		failed = append(failed, errs...)
		blocks += n
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if len(failed) > 0 {
		for _, be := range failed {
			msg, _, _ := strings.Cut(be.Err.Error(), "\n")
			fmt.Fprintf(e.stderr, "%s:%d: %s\n", be.File, be.Line, msg)
		}
		return fmt.Errorf("%d of %d notebook blocks failed", len(failed), blocks)
	}
	return nil
}

// runOneNotebook runs a notebook and writes its output; the failed blocks
// are named by the file and line where the reader finds their error.
func runOneNotebook(ctx context.Context, e *env, g *globals, o *notebookOptions, q notebook.Querier, file string, html bool) ([]*notebook.BlockError, int, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, 0, err
	}
	nb, err := notebook.Parse(file, src)
	if err != nil {
		return nil, 0, err
	}
	results := nb.Run(ctx, q, notebook.Options{MaxRows: o.maxRows})
	if err := ctx.Err(); err != nil {
		// Interrupted: the notebook keeps its earlier results.
		return nil, 0, err
	}
	errs := nb.Errors(results)
	dest := o.out
	if dest == "" {
		dest = file
	}
	var buf bytes.Buffer
	if html {
		if err := notebook.WriteHTML(&buf, nb, results); err != nil {
			return nil, 0, err
		}
	} else {
		lines, err := notebook.WriteMarkdown(&buf, nb, results, func(b *notebook.Block) string {
			return notebook.ChartFile(dest, b)
		})
		if err != nil {
			return nil, 0, err
		}
		for _, r := range results {
			if r.Chart == nil {
				continue
			}
			path := filepath.Join(filepath.Dir(dest), notebook.ChartFile(dest, r.Block))
			if err := writeFileAtomic(path, r.Chart.SVG); err != nil {
				return nil, 0, err
			}
		}
		// The errors are shown in dest: name their lines there.
		for _, be := range errs {
			for _, b := range nb.Blocks {
				if b.Line == be.Line {
					be.File, be.Line = dest, lines[b.Index-1]
					break
				}
			}
		}
	}
	if err := writeFileAtomic(dest, buf.Bytes()); err != nil {
		return nil, 0, err
	}
	if !g.quiet {
		ran := fmt.Sprintf("%s: %d blocks", file, len(nb.Blocks))
		if len(errs) > 0 {
			ran += fmt.Sprintf(", %d failed", len(errs))
		}
		if dest != file {
			ran += "; written to " + dest
		}
		fmt.Fprintln(e.stderr, ran)
	}
	return errs, len(nb.Blocks), nil
}

// notebookQuerier runs notebook blocks in the store's sandbox.
type notebookQuerier struct{ sb *store.Sandbox }

func (q notebookQuerier) Query(ctx context.Context, text string) (*report.Data, error) {
	t, err := q.sb.Query(ctx, text)
	if err != nil {
		return nil, err
	}
	return tableData(t), nil
}
