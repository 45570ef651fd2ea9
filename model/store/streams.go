package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/wra-bench/wra/model"
)

// LoadStreams implements ingest.StreamLoader: it loads several k6 NDJSON
// or CSV point streams, each the one input of its file, in one
// transaction, with one statement of DuckDB's scanner over all their
// files of one format (and, for CSV, of one header and time format),
// which reads several of them at once (one file of gzip is one thread's
// work), every point in the run of its file. The points of every run are then
// summarised in one query, and each stream's Finish is called, in order,
// with a sink of its file's own and its summary, for the rest of the
// file (its run row); the per-step figures of the runs follow, as for a
// file loaded alone. Either every file is stored or none is: on an error
// the transaction is rolled back and the caller loads the files one by
// one, to learn which one failed and where. A file's rows are those that
// Load stores for it alone.
func (s *Store) LoadStreams(ctx context.Context, streams []model.BulkStream) ([]int64, error) {
	if len(streams) == 0 {
		return nil, nil
	}
	first := streams[0].Input
	ids := make([]string, len(streams))
	files := make([]model.File, len(streams))
	for i, st := range streams {
		in := st.Input
		if (in.Format != "k6-ndjson" && in.Format != "k6-csv") || in.Gzip != first.Gzip || in.Runs != nil ||
			!slices.Equal(in.QuantileMetrics, first.QuantileMetrics) || !slices.Equal(in.Percentiles, first.Percentiles) {
			return nil, fmt.Errorf("%s: a stream unlike the first of its group (%s)", in.Name, first.Name)
		}
		ids[i], files[i] = RunID(st.File.Source, st.Run), st.File
	}
	var sums map[string]*model.BulkResult
	return s.loadFiles(ctx, files, true, func(sk *sink) error {
		var err error
		sums, err = sk.insertStreams(streams, ids)
		return err
	}, func(i int, sk *sink) error {
		st := streams[i]
		res := sums[ids[i]]
		if res == nil {
			res = &model.BulkResult{}
		}
		sk.rows = res.Rows
		sk.sampleRuns[st.Run] = true
		if res.Rows > 0 {
			sp := span{}
			sp.add(res.First)
			sp.add(res.Last)
			sk.spans[st.Run] = sp
		}
		return st.Finish(sk, res)
	})
}

// streamsMemoryLimit is DuckDB's memory limit while it scans a group of
// streams, whatever a user gave for queries: DuckDB keeps the blocks it
// wrote in its buffers up to its limit, and its scan of several files
// at once takes memory beyond it, so that the process grew with the
// number of groups loaded. With 128 MiB instead of the store's 256, a
// folder of 16 copies of data/ peaked at 404 MiB instead of 578, and
// data/ladder at 240-277 MiB instead of 301-315, for 1-2 % more CPU
// time (docs/performance.md).
const streamsMemoryLimit = "128MiB"

// insertStreams inserts the points of every stream, in one statement
// over the files of each scan (scanOf), with every input's check running
// beside its statement, and returns the summary of each run, by id.
func (s *sink) insertStreams(streams []model.BulkStream, ids []string) (map[string]*model.BulkResult, error) {
	first := streams[0].Input
	var scans [][]int // the streams of each scan, by index, in the order of their first stream
	at := map[string]int{}
	for i, st := range streams {
		k := scanOf(i, st.Input)
		if _, ok := at[k]; !ok {
			at[k] = len(scans)
			scans = append(scans, nil)
		}
		scans[at[k]] = append(scans[at[k]], i)
	}
	if err := s.knowTop(); err != nil {
		return nil, fmt.Errorf("%s and the others of its group: %w", first.Name, err)
	}
	// As for one stream (BulkSamples), no insertion order; and a memory
	// limit of its own (streamsMemoryLimit).
	restore, err := s.setForBulk(map[string]string{"preserve_insertion_order": "false", "memory_limit": streamsMemoryLimit})
	if err != nil {
		return nil, err
	}
	defer restore()
	var unwatch []func()
	stopWatching := func() {
		for _, u := range unwatch {
			u()
		}
		unwatch = nil
	}
	defer stopWatching()
	for _, st := range streams {
		stop, err := s.watchReads(st.Input.Path, st.Input.Progress)
		if err != nil {
			return nil, err
		}
		unwatch = append(unwatch, stop)
	}
	var n int64
	for _, scan := range scans {
		q, err := streamsInsertSQL(streams, ids, scan)
		if err != nil {
			return nil, err
		}
		var checks []func(context.Context) error
		for _, i := range scan {
			if c := streams[i].Input.Check; c != nil {
				checks = append(checks, c)
			}
		}
		res, err := s.execChecked(s.conn.(driver.ExecerContext), q, nil, allChecks(checks))
		if err != nil {
			return nil, err
		}
		rows, err := res.RowsAffected()
		if err != nil {
			return nil, err
		}
		n += rows
	}
	stopWatching()
	s.bulk = true
	sums, err := s.bulkStatsOf(ids, first, n)
	if err != nil {
		return nil, fmt.Errorf("summarising the points of %s and the others of its group: %w", first.Name, err)
	}
	return sums, nil
}

// scanOf names the scan that reads the stream at index i with others: its
// format and, for a k6 CSV, its columns and time format, which its
// statement names. A CSV with a column named file_index, which would
// hide the scanner's column of that name (streamsInsertSQL), has a scan
// of its own.
func scanOf(i int, in *model.BulkInput) string {
	k := strings.Join(append([]string{in.Format, in.TimeFormat}, in.Columns...), "\x00")
	if slices.Contains(in.Columns, "file_index") {
		k += "\x00" + strconv.Itoa(i)
	}
	return k
}

// streamsInsertSQL is the statement that inserts the points of the
// streams of one scan, the streams at the indexes scan of streams: their
// files in one scan of DuckDB's, each point in the run of its file. The
// run ids are a list in the order of the files, which the scanner's
// file_index (a file's place in its list of paths) picks from: a join
// of the file's name with a table of paths and run ids took 7 % more
// time and CPU (docs/performance.md). A scan of one file names its run.
func streamsInsertSQL(streams []model.BulkStream, ids []string, scan []int) (string, error) {
	in := streams[scan[0]].Input
	paths := make([]string, len(scan))
	runs := make([]string, len(scan))
	for k, i := range scan {
		paths[k] = sqlString(scanPath(streams[i].Input.Path))
		runs[k] = sqlString(ids[i])
	}
	id := runs[0]
	if len(scan) > 1 {
		id = "[" + strings.Join(runs, ", ") + "][file_index::BIGINT + 1]"
	}
	q, err := insertSQL(in, id, "["+strings.Join(paths, ", ")+"]")
	if err != nil {
		return "", fmt.Errorf("%s: %w", in.Name, err)
	}
	return q, nil
}

// allChecks runs checks at once and returns the first error of one,
// which cancels the others; nil for no checks.
func allChecks(checks []func(context.Context) error) func(context.Context) error {
	if len(checks) == 0 {
		return nil
	}
	return func(ctx context.Context) error {
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		var wg sync.WaitGroup
		var once sync.Once
		var first error
		for _, c := range checks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := c(ctx); err != nil {
					once.Do(func() { first = err })
					cancel(err)
				}
			}()
		}
		wg.Wait()
		return first
	}
}
