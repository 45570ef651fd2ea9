// Package store is wra's DuckDB store: the embedded, versioned schema, the
// transactional loading of one file at a time through DuckDB's Appender,
// and the SQL views over the tables. It is the only package that links
// DuckDB; everything else speaks to it through model values and SQL text.
package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

//go:embed schema/*.sql
var schemaFS embed.FS

//go:embed views/*.sql
var viewsFS embed.FS

// Options are the settings of Open.
type Options struct {
	// ReadOnly opens the store for reading: no migration, no writes. The
	// store must exist.
	ReadOnly bool
	// LockTimeout is how long Open waits while another process holds the
	// store; 0 fails at once.
	LockTimeout time.Duration
	// Now gives the time written into ingested_files; time.Now when nil.
	Now func() time.Time
	// Waiting, when set, is called once when Open finds the store held by
	// another process and is about to wait for it (LockTimeout > 0).
	Waiting func(*BusyError)
	// BeforeCommit, when set, is called inside every load's transaction
	// after its rows are written and before COMMIT. Its error rolls the
	// transaction back. Fault tests use it to hold a load open while they
	// hurt the process; nothing else should set it.
	BeforeCommit func(ctx context.Context, t Txn) error
	// MemoryLimit is DuckDB's memory_limit for the store's buffers, in
	// DuckDB's size syntax ("384MiB", "1GB"); DefaultMemoryLimit when
	// empty. Work beyond it spills to TempDirectory.
	MemoryLimit string
	// TempDirectory is where DuckDB spills what does not fit in
	// MemoryLimit; the store's path with ".tmp" appended when empty.
	TempDirectory string
}

// DefaultMemoryLimit bounds DuckDB's buffers when Options.MemoryLimit is
// empty: whatever the store holds, wra's queries run within it (spilling
// to the temporary directory), so that a process's memory does not grow
// with the store.
const DefaultMemoryLimit = "256MiB"

// Txn describes a load's open transaction to Options.BeforeCommit.
type Txn struct {
	Sources []string // the files whose rows it holds
	Bulk    bool     // a point stream was loaded by DuckDB's own scanner
	Rows    int64    // rows written
}

// Store is an open wra store.
type Store struct {
	db    *sql.DB
	path  string
	opts  Options
	reads readWatch // DuckDB's reads of the files of bulk loads
	// deleted is set when a load deleted rows (a file replaced): Close
	// then checkpoints with a vacuum.
	deleted atomic.Bool
	// samplesTop is the highest row id of the committed samples that the
	// last load read, -1 for none: where the next one looks (knowTop).
	samplesTop atomic.Int64
}

// ErrNewerStore is returned for a store written by a newer wra.
var ErrNewerStore = errors.New("store was written by a newer wra")

// ErrMemoryLimit is returned for an Options.MemoryLimit DuckDB cannot
// read.
var ErrMemoryLimit = errors.New("memory limit")

// BusyError says that another process holds the store.
type BusyError struct {
	Path string
	PID  int // 0 when DuckDB did not say
}

func (e *BusyError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("store %s is in use by process %d", e.Path, e.PID)
	}
	return fmt.Sprintf("store %s is in use by another process", e.Path)
}

// SchemaVersion is the schema version this wra writes: the number of its
// last migration.
func SchemaVersion() int {
	ms := migrations()
	return ms[len(ms)-1].version
}

type migration struct {
	version int
	name    string
	sql     string
}

func migrations() []migration {
	return readSQLDir(schemaFS, "schema")
}

