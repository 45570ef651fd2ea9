package model

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"
)

// BulkInput is a large per-point file (a k6 --out json or --out csv
// stream, a JMeter JTL as CSV) that a sink may load with its own scanner
// instead of receiving one Sample at a time.
type BulkInput struct {
	// Name is the file's name in messages.
	Name string
	// Path is the file on disk.
	Path string
	// Format is the reader's format name: "k6-ndjson", "k6-csv" or
	// "jmeter-jtl-csv".
	Format string
	// Gzip tells that Path is gzip-compressed.
	Gzip bool
	// Columns is the header row of a CSV input, in order; for a CSV
	// without one (NoHeader), the names of its columns by position.
	Columns []string
	// NoHeader tells that a CSV input's first row is a row of data (a
	// JTL written with print_field_names=false).
	NoHeader bool
	// Runs, for a JMeter JTL, is the run of the samples of each label and
	// kind, as the reader made them: the sink stores every sample in
	// its run and returns only the row count.
	Runs []BulkRun
	// TimeFormat is how a CSV input writes its timestamp column: "s",
	// "ms", "us" or "ns" for integer Unix times, "rfc3339" for text.
	TimeFormat string
	// Metrics are the metrics whose Quantiles are wanted.
	QuantileMetrics []string
	// Percentiles (0 to 100) at which the quantiles are computed, by
	// linear interpolation between the closest ranks (Hyndman and Fan
	// type 7, which is also k6's own definition).
	Percentiles []float64
	// Check, when set, runs alongside the scan and reads the input its
	// own way, for what the scanner does not enforce (the gzip expansion
	// limit): its error cancels the scan and is the load's error. ctx is
	// cancelled when the scan fails.
	Check func(ctx context.Context) error
	// Progress, when set, is called while the scanner reads Path with the
	// bytes of it read so far, as they are on disk (compressed for a
	// gzip file), each time they grow; from any goroutine, one call at a
	// time, and never after BulkSamples has returned; the scan waits for it.
	Progress func(bytes int64)
}

// BulkRun is the run of a JTL's samples of one label and kind
// ("sampler", or "transaction" for a Transaction Controller's own rows).
type BulkRun struct {
	Label, Kind string
	Index       int
}

// MetricStats summarises the points of one metric of a bulk load.
type MetricStats struct {
	Metric string
	Count  int64
	Sum    float64
	Min    float64
	Max    float64
	// Stdev is the population standard deviation of the metrics in
	// BulkInput.QuantileMetrics (NULL for one point); unset for the
	// others.
	Stdev Opt[float64]
	// Quantiles are the values at BulkInput.Percentiles, for the metrics
	// in BulkInput.QuantileMetrics; nil for the others.
	Quantiles []float64
	// Points by their status tag: 200 to 299, any other number, and none
	// (absent, empty or not a number).
	Status2xx, StatusOther, StatusNone int64
}

// BulkResult is what a bulk load stored: the row count and the summary of
// every metric, from which the reader builds the run row.
type BulkResult struct {
	Rows int64
	// First and Last are the earliest and latest point times.
	First, Last time.Time
	// Metrics are sorted by name.
	Metrics []MetricStats
}

// Metric returns the statistics of a metric, or nil.
func (r *BulkResult) Metric(name string) *MetricStats {
	for i := range r.Metrics {
		if r.Metrics[i].Metric == name {
			return &r.Metrics[i]
		}
	}
	return nil
}

// BulkSink is an optional interface of a Sink that loads a whole per-point
// file with its own scanner, in the same transaction as the rest of the
// file. A sink that wraps another returns ErrBulkUnsupported when the one
// inside does not implement it; the reader then streams Samples itself.
type BulkSink interface {
	BulkSamples(run int, in *BulkInput) (*BulkResult, error)
}

// ErrBulkUnsupported tells a reader to stream the file itself.
var ErrBulkUnsupported = errors.New("sink has no bulk loader")

// ScannablePath reports whether DuckDB's scanners can be given path to
// read that file and no other. They take a path as a glob pattern, whose
// *, ? and [ the store gives each in a bracket of its own, but they also
// split a pattern at every backslash, as at a folder's separator: a path
// with a backslash in a name and one of those in it cannot be named to
// them ("No files found that match the pattern"). Such a file is read by
// wra's own readers; elsewhere a backslash alone is read as written.
func ScannablePath(path string) bool {
	return filepath.Separator == '\\' || !strings.ContainsRune(path, '\\') || !strings.ContainsAny(path, "*?[")
}

// ErrBulkAbandoned tells a reader that the store gave its input up
// without a verdict on it (a group of streams loaded at once failed as a
// whole, see BulkStream): the reader returns it as it is, and the file is
// read again alone.
var ErrBulkAbandoned = errors.New("the bulk load was abandoned")

// BulkStream is one file of a group of point streams that a store loads
// at once, in one transaction and one scan of all their files: the
// file, the run its points belong to and the input its reader handed
// over. Finish is called once the points are stored and summarised, with
// a sink of the file's own and the summary of its points: it writes the
// rest of the file (its run), as the reader would have after
// BulkSamples.
type BulkStream struct {
	File   File
	Run    int
	Input  *BulkInput
	Finish func(Sink, *BulkResult) error
}
