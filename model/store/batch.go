package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"maps"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/wra-bench/wra/model"
)

// LoadBatch implements ingest.BatchLoader: it replaces the rows of every
// file by what its fill writes, all in one transaction, through one set of
// appenders. It is Load for many small files at once: a transaction, its
// appenders and its commit cost more than the rows of a small report.
// Either every file is stored or none is: on an error the transaction is
// rolled back and the caller loads the files one by one, to learn which
// one failed.
func (s *Store) LoadBatch(ctx context.Context, files []model.File, fills []func(model.Sink) error) ([]int64, error) {
	if len(files) != len(fills) {
		return nil, fmt.Errorf("LoadBatch: %d files, %d fills", len(files), len(fills))
	}
	return s.loadFiles(ctx, files, false, nil, func(i int, sk *sink) error { return fills[i](sk) })
}

// loadFiles stores files in one transaction through one sink: the rows
// each source had are deleted, prepare (when set) runs on the sink, then
// for each file in order the sink is made the file's and fill writes its
// rows; the steps of the runs with samples follow, once every appender is
// flushed, and the store's generation is raised. bulk tells
// Options.BeforeCommit that DuckDB's scanner loaded points.
func (s *Store) loadFiles(ctx context.Context, files []model.File, bulk bool, prepare func(sk *sink) error, fill func(i int, sk *sink) error) ([]int64, error) {
	rows := make([]int64, len(files))
	err := s.inTransaction(ctx, func(c driver.Conn, exec execFunc) error {
		stored, err := sourcesStored(ctx, c.(driver.QueryerContext), files)
		if err != nil {
			return err
		}
		for _, f := range files {
			if !stored[f.Source] {
				continue
			}
			for _, q := range deleteSource {
				if err := exec(q, driver.NamedValue{Ordinal: 1, Value: f.Source}); err != nil {
					return err
				}
			}
			s.deleted.Store(true)
		}
		sk := s.newSink(ctx, c, model.File{})
		var ingested *duckdb.Appender
		defer func() {
			sk.close()
			if ingested != nil {
				ingested.Close()
			}
		}()
		if prepare != nil {
			if err := prepare(sk); err != nil {
				return err
			}
		}
		now := s.opts.Now().UTC()
		sampled := map[string]span{} // the runs with samples, whose steps are stored once every appender is flushed
		for i, f := range files {
			sk.file, sk.rows = f, 0
			clear(sk.runSeen)
			clear(sk.sampleRuns)
			clear(sk.spans)
			if err := fill(i, sk); err != nil {
				return err
			}
			if err := sk.check(); err != nil {
				return err
			}
			maps.Copy(sampled, sk.sampledRuns())
			if err := ctx.Err(); err != nil {
				return err
			}
			rows[i] = sk.rows
			if ingested == nil {
				if ingested, err = duckdb.NewAppenderFromConn(c, "", "ingested_files"); err != nil {
					return err
				}
			}
			sha, err := f.Hash()
			if err != nil {
				return fmt.Errorf("%s: %w", f.Source, err)
			}
			if err := ingested.AppendRow(f.Source, sha, f.Format, sk.rows, now); err != nil {
				return fmt.Errorf("%s: %w", f.Source, err)
			}
		}
		if err := sk.close(); err != nil {
			return err
		}
		restore, err := sk.ownRowsThreads()
		if err != nil {
			return err
		}
		err = storeSampleSteps(stepStmts(ctx, c, exec), sampled)
		restore()
		if err != nil {
			return err
		}
		sk.runs, sk.pcts, sk.samples, sk.memory, sk.calib = nil, nil, nil, nil, nil
		if ingested != nil {
			err := ingested.Close()
			ingested = nil
			if err != nil {
				return err
			}
		}
		if err := exec(bumpSQL); err != nil {
			return err
		}
		t := Txn{Sources: make([]string, len(files)), Bulk: bulk}
		for i, f := range files {
			t.Sources[i] = f.Source
			t.Rows += rows[i]
		}
		return s.beforeCommit(ctx, t)
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// deleteSource are the statements that remove a source's rows; their one
// parameter is the source.
var deleteSource = []string{
	`DELETE FROM latency_percentiles WHERE run_id IN (SELECT run_id FROM runs WHERE source = ?)`,
	`DELETE FROM samples WHERE run_id IN (SELECT run_id FROM runs WHERE source = ?)`,
	`DELETE FROM sample_steps WHERE run_id IN (SELECT run_id FROM runs WHERE source = ?)`,
	`DELETE FROM runs WHERE source = ?`,
	`DELETE FROM memory_series WHERE source = ?`,
	`DELETE FROM calibration WHERE source = ?`,
	`DELETE FROM ingested_files WHERE source = ?`,
}

// sourcesStored returns which of the files' sources any table holds rows
// of, in one query.
func sourcesStored(ctx context.Context, q driver.QueryerContext, files []model.File) (map[string]bool, error) {
	lits := make([]string, len(files))
	for i, f := range files {
		lits[i] = sqlString(f.Source)
	}
	in := "(" + strings.Join(lits, ", ") + ")"
	var b strings.Builder
	for i, t := range []string{"ingested_files", "runs", "memory_series", "calibration"} {
		if i > 0 {
			b.WriteString(" UNION ")
		}
		fmt.Fprintf(&b, "SELECT source FROM %s WHERE source IN %s", t, in)
	}
	out := map[string]bool{}
	err := eachRow(ctx, q, b.String(), nil, func(r driverRow) {
		if src, ok := r.get("source").(string); ok {
			out[src] = true
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
