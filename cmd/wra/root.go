package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

// Exit codes, documented in docs/commands.md.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitPartial     = 3
	exitRegression  = 4 // wra gate: a metric got worse beyond its limit, significantly
	exitTooFew      = 5 // wra gate: too few runs to tell
	exitInterrupted = 130
)

// env is the process's outside world, passed in so that commands are
// testable without touching the real one.
type env struct {
	stdin     io.Reader
	stdout    io.Writer
	stderr    io.Writer
	getenv    func(string) string
	stdinTTY  bool
	stdoutTTY bool
	stderrTTY bool
	// lookPath and start find and start a program (wra analyze --open);
	// nil in tests, where nothing is started.
	lookPath func(string) (string, error)
	start    func(name string, args ...string) error
}

// globals are the flags every command shares.
type globals struct {
	db          string
	format      string
	quiet       bool
	lockTimeout string
	memoryLimit string
	env         *env // the process's outside world, for the store's hooks
}

// usageError is a mistake in the command line: exit 2. It is made where
// the mistake is found: flag parsing (the root's flag error function),
// argument counts (usageArgs), and the commands' checks of their flags
// and arguments (usagef).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// silentError has already been reported; it only sets the exit code.
type silentError struct{ code int }

func (e silentError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// run executes the command line and returns the exit code: the one place
// where errors become exit codes.
func run(ctx context.Context, e *env, args []string) int {
	g := &globals{}
	root := newRootCmd(e, g)
	root.SetArgs(args)
	// cobra adds its help and completion commands when it executes; add
	// them now so that their argument checks are marked as well.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd(args...)
	usageArgs(root)
	err := execute(ctx, root, args)
	if err == nil {
		return exitOK
	}
	var se silentError
	if errors.As(err, &se) {
		return se.code
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		fmt.Fprintln(e.stderr, "wra: interrupted")
		return exitInterrupted
	}
	fmt.Fprintf(e.stderr, "wra: %s\n", userMessage(err))
	if errors.As(err, new(usageError)) {
		fmt.Fprintln(e.stderr, "Run 'wra --help' for usage.")
		return exitUsage
	}
	return exitError
}

// execute runs the command line. An unknown command is found by cobra's
// lookup of the command, which ExecuteContext would report as a plain
// error: look it up first, and mark what it finds as a usage error. The
// shell completion scripts' requests (wra __complete ...) go to the
// command cobra adds only as it executes.
func execute(ctx context.Context, root *cobra.Command, args []string) error {
	complete := len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
	if _, _, err := root.Find(args); err != nil && !complete {
		return usageError{err}
	}
	return root.ExecuteContext(ctx)
}

// usageArgs makes the argument check of c and of every command below it
// give a usage error.
func usageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

func newRootCmd(e *env, g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "wra",
		Short: "Published numbers from the raw records of web-server benchmarks",
		Long: `wra loads the raw records of web-server benchmarks (wrk2, wrk, ab,
bombardier, k6, hey, oha, vegeta, Locust, JMeter, Gatling, Artillery,
autocannon, siege and h2load reports, harness CSV records, memory series, calibration files) into a DuckDB store, and computes from there the
numbers people publish: medians of passes and their spreads, CPU per
request, memory growth per waiting request, held-rate ladders,
calibration drift and what a load costs per month.

The store is a DuckDB file with a documented schema (see docs/store.md);
query it with 'wra sql' or any DuckDB client.

Exit codes: 0 ok, 1 error, 2 bad usage, 3 partial (some inputs failed,
the rest loaded), 4 a regression (wra gate), 5 too few runs to tell
(wra gate), 130 interrupted.`,
		Example: `  wra analyze data/                     # tables, plots and report page from a folder
  wra cost --rps 1000                   # monthly cost per stack at a load
  wra sql "SELECT server, count(*) FROM runs GROUP BY 1"
  wra compare --by server --base go-pgx --vs go-pq
  wra notebook run notebooks/cpu-per-request-vs-rate.md`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       wraVersion(),
	}
	root.SetVersionTemplate("wra {{.Version}}\n")
	g.env = e
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetIn(e.stdin)
	root.SetFlagErrorFunc(flagError)
	dbDefault := "wra.duckdb"
	if v := e.getenv("WRA_DB"); v != "" {
		dbDefault = v
	}
	pf := root.PersistentFlags()
	pf.StringVar(&g.db, "db", dbDefault, "the store, a DuckDB file (from $WRA_DB when set)")
	pf.StringVar(&g.format, "format", "", "output format of rows: table, csv, json, markdown or html (default table on a terminal, csv otherwise)")
	pf.BoolVarP(&g.quiet, "quiet", "q", false, "print no progress or summary on stderr")
	pf.StringVar(&g.lockTimeout, "lock-timeout", "0s", "how long to wait while another wra holds the store, e.g. 30s")
	memDefault := store.DefaultMemoryLimit
	if v := e.getenv("WRA_MEMORY_LIMIT"); v != "" {
		memDefault = v
	}
	pf.StringVar(&g.memoryLimit, "memory-limit", memDefault, "DuckDB's memory limit, beyond which queries spill to the store's .tmp folder, e.g. 1GiB (from $WRA_MEMORY_LIMIT when set)")
	root.AddCommand(
		newIngestCmd(e, g),
		newAnalyzeCmd(e, g),
		newFindingsCmd(e, g),
		newSQLCmd(e, g),
		newTableCmd(e, g),
		newCompareCmd(e, g),
		newGateCmd(e, g),
		newCostCmd(e, g),
		newNotebookCmd(e, g),
		newExportCmd(e, g),
		newRecordCmd(e, g),
		newVersionCmd(e),
	)
	completer{g}.register(root)
	return root
}

// outputFormat resolves --format.
func (g *globals) outputFormat(e *env) (report.Format, error) {
	if g.format == "" {
		if e.stdoutTTY {
			return report.Table, nil
		}
		return report.CSV, nil
	}
	f, err := report.ParseFormat(g.format)
	if err != nil {
		return "", usageError{err}
	}
	return f, nil
}

// openStore opens the store named by --db.
func (g *globals) openStore(ctx context.Context, readOnly bool) (*store.Store, error) {
	d, err := parseDuration(g.lockTimeout)
	if err != nil {
		return nil, usagef("--lock-timeout %q: %v", g.lockTimeout, err)
	}
	opts := store.Options{ReadOnly: readOnly, LockTimeout: d, MemoryLimit: g.memoryLimit}
	if e := g.env; e != nil {
		if opts.BeforeCommit, err = testHold(e); err != nil {
			return nil, err
		}
		opts.Waiting = func(b *store.BusyError) {
			if !g.quiet {
				fmt.Fprintf(e.stderr, "wra: %v; waiting up to %s\n", b, d)
			}
		}
	}
	st, err := store.Open(ctx, g.db, opts)
	if errors.Is(err, store.ErrMemoryLimit) {
		return nil, usagef("--memory-limit %q: expected a size such as 512MiB or 2GB", g.memoryLimit)
	}
	return st, err
}
