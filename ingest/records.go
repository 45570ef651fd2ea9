package ingest

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// recordAliases maps the header names that benchmark harnesses use to the
// columns of runs. Names are compared lower-cased.
var recordAliases = map[string]string{
	"utc": "started_at", "time": "started_at", "timestamp": "started_at", "started_at": "started_at",
	"requests_per_s": "rps", "requests_per_sec": "rps", "req_per_s": "rps", "reqs_per_s": "rps",
	"rps": "rps", "req/s": "rps", "requests/s": "rps", "throughput_rps": "rps",
	"p50_ms": "latency_p50_ms", "latency_p50_ms": "latency_p50_ms", "median_ms": "latency_p50_ms",
	"p90_ms": "latency_p90_ms", "latency_p90_ms": "latency_p90_ms",
	"p95_ms": "latency_p95_ms", "latency_p95_ms": "latency_p95_ms",
	"p99_ms": "latency_p99_ms", "latency_p99_ms": "latency_p99_ms",
	"p999_ms": "latency_p999_ms", "p99.9_ms": "latency_p999_ms", "latency_p999_ms": "latency_p999_ms",
	"mean_ms": "latency_mean_ms", "avg_ms": "latency_mean_ms", "latency_mean_ms": "latency_mean_ms",
	"stdev_ms": "latency_stdev_ms", "latency_stdev_ms": "latency_stdev_ms",
	"max_ms": "latency_max_ms", "latency_max_ms": "latency_max_ms",
	"responses_2xx": "responses_2xx", "2xx": "responses_2xx", "ok": "responses_2xx",
	"non_2xx": "non_2xx", "non2xx": "non_2xx",
	"errors": "errors", "failed": "errors",
	"requests": "requests", "total_requests": "requests",
	"cpu_server_s": "cpu_server_s", "cpu_s": "cpu_server_s", "server_cpu_s": "cpu_server_s",
	"cpu_server_user_s": "cpu_server_user_s", "cpu_user_s": "cpu_server_user_s",
	"cpu_server_kernel_s": "cpu_server_kernel_s", "cpu_kernel_s": "cpu_server_kernel_s",
	"cpu_server_sys_s": "cpu_server_kernel_s", "cpu_sys_s": "cpu_server_kernel_s",
	"cpu_postgres_s": "cpu_db_s", "cpu_db_s": "cpu_db_s", "cpu_database_s": "cpu_db_s", "cpu_mysql_s": "cpu_db_s",
	"working_set_mb": "working_set_mb", "rss_mb": "working_set_mb", "memory_mb": "working_set_mb",
	"private_mb": "private_mb",
	"startup_s":  "startup_s",
	"bytes_read": "bytes_read",
	"duration_s": "duration_s",
	"server":     "server", "database": "database", "test": "test",
	"round": "round", "pass": "round",
	"connections": "connections", "conns": "connections",
	"threads":    "threads",
	"target_rps": "target_rps", "rate": "target_rps",
	"latency_corrected": "latency_corrected", "corrected": "latency_corrected",
}

// recordMetrics are the columns of which a records CSV has at least one.
var recordMetrics = []string{"rps", "cpu_server_s", "cpu_db_s", "responses_2xx", "latency_p99_ms", "latency_p50_ms", "working_set_mb"}

func init() {
	register(&Format{Name: "records-csv", Priority: 30, Detect: detectRecords, Read: readRecords})
	register(&Format{Name: "memory-csv", Priority: 20, Detect: detectMemory, Read: readMemory})
	register(&Format{Name: "calibration-csv", Priority: 20, Detect: detectCalibration, Read: readCalibration})
}

func detectRecords(head []byte) bool {
	h := headerFields(head, recordAliases)
	if !h["server"] || h["concurrency"] {
		return false
	}
	for _, m := range recordMetrics {
		if h[m] {
			return true
		}
	}
	return false
}

type floatCol struct {
	name string
	dst  *model.Opt[float64]
}

type intCol struct {
	name string
	dst  *model.Opt[int64]
}

// designColumns are the records columns that say which run a row is
// rather than what it measured: a bad value there refuses the file.
var designColumns = map[string]bool{"target_rps": true, "round": true, "connections": true, "threads": true}

