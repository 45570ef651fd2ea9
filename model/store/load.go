package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/wra-bench/wra/model"
)

// RunID is the id of the run with the given index in a source file.
func RunID(source string, index int) string {
	return source + ":" + strconv.Itoa(index)
}

// Load implements ingest.Store: it replaces the rows of f.Source by what
// fill writes, in one transaction. Nothing of the file is kept when fill,
// an append or the commit fails, and its earlier rows are then untouched.
func (s *Store) Load(ctx context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	var rows int64
	err := s.inTransaction(ctx, func(c driver.Conn, exec execFunc) error {
		src := []driver.NamedValue{{Ordinal: 1, Value: f.Source}}
		// A source never loaded has nothing to delete: one lookup spares
		// six statements, two of which scan every percentile and sample
		// of the store (a cost that grew with the store, per file).
		stored, err := sourceStored(ctx, c.(driver.QueryerContext), f.Source)
		if err != nil {
			return err
		}
		for _, q := range deleteSource {
			if !stored {
				break
			}
			if err := exec(q, src...); err != nil {
				return err
			}
			s.deleted.Store(true)
		}
		sk := s.newSink(ctx, c, f)
		ferr := fill(sk)
		cerr := sk.close()
		if ferr != nil {
			return ferr
		}
		if cerr != nil {
			return cerr
		}
		if err := sk.check(); err != nil {
			return err
		}
		restore, err := sk.ownRowsThreads()
		if err != nil {
			return err
		}
		err = storeSampleSteps(stepStmts(ctx, c, exec), sk.sampledRuns())
		restore()
		if err != nil {
			return fmt.Errorf("%s: %w", f.Source, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rows = sk.rows
		sha, err := f.Hash()
		if err != nil {
			return fmt.Errorf("%s: %w", f.Source, err)
		}
		if err := exec(`INSERT INTO ingested_files VALUES (?, ?, ?, ?, ?)`,
			driver.NamedValue{Ordinal: 1, Value: f.Source},
			driver.NamedValue{Ordinal: 2, Value: sha},
			driver.NamedValue{Ordinal: 3, Value: f.Format},
			driver.NamedValue{Ordinal: 4, Value: rows},
			driver.NamedValue{Ordinal: 5, Value: s.opts.Now().UTC()}); err != nil {
			return err
		}
		if err := exec(bumpSQL); err != nil {
			return err
		}
		return s.beforeCommit(ctx, Txn{Sources: []string{f.Source}, Bulk: sk.bulk, Rows: rows})
	})
	return rows, err
}

// beforeCommit calls Options.BeforeCommit, when set.
func (s *Store) beforeCommit(ctx context.Context, t Txn) error {
	if s.opts.BeforeCommit == nil {
		return nil
	}
	return s.opts.BeforeCommit(ctx, t)
}

// execFunc runs a statement in the transaction.
type execFunc func(q string, args ...driver.NamedValue) error

// inTransaction runs fn in a transaction on one connection and commits;
// when fn or the commit fails, or ctx is cancelled, it rolls back.
func (s *Store) inTransaction(ctx context.Context, fn func(c driver.Conn, exec execFunc) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c := dc.(driver.Conn)
		ex := dc.(driver.ExecerContext)
		exec := func(q string, args ...driver.NamedValue) error {
			_, err := ex.ExecContext(ctx, q, args)
			return err
		}
		if err := s.releaseBuffers(exec); err != nil {
			return err
		}
		if err := exec("BEGIN TRANSACTION"); err != nil {
			return err
		}
		committed := false
		defer func() {
			if !committed {
				// A fresh context: the rollback must run even when ctx
				// was cancelled.
				ex.ExecContext(context.Background(), "ROLLBACK", nil)
			}
		}()
		if err := fn(c, exec); err != nil {
			return err
		}
		if err := exec("COMMIT"); err != nil {
			return err
		}
		committed = true
		return nil
	})
}

// releasedLimit is the memory limit that releaseBuffers has DuckDB meet
// for a moment.
const releasedLimit = "16MiB"