func readSQLDir(fsys embed.FS, dir string) []migration {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		panic(err) // embedded at build time
	}
	var out []migration
	for _, e := range entries {
		b, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			panic(err)
		}
		v, _ := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		out = append(out, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Open opens (and, unless read-only, creates or migrates) the store at
// path.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ReadOnly {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, missingStore(path)
		} else if err != nil {
			return nil, fmt.Errorf("store %s: %w", path, err)
		}
	}
	s := &Store{path: path, opts: opts}
	s.samplesTop.Store(-1)
	if err := s.connect(ctx); err != nil {
		return nil, err
	}
	if opts.ReadOnly {
		v, err := s.version(ctx)
		if err != nil {
			s.Close()
			return nil, err
		}
		if v > SchemaVersion() {
			s.Close()
			return nil, fmt.Errorf("%w: store %s has schema version %d, this wra knows up to %d; upgrade wra", ErrNewerStore, path, v, SchemaVersion())
		}
		if err := s.checkDefinitions(ctx, v); err != nil {
			s.Close()
			return nil, err
		}
		return s, nil
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

var lockPID = regexp.MustCompile(`PID (\d+)`)

// missingStore is a store opened for reading that does not exist; it is
// fs.ErrNotExist to errors.Is.
type missingStore string

func (p missingStore) Error() string {
	return fmt.Sprintf("no store at %s (run wra ingest first, or give --db the store's path)", string(p))
}

func (p missingStore) Unwrap() error { return fs.ErrNotExist }

// driverMessage is an error of the DuckDB driver with the driver's
// prefix ("database/sql/driver: could not connect to database: ") left
// out of its message: what a user reads is DuckDB's own words.
type driverMessage struct{ err error }

func (e driverMessage) Error() string {
	msg := e.err.Error()
	for _, prefix := range []string{"database/sql/driver: ", "could not connect to database: "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	return msg
}

func (e driverMessage) Unwrap() error { return e.err }

func (s *Store) connect(ctx context.Context) error {
	dsn := s.path + "?autoinstall_known_extensions=false&autoload_known_extensions=false" + s.limits()
	if s.opts.ReadOnly {
		dsn += "&access_mode=READ_ONLY"
	} else {
		// No vacuum at a checkpoint: a vacuum merges the under-filled
		// row groups of a whole table, up to max_vacuum_tasks of them,
		// and the checkpoints of an ingest then cost what the store
		// holds (up to 10 s each at 16 copies of data/) rather than
		// what the ingest wrote. Close vacuums when a load deleted rows.
		dsn += "&max_vacuum_tasks=0"
	}
	deadline := time.Now().Add(s.opts.LockTimeout)
	for {
		db, err := s.open(dsn)
		if err == nil {
			err = db.PingContext(ctx)
			if err != nil {
				db.Close()
			}
		}
		if err == nil {
			db.SetMaxOpenConns(1)
			s.db = db
			return nil
		}
		// DuckDB tells a memory limit it cannot read, and a lock another
		// process holds, only in its words: those are the one place wra
		// reads a message (wra's own errors are told apart by type)
		msg := err.Error()
		if strings.Contains(msg, "memory_limit") {
			return fmt.Errorf("%w %q: expected a size such as 512MiB or 2GB (DuckDB says: %v)", ErrMemoryLimit, s.opts.MemoryLimit, driverMessage{err})
		}
		if !strings.Contains(msg, "Could not set lock") && !strings.Contains(msg, "Conflicting lock") {
			// The driver's prefix names Go's database/sql, not the
			// store: the message is DuckDB's.
			return fmt.Errorf("store %s: %w", s.path, driverMessage{err})
		}
		be := &BusyError{Path: s.path}
		if m := lockPID.FindStringSubmatch(msg); m != nil {
			be.PID, _ = strconv.Atoi(m[1])
		}
		if time.Now().After(deadline) {
			return be
		}
		if s.opts.Waiting != nil {
			s.opts.Waiting(be)
			s.opts.Waiting = nil // once
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// memoryLimit is DuckDB's memory_limit as the store sets it.
func (s *Store) memoryLimit() string {
	if s.opts.MemoryLimit == "" {
		return DefaultMemoryLimit
	}
	return s.opts.MemoryLimit
}

// limits are the DSN settings that bound DuckDB's memory: memory_limit
// and the temporary directory it spills to. Each process runs one query
// at a time on one connection, so DuckDB's threads share that one bound.
func (s *Store) limits() string {
	limit, tmp := s.memoryLimit(), s.opts.TempDirectory
	if tmp == "" {
		tmp = s.path + ".tmp"
	}
	return "&memory_limit=" + url.QueryEscape(limit) + "&temp_directory=" + url.QueryEscape(tmp)
}

// open opens the database with the store's log storage registered.
func (s *Store) open(dsn string) (*sql.DB, error) {
	c, err := duckdb.NewConnector(dsn, nil)
	if err != nil {
		return nil, err
	}
	if err := duckdb.RegisterLogStorage(c, readLogStorage, duckdb.LoggerCallbacks{DefaultLoggerCallback: s.reads.entry}); err != nil {
		c.Close()
		return nil, err
	}
	return sql.OpenDB(c), nil
}

// version returns the store's schema version, 0 for an empty database.
func (s *Store) version(ctx context.Context) (int, error) {
	n, err := s.scalar(ctx, `SELECT count(*) FROM information_schema.tables WHERE table_name = 'wra_migrations'`)
	if err != nil {
		return 0, err
	}
	if integer(n) == 0 {
		return 0, nil
	}
	v, err := s.scalar(ctx, `SELECT max(version) FROM wra_migrations`)
	if err != nil {
		return 0, err
	}
	return int(integer(v)), nil
}

// pending lists the migrations the store at version v has not applied,
// in order. Each migration is applied by its number, not its place: a
// store that has 001, 002 and 005 is given 003 and 004.
func (s *Store) pending(ctx context.Context, v int) ([]migration, error) {
	applied := map[int64]bool{}
	if v > 0 {
		versions, err := column[int64](ctx, s, "wra_migrations", `SELECT version AS v FROM wra_migrations`, nil)
		if err != nil {
			return nil, err
		}
		for _, n := range versions {
			applied[n] = true
		}
	}
	var out []migration
	for _, m := range migrations() {
		if !applied[int64(m.version)] {
			out = append(out, m)
		}
	}
	return out, nil
}

func (s *Store) migrate(ctx context.Context) error {
	v, err := s.version(ctx)
	if err != nil {
		return err
	}
	if v > SchemaVersion() {
		return fmt.Errorf("%w: store %s has schema version %d, this wra knows up to %d; upgrade wra", ErrNewerStore, s.path, v, SchemaVersion())
	}
	pending, err := s.pending(ctx, v)
	if err != nil {
		return err
	}
	if v > 0 && len(pending) > 0 {
		if err := s.backup(ctx, v); err != nil {
			return err
		}
	}
	// One transaction: the views applied one statement after another,
	// each committing, took twice the time (0.52 s against 0.27 s for a
	// writable open of a store already up to date).
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if len(pending) > 0 {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS wra_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)`); err != nil {
			return err
		}
		for _, m := range pending {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("store %s: migration %s: %w", s.path, m.name, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO wra_migrations VALUES (?, ?, ?)`, m.version, m.name, s.opts.Now().UTC()); err != nil {
				return err
			}
		}
	}
	// The views first: a migration's fill reads their macros.
	if err := s.applyViews(ctx, tx); err != nil {
		return err
	}
	for _, m := range pending {
		if fill := migrationFills[m.name]; fill != nil {
			if err := fill(ctx, tx); err != nil {
				return fmt.Errorf("store %s: migration %s: %w", s.path, m.name, err)
			}
		}
	}
	return tx.Commit()
}

// migrationFills are the rows a migration derives from the store's data
// by the views' definitions, which it writes after them in its
// transaction; by the migration's file name.
var migrationFills = map[string]func(context.Context, *sql.Tx) error{
	"004_sample_steps.sql": fillSampleSteps,
}

// fillSampleSteps stores the steps of every run with samples, one run at
// a time, as ingest stores them.
func fillSampleSteps(ctx context.Context, tx *sql.Tx) error {
	st := stmts{
		exec: func(q string) error {
			_, err := tx.ExecContext(ctx, q)
			return err
		},
		query: func(q string, row func(driverRow)) error {
			rows, err := tx.QueryContext(ctx, q)
			if err != nil {
				return err
			}
			defer rows.Close()
			names, err := rows.Columns()
			if err != nil {
				return err
			}
			r := newDriverRow(names)
			ptrs := make([]any, len(r.vals))
			for i := range r.vals {
				ptrs[i] = &r.vals[i]
			}
			for rows.Next() {
				if err := rows.Scan(ptrs...); err != nil {
					return err
				}
				row(r)
			}
			return rows.Err()
		},
	}
	runs := map[string]span{}
	if err := sampleSpans(st, "", runs); err != nil {
		return err
	}
	// One run at a time: a query over every run's requests would hold
	// them all (storeSampleSteps).
	for _, id := range slices.Sorted(maps.Keys(runs)) {
		if err := storeSampleSteps(st, map[string]span{id: runs[id]}); err != nil {
			return err
		}
	}
	return nil
}

// execer runs a statement: the store's database, or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// retiredViews are views an earlier wra defined and this one does not:
// dropped at a writable open, so that no store keeps a figure this wra
// no longer documents (cost_runs: the cost reads cost_groups).
var retiredViews = []string{"cost_runs"}

// applyViews (re)creates every view; views hold no data, so they always
// follow this wra's definitions.
func (s *Store) applyViews(ctx context.Context, db execer) error {
	for _, v := range retiredViews {
		if _, err := db.ExecContext(ctx, "DROP VIEW IF EXISTS "+v); err != nil {
			return fmt.Errorf("store %s: dropping the retired view %s: %w", s.path, v, err)
		}
	}
	for _, v := range readSQLDir(viewsFS, "views") {
		if _, err := db.ExecContext(ctx, v.sql); err != nil {
			return fmt.Errorf("store %s: view %s: %w", s.path, v.name, err)
		}
	}
	_, err := db.ExecContext(ctx, `UPDATE wra_definitions SET sha256 = ?`, definitionsHash())
	return err
}

// definitionsHash is the SHA-256 of this wra's views and table macros.
func definitionsHash() string {
	h := sha256.New()
	for _, v := range readSQLDir(viewsFS, "views") {
		fmt.Fprintf(h, "%s\n%s\n", v.name, v.sql)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ErrOldDefinitions is returned by a read-only open of a store whose views
// and table macros are another wra's.
var ErrOldDefinitions = errors.New("store holds the views of another wra")

// checkDefinitions refuses a store, opened read-only, whose views and
// macros are not this wra's: a figure would be read by another
// definition than the one this wra documents.
func (s *Store) checkDefinitions(ctx context.Context, v int) error {
	sha := ""
	if v >= 3 {
		v, err := s.scalar(ctx, `SELECT sha256 FROM wra_definitions`)
		if err != nil {
			return err
		}
		sha = Text(v)
	}
	if sha == definitionsHash() {
		return nil
	}
	return fmt.Errorf("%w: store %s was last written by another wra (schema version %d); open it once for writing (wra ingest, or wra analyze) to bring its views up to date", ErrOldDefinitions, s.path, v)
}

// backup copies the store before a migration, next to it.
func (s *Store) backup(ctx context.Context, v int) error {
	if _, err := s.db.ExecContext(ctx, `CHECKPOINT`); err != nil {
		return err
	}
	if err := s.db.Close(); err != nil {
		return err
	}
	dst := fmt.Sprintf("%s.v%d.bak", s.path, v)
	if err := copyFile(s.path, dst); err != nil {
		return fmt.Errorf("store %s: backup before migration: %w", s.path, err)
	}
	return s.connect(ctx)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Close closes the store; closing it again does nothing.
func (s *Store) Close() error {
	if s.db == nil {
		return nil
	}
	defer func() { s.db = nil }()
	if s.deleted.Load() {
		// The rows of replaced files are reclaimed by a checkpoint that
		// vacuums, with DuckDB's default number of tasks.
		for _, q := range []string{`SET max_vacuum_tasks = ` + strconv.Itoa(vacuumTasks), `CHECKPOINT`} {
			if _, err := s.db.Exec(q); err != nil {
				s.db.Close()
				return fmt.Errorf("store %s: %w", s.path, err)
			}
		}
	}
	return s.db.Close()
}

// vacuumTasks is DuckDB's default max_vacuum_tasks.
const vacuumTasks = 100

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// IngestedHash implements ingest.Store.
func (s *Store) IngestedHash(ctx context.Context, source string) (string, bool, error) {
	v, err := s.scalar(ctx, `SELECT source_sha256 FROM ingested_files WHERE source = ?`, source)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return Text(v), true, nil
}

// Bump raises the store's generation, after a write that did not go
// through Load (wra sql --write).
func (s *Store) Bump(ctx context.Context) error {
	_, err := s.exec(ctx, bumpSQL)
	return err
}

// bumpSQL raises the store's generation, inside a transaction of its own
// or a caller's (ImportExport).
const bumpSQL = `UPDATE wra_generation SET generation = generation + 1`

// Fingerprint identifies the store's content as wra wrote it: the schema
// version, the generation, and every ingested file with its hash. Two
// stores with the same fingerprint give the same analysis.
func (s *Store) Fingerprint(ctx context.Context) (string, error) {
	gen, err := s.scalar(ctx, `SELECT generation FROM wra_generation`)
	if err != nil {
		return "", err
	}
	files, err := s.scalar(ctx, `SELECT string_agg(source || ' ' || source_sha256 || ' ' || format || ' ' || rows, '\n' ORDER BY source) FROM ingested_files`)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "schema %d\ngeneration %d\n%s", SchemaVersion(), integer(gen), Text(files))
	return hex.EncodeToString(h.Sum(nil)), nil
}