// readRecords reads a harness records CSV: one run per row.
func readRecords(in *Input, sink model.Sink) error {
	t, err := newCSVTable(in, recordAliases)
	if err != nil {
		return err
	}
	if !t.has("server") {
		return Errorf(in.Name, 1, 0, "records CSV: expected a server column in the header")
	}
	return t.each("records CSV", func(i int) error {
		r := &model.Run{Index: i, Line: t.line, Tool: "records"}
		// A figure that cannot be right (text, NaN, a negative count or
		// a CPU counter that fell) is broken: stored as NULL with its
		// text in the label raw.<figure> (cpu_db_s for a cpu_postgres_s
		// column), said once for the file naming the column as written,
		// the rest of the row loaded; --strict refuses it.
		broken := func(col string, err error) error {
			if in.Strict || designColumns[col] {
				return err
			}
			text, _ := t.str(col)
			runLabel(r, "raw."+col, text)
			in.broke(t.line, t.raw[t.index[col]], text)
			return nil
		}
		for _, c := range []floatCol{
			{"rps", &r.RPS}, {"latency_p50_ms", &r.LatencyP50MS}, {"latency_p90_ms", &r.LatencyP90MS},
			{"latency_p95_ms", &r.LatencyP95MS}, {"latency_p99_ms", &r.LatencyP99MS}, {"latency_p999_ms", &r.LatencyP999MS},
			{"latency_mean_ms", &r.LatencyMeanMS}, {"latency_stdev_ms", &r.LatencyStdevMS}, {"latency_max_ms", &r.LatencyMaxMS},
			{"cpu_server_s", &r.CPUServerS}, {"cpu_server_user_s", &r.CPUServerUserS}, {"cpu_server_kernel_s", &r.CPUServerKernelS},
			{"cpu_db_s", &r.CPUDBS}, {"working_set_mb", &r.WorkingSetMB}, {"private_mb", &r.PrivateMB},
			{"startup_s", &r.StartupS}, {"duration_s", &r.DurationS}, {"target_rps", &r.TargetRPS},
		} {
			v, ok, err := t.float(c.name)
			if err == nil && ok && v < 0 {
				err = t.errAt(c.name, "expected a number >= 0, found %v", v)
			}
			if err != nil {
				if err := broken(c.name, err); err != nil {
					return err
				}
				continue
			}
			if ok {
				*c.dst = model.Some(v)
			}
		}
		for _, c := range []intCol{
			{"round", &r.Round}, {"connections", &r.Connections}, {"threads", &r.Threads},
			{"responses_2xx", &r.Responses2xx}, {"non_2xx", &r.Non2xx}, {"errors", &r.Errors},
			{"requests", &r.Requests}, {"bytes_read", &r.BytesRead},
		} {
			v, ok, err := t.int(c.name)
			if err == nil && ok && v < 0 {
				err = t.errAt(c.name, "expected a count >= 0, found %d", v)
			}
			if err != nil {
				if err := broken(c.name, err); err != nil {
					return err
				}
				continue
			}
			if ok {
				*c.dst = model.Some(v)
			}
		}
		if ts, ok, err := t.time("started_at"); err != nil {
			return err
		} else if ok {
			r.StartedAt = model.Some(ts)
		}
		if v, ok := t.str("latency_corrected"); ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return t.errAt("latency_corrected", "expected true or false, found %q", v)
			}
			r.LatencyCorrected = b
		}
		r.Server, _ = t.str("server")
		r.Database, _ = t.str("database")
		r.Test, _ = t.str("test")
		for i, name := range t.header {
			if _, known := knownRecordColumns[name]; known {
				continue
			}
			if v := strings.TrimSpace(t.rec[i]); v != "" {
				runLabel(r, t.raw[i], v)
			}
		}
		return sink.Run(r)
	})
}

var knownRecordColumns = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, c := range recordAliases {
		m[c] = struct{}{}
	}
	return m
}()

var memoryAliases = map[string]string{
	"memory_mb": "memory_mb", "rss_mb": "memory_mb", "working_set_mb": "memory_mb", "mem_mb": "memory_mb",
	"concurrency": "concurrency", "connections": "concurrency", "waiting": "concurrency",
	"pass": "pass", "round": "pass",
	"wait_ms": "wait_ms", "requests": "requests", "cpu_s": "cpu_s", "server": "server", "database": "database",
}

