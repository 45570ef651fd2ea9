package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/wra-bench/wra/model"
)

// BulkSamples implements model.BulkSink: it inserts every point of a k6
// --out json (NDJSON) or --out csv stream into samples with DuckDB's own
// read_json / read_csv scanner, inside the file's transaction, and then
// summarises the inserted points by SQL, in one scan of them; a JMeter
// JTL as CSV (in.Runs set) is inserted the same way, each sample in the
// run of its label, and not summarised (jtlInsertSQL). DuckDB decompresses gzip itself;
// memory stays bounded because the scanner streams and the inserted rows
// are written to the database file as they fill row groups.
func (s *sink) BulkSamples(run int, in *model.BulkInput) (*model.BulkResult, error) {
	if s.conn == nil || !model.ScannablePath(in.Path) {
		return nil, model.ErrBulkUnsupported
	}
	id := RunID(s.file.Source, run)
	var q string
	var err error
	args := []driver.NamedValue{{Ordinal: 1, Value: id}}
	if in.Runs != nil {
		q, err = jtlInsertSQL([]*model.BulkInput{in}, func(_, i int) string { return RunID(s.file.Source, i) })
		args = nil
	} else {
		q, err = bulkInsertSQL(in)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	if err := s.knowTop(); err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	ex := s.conn.(driver.ExecerContext)
	// The points of a run need no order in the table (ts orders them),
	// and without it DuckDB inserts from its scanner threads without
	// reordering. With a small memory limit DuckDB writes full row groups
	// out instead of holding them: peak memory stays near the limit for
	// any file size, and the load is faster: the store's default limit,
	// whatever a user gave for queries. Both settings are restored.
	restore, err := s.setForBulk(map[string]string{"preserve_insertion_order": "false", "memory_limit": DefaultMemoryLimit})
	if err != nil {
		return nil, err
	}
	defer restore()
	unwatch, err := s.watchReads(in.Path, in.Progress)
	if err != nil {
		return nil, err
	}
	res, err := s.execChecked(ex, q, args, in.Check)
	unwatch()
	if err != nil {
		return nil, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return nil, err
	}
	s.bulk = true
	s.rows += n
	if in.Runs != nil {
		for _, r := range in.Runs {
			s.sampleRuns[r.Index] = true
		}
		return &model.BulkResult{Rows: n}, nil
	}
	s.sampleRuns[run] = true
	out, err := s.bulkStats(id, in, n)
	if err != nil {
		return nil, fmt.Errorf("%s: summarising the points: %w", in.Name, err)
	}
	if n > 0 {
		sp := s.spans[run]
		sp.add(out.First)
		sp.add(out.Last)
		s.spans[run] = sp
	}
	out.Rows = n
	return out, nil
}

// execChecked runs the insert with its arguments while check, when there is
// one, reads the input alongside it: the check's error interrupts the
// scan and is returned in place of the scan's own; a failing scan stops
// the check.
func (s *sink) execChecked(ex driver.ExecerContext, q string, args []driver.NamedValue, check func(context.Context) error) (driver.Result, error) {
	if check == nil {
		return ex.ExecContext(s.ctx, q, args)
	}
	ctx, cancel := context.WithCancelCause(s.ctx)
	defer cancel(nil)
	checked := make(chan error, 1)
	go func() {
		err := check(ctx)
		if err != nil {
			cancel(err)
		}
		checked <- err
	}()
	res, err := ex.ExecContext(ctx, q, args)
	if err != nil {
		cancel(errScanFailed)
	}
	cerr := <-checked
	if cerr != nil && !errors.Is(cerr, errScanFailed) && !errors.Is(context.Cause(ctx), errScanFailed) {
		return nil, cerr
	}
	return res, err
}

// errScanFailed stops a check when the scan beside it failed.
var errScanFailed = errors.New("the scan failed")

// setForBulk sets DuckDB settings and returns what restores their
// earlier values.
func (s *sink) setForBulk(settings map[string]string) (func(), error) {
	qc := s.conn.(driver.QueryerContext)
	ex := s.conn.(driver.ExecerContext)
	var olds []string
	restore := func() {
		for _, q := range olds {
			ex.ExecContext(context.Background(), q, nil)
		}
	}
	for _, name := range []string{"preserve_insertion_order", "memory_limit", "threads"} {
		v, ok := settings[name]
		if !ok {
			continue
		}
		var old string
		err := eachRow(s.ctx, qc, `SELECT current_setting('`+name+`')::VARCHAR AS v`, nil, func(r driverRow) { old, _ = r.get("v").(string) })
		if err != nil {
			restore()
			return nil, err
		}
		if _, err := ex.ExecContext(s.ctx, `SET `+name+` = `+sqlString(v), nil); err != nil {
			restore()
			return nil, err
		}
		olds = append(olds, `SET `+name+` = `+sqlString(old))
	}
	return restore, nil
}

// scanPath is a file's path as DuckDB's scanners are given it, so that
// they read that file and no other: they take a path as a glob pattern
// (a[1].ndjson read a1.ndjson when one was beside it, and b*.ndjson
// every file of its folder whose name began with b) and a leading ~ as
// the home directory. Each *, ? and [ becomes a bracket expression that
// matches it alone, and a path that begins with ~ is given as ./~…
// DuckDB then names the file it reads scannedPath(p).
func scanPath(p string) string {
	p = scannedPath(p)
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*', '?', '[':
			b.WriteByte('[')
			b.WriteByte(c)
			b.WriteByte(']')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// scannedPath is the name DuckDB gives the file it reads at scanPath(p),
// in its FileSystem log: p, after ./ where p begins with ~.
func scannedPath(p string) string {
	if strings.HasPrefix(p, "~") {
		return "./" + p
	}
	return p
}

// scanPaths is the list of the paths of files as a scanner's first
// argument, each a scanPath.
func scanPaths(files []*model.BulkInput) string {
	paths := make([]string, len(files))
	for k, f := range files {
		paths[k] = sqlString(scanPath(f.Path))
	}
	return "[" + strings.Join(paths, ", ") + "]"
}

// sqlString quotes a string as an SQL literal.
func sqlString(v string) string {
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// bulkInsertSQL is the INSERT INTO samples statement for one input; its
// one parameter is the run id.
func bulkInsertSQL(in *model.BulkInput) (string, error) {
	return insertSQL(in, "?", sqlString(scanPath(in.Path)))
}

// insertSQL is the INSERT INTO samples of k6 streams of in's format (and,
// for CSV, of its columns and time format): id and paths as for
// ndjsonInsertSQL.
func insertSQL(in *model.BulkInput, id, paths string) (string, error) {
	switch in.Format {
	case "k6-ndjson":
		comp := "'uncompressed'"
		if in.Gzip {
			comp = "'gzip'"
		}
		return ndjsonInsertSQL(id, paths, comp), nil
	case "k6-csv":
		comp := "'none'"
		if in.Gzip {
			comp = "'gzip'"
		}
		return csvInsertSQL(in, id, paths, comp)
	}
	return "", fmt.Errorf("no bulk loader for format %q", in.Format)
}

// ndjsonInsertSQL is the INSERT INTO samples of k6 NDJSON streams: id is
// the expression of the run id, which may use the scanner's file_index,
// and paths read_json's first argument (a path, or a list of them, each
// a scanPath). A Metric line has no data.time and is skipped; any other
// type of line is an error rather than a row silently dropped.
func ndjsonInsertSQL(id, paths, comp string) string {
	return `INSERT INTO samples SELECT ` + id + `, data.time, ` +
		`CASE WHEN type = 'Point' AND metric IS NOT NULL THEN metric ELSE error('not a k6 Point line: type ' || coalesce(type, 'null')) END, ` +
		`data.value, TRY_CAST(json_extract_string(data.tags, 'status') AS INTEGER), data.tags ` +
		`FROM read_json(` + paths + `, format = 'newline_delimited', compression = ` + comp + `, ` +
		`columns = {type: 'VARCHAR', metric: 'VARCHAR', data: 'STRUCT("time" TIMESTAMP, value DOUBLE, tags JSON)'}) ` +
		`WHERE type IS DISTINCT FROM 'Metric'`
}

// csvInsertSQL reads a k6 CSV stream: metric_name, timestamp and
// metric_value, one column per system tag, then extra_tags (and, since
// k6 v0.43, metadata) written as k=v&k=v. The tags JSON holds the tag
// columns that are not empty, in header order, then the extra tags with a
// value; it is built as text (concat_ws skips the NULLs), which costs a
// third less than building a MAP and converting it. id and paths are as
// for ndjsonInsertSQL; the files of paths have the columns and the time
// format of in.
func csvInsertSQL(in *model.BulkInput, id, paths, comp string) (string, error) {
	var cols, tags []string
	for _, c := range in.Columns {
		typ := "VARCHAR"
		switch c {
		case "metric_name", "metadata":
		case "metric_value":
			typ = "DOUBLE"
		case "timestamp":
			if in.TimeFormat != "rfc3339" {
				typ = "BIGINT"
			}
		case "extra_tags":
			tags = append(tags, `nullif(array_to_string(list_transform(list_filter(string_split(extra_tags, '&'), `+
				`x -> strpos(x, '=') > 0 AND x[strpos(x, '=') + 1:] <> ''), `+
				`x -> to_json(x[:strpos(x, '=') - 1]) || ':' || to_json(x[strpos(x, '=') + 1:])), ','), '')`)
		default:
			key, err := json.Marshal(c)
			if err != nil {
				return "", err
			}
			tags = append(tags, fmt.Sprintf("CASE WHEN %s <> '' THEN %s || to_json(%s) END", quoteIdent(c), sqlString(string(key)+":"), quoteIdent(c)))
		}
		cols = append(cols, fmt.Sprintf("%s: '%s'", sqlString(c), typ))
	}
	var ts string
	switch in.TimeFormat {
	case "s":
		ts = "make_timestamp(timestamp * 1000000)"
	case "ms":
		ts = "make_timestamp(timestamp * 1000)"
	case "us":
		ts = "make_timestamp(timestamp)"
	case "ns":
		ts = "make_timestamp(timestamp // 1000)"
	case "rfc3339":
		ts = "CAST(timestamp AS TIMESTAMP)"
	default:
		return "", fmt.Errorf("k6 CSV time format %q: want s, ms, us, ns or rfc3339", in.TimeFormat)
	}
	tagsExpr := "'{}'"
	if len(tags) > 0 {
		tagsExpr = "'{' || concat_ws(',', " + strings.Join(tags, ", ") + ") || '}'"
	}
	status := "NULL::INTEGER"
	for _, c := range in.Columns {
		if c == "status" {
			status = "TRY_CAST(status AS INTEGER)"
		}
	}
	return `INSERT INTO samples SELECT ` + id + `, ` + ts + `, metric_name, metric_value, ` + status + `, ` + tagsExpr + ` ` +
		`FROM read_csv(` + paths + `, header = true, auto_detect = false, quote = '"', escape = '"', ` +
		csvReadOptions + `compression = ` + comp + `, columns = {` + strings.Join(cols, ", ") + `})`, nil
}

// csvReadOptions are read_csv options beyond DuckDB's defaults. With its
// read buffer given explicitly (any size from 4 to 32 MiB measured the
// same), DuckDB's CSV scanner read the 1 GB k6 CSV of the benchmark in
// 4.4-5.1 s instead of 6.5-7.3 s, with a third of the system time.
const csvReadOptions = "buffer_size = 8388608, "

func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// bulkStats summarises the inserted points of one run by metric, in one
// scan of them (bulkStatsOf).
func (s *sink) bulkStats(id string, in *model.BulkInput, inserted int64) (*model.BulkResult, error) {
	out, err := s.bulkStatsOf([]string{id}, in, inserted)
	if err != nil {
		return nil, err
	}
	if r := out[id]; r != nil {
		return r, nil
	}
	return &model.BulkResult{}, nil
}

// bulkStatsOf summarises the points of each of the runs ids by metric,
// and counts them (BulkResult.Rows); a run without points has no entry.
// The runs' points are those the transaction has just inserted, inserted
// of them in all: a summary that finds fewer is an error, not a smaller
// figure.
//
// DuckDB adds floating-point values in the order its threads happen to
// finish, so that two loads of one file of more than a row group of
// points gave latency means that differed in the last digits. For the
// QuantileMetrics (the latency), the sum and the standard deviation
// therefore come from exact sums: of the values and of their squares,
// each rounded to 9 decimals, as DECIMAL(38,9), the variance then worked
// out in rationals; values too large for them (|value| of 1e18 for the
// sum, 1e9 for the squares) fall back to DuckDB's floating sums. The
// other metrics whose sums a run uses are k6 counters of whole numbers,
// which floating point adds exactly in any order. Each group is a (run,
// metric): a run's figures are the same whether it is summarised alone
// or with others.
//
// The points are still the transaction's own. DuckDB gives them row
// ids above every committed one, and the queries read only the row ids
// above the committed top (knowTop): the row ids' ranges let DuckDB skip
// every committed row group, which run_id's could not (a run's id falls
// inside most groups' range of ids), so that the summary no longer grew
// with the store: at 16 copies of data/, from 0.41 s for the first group
// of streams to 2.0 s for the thirtieth before.
//
// Two queries read them: the counts, bounds and sums of every (run,
// metric), then the quantiles and exact sums of the QuantileMetrics'
// points alone, which DuckDB selects by metric before it aggregates
// (a CASE over every point cost a fifth more). Neither names the runs:
// the transaction's points are those of its files, and the groups of
// runs other than ids (a JTL's of the same group) are left out here. A
// list of 16 run ids to compare every point with took a fifth of the
// time of the query.
//
// They run with the threads of ownRowsThreads.
func (s *sink) bulkStatsOf(ids []string, in *model.BulkInput, inserted int64) (map[string]*model.BulkResult, error) {
	restore, err := s.ownRowsThreads()
	if err != nil {
		return nil, err
	}
	defer restore()
	wanted := make(map[string]bool, len(ids))
	for _, id := range ids {
		wanted[id] = true
	}
	ours := ` FROM samples WHERE rowid > ` + strconv.FormatInt(s.top, 10)
	type key struct{ run, metric string }
	at := map[key]int{} // the index of a (run, metric) in its run's Metrics
	out := map[string]*model.BulkResult{}
	err = eachRow(s.ctx, s.conn.(driver.QueryerContext), `SELECT run_id, metric, count(*)::BIGINT AS count, min(value) AS min, max(value) AS max, sum(value) AS sum, `+
		`count_if(status BETWEEN 200 AND 299)::BIGINT AS status_2xx, count_if(status >= 1)::BIGINT AS answered, min(ts) AS first, max(ts) AS last`+
		ours+` GROUP BY run_id, metric ORDER BY run_id, metric`, nil, func(r driverRow) {
		id, _ := r.get("run_id").(string)
		if !wanted[id] {
			return
		}
		res := out[id]
		if res == nil {
			res = &model.BulkResult{}
			out[id] = res
		}
		m := model.MetricStats{Metric: r.get("metric").(string)}
		m.Count = toInt(r.get("count"))
		m.Min, m.Max, m.Sum = toFloat(r.get("min")), toFloat(r.get("max")), toFloat(r.get("sum"))
		// A point has a status of 200 to 299, another of 1 or more, or
		// none (absent, or below 1).
		answered := toInt(r.get("answered"))
		m.Status2xx = toInt(r.get("status_2xx"))
		m.StatusOther, m.StatusNone = answered-m.Status2xx, m.Count-answered
		first, _ := r.get("first").(time.Time)
		last, _ := r.get("last").(time.Time)
		if res.First.IsZero() || first.Before(res.First) {
			res.First = first
		}
		if last.After(res.Last) {
			res.Last = last
		}
		res.Rows += m.Count
		at[key{id, m.Metric}] = len(res.Metrics)
		res.Metrics = append(res.Metrics, m)
	})
	if err != nil {
		return nil, err
	}
	var found int64
	for _, r := range out {
		found += r.Rows
	}
	if found < inserted {
		return nil, fmt.Errorf("%d points found of the %d inserted", found, inserted)
	}
	if len(in.QuantileMetrics) == 0 {
		return out, nil
	}
	quant := "NULL"
	if len(in.Percentiles) > 0 {
		ps := make([]string, len(in.Percentiles))
		for i, p := range in.Percentiles {
			ps[i] = strconv.FormatFloat(p/100, 'g', -1, 64)
		}
		quant = "quantile_cont(value, [" + strings.Join(ps, ", ") + "])"
	}
	lits := make([]string, len(in.QuantileMetrics))
	for i, m := range in.QuantileMetrics {
		lits[i] = sqlString(m)
	}
	err = eachRow(s.ctx, s.conn.(driver.QueryerContext), `SELECT run_id, metric, `+quant+` AS quantiles, max(abs(value)) AS abs_max, stddev_pop(value) AS stdev, `+
		`sum(CASE WHEN abs(value) < 1e18 THEN TRY_CAST(value AS DECIMAL(38, 9)) END) AS sum_exact, `+
		`sum(CASE WHEN abs(value) < 1e9 THEN TRY_CAST(value * value AS DECIMAL(38, 9)) END) AS sum_squares_exact`+
		ours+` AND metric IN (`+strings.Join(lits, ", ")+`) GROUP BY run_id, metric`, nil, func(r driverRow) {
		id, _ := r.get("run_id").(string)
		i, ok := at[key{id, r.get("metric").(string)}]
		if ok {
			quantileStats(&out[id].Metrics[i], r)
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// duckdbRowGroupRows is the rows of one of DuckDB's row groups (its
// default size, which the store keeps).
const duckdbRowGroupRows = 122_880

// ownRowsThreads sets DuckDB's threads for the queries that read the
// samples the transaction has inserted (their summary, their steps), and
// returns what restores them. DuckDB reads those rows with one thread
// more for each row group of the committed samples: with fewer than one
// (the first group of streams into an empty store), one thread reads
// them and a second one only waits for it, busily, which doubled the CPU
// time of the queries (a group of 16 streams of data/ladder: summary
// 0.41 s of CPU against 0.22 s, steps 0.31 s against 0.16 s, the same
// wall time), so that they run with one; with more, DuckDB's threads
// share the reading, which halved their wall time (summary 0.11 s
// against 0.21 s, steps 0.09 s against 0.16 s). s.top, the highest
// committed row id, tells their number. A transaction that has not read
// it (knowTop) leaves the threads as they are.
func (s *sink) ownRowsThreads() (func(), error) {
	if !s.topKnown || s.top+1 >= duckdbRowGroupRows {
		return func() {}, nil
	}
	return s.setForBulk(map[string]string{"threads": "1"})
}

// knowTop reads, once per transaction and before its first sample is
// inserted, the highest row id of the committed samples (-1 for none)
// into s.top, for bulkStatsOf. The store's hint, the top the last
// transaction read, lets the query read only the rows committed since;
// when it finds none above the hint (a vacuum renumbered the rows lower),
// it reads them all. The hint is then the top read.
func (s *sink) knowTop() error {
	if s.topKnown {
		return nil
	}
	q := s.conn.(driver.QueryerContext)
	read := func(from int64) (int64, error) {
		top := int64(-1)
		err := eachRow(s.ctx, q, `SELECT max(rowid) AS top FROM samples WHERE rowid >= `+strconv.FormatInt(from, 10), nil, func(r driverRow) {
			if v := r.get("top"); v != nil {
				top = toInt(v)
			}
		})
		return top, err
	}
	hint := max(s.topHint.Load(), 0)
	top, err := read(hint)
	if err == nil && top < 0 && hint > 0 {
		top, err = read(0)
	}
	if err != nil {
		return fmt.Errorf("the highest row id of the stored samples: %w", err)
	}
	s.top, s.topKnown = top, true
	s.topHint.Store(top)
	return nil
}

// quantileStats sets the quantiles, the exact sum and the standard
// deviation of a quantile metric from its columns of the summary:
// quantiles, max(abs), stddev_pop and the two exact sums.
func quantileStats(m *model.MetricStats, r driverRow) {
	if l, ok := r.get("quantiles").([]any); ok {
		for _, v := range l {
			m.Quantiles = append(m.Quantiles, toFloat(v))
		}
	}
	amax := toFloat(r.get("abs_max"))
	sum, sumOK := decimalRat(r.get("sum_exact"))
	sq, sqOK := decimalRat(r.get("sum_squares_exact"))
	if amax < 1e18 && sumOK {
		m.Sum, _ = sum.Float64()
	}
	if m.Count > 1 {
		if amax < 1e9 && sumOK && sqOK {
			m.Stdev = model.Some(exactStdev(sum, sq, m.Count))
		} else if sd := r.get("stdev"); sd != nil {
			m.Stdev = model.Some(toFloat(sd))
		}
	}
}

// decimalRat is a DECIMAL as an exact rational.
func decimalRat(v driver.Value) (*big.Rat, bool) {
	d, ok := v.(duckdb.Decimal)
	if !ok || d.Value == nil {
		return nil, false
	}
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)), nil)
	return new(big.Rat).SetFrac(d.Value, den), true
}

// exactStdev is the population standard deviation of n values from the
// sum of the values and the sum of their squares: sqrt(sq/n - (sum/n)²),
// exact up to the square root.
func exactStdev(sum, sq *big.Rat, n int64) float64 {
	bn := new(big.Rat).SetInt64(n)
	mean := new(big.Rat).Quo(sum, bn)
	v := new(big.Rat).Quo(sq, bn)
	v.Sub(v, mean.Mul(mean, mean))
	if v.Sign() < 0 {
		// The squares were rounded to 9 decimals one by one.
		return 0
	}
	f, _ := v.Float64()
	return math.Sqrt(f)
}

func toInt(v driver.Value) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case uint64:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}

func toFloat(v driver.Value) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case float32:
		return float64(x)
	}
	return 0
}

// span is the first and the last time of a run's samples, where known.
type span struct {
	first, last time.Time
	known       bool
}

// add widens the span to t.
func (sp *span) add(t time.Time) {
	if !sp.known || t.Before(sp.first) {
		sp.first = t
	}
	if !sp.known || t.After(sp.last) {
		sp.last = t
	}
	sp.known = true
}

// stmts runs the statements of storeSampleSteps in a transaction: a
// file's, or a migration's.
type stmts struct {
	exec  func(q string) error
	query func(q string, row func(driverRow)) error
}

// storeSampleSteps stores the steps of each run of runs in sample_steps:
// the rows of sample_steps_in (views/13_ladder_steps.sql), the one
// definition of a step's figures over its request samples, in one query
// over the runs' samples, which reads them back once. DuckDB holds every
// value of an exact quantile's group, so that the memory of that query
// grows with the runs' requests: runs are those of one file, or of a
// group of files loaded together, never the whole store (a migration
// passes its runs one at a time). The query is given the runs' span of
// times, so that DuckDB reads only the row groups of the samples of that
// time (those of other runs have no run_id statistics that rule them
// out); the spans not known are looked up first, in one query.
func storeSampleSteps(st stmts, runs map[string]span) error {
	var unknown []string
	for id, sp := range runs {
		if !sp.known {
			unknown = append(unknown, sqlString(id))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		if err := sampleSpans(st, `WHERE run_id IN (`+strings.Join(unknown, ", ")+`)`, runs); err != nil {
			return err
		}
	}
	var ids, lits []string
	all := span{}
	for _, id := range slices.Sorted(maps.Keys(runs)) {
		sp := runs[id]
		if !sp.known {
			continue // no samples
		}
		ids, lits = append(ids, id), append(lits, sqlString(id))
		all.add(sp.first)
		all.add(sp.last)
	}
	if len(ids) == 0 {
		return nil
	}
	// Whole seconds around the span: wider bounds select the same
	// samples.
	q := `INSERT INTO sample_steps BY NAME SELECT * FROM sample_steps_in([` + strings.Join(lits, ", ") +
		`], from_ts := TIMESTAMP '` + all.first.UTC().Truncate(time.Second).Format(time.DateTime) +
		`', to_ts := TIMESTAMP '` + all.last.UTC().Truncate(time.Second).Add(time.Second).Format(time.DateTime) + `')`
	if err := st.exec(q); err != nil {
		if len(ids) == 1 {
			return fmt.Errorf("run %s: the steps of its samples: %w", ids[0], err)
		}
		return fmt.Errorf("runs %s and %d others: the steps of their samples: %w", ids[0], len(ids)-1, err)
	}
	return nil
}

// sampleSpans sets in runs the span of times of the samples of each run
// that the condition where (a WHERE clause, or nothing for every run)
// selects.
func sampleSpans(st stmts, where string, runs map[string]span) error {
	err := st.query(`SELECT run_id, min(ts) AS first, max(ts) AS last FROM samples `+where+` GROUP BY run_id`, func(r driverRow) {
		id, _ := r.get("run_id").(string)
		first, _ := r.get("first").(time.Time)
		last, _ := r.get("last").(time.Time)
		runs[id] = span{first, last, true}
	})
	if err != nil {
		return fmt.Errorf("the times of the samples: %w", err)
	}
	return nil
}

// sampledRuns are the file's runs that have samples, by id, with the
// span of their times where it is known.
func (s *sink) sampledRuns() map[string]span {
	out := make(map[string]span, len(s.sampleRuns))
	for i := range s.sampleRuns {
		out[RunID(s.file.Source, i)] = s.spans[i]
	}
	return out
}

// stepStmts runs storeSampleSteps' statements in the transaction of exec
// on c.
func stepStmts(ctx context.Context, c driver.Conn, exec execFunc) stmts {
	return stmts{
		exec: func(q string) error { return exec(q) },
		query: func(q string, row func(driverRow)) error {
			return eachRow(ctx, c.(driver.QueryerContext), q, nil, row)
		},
	}
}