// releaseBuffers has DuckDB give back the buffers of the table blocks
// that earlier loads wrote and read, before a load begins (and, through
// ReleaseBuffers, between an ingest and the analysis after it). DuckDB
// keeps such blocks in memory up to its memory limit, so that an ingest
// held more and more of them as the store grew (4 copies of data/:
// 270-285 MiB between loads, 116 MiB of them table blocks), and a load's
// scan came on top of them. DuckDB has no statement that empties its
// buffers, but it meets a lower memory limit by evicting every block no
// query holds: the limit is set to releasedLimit and back to the store's.
// The blocks are on disk, and read again when a later query needs them.
// Where the lower limit cannot be met, the limit stays as it was, and is
// set back all the same.
func (s *Store) releaseBuffers(exec execFunc) error {
	exec(`SET memory_limit = ` + sqlString(releasedLimit)) // best effort
	if err := exec(`SET memory_limit = ` + sqlString(s.memoryLimit())); err != nil {
		return fmt.Errorf("store %s: setting its memory limit back to %s: %w", s.path, s.memoryLimit(), err)
	}
	return nil
}

// ReleaseBuffers has DuckDB give back the buffers of the table blocks
// that the store's loads wrote and read (releaseBuffers): wra analyze
// calls it once its ingest is done, so that the analysis does not start
// with the blocks of the last loads beside its own.
func (s *Store) ReleaseBuffers(ctx context.Context) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return s.releaseBuffers(func(q string, _ ...driver.NamedValue) error {
		_, err := conn.ExecContext(ctx, q)
		return err
	})
}

// sourceStored reports whether any table holds rows of source.
func sourceStored(ctx context.Context, q driver.QueryerContext, source string) (bool, error) {
	stored := true // unless the query says otherwise
	err := eachRow(ctx, q, `SELECT EXISTS (SELECT 1 FROM ingested_files WHERE source = $1) `+
		`OR EXISTS (SELECT 1 FROM runs WHERE source = $1) `+
		`OR EXISTS (SELECT 1 FROM memory_series WHERE source = $1) `+
		`OR EXISTS (SELECT 1 FROM calibration WHERE source = $1) AS stored`,
		[]driver.NamedValue{{Ordinal: 1, Value: source}}, func(r driverRow) {
			if b, ok := r.get("stored").(bool); ok {
				stored = b
			}
		})
	return stored, err
}

// sink writes one file's values through DuckDB appenders.
type sink struct {
	file                               model.File
	runs, pcts, samples, memory, calib *duckdb.Appender
	rows                               int64
	runSeen                            map[int]bool
	sampleRuns                         map[int]bool
	spans                              map[int]span // of the samples appended, by run
	bulk                               bool         // a BulkSamples load ran
	// ctx and conn run the bulk loaders (bulk.go) in the transaction.
	ctx  context.Context
	conn driver.Conn
	// reads follows DuckDB's reads of a bulk input (reads.go).
	reads *readWatch
	// top is the highest row id of the committed samples, -1 for none,
	// read once per transaction before its first sample is inserted
	// (knowTop), with the store's hint of it, topHint.
	top      int64
	topKnown bool
	topHint  *atomic.Int64
}

// newSink is the sink of a transaction on c, whose bulk loads run in ctx.
func (s *Store) newSink(ctx context.Context, c driver.Conn, f model.File) *sink {
	return &sink{file: f, conn: c, runSeen: map[int]bool{}, sampleRuns: map[int]bool{}, spans: map[int]span{},
		ctx: ctx, reads: &s.reads, topHint: &s.samplesTop}
}

// appender returns the appender of a table, made at its first row: most
// files fill two of the five tables, and an appender costs a catalog
// lookup to make and a flush to close.
func (s *sink) appender(dst **duckdb.Appender, table string) (*duckdb.Appender, error) {
	if *dst == nil {
		app, err := duckdb.NewAppenderFromConn(s.conn, "", table)
		if err != nil {
			return nil, fmt.Errorf("%s: appender for %s: %w", s.file.Source, table, err)
		}
		*dst = app
	}
	return *dst, nil
}

