package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/wra-bench/wra/cmd/wra/internal/shell"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

// runShell is wra sql with no query on a terminal.
func runShell(ctx context.Context, e *env, g *globals, st *store.Store, format report.Format, tty *os.File, write bool) error {
	mode := "read-only"
	if write {
		mode = "read-write"
	}
	// Ctrl-C during a statement stops the statement, not wra: while the
	// shell runs, SIGINT goes to it alone (SIGTERM still stops wra).
	sig := make(chan os.Signal, 1)
	signal.Reset(os.Interrupt)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	return shell.Run(ctx, sqlSession(st, write), tty, e.stdout, e.stderr, shell.Options{
		Interrupts:  sig,
		Format:      format,
		HistoryFile: shell.HistoryPath(e.getenv),
		Banner:      fmt.Sprintf("wra sql on %s (%s); .help for the commands, Ctrl-D to leave", g.db, mode),
		Plain:       e.getenv("TERM") == "dumb",
	})
}
