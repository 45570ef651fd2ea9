// Package pg runs a throw-away PostgreSQL cluster for a recording: initdb
// into a temporary folder, the postmaster as a child process listening on
// 127.0.0.1 only (and a private Unix socket folder), the items table the
// servers read, and a fast shutdown that always runs.
package pg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wra-bench/wra/data/harness/internal/dbproc"
)

// Options of a cluster.
type Options struct {
	BinDir string // folder of initdb and postgres; "" finds them (see FindBinDir)
	Port   int
	Rows   int       // rows of the items table
	Log    io.Writer // postmaster output
	// RunAs is the OS user that owns the cluster when the harness runs as
	// root (PostgreSQL refuses to run as root); "" means "postgres".
	RunAs string
	// Settings are extra "-c name=value" server settings.
	Settings []string
}

// Cluster is a running PostgreSQL.
type Cluster struct {
	opts    Options
	dir     string
	proc    *dbproc.Process
	Version string // postgres --version
}

// FindBinDir returns the folder holding initdb and postgres: Debian's
// /usr/lib/postgresql/<major>/bin (highest major first), else the folder of
// `postgres` on PATH.
func FindBinDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return major(dirs[i]) > major(dirs[j]) })
	for _, d := range dirs {
		if dbproc.IsExecutable(filepath.Join(d, "initdb")) && dbproc.IsExecutable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("postgres"); err == nil {
		d := filepath.Dir(p)
		if dbproc.IsExecutable(filepath.Join(d, "initdb")) {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server binaries (initdb, postgres): install Debian's postgresql package or pass the folder holding them")
}

func major(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// DSN is the URL the servers connect with.
func (c *Cluster) DSN() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.opts.Port)
}

// PID is the postmaster's process id, the root of the cluster's process tree.
func (c *Cluster) PID() int { return c.proc.PID() }

// Start creates and starts a cluster under a new temporary folder and loads
// the items table. The caller must call Stop, also after an error of a
// later step; Start cleans up after its own errors.
func Start(ctx context.Context, o Options) (c *Cluster, err error) {
	if o.BinDir == "" {
		if o.BinDir, err = FindBinDir(); err != nil {
			return nil, err
		}
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Rows < 1 {
		return nil, fmt.Errorf("rows must be at least 1, got %d", o.Rows)
	}
	cred, dir, err := dbproc.NewFolder(o.RunAs, "postgres", "wra-harness-pg-", "sock")
	if err != nil {
		return nil, err
	}
	c = &Cluster{opts: o, dir: dir}
	defer func() {
		if err != nil {
			c.Stop()
			c = nil
		}
	}()
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	out, err := c.command(ctx, cred, filepath.Join(o.BinDir, "postgres"), "--version").Output()
	if err != nil {
		return c, fmt.Errorf("postgres --version: %w", err)
	}
	c.Version = strings.TrimSpace(string(out))
	initdb := c.command(ctx, cred, filepath.Join(o.BinDir, "initdb"),
		"-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		return c, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	args := []string{"-D", data, "-p", strconv.Itoa(o.Port), "-k", sock,
		"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=100", "-c", "shared_buffers=64MB"}
	for _, s := range o.Settings {
		args = append(args, "-c", s)
	}
	cmd := c.command(context.WithoutCancel(ctx), cred, filepath.Join(o.BinDir, "postgres"), args...)
	cmd.Stdout, cmd.Stderr = o.Log, o.Log
	if c.proc, err = dbproc.Start("postgres", cmd); err != nil {
		return c, err
	}
	if err := c.waitReady(ctx, 30*time.Second); err != nil {
		return c, err
	}
	return c, c.load(ctx)
}

func (c *Cluster) command(ctx context.Context, cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	return dbproc.Command(ctx, c.dir, cred, name, args...)
}

func (c *Cluster) waitReady(ctx context.Context, limit time.Duration) error {
	return c.proc.WaitReady(ctx, limit, func(ctx context.Context) error {
		conn, err := pgx.Connect(ctx, c.DSN())
		if err == nil {
			err = conn.Ping(ctx)
			conn.Close(ctx)
		}
		return err
	})
}

// load creates the items table: id 1..Rows, name 'item-<id>', price_cents id*7 % 10000.
func (c *Cluster) load(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, c.DSN())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for _, q := range []string{
		"CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price_cents integer NOT NULL)",
		fmt.Sprintf("INSERT INTO items SELECT g, 'item-' || g, (g * 7) %% 10000 FROM generate_series(1, %d) AS g", c.opts.Rows),
		"VACUUM ANALYZE items",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// Stop shuts the postmaster down (SIGINT, PostgreSQL's fast shutdown; SIGKILL
// to its process group after 10 s) and removes the cluster's folder. It is
// safe to call more than once.
func (c *Cluster) Stop() error {
	return dbproc.RemoveDir(&c.dir, c.proc.Stop(syscall.SIGINT, 10*time.Second))
}
