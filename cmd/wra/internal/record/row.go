package record

import (
	"fmt"
	"strconv"
	"time"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model"
)

// RecordsHeader is the layout of the records CSV wra record writes: the
// columns of the harness records wra reads (README "Harness records
// CSV"; ingest/records.go), then what wra keeps in a run's labels:
// end_utc, the database's CPU split, the memory figures beyond the
// working set, the measured interval, the load generator's own CPU,
// where each figure came from, the load command's exit code and line,
// the report the row goes with, and the trial of a plan.
var RecordsHeader = []string{
	"utc", "end_utc", "server", "database", "round", "test", "connections", "threads", "target_rps", "duration_s",
	"requests", "responses_2xx", "non_2xx", "errors", "requests_per_s", "latency_p50_ms", "latency_p99_ms", "latency_corrected",
	"cpu_server_s", "cpu_server_user_s", "cpu_server_kernel_s", "cpu_db_s", "cpu_db_user_s", "cpu_db_kernel_s",
	"working_set_mb", "peak_mb", "peak_rss_mb", "private_mb", "db_working_set_mb", "db_peak_mb", "db_peak_rss_mb", "db_private_mb",
	"startup_s", "wall_s", "loadgen_cpu_s", "loadgen_cpu_user_s", "loadgen_cpu_kernel_s",
	"cpu_source", "db_cpu_source", "memory_source", "db_memory_source", "exit_code", "command", "report", "trial",
}

// MemoryHeader is the layout of a memory series CSV wra record writes
// (a plan's load with memory_series): the peak resident set of the
// server over the run per concurrency, with the requests it served and
// its CPU.
var MemoryHeader = []string{"server", "database", "pass", "concurrency", "wait_ms", "rss_mb", "requests", "cpu_s", "memory_source", "cpu_source"}

// Report is what wra reads of a load tool's report: its run (the one
// with the most requests where the report holds several) and its format.
type Report struct {
	Run    *model.Run
	Format string
	Runs   int
}

// ReadReport reads a tool's report with wra's own readers, as wra ingest
// will.
func ReadReport(path string) (Report, error) {
	s := &captureSink{}
	f, err := ingest.ReadFile(path, s)
	if err != nil {
		return Report{}, err
	}
	if len(s.runs) == 0 {
		return Report{}, fmt.Errorf("%s: wra read it as %s but found no run in it", path, f.Name)
	}
	best := s.runs[0]
	for _, r := range s.runs[1:] {
		if r.Requests.V > best.Requests.V {
			best = r
		}
	}
	return Report{Run: best, Format: f.Name, Runs: len(s.runs)}, nil
}

type captureSink struct{ runs []*model.Run }

func (c *captureSink) Run(r *model.Run) error                    { c.runs = append(c.runs, r); return nil }
func (c *captureSink) Sample(int, *model.Sample) error           { return nil }
func (c *captureSink) Memory(*model.MemoryPoint) error           { return nil }
func (c *captureSink) Calibration(*model.CalibrationPoint) error { return nil }

// keyOf is the run key the report will have once wra ingest has read it
// with the labels wra.toml gives it: a value the report itself carries,
// else the label's (the manifest fills what a report leaves unset).
func keyOf(r *model.Run, labels map[string]string) runKey {
	pick := func(own, label string) string {
		if own != "" {
			return own
		}
		return labels[label]
	}
	k := runKey{
		Server:   pick(r.Server, "server"),
		Database: pick(r.Database, "database"),
		Test:     pick(r.Test, "test"),
	}
	k.TargetRPS = labels["target_rps"]
	if r.TargetRPS.Valid {
		k.TargetRPS = ftoa(r.TargetRPS.V)
	}
	k.Connections = labels["connections"]
	if r.Connections.Valid {
		k.Connections = strconv.FormatInt(r.Connections.V, 10)
	}
	return k
}

// recordsRow is the records CSV row of a run.
func recordsRow(m Measured, rep *model.Run, key runKey, round int64, startup time.Duration, command, report string, trial int) []string {
	opt := func(o Opt[int64]) string {
		if !o.Valid {
			return ""
		}
		return strconv.FormatInt(o.V, 10)
	}
	optf := func(o Opt[float64]) string {
		if !o.Valid {
			return ""
		}
		return ftoa(o.V)
	}
	mb := func(o Opt[int64]) string {
		if !o.Valid {
			return ""
		}
		return ftoa(float64(o.V) / (1 << 20))
	}
	s := m.Server
	var d Figures
	if m.Database != nil {
		d = *m.Database
	}
	db := func(f func() string) string {
		if m.Database == nil {
			return ""
		}
		return f()
	}
	startupS := ""
	if startup > 0 {
		startupS = ftoa(startup.Seconds())
	}
	trialS := ""
	if trial > 0 {
		trialS = strconv.Itoa(trial)
	}
	return []string{
		m.Start.Format(time.RFC3339Nano), m.End.Format(time.RFC3339Nano), key.Server, key.Database, strconv.FormatInt(round, 10), key.Test,
		key.Connections, opt(rep.Threads), key.TargetRPS, optf(rep.DurationS),
		opt(rep.Requests), opt(rep.Responses2xx), opt(rep.Non2xx), opt(rep.Errors), optf(rep.RPS),
		optf(rep.LatencyP50MS), optf(rep.LatencyP99MS), strconv.FormatBool(rep.LatencyCorrected),
		seconds(s.CPU.TotalNS), seconds(s.CPU.UserNS), seconds(s.CPU.SystemNS),
		db(func() string { return seconds(d.CPU.TotalNS) }), db(func() string { return seconds(d.CPU.UserNS) }), db(func() string { return seconds(d.CPU.SystemNS) }),
		mb(s.Memory.WorkingSet), mb(s.Memory.Peak), mb(s.Memory.PeakRSS), mb(s.Memory.Private),
		db(func() string { return mb(d.Memory.WorkingSet) }), db(func() string { return mb(d.Memory.Peak) }),
		db(func() string { return mb(d.Memory.PeakRSS) }), db(func() string { return mb(d.Memory.Private) }),
		startupS, ftoa(m.Wall().Seconds()),
		seconds(m.Generator.TotalNS), seconds(m.Generator.UserNS), seconds(m.Generator.SystemNS),
		s.CPUSource, db(func() string { return d.CPUSource }), s.MemorySource, db(func() string { return d.MemorySource }),
		strconv.Itoa(m.ExitCode), command, report, trialS,
	}
}

// memoryRow is the memory series row of a run of the waiting series.
func memoryRow(m Measured, rep *model.Run, server, database string, pass int, concurrency int64, waitMS string) []string {
	rss := ""
	if m.Server.Memory.PeakRSS.Valid {
		rss = ftoa(float64(m.Server.Memory.PeakRSS.V) / (1 << 20))
	}
	req := ""
	if rep != nil && rep.Requests.Valid {
		req = strconv.FormatInt(rep.Requests.V, 10)
	}
	return []string{server, database, strconv.Itoa(pass), strconv.FormatInt(concurrency, 10), waitMS, rss, req,
		seconds(m.Server.CPU.TotalNS), m.Server.MemorySource, m.Server.CPUSource}
}

// seconds is nanoseconds as seconds in shortest exact form.
func seconds(ns int64) string { return ftoa(float64(ns) / 1e9) }

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