func detectMemory(head []byte) bool {
	h := headerFields(head, memoryAliases)
	return h["concurrency"] && h["memory_mb"] && !h["rps"] && !h["requests_per_s"]
}

// readMemory reads a memory series CSV: the memory a server held per number
// of concurrently waiting requests, on the database its database column
// names, if it has one.
func readMemory(in *Input, sink model.Sink) error {
	t, err := newCSVTable(in, memoryAliases)
	if err != nil {
		return err
	}
	return t.each("memory CSV", func(i int) error {
		m := &model.MemoryPoint{Line: t.line}
		m.Server, _ = t.str("server")
		m.Database, _ = t.str("database")
		c, ok, err := t.int("concurrency")
		if err != nil {
			return err
		}
		if !ok || c < 0 {
			return t.errAt("concurrency", "expected a count of waiting requests >= 0")
		}
		m.Concurrency = c
		mb, ok, err := t.float("memory_mb")
		if err != nil {
			return err
		}
		if !ok || mb < 0 {
			return t.errAt("memory_mb", "expected memory in MiB >= 0")
		}
		m.MemoryMB = mb
		if v, ok, err := t.int("pass"); err != nil {
			return err
		} else if ok {
			m.Pass = model.Some(v)
		}
		if v, ok, err := t.float("wait_ms"); err != nil {
			return err
		} else if ok {
			m.WaitMS = model.Some(v)
		}
		if v, ok, err := t.int("requests"); err != nil {
			return err
		} else if ok {
			m.Requests = model.Some(v)
		}
		if v, ok, err := t.float("cpu_s"); err != nil {
			return err
		} else if ok {
			m.CPUS = model.Some(v)
		}
		return sink.Memory(m)
	})
}

var calibrationAliases = map[string]string{
	"utc": "utc", "time": "utc", "timestamp": "utc",
	"processes": "processes", "procs": "processes", "workers": "processes",
	"ms": "ms", "wall_ms": "ms", "time_ms": "ms", "elapsed_ms": "ms",
	"phase": "phase",
}

func detectCalibration(head []byte) bool {
	h := headerFields(head, calibrationAliases)
	return h["processes"] && h["ms"] && !h["server"]
}

// calibrationPhase reads before/after from the words of a file name.
func calibrationPhase(name string) string {
	words := strings.FieldsFunc(strings.ToLower(filepath.Base(name)), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	})
	phase := ""
	for _, w := range words {
		var p string
		switch w {
		case "before", "pre":
			p = "before"
		case "after", "post":
			p = "after"
		default:
			continue
		}
		if phase != "" && phase != p {
			return ""
		}
		phase = p
	}
	return phase
}

// readCalibration reads a calibration CSV: timings of a fixed CPU job.
func readCalibration(in *Input, sink model.Sink) error {
	t, err := newCSVTable(in, calibrationAliases)
	if err != nil {
		return err
	}
	filePhase := calibrationPhase(in.Name)
	if filePhase == "" && !t.has("phase") {
		return Errorf(in.Name, 1, 0, "calibration CSV: expected a phase column, or \"before\" or \"after\" in the file name")
	}
	return t.each("calibration CSV", func(i int) error {
		c := &model.CalibrationPoint{Line: t.line, Phase: filePhase}
		if p, ok := t.str("phase"); ok {
			p = strings.ToLower(p)
			if p != "before" && p != "after" {
				return t.errAt("phase", "expected before or after, found %q", p)
			}
			c.Phase = p
		}
		if c.Phase == "" {
			return t.errAt("phase", "expected before or after")
		}
		n, ok, err := t.int("processes")
		if err != nil {
			return err
		}
		if !ok || n < 1 {
			return t.errAt("processes", "expected a process count >= 1")
		}
		c.Processes = n
		ms, ok, err := t.float("ms")
		if err != nil {
			return err
		}
		if !ok || ms <= 0 {
			return t.errAt("ms", "expected a time in ms > 0")
		}
		c.MS = ms
		if ts, ok, err := t.time("utc"); err != nil {
			return err
		} else if ok {
			c.UTC = model.Some(ts)
		}
		return sink.Calibration(c)
	})
}
