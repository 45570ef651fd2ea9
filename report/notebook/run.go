package notebook

import (
	"context"
	"fmt"
	"strings"

	"github.com/wra-bench/wra/report"
)

// Querier runs one query and returns its rows. The wra command gives a
// read-only store that refuses every statement but a query.
type Querier interface {
	Query(ctx context.Context, sql string) (*report.Data, error)
}

// Options are the settings of a run.
type Options struct {
	// MaxRows is how many rows a table shows when its block does not say
	// (rows=N); 0 shows all. Cut tables say how many rows they had.
	MaxRows int
}

// Result is the outcome of one block.
type Result struct {
	Block *Block
	Data  *report.Data // nil when Err is set
	// Chart is the block's plot, set when the block asks for one.
	Chart *Plot
	Err   error
}

// BlockError is a block that failed: its query, its attributes or its
// plot.
type BlockError struct {
	File string
	Line int // of the block's opening fence
	Err  error
}

func (e *BlockError) Error() string {
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *BlockError) Unwrap() error { return e.Err }

// Run executes the blocks in order, each on its own: a failing block
// records its error and the next one still runs. It stops early only
// when ctx is done; the blocks not run then carry ctx's error.
func (nb *Notebook) Run(ctx context.Context, q Querier, opts Options) []Result {
	out := make([]Result, len(nb.Blocks))
	for i, b := range nb.Blocks {
		out[i] = Result{Block: b}
		if err := ctx.Err(); err != nil {
			out[i].Err = err
			continue
		}
		if b.Err != nil {
			out[i].Err = b.Err
			continue
		}
		if strings.TrimSpace(b.SQL) == "" {
			out[i].Err = fmt.Errorf("the block holds no query")
			continue
		}
		d, err := q.Query(ctx, b.SQL)
		if err != nil {
			out[i].Err = err
			continue
		}
		if b.Chart != nil {
			p, err := newPlot(b.Chart, d)
			if err != nil {
				out[i].Err = fmt.Errorf("chart: %w", err)
				continue
			}
			out[i].Chart = p
		}
		max := opts.MaxRows
		if b.Rows >= 0 {
			max = b.Rows
		}
		if max > 0 && len(d.Rows) > max {
			d.Notes = append(d.Notes, fmt.Sprintf("The first %d of %d rows are shown; rows=N on the block's first line shows more, rows=0 all.", max, len(d.Rows)))
			d.Rows = d.Rows[:max]
		}
		out[i].Data = d
	}
	return out
}

// Errors lists the failed blocks of a run, in order.
func (nb *Notebook) Errors(results []Result) []*BlockError {
	var errs []*BlockError
	for _, r := range results {
		if r.Err != nil {
			errs = append(errs, &BlockError{File: nb.Name, Line: r.Block.Line, Err: r.Err})
		}
	}
	return errs
}
