package record

import (
	"encoding/csv"
	"os"
	"strconv"
	"time"

	"github.com/wra-bench/wra/data/harness/internal/proc"
)

// recordsHeader is the records CSV layout: the columns of the harness
// records wra reads (database is the server's, cpu_db_s its CPU), then the
// fixed-rate extras (target rate, the database's user/kernel split, the wrk2 settings, the request counts behind
// responses_2xx, that the percentiles are wrk2's corrected ones, the
// report file the row summarises) and the trial of the run (its round is
// the trial's number too: a trial is one pass over every cell).
var recordsHeader = []string{
	"utc", "server", "database", "round", "test", "connections", "requests_per_s", "latency_p50_ms", "latency_p99_ms",
	"responses_2xx", "errors", "cpu_server_s", "cpu_db_s", "working_set_mb", "private_mb", "startup_s",
	"cpu_server_user_s", "cpu_server_kernel_s",
	"target_rps", "cpu_db_user_s", "cpu_db_kernel_s", "threads", "duration_s", "requests", "non_2xx", "latency_corrected", "report",
	"trial",
}

// recordRow is one fixed-rate run.
type recordRow struct {
	UTC                  time.Time
	Server, Test, Report string
	Database             string // PostgreSQL or MariaDB
	Round, Connections   int
	Trial                int
	RPS, P50MS, P99MS    float64
	Responses2xx         int64 // requests - non_2xx
	Errors               int64 // socket errors: connect + read + write + timeout
	Non2xx, Requests     int64
	CPUServer            proc.CPU
	CPUDB                proc.CPU    // the database server's process tree
	Memory               proc.Memory // after the run
	StartupS             float64
	TargetRPS, Threads   int
	DurationS            int
}

func (x recordRow) fields() []string {
	return []string{
		x.UTC.Format(time.RFC3339), x.Server, x.Database, itoa(x.Round), x.Test, itoa(x.Connections),
		ftoa(x.RPS), ftoa(x.P50MS), ftoa(x.P99MS), i64(x.Responses2xx), i64(x.Errors),
		ftoa(proc.Seconds(x.CPUServer.User + x.CPUServer.Kernel)), ftoa(proc.Seconds(x.CPUDB.User + x.CPUDB.Kernel)),
		ftoa(proc.MiB(x.Memory.RSSKiB)), ftoa(proc.MiB(x.Memory.PrivateKiB)), ftoa(x.StartupS),
		ftoa(proc.Seconds(x.CPUServer.User)), ftoa(proc.Seconds(x.CPUServer.Kernel)),
		itoa(x.TargetRPS), ftoa(proc.Seconds(x.CPUDB.User)), ftoa(proc.Seconds(x.CPUDB.Kernel)),
		itoa(x.Threads), itoa(x.DurationS), i64(x.Requests), i64(x.Non2xx), "true", x.Report,
		itoa(x.Trial),
	}
}

// memoryHeader is the memory series CSV layout wra reads.
var memoryHeader = []string{"server", "pass", "concurrency", "wait_ms", "rss_mb", "requests", "cpu_s"}

// memoryRow is one point of the waiting series: rss_mb is the peak resident
// set (VmHWM summed over the server's processes) of a fresh server.
type memoryRow struct {
	Server                    string
	Pass, Concurrency, WaitMS int
	PeakRSSKiB                uint64
	Requests                  int64
	CPUTicks                  uint64
}

func (x memoryRow) fields() []string {
	return []string{x.Server, itoa(x.Pass), itoa(x.Concurrency), itoa(x.WaitMS),
		ftoa(proc.MiB(x.PeakRSSKiB)), i64(x.Requests), ftoa(proc.Seconds(x.CPUTicks))}
}

// calibrationHeader is the calibration CSV layout wra reads; the phase is in
// the file name.
var calibrationHeader = []string{"utc", "processes", "ms"}

type calibrationRow struct {
	UTC       time.Time
	Processes int
	MS        int64
}

func (x calibrationRow) fields() []string {
	return []string{x.UTC.Format(time.RFC3339), itoa(x.Processes), i64(x.MS)}
}

// scheduleHeader is trials.csv's layout: each run of the recording in the
// order it ran, with the cell it belongs to, when it started and its
// first file.
var scheduleHeader = []string{"trial", "position", "started_at", "cell", "kind", "server", "database", "test", "tool", "target_rps", "concurrency", "file"}

// scheduleRow is one run of a trial.
type scheduleRow struct {
	Trial, Position int
	StartedAt       time.Time
	Cell            Cell
	Database        string
	File            string
}

func (x scheduleRow) fields() []string {
	opt := func(v int) string {
		if v == 0 {
			return ""
		}
		return itoa(v)
	}
	return []string{itoa(x.Trial), itoa(x.Position), x.StartedAt.Format(time.RFC3339Nano), x.Cell.String(), x.Cell.Kind,
		x.Cell.Server, x.Database, x.Cell.test(), x.Cell.Tool, opt(x.Cell.Rate), opt(x.Cell.Concurrency), x.File}
}

func itoa(v int) string     { return strconv.Itoa(v) }
func i64(v int64) string    { return strconv.FormatInt(v, 10) }
func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

type row interface{ fields() []string }

func writeCSV[T row](path string, header []string, rows []T) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.Write(header); err != nil {
		f.Close()
		return err
	}
	for _, r := range rows {
		if err := w.Write(r.fields()); err != nil {
			f.Close()
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeCalibration(path string, rows []calibrationRow) error {
	return writeCSV(path, calibrationHeader, rows)
}

func (r *Runner) writeRecords() error {
	p, err := r.path(recordsName)
	if err != nil {
		return err
	}
	return writeCSV(p, recordsHeader, r.records)
}

func (r *Runner) writeSchedule() error {
	p, err := r.path(scheduleName)
	if err != nil {
		return err
	}
	return writeCSV(p, scheduleHeader, r.schedule)
}

func (r *Runner) writeMemory() error {
	p, err := r.path(memoryName)
	if err != nil {
		return err
	}
	return writeCSV(p, memoryHeader, r.memory)
}
