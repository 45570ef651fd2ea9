// Package model holds the values that flow from the readers in ingest to the
// store: runs, latency percentiles, time-series samples, memory series and
// calibration timings. It knows nothing of files or SQL; the DuckDB store in
// model/store loads these values and the parsers produce them.
//
// Units are part of the field names, as they are part of the column names of
// the store: _ms milliseconds, _s seconds, _mb mebibytes (2^20 bytes).
package model

import (
	"database/sql"
	"time"
)

// Opt is an optional value: a column that the input did not carry is NULL,
// never zero.
type Opt[T any] = sql.Null[T]

// Some returns a present optional value.
func Some[T any](v T) Opt[T] { return Opt[T]{V: v, Valid: true} }

// Run is one load-generator report or one harness record: a row of runs.
type Run struct {
	// Index numbers the runs of one file from 0 in the order the reader
	// found them; with the file's source and hash it makes the run's id.
	Index int
	// Line is the 1-based line of the file where the run starts.
	Line int

	Tool        string // wrk2, wrk, ab, bombardier, k6, hey, oha, vegeta, records
	ToolVersion string

	Server   string
	Database string
	Test     string

	Round       Opt[int64]
	Connections Opt[int64]
	Threads     Opt[int64]
	TargetRPS   Opt[float64]
	DurationS   Opt[float64]

	Requests     Opt[int64]
	Responses2xx Opt[int64]
	Non2xx       Opt[int64]
	Errors       Opt[int64]
	RPS          Opt[float64]

	LatencyMeanMS  Opt[float64]
	LatencyStdevMS Opt[float64]
	LatencyMaxMS   Opt[float64]
	LatencyP50MS   Opt[float64]
	LatencyP90MS   Opt[float64]
	LatencyP95MS   Opt[float64]
	LatencyP99MS   Opt[float64]
	LatencyP999MS  Opt[float64]
	// LatencyCorrected is true only when the tool corrects its latencies for
	// coordinated omission (wrk2's recorded latency, k6 arrival-rate runs).
	LatencyCorrected bool

	BytesRead Opt[int64]

	CPUServerS       Opt[float64]
	CPUServerUserS   Opt[float64]
	CPUServerKernelS Opt[float64]
	CPUDBS           Opt[float64]
	WorkingSetMB     Opt[float64]
	PrivateMB        Opt[float64]
	StartupS         Opt[float64]
	StartedAt        Opt[time.Time]

	// Labels holds every label that has no column of its own, and the
	// values a tool printed beside those wra recomputes (reported_*).
	Labels map[string]string

	// Percentiles is the latency spectrum the tool printed for this run.
	Percentiles []Percentile
}

// Percentile is one point of a latency spectrum.
type Percentile struct {
	Percentile float64 // 0 to 100
	LatencyMS  float64
	// Count is the number of requests at or below this latency, where the
	// tool prints it (HdrHistogram's TotalCount column).
	Count     Opt[int64]
	Corrected bool
}

// Sample is one point of a time series: a k6 metric point, or one request
// of a per-request log (ab -g, hey -o csv, vegeta results).
type Sample struct {
	TS     time.Time
	Metric string
	Value  float64
	Status Opt[int64]
	// Tags is a JSON object of string values, or empty for none.
	Tags string
}

// MemoryPoint is one row of a memory series: the memory a server held while
// a given number of requests waited on it.
type MemoryPoint struct {
	Line        int
	Server      string
	Database    string // "" where the series names none
	Pass        Opt[int64]
	Concurrency int64
	WaitMS      Opt[float64]
	MemoryMB    float64
	Requests    Opt[int64]
	CPUS        Opt[float64]
}

// CalibrationPoint is one timing of the fixed CPU job.
type CalibrationPoint struct {
	Line      int
	Phase     string // before or after
	UTC       Opt[time.Time]
	Processes int64
	MS        float64
}

// Sink receives what a reader decodes from one file. The store's
// implementation writes into one transaction per file; a reader that fails
// part-way returns its error and the store keeps nothing of the file.
type Sink interface {
	// Run stores a run with its percentiles. Run indexes are unique in a
	// file.
	Run(r *Run) error
	// Sample stores one time-series point of the run with the given index;
	// the run itself may be stored before or after its samples.
	Sample(run int, s *Sample) error
	Memory(m *MemoryPoint) error
	Calibration(c *CalibrationPoint) error
}

// File identifies one ingested file: its source path (below the folder
// that was ingested, starting with that folder's name), the SHA-256 of its
// bytes as stored on disk, and the format it was read as.
type File struct {
	Source string
	// SHA256 is the hex SHA-256 of the file. When it is empty, Sum gives
	// it: a file never loaded before is hashed while its rows are read,
	// rather than before.
	SHA256 string
	Sum    func() (string, error)
	Format string
}

// Hash returns SHA256, or waits for Sum when SHA256 is empty.
func (f File) Hash() (string, error) {
	if f.SHA256 != "" || f.Sum == nil {
		return f.SHA256, nil
	}
	return f.Sum()
}