// close flushes and closes every appender and returns the first error.
func (s *sink) close() error {
	var first error
	for _, a := range []*duckdb.Appender{s.runs, s.pcts, s.samples, s.memory, s.calib} {
		if a == nil {
			continue
		}
		if err := a.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// check verifies that every sample belongs to a stored run.
func (s *sink) check() error {
	for i := range s.sampleRuns {
		if !s.runSeen[i] {
			return fmt.Errorf("%s: samples of run %d, which the reader never stored", s.file.Source, i)
		}
	}
	return nil
}

func opt[T any](o model.Opt[T]) driver.Value {
	if !o.Valid {
		return nil
	}
	return o.V
}

func str(v string) driver.Value {
	if v == "" {
		return nil
	}
	return v
}

func (s *sink) Run(r *model.Run) error {
	if s.runSeen[r.Index] {
		return fmt.Errorf("%s: run index %d stored twice", s.file.Source, r.Index)
	}
	s.runSeen[r.Index] = true
	id := RunID(s.file.Source, r.Index)
	var labels driver.Value
	if len(r.Labels) > 0 {
		b, err := json.Marshal(r.Labels) // sorted keys
		if err != nil {
			return err
		}
		labels = json.RawMessage(b) // a JSON document, not a JSON string

	}
	var line driver.Value
	if r.Line > 0 {
		line = int32(r.Line)
	}
	runs, err := s.appender(&s.runs, "runs")
	if err != nil {
		return err
	}
	sha, err := s.file.Hash()
	if err != nil {
		return fmt.Errorf("%s: %w", s.file.Source, err)
	}
	err = runs.AppendRow(id, s.file.Source, sha, line, r.Tool, str(r.ToolVersion),
		str(r.Server), str(r.Database), str(r.Test),
		opt(r.Round), opt(r.Connections), opt(r.Threads), opt(r.TargetRPS), opt(r.DurationS),
		opt(r.Requests), opt(r.Responses2xx), opt(r.Non2xx), opt(r.Errors), opt(r.RPS),
		opt(r.LatencyMeanMS), opt(r.LatencyStdevMS), opt(r.LatencyMaxMS),
		opt(r.LatencyP50MS), opt(r.LatencyP90MS), opt(r.LatencyP95MS), opt(r.LatencyP99MS), opt(r.LatencyP999MS),
		r.LatencyCorrected, opt(r.BytesRead),
		opt(r.CPUServerS), opt(r.CPUServerUserS), opt(r.CPUServerKernelS), opt(r.CPUDBS),
		opt(r.WorkingSetMB), opt(r.PrivateMB), opt(r.StartupS), opt(r.StartedAt), labels)
	if err != nil {
		return fmt.Errorf("%s: run %d: %w", s.file.Source, r.Index, err)
	}
	s.rows++
	if len(r.Percentiles) == 0 {
		return nil
	}
	pcts, err := s.appender(&s.pcts, "latency_percentiles")
	if err != nil {
		return err
	}
	for _, p := range r.Percentiles {
		if err := pcts.AppendRow(id, p.Percentile, p.LatencyMS, opt(p.Count), p.Corrected); err != nil {
			return fmt.Errorf("%s: run %d percentile: %w", s.file.Source, r.Index, err)
		}
		s.rows++
	}
	return nil
}

func (s *sink) Sample(run int, p *model.Sample) error {
	s.sampleRuns[run] = true
	sp := s.spans[run]
	sp.add(p.TS)
	s.spans[run] = sp
	var status driver.Value
	if p.Status.Valid {
		status = int32(p.Status.V)
	}
	var tags driver.Value
	if p.Tags != "" {
		tags = json.RawMessage(p.Tags)
	}
	if s.samples == nil {
		if err := s.knowTop(); err != nil {
			return fmt.Errorf("%s: %w", s.file.Source, err)
		}
	}
	app, err := s.appender(&s.samples, "samples")
	if err != nil {
		return err
	}
	if err := app.AppendRow(RunID(s.file.Source, run), p.TS, p.Metric, p.Value, status, tags); err != nil {
		return fmt.Errorf("%s: sample: %w", s.file.Source, err)
	}
	s.rows++
	return nil
}

func (s *sink) Memory(m *model.MemoryPoint) error {
	var line driver.Value
	if m.Line > 0 {
		line = int32(m.Line)
	}
	app, err := s.appender(&s.memory, "memory_series")
	if err != nil {
		return err
	}
	if err := app.AppendRow(str(m.Server), opt(m.Pass), m.Concurrency, opt(m.WaitMS), m.MemoryMB,
		opt(m.Requests), opt(m.CPUS), s.file.Source, line, str(m.Database)); err != nil {
		return fmt.Errorf("%s: memory point: %w", s.file.Source, err)
	}
	s.rows++
	return nil
}

func (s *sink) Calibration(c *model.CalibrationPoint) error {
	var line driver.Value
	if c.Line > 0 {
		line = int32(c.Line)
	}
	app, err := s.appender(&s.calib, "calibration")
	if err != nil {
		return err
	}
	if err := app.AppendRow(s.file.Source, c.Phase, opt(c.UTC), c.Processes, c.MS, line); err != nil {
		return fmt.Errorf("%s: calibration point: %w", s.file.Source, err)
	}
	s.rows++
	return nil
}
