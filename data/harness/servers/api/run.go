package api

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Opener connects a Store to the database at dsn with at most poolSize
// connections; the returned function closes it.
type Opener func(ctx context.Context, dsn string, poolSize int) (Store, func(), error)

// Config is what a server process is told on its command line.
type Config struct {
	Addr     string
	DSN      string
	PoolSize int
}

// ParseFlags reads the command line of a server; dsnDefault is usually the
// DATABASE_URL environment variable, read by the caller.
func ParseFlags(name string, args []string, dsnDefault string, stderr io.Writer) (Config, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c Config
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "listen address")
	fs.StringVar(&c.DSN, "dsn", dsnDefault, "database connection string: a PostgreSQL URL or a go-sql-driver/mysql DSN (default $DATABASE_URL)")
	fs.IntVar(&c.PoolSize, "pool", 20, "maximum number of database connections")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.DSN == "" {
		return c, errors.New("no database: pass -dsn or set DATABASE_URL")
	}
	if c.PoolSize < 1 {
		return c, fmt.Errorf("-pool must be at least 1, got %d", c.PoolSize)
	}
	return c, nil
}

// Serve opens the store and serves the API on c.Addr until ctx is done,
// then shuts the server down gracefully.
func Serve(ctx context.Context, c Config, open Opener, log io.Writer) error {
	store, closeStore, err := open(ctx, c.DSN, c.PoolSize)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer closeStore()
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: Handler(store), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(log, "listening on %s\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Main runs a server process: it parses args, serves until SIGINT or SIGTERM
// and returns the exit code (2 for a usage error, 1 for a failure).
func Main(name string, args []string, dsnDefault string, open Opener, stderr io.Writer) int {
	c, err := ParseFlags(name, args, dsnDefault, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := Serve(ctx, c, open, stderr); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}
