// Package mariadb runs a throw-away MariaDB server for a recording:
// mariadb-install-db into a temporary folder, mariadbd as a child process
// listening on 127.0.0.1 only (and a private Unix socket), the same items
// table as PostgreSQL's (internal/pg), and a fast shutdown that always runs.
package mariadb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/wra-bench/wra/data/harness/internal/dbproc"
)

// Database is the schema the items table lives in.
const Database = "wra"

// Options of a server.
type Options struct {
	// BinDir is the folder of mariadbd; "" finds it (see FindBinaries).
	// mariadb-install-db is looked up beside it, then in /usr/bin.
	BinDir string
	Port   int
	Rows   int       // rows of the items table
	Log    io.Writer // mariadbd output
	// RunAs is the OS user that owns the data when the harness runs as root
	// (mariadbd refuses to run as root); "" means "mysql".
	RunAs string
	// Settings are extra "--name=value" server options.
	Settings []string
}

// Server is a running MariaDB.
type Server struct {
	opts    Options
	dir     string
	proc    *dbproc.Process
	Version string // mariadbd --version
}

// Binaries are the two programs a server needs.
type Binaries struct{ Server, InstallDB string }

// FindBinaries returns mariadbd and mariadb-install-db: in binDir when it
// is given, else Debian's /usr/sbin and /usr/bin, else PATH.
func FindBinaries(binDir string) (Binaries, error) {
	var dirs []string
	if binDir != "" {
		dirs = []string{binDir}
	} else {
		dirs = []string{"/usr/sbin", "/usr/bin"}
		if p, err := exec.LookPath("mariadbd"); err == nil {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	var b Binaries
	for _, d := range dirs {
		if b.Server == "" && dbproc.IsExecutable(filepath.Join(d, "mariadbd")) {
			b.Server = filepath.Join(d, "mariadbd")
		}
		if b.InstallDB == "" && dbproc.IsExecutable(filepath.Join(d, "mariadb-install-db")) {
			b.InstallDB = filepath.Join(d, "mariadb-install-db")
		}
	}
	if b.InstallDB == "" && binDir != "" && dbproc.IsExecutable("/usr/bin/mariadb-install-db") {
		b.InstallDB = "/usr/bin/mariadb-install-db"
	}
	if b.Server == "" || b.InstallDB == "" {
		return b, errors.New("no MariaDB server binaries (mariadbd, mariadb-install-db): install Debian's mariadb-server package or pass the folder holding them")
	}
	return b, nil
}

// DSN is the go-sql-driver/mysql data source name of the items database
// (user root without a password, over TCP to 127.0.0.1).
func (s *Server) DSN() string {
	return fmt.Sprintf("root@tcp(127.0.0.1:%d)/%s", s.opts.Port, Database)
}

// URL is the same database as a mysql:// URL (what Node's mysql2 reads).
func (s *Server) URL() string {
	return fmt.Sprintf("mysql://root@127.0.0.1:%d/%s", s.opts.Port, Database)
}

// PID is mariadbd's process id, the root of the server's process tree.
func (s *Server) PID() int { return s.proc.PID() }

// Start creates a data folder under a new temporary folder, starts mariadbd
// and loads the items table. The caller must call Stop, also after an error
// of a later step; Start cleans up after its own errors.
func Start(ctx context.Context, o Options) (s *Server, err error) {
	if o.Rows < 1 {
		return nil, fmt.Errorf("rows must be at least 1, got %d", o.Rows)
	}
	bins, err := FindBinaries(o.BinDir)
	if err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	cred, dir, err := dbproc.NewFolder(o.RunAs, "mysql", "wra-harness-mariadb-", "data", "tmp")
	if err != nil {
		return nil, err
	}
	s = &Server{opts: o, dir: dir}
	defer func() {
		if err != nil {
			s.Stop()
			s = nil
		}
	}()
	data := filepath.Join(dir, "data")
	out, err := s.command(ctx, cred, bins.Server, "--version").Output()
	if err != nil {
		return s, fmt.Errorf("mariadbd --version: %w", err)
	}
	s.Version = strings.TrimSpace(string(out))
	install := s.command(ctx, cred, bins.InstallDB, "--no-defaults", "--datadir="+data,
		"--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve")
	if out, err := install.CombinedOutput(); err != nil {
		return s, fmt.Errorf("mariadb-install-db: %w\n%s", err, out)
	}
	cmd := s.command(context.WithoutCancel(ctx), cred, bins.Server, ServerArgs(dir, o.Port, o.Settings)...)
	cmd.Stdout, cmd.Stderr = o.Log, o.Log
	if s.proc, err = dbproc.Start("mariadbd", cmd); err != nil {
		return s, err
	}
	if err := s.waitReady(ctx, 60*time.Second); err != nil {
		return s, err
	}
	return s, s.load(ctx)
}

// ServerArgs is mariadbd's command line for a server under dir: no option
// files read, TCP on 127.0.0.1:port only, the socket and pid file in dir,
// no binary log, and a buffer pool the size of PostgreSQL's shared_buffers.
func ServerArgs(dir string, port int, settings []string) []string {
	args := []string{
		"--no-defaults",
		"--datadir=" + filepath.Join(dir, "data"),
		"--tmpdir=" + filepath.Join(dir, "tmp"),
		"--socket=" + filepath.Join(dir, "mysqld.sock"),
		"--pid-file=" + filepath.Join(dir, "mysqld.pid"),
		"--port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1",
		"--skip-name-resolve",
		"--skip-log-bin",
		"--max-connections=100",
		"--innodb-buffer-pool-size=64M",
	}
	for _, st := range settings {
		args = append(args, "--"+strings.TrimPrefix(st, "--"))
	}
	return args
}

func (s *Server) command(ctx context.Context, cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	return dbproc.Command(ctx, s.dir, cred, name, args...)
}

// rootDSN is the server without a default database (before the load).
func (s *Server) rootDSN() string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = "root", "tcp", "127.0.0.1:"+strconv.Itoa(s.opts.Port)
	cfg.Timeout = time.Second
	return cfg.FormatDSN()
}

func (s *Server) waitReady(ctx context.Context, limit time.Duration) error {
	db, err := sql.Open("mysql", s.rootDSN())
	if err != nil {
		return err
	}
	defer db.Close()
	return s.proc.WaitReady(ctx, limit, db.PingContext)
}

// LoadStatements create the items table with the rows PostgreSQL's has: id
// 1..rows, name 'item-<id>', price_cents id*7 % 10000 (the sequence engine's
// seq_1_to_<rows> stands in for generate_series).
func LoadStatements(rows int) []string {
	return []string{
		"CREATE DATABASE " + Database + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin",
		"CREATE TABLE " + Database + ".items (id integer PRIMARY KEY, name text NOT NULL, price_cents integer NOT NULL) ENGINE=InnoDB",
		fmt.Sprintf("INSERT INTO %s.items SELECT seq, CONCAT('item-', seq), (seq * 7) %% 10000 FROM %s.seq_1_to_%d", Database, Database, rows),
		"ANALYZE TABLE " + Database + ".items",
	}
}

func (s *Server) load(ctx context.Context) error {
	db, err := sql.Open("mysql", s.rootDSN())
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range LoadStatements(s.opts.Rows) {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// Stop shuts mariadbd down (SIGTERM, its normal shutdown; SIGKILL to its
// process group after 20 s) and removes the server's folder. It is safe to
// call more than once.
func (s *Server) Stop() error {
	return dbproc.RemoveDir(&s.dir, s.proc.Stop(syscall.SIGTERM, 20*time.Second))
}
