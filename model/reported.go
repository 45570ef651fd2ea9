package model

// The tool's own statistics: figures a load tool prints beside those
// wra stores in the runs columns (its rate of per-second samples, its
// transfer rate, its rounded totals), kept as labels under one set of
// names, reported_ + what + unit, and read back as typed columns by the
// view run_reported (model/store/views/03_reported.sql), whose columns
// are these names in this order. ingest/FORMATS.md says which statistic
// of each tool maps to which name.

// ReportedStats are the statistics of a tool's per-second samples, the
// suffixes of reported_rps_ and reported_transfer_bytes_per_s_: mean,
// standard deviation, least and largest sample, and the percentiles a
// tool prints (p2_5 is the 2.5th, p99_999 the 99.999th).
var ReportedStats = []string{"mean", "stdev", "min", "max",
	"p0_001", "p0_01", "p0_1", "p1", "p2_5", "p10", "p25", "p50", "p75", "p90", "p95", "p97_5", "p99", "p99_9", "p99_99", "p99_999"}

// Reported names, as label keys and run_reported columns.
const (
	// ReportedRequests is the tool's request count where the requests
	// column holds another count or none (autocannon's rounded "26k").
	ReportedRequests = "reported_requests"
	// ReportedErrors is the tool's error count where it is rounded.
	ReportedErrors = "reported_errors"
	// ReportedBytesRead and ReportedBytesSent are the bytes the tool
	// read and sent as it printed them (converted to bytes, in the
	// tool's unit base), bytes.
	ReportedBytesRead = "reported_bytes_read"
	ReportedBytesSent = "reported_bytes_sent"
	// ReportedRPS is the tool's own overall request rate where rps is
	// computed otherwise, requests/s.
	ReportedRPS = "reported_rps"
	// ReportedRPSOverThreadTime is go-wrk's Requests/sec: answered
	// requests over the mean time a goroutine spent in them.
	ReportedRPSOverThreadTime = "reported_rps_over_thread_time"
	// ReportedSuccessRPS is the rate of successful requests the tool
	// prints (vegeta's throughput), requests/s.
	ReportedSuccessRPS = "reported_success_rps"
	// ReportedSuccessPct is the share of requests the tool counts
	// successful, percent.
	ReportedSuccessPct = "reported_success_pct"
	// ReportedTransferBytesPerS, ReportedSentBytesPerS and
	// ReportedTotalBytesPerS are the tool's rates of bytes read, sent,
	// and both, bytes/s.
	ReportedTransferBytesPerS = "reported_transfer_bytes_per_s"
	ReportedSentBytesPerS     = "reported_sent_bytes_per_s"
	ReportedTotalBytesPerS    = "reported_total_bytes_per_s"
	// ReportedRPSPrefix and ReportedTransferPrefix start the names of the
	// statistics of per-second samples (ReportedStats).
	ReportedRPSPrefix      = "reported_rps_"
	ReportedTransferPrefix = "reported_transfer_bytes_per_s_"
)

// PerThreadStats are the statistics of a rate over the tool's threads
// (wrk's Req/Sec row: thread_rps_) or clients (h2load's req/s row:
// client_rps_), not over seconds.
var PerThreadStats = []string{"mean", "stdev", "min", "max", "within_stdev_pct"}

// ReportedFigures lists every name of the set, in the order of the
// columns of run_reported.
func ReportedFigures() []string {
	out := []string{ReportedRequests, ReportedErrors, ReportedBytesRead, ReportedBytesSent,
		ReportedRPS, ReportedRPSOverThreadTime, ReportedSuccessRPS, ReportedSuccessPct,
		ReportedTransferBytesPerS, ReportedSentBytesPerS, ReportedTotalBytesPerS}
	for _, s := range ReportedStats {
		out = append(out, ReportedRPSPrefix+s)
	}
	for _, s := range ReportedStats {
		out = append(out, ReportedTransferPrefix+s)
	}
	for _, p := range []string{"thread_rps_", "client_rps_"} {
		for _, s := range PerThreadStats {
			out = append(out, p+s)
		}
	}
	return out
}
