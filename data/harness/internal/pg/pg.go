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
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
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
	cmd     *exec.Cmd
	done    chan error
	Version string // postgres --version
}

// FindBinDir returns the folder holding initdb and postgres: Debian's
// /usr/lib/postgresql/<major>/bin (highest major first), else the folder of
// `postgres` on PATH.
func FindBinDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return major(dirs[i]) > major(dirs[j]) })
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("postgres"); err == nil {
		d := filepath.Dir(p)
		if isExec(filepath.Join(d, "initdb")) {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server binaries (initdb, postgres): install Debian's postgresql package or pass the folder holding them")
}

func major(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// DSN is the URL the servers connect with.
func (c *Cluster) DSN() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.opts.Port)
}

// PID is the postmaster's process id, the root of the cluster's process tree.
func (c *Cluster) PID() int { return c.cmd.Process.Pid }

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
	cred, err := credential(o.RunAs)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "wra-harness-pg-")
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
	if err := os.Mkdir(sock, 0o700); err != nil {
		return c, err
	}
	if cred != nil {
		if err := chownTree(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return c, err
		}
	}
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
	c.cmd = c.command(context.WithoutCancel(ctx), cred, filepath.Join(o.BinDir, "postgres"), args...)
	c.cmd.Stdout, c.cmd.Stderr = o.Log, o.Log
	c.cmd.SysProcAttr.Setpgid = true
	if err := c.cmd.Start(); err != nil {
		return c, fmt.Errorf("start postgres: %w", err)
	}
	c.done = make(chan error, 1)
	go func() { c.done <- c.cmd.Wait() }()
	if err := c.waitReady(ctx, 30*time.Second); err != nil {
		return c, err
	}
	return c, c.load(ctx)
}

func credential(runAs string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	if runAs == "" {
		runAs = "postgres"
	}
	u, err := user.Lookup(runAs)
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL needs another user: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("user %s: %w", runAs, err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func chownTree(dir string, uid, gid int) error {
	return filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

func (c *Cluster) command(ctx context.Context, cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = c.dir
	// Pdeathsig: PostgreSQL dies with the harness even when the harness is killed outright.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd
}

func (c *Cluster) waitReady(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		conn, err := pgx.Connect(cctx, c.DSN())
		if err == nil {
			err = conn.Ping(cctx)
			conn.Close(cctx)
		}
		cancel()
		if err == nil {
			return nil
		}
		select {
		case werr := <-c.done:
			c.done <- werr
			return fmt.Errorf("postgres exited before accepting connections: %v", werr)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres not ready after %s: %w", limit, err)
		}
	}
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
	var err error
	if c.cmd != nil && c.cmd.Process != nil && c.done != nil {
		_ = c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
			<-c.done
			err = errors.New("postgres did not stop within 10 s and was killed")
		}
		c.done = nil
	}
	if c.dir != "" {
		if rerr := os.RemoveAll(c.dir); rerr != nil && err == nil {
			err = rerr
		}
		c.dir = ""
	}
	return err
}
