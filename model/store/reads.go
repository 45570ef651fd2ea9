package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
)

// readLogStorage is the name under which the store registers its DuckDB
// log storage: while a bulk load runs with a progress function, DuckDB's
// FileSystem log (one entry per read of a file: its path, offset and
// length) goes there, and the entries of the file being loaded tell how
// far DuckDB's scanner has read it. DuckDB reads a point stream in
// buffers of 8 to 16 MiB (32 KiB of compressed input for gzip), so that
// the log costs a few entries per second of scan and nothing per row.
const readLogStorage = "wra_reads"

// readWatch receives DuckDB's log entries and follows the reads of the
// files being watched.
type readWatch struct {
	mu    sync.Mutex
	files map[string]*watchedFile
}

// watchedFile is a file being scanned: end is the furthest byte read.
type watchedFile struct {
	end    int64
	report func(int64)
}

// fileSystemEntry is a FileSystem log message of DuckDB, such as
// {"fs":"LocalFileSystem","path":"x.ndjson","op":"READ","bytes":"16777212","pos":"0"}.
type fileSystemEntry struct {
	Path  string `json:"path"`
	Op    string `json:"op"`
	Bytes string `json:"bytes"`
	Pos   string `json:"pos"`
}

// entry is the log storage's callback; DuckDB calls it from the thread
// that logged, any of its scanner threads.
func (w *readWatch) entry(_, logType, msg string) {
	if logType != "FileSystem" || !strings.Contains(msg, `"READ"`) {
		return
	}
	var e fileSystemEntry
	if json.Unmarshal([]byte(msg), &e) != nil || e.Op != "READ" {
		return
	}
	n, err1 := strconv.ParseInt(e.Bytes, 10, 64)
	pos, err2 := strconv.ParseInt(e.Pos, 10, 64)
	if err1 != nil || err2 != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	f := w.files[e.Path]
	// The threads read buffers out of order, and a CSV's first buffer
	// twice: the furthest byte read is the scan's position.
	if f == nil || pos+n <= f.end {
		return
	}
	f.end = pos + n
	f.report(f.end)
}

// watch calls report with the furthest byte of path that DuckDB has read,
// each time it grows, until the returned function is called; report is
// never called after that.
func (w *readWatch) watch(path string, report func(int64)) (stop func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.files == nil {
		w.files = map[string]*watchedFile{}
	}
	w.files[path] = &watchedFile{report: report}
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.files, path)
	}
}

// watchReads turns DuckDB's FileSystem log on for the scan of a bulk
// input with a progress function, and returns what turns it off.
func (s *sink) watchReads(path string, report func(int64)) (func(), error) {
	if report == nil || s.reads == nil {
		return func() {}, nil
	}
	ex := s.conn.(driver.ExecerContext)
	stop := s.reads.watch(scannedPath(path), report)
	if _, err := ex.ExecContext(s.ctx, `CALL enable_logging('FileSystem', level = 'trace', storage = '`+readLogStorage+`')`, nil); err != nil {
		stop()
		return nil, err
	}
	return func() {
		ex.ExecContext(context.Background(), `CALL disable_logging()`, nil)
		stop()
	}, nil
}
