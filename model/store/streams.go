package store

import (
	"cmp"
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
// or CSV point streams and JMeter JTL CSVs, each the one input of its
// file, in one transaction, with one statement of DuckDB's scanner over
// all their files of one format (and, for CSV, of one header and time
// format), which reads several of them at once (one file of gzip is one
// thread's work), every sample in the run of its file (and, for a JTL,
// of its label). The points of every k6 run are then summarised in one
// query and a JTL's samples counted, and each stream's Finish is called,
// in order, with a sink of its file's own and its summary, for the rest
// of the file (its run rows); the per-step figures of the runs follow,
// as for a file loaded alone. Either every file is stored or none is: on
// an error the transaction is rolled back and the caller loads the files
// one by one, to learn which one failed and where. A file's rows are
// those that Load stores for it alone.
func (s *Store) LoadStreams(ctx context.Context, streams []model.BulkStream) ([]int64, error) {
	if len(streams) == 0 {
		return nil, nil
	}
	first := streams[0].Input
	var points *model.BulkInput // the first k6 stream's: the metrics and percentiles of every summary
	ids := make([]string, len(streams))
	files := make([]model.File, len(streams))
	for i, st := range streams {
		in := st.Input
		k6 := (in.Format == "k6-ndjson" || in.Format == "k6-csv") && in.Runs == nil
		if k6 && points == nil {
			points = in
		}
		if in.Gzip != first.Gzip || !k6 && (in.Format != "jmeter-jtl-csv" || in.Runs == nil) ||
			k6 && (!slices.Equal(in.QuantileMetrics, points.QuantileMetrics) || !slices.Equal(in.Percentiles, points.Percentiles)) {
			return nil, fmt.Errorf("%s: a stream unlike the first of its group (%s)", in.Name, first.Name)
		}
		if k6 {
			ids[i] = RunID(st.File.Source, st.Run)
		}
		files[i] = st.File
	}
	var results []*model.BulkResult
	return s.loadFiles(ctx, files, true, func(sk *sink) error {
		var err error
		results, err = sk.insertStreams(streams, ids, points)
		return err
	}, func(i int, sk *sink) error {
		st, res := streams[i], results[i]
		sk.rows = res.Rows
		if st.Input.Runs != nil {
			for _, r := range st.Input.Runs {
				sk.sampleRuns[r.Index] = true
			}
			return st.Finish(sk, res)
		}
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

// insertStreams inserts the samples of every stream, in one statement
// over the files of each scan (scanOf), with every input's check running
// beside its statement, and returns each stream's result: a k6 stream's
// summary (its run's id in ids, its metrics and percentiles those of
// points), a JTL's count of samples.
func (s *sink) insertStreams(streams []model.BulkStream, ids []string, points *model.BulkInput) ([]*model.BulkResult, error) {
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
	var inserted, jtl int64 // the k6 points, the JTL samples
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
		if streams[scan[0]].Input.Runs != nil {
			jtl += rows
		} else {
			inserted += rows
		}
	}
	stopWatching()
	s.bulk = true
	results := make([]*model.BulkResult, len(streams))
	if points != nil {
		sums, err := s.bulkStatsOf(slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return id == "" }), points, inserted)
		if err != nil {
			return nil, fmt.Errorf("summarising the points of %s and the others of its group: %w", points.Name, err)
		}
		for i, id := range ids {
			if id != "" {
				results[i] = cmp.Or(sums[id], &model.BulkResult{})
			}
		}
	}
	if err := s.countJTL(streams, results, jtl); err != nil {
		return nil, fmt.Errorf("counting the samples of %s and the others of its group: %w", first.Name, err)
	}
	return results, nil
}

// countJTL gives each JTL stream of streams its result: the samples the
// transaction inserted into its runs, inserted of them in all. As the
// summary of the k6 points (bulkStatsOf), the query reads the rows above
// the committed top, with the threads of ownRowsThreads, and names no
// runs: those of other streams are left out as they are read.
func (s *sink) countJTL(streams []model.BulkStream, results []*model.BulkResult, inserted int64) error {
	of := map[string]int{} // run id -> the stream of its JTL
	for i, st := range streams {
		for _, r := range st.Input.Runs {
			of[RunID(st.File.Source, r.Index)] = i
		}
		if st.Input.Runs != nil {
			results[i] = &model.BulkResult{}
		}
	}
	if len(of) == 0 {
		return nil
	}
	restore, err := s.ownRowsThreads()
	if err != nil {
		return err
	}
	defer restore()
	var found int64
	err = eachRow(s.ctx, s.conn.(driver.QueryerContext), `SELECT run_id, count(*)::BIGINT AS n FROM samples `+
		`WHERE rowid > `+strconv.FormatInt(s.top, 10)+` GROUP BY run_id`, nil, func(r driverRow) {
		id, _ := r.get("run_id").(string)
		if i, ok := of[id]; ok {
			n := toInt(r.get("n"))
			results[i].Rows += n
			found += n
		}
	})
	if err != nil {
		return err
	}
	if found != inserted {
		return fmt.Errorf("%d samples found of the %d inserted", found, inserted)
	}
	return nil
}

// scanOf names the scan that reads the stream at index i with others: its
// format and, for a k6 CSV or a JTL, its columns (and a k6 CSV's time
// format, a JTL's header or none), which its statement names. A k6 CSV
// with a column named file_index, which would hide the scanner's column
// of that name (streamsInsertSQL), has a scan of its own.
func scanOf(i int, in *model.BulkInput) string {
	k := strings.Join(append([]string{in.Format, in.TimeFormat, strconv.FormatBool(in.NoHeader)}, in.Columns...), "\x00")
	if in.Format == "k6-csv" && slices.Contains(in.Columns, "file_index") {
		k += "\x00" + strconv.Itoa(i)
	}
	return k
}

// streamsInsertSQL is the statement that inserts the samples of the
// streams of one scan, the streams at the indexes scan of streams: their
// files in one scan of DuckDB's, each point of a k6 stream in the run of
// its file (ids), each sample of a JTL in that of its file and label
// (jtlInsertSQL). The k6 run ids are a list in the order of the files,
// which the scanner's file_index (a file's place in its list of paths)
// picks from: a join of the file's name with a table of paths and run
// ids took 7 % more time and CPU in one statement (whole ingests: the
// same time, docs/performance.md). A scan of one file names its run.
func streamsInsertSQL(streams []model.BulkStream, ids []string, scan []int) (string, error) {
	in := streams[scan[0]].Input
	files := make([]*model.BulkInput, len(scan))
	for k, i := range scan {
		files[k] = streams[i].Input
	}
	if in.Runs != nil {
		return jtlInsertSQL(files, func(k, i int) string { return RunID(streams[scan[k]].File.Source, i) })
	}
	runs := make([]string, len(scan))
	for k, i := range scan {
		runs[k] = sqlString(ids[i])
	}
	id := runs[0]
	if len(scan) > 1 {
		id = "[" + strings.Join(runs, ", ") + "][file_index::BIGINT + 1]"
	}
	q, err := insertSQL(in, id, scanPaths(files))
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
