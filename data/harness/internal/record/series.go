package record

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/wra-bench/wra/data/harness/internal/proc"
	"github.com/wra-bench/wra/data/harness/internal/toolout"
)

// margin is added to every run's planned length for its time limit.
const margin = 30 * time.Second

// k6Env keeps k6 from phoning home (there is no network, and a benchmark
// should not depend on one).
var k6Env = []string{"K6_NO_USAGE_REPORT=true"}

// k6SystemTags trims the tags k6 writes on every point (url duplicates name;
// proto, group, tls_version, subproto and service are constant here), which
// keeps the ladders' NDJSON small without dropping a metric.
const k6SystemTags = "status,method,name,scenario,expected_response,check,error_code"

// fixedRatePass: one pass of wrk2 -R at each rate of each test; servers
// and rates in an order that alternates from pass to pass; one records
// row per run with the CPU seconds of the server's and its database's
// process trees and the server's memory.
func (r *Runner) fixedRatePass(ctx context.Context, pass int) error {
	p := r.Plan.Fixed
	for _, name := range alternate(r.Plan.Servers, pass) {
		s, err := r.startServer(ctx, name)
		if err != nil {
			return err
		}
		var eps []Endpoint
		for _, t := range p.Tests {
			eps = append(eps, t.Endpoint)
		}
		if err := r.warmUp(ctx, s, eps); err != nil {
			r.stopServer(s)
			return err
		}
		for _, t := range alternate(p.Tests, pass) {
			for _, rate := range alternate(t.Rates, pass) {
				if err := r.fixedRun(ctx, s, t.Endpoint, rate, pass); err != nil {
					r.stopServer(s)
					return err
				}
			}
		}
		if err := r.stopServer(s); err != nil {
			return err
		}
	}
	return nil
}

func (r *Runner) fixedRun(ctx context.Context, s *server, e Endpoint, rate, pass int) error {
	p := r.Plan.Fixed
	out, err := r.path(wrk2Name(s.Name, e, rate, p.Connections, pass))
	if err != nil {
		return err
	}
	c := command{Name: r.Tools.WRK2, Timeout: p.Duration + margin, Stdout: out, Args: []string{
		"-t" + strconv.Itoa(p.Threads), "-c" + strconv.Itoa(p.Connections), "-d" + seconds(p.Duration),
		"-R" + strconv.Itoa(rate), "-U", s.URL(e.Path)}}
	r.logf("fixed-rate pass %d/%d %s %s R=%d", pass, p.Passes, s.Name, e.Test, rate)
	started := time.Now().UTC()
	cpu0, pg0, err := r.cpuPair(s)
	if err != nil {
		return err
	}
	if _, err := run(ctx, c, r.Log); err != nil {
		return err
	}
	cpu1, pg1, err := r.cpuPair(s)
	if err != nil {
		return err
	}
	mem, err := r.proc.TreeMemory(s.PID())
	if err != nil {
		return fmt.Errorf("%s memory: %w", s.Name, err)
	}
	r.note("wrk2 fixed rate", c)
	b, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	w, err := toolout.ParseWrk2(b)
	if err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	if !w.HasSpectrum {
		return fmt.Errorf("%s: no Recorded Latency distribution (run shorter than wrk2's calibration?)", out)
	}
	cs, cp := cpu1.Sub(cpu0), pg1.Sub(pg0)
	r.records = append(r.records, recordRow{
		UTC: started, Server: s.Name, Database: s.Database, Round: pass, Test: e.Test, Connections: p.Connections,
		RPS: w.RPS, P50MS: w.P50MS, P99MS: w.P99MS,
		Responses2xx: w.Requests - w.Non2xx, Errors: w.SocketErrors(), Non2xx: w.Non2xx, Requests: w.Requests,
		CPUServer: cs, CPUDB: cp, Memory: mem, StartupS: s.Startup.Seconds(),
		TargetRPS: rate, Threads: p.Threads, DurationS: int(p.Duration / time.Second), Report: r.rel(out),
	})
	return nil
}

// Warm-up before measuring: ab -k -c WarmUpConns -n WarmUpRequests on each
// endpoint, output discarded, so that connection pools are full and JIT
// compilers have run before the first recorded request.
const (
	WarmUpConns    = 8
	WarmUpRequests = 1000
)

func (r *Runner) warmUp(ctx context.Context, s *server, eps []Endpoint) error {
	for _, e := range eps {
		c := command{Name: r.Tools.AB, Timeout: margin, Args: []string{"-k", "-c", strconv.Itoa(WarmUpConns),
			"-n", strconv.Itoa(WarmUpRequests), s.URL(e.Path)}}
		if _, err := run(ctx, c, io.Discard); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
		r.note("warm-up (output discarded)", c)
	}
	return nil
}

func (r *Runner) cpuPair(s *server) (srv, db proc.CPU, err error) {
	if srv, err = r.proc.TreeCPU(s.PID()); err != nil {
		return srv, db, fmt.Errorf("%s CPU: %w", s.Name, err)
	}
	d, err := r.dbOf(s.Name)
	if err != nil {
		return srv, db, err
	}
	if db, err = r.proc.TreeCPU(d.pid); err != nil {
		return srv, db, fmt.Errorf("%s CPU: %w", d.Name, err)
	}
	return srv, db, nil
}

// tools: each endpoint once with ab, bombardier and k6 (constant arrival rate).
func (r *Runner) tools(ctx context.Context, _ int) error {
	p := r.Plan.Tools
	d := seconds(p.Duration)
	conns := strconv.Itoa(p.Connections)
	for _, name := range r.Plan.Servers {
		s, err := r.startServer(ctx, name)
		if err != nil {
			return err
		}
		if err := r.warmUp(ctx, s, p.Endpoints); err != nil {
			r.stopServer(s)
			return err
		}
		for _, e := range p.Endpoints {
			ab, err1 := r.path(abName(name, e, p.Connections))
			bo, err2 := r.path(bombardierName(name, e, p.Connections))
			k6, err3 := r.path(k6ConstantName(name, e, p.K6Rate))
			if err := firstErr(err1, err2, err3); err != nil {
				r.stopServer(s)
				return err
			}
			cmds := []struct {
				kind string
				c    command
			}{
				{"ab", command{Name: r.Tools.AB, Stdout: ab, Timeout: p.Duration + margin,
					Args: []string{"-k", "-c", conns, "-t", strconv.Itoa(int(p.Duration / time.Second)),
						"-n", strconv.Itoa(p.ABMaxRequests), s.URL(e.Path)}}},
				{"bombardier", command{Name: r.Tools.Bombardier, Stdout: bo, Timeout: p.Duration + margin,
					Args: append(append([]string{"-c", conns, "-d", d, "-l"}, p.BombardierOpts...), s.URL(e.Path))}},
				{"k6 constant arrival rate", command{Name: r.Tools.K6, Stdout: k6, Timeout: p.Duration + margin, Env: k6Env,
					Args: []string{"run", "--system-tags", k6SystemTags,
						"-e", "BASE=" + s.URL(""), "-e", "PATH_=" + e.Path, "-e", "RATE=" + strconv.Itoa(p.K6Rate),
						"-e", "DURATION=" + d, "-e", "MAXVUS=" + strconv.Itoa(p.K6MaxVUs),
						filepath.Join(r.Src, "k6", "constant_rate.js")},
					OK: []int{99}}}, // 99: a threshold failed, the report is complete
			}
			for _, x := range cmds {
				r.logf("tools %s %s %s", x.kind, name, e.Test)
				if _, err := run(ctx, x.c, r.Log); err != nil {
					r.stopServer(s)
					return err
				}
				r.note(x.kind, x.c)
			}
		}
		if err := r.stopServer(s); err != nil {
			return err
		}
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// waitingPass: one pass of /wait?ms=W at each concurrency, each point on
// a fresh server, so that the peak resident set (VmHWM) belongs to that
// concurrency alone.
func (r *Runner) waitingPass(ctx context.Context, pass int) error {
	p := r.Plan.Waiting
	path := "/wait?ms=" + strconv.Itoa(p.WaitMS)
	for _, name := range alternate(r.Plan.Servers, pass) {
		for _, conc := range alternate(p.Concurrencies, pass) {
			if err := r.waitingRun(ctx, name, path, conc, pass); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Runner) waitingRun(ctx context.Context, name, path string, conc, pass int) error {
	p := r.Plan.Waiting
	s, err := r.startServer(ctx, name)
	if err != nil {
		return err
	}
	defer r.stopServer(s)
	out, err := r.path(waitingName(name, conc, pass))
	if err != nil {
		return err
	}
	planned := r.Plan.waitingDuration(name, conc)
	// ab's per-request limit: a request may queue for the whole run where
	// the stack serves fewer requests at once than ab keeps open.
	limit := strconv.Itoa(int((planned + margin) / time.Second))
	c := command{Name: r.Tools.AB, Stdout: out, Timeout: planned + margin, Args: []string{
		"-r", "-s", limit, "-c", strconv.Itoa(conc), "-n", strconv.Itoa(conc * p.RequestsPerConn), s.URL(path)}}
	r.logf("waiting pass %d/%d %s c=%d", pass, p.Passes, name, conc)
	cpu0, err := r.proc.TreeCPU(s.PID())
	if err != nil {
		return err
	}
	if _, err := run(ctx, c, r.Log); err != nil {
		return err
	}
	cpu1, err := r.proc.TreeCPU(s.PID())
	if err != nil {
		return err
	}
	mem, err := r.proc.TreeMemory(s.PID())
	if err != nil {
		return err
	}
	r.note("ab waiting series", c)
	b, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	a, err := toolout.ParseAB(b)
	if err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	d := cpu1.Sub(cpu0)
	r.memory = append(r.memory, memoryRow{
		Server: name, Pass: pass, Concurrency: conc, WaitMS: p.WaitMS,
		PeakRSSKiB: mem.PeakRSSKiB, Requests: a.Complete, CPUTicks: d.User + d.Kernel,
	})
	return nil
}

// ladderRun: one run of the k6 ramping-arrival-rate ladder on each
// server, every point to gzipped NDJSON and the end-of-test summary to
// --summary-export.
func (r *Runner) ladderRun(ctx context.Context, run_ int) error {
	p := r.Plan.Ladder
	for _, name := range alternate(r.Plan.Servers, run_) {
		s, err := r.startServer(ctx, name)
		if err != nil {
			return err
		}
		if err := r.warmUp(ctx, s, []Endpoint{p.Endpoint}); err != nil {
			r.stopServer(s)
			return err
		}
		nd, err1 := r.path(ladderPointsName(name, p.Endpoint, run_))
		sum, err2 := r.path(ladderSummaryName(name, p.Endpoint, run_))
		if err := firstErr(err1, err2); err != nil {
			r.stopServer(s)
			return err
		}
		c := command{Name: r.Tools.K6, Timeout: p.Duration() + margin, Env: k6Env,
			Stdout: filepath.Join(r.work, "logs", fmt.Sprintf("k6-ladder-%s-p%d.txt", name, run_)),
			Args: []string{"run", "--quiet", "--system-tags", k6SystemTags,
				"-e", "BASE=" + s.URL(""), "-e", "PATH_=" + p.Path, "-e", "STEPS=" + joinInts(p.Steps),
				"-e", "RAMP=" + strconv.Itoa(int(p.Ramp/time.Second)), "-e", "HOLD=" + strconv.Itoa(int(p.Hold/time.Second)),
				"-e", "MAXVUS=" + strconv.Itoa(p.MaxVUs), "-e", "P95_MS=" + strconv.Itoa(p.P95MS),
				"--out", "json=" + nd, "--summary-export", sum,
				filepath.Join(r.Src, "k6", "ladder.js")},
			OK: []int{99}} // 99: a step's p95 threshold failed, which is what a ladder looks for
		r.logf("ladder run %d/%d %s", run_, p.Runs, name)
		res, err := run(ctx, c, r.Log)
		if err == nil {
			err = r.stopServer(s)
		} else {
			r.stopServer(s)
		}
		if err != nil {
			return err
		}
		r.logf("ladder run %d/%d %s: k6 exit %d", run_, p.Runs, name, res.ExitCode)
		r.note("k6 ladder", c)
	}
	return nil
}

func joinInts(xs []int) string {
	var b []byte
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// calibrate times sha256sum of a fixed buffer with 1, 2, ... processes in
// parallel, Reps times, into calibration/<series>-<phase>.csv.
func (r *Runner) calibrate(ctx context.Context, series, phase string) ([]calibrationRow, error) {
	p := r.Plan.Calibration
	buf := filepath.Join(r.work, "calib.bin")
	if _, err := os.Stat(buf); err != nil {
		if err := os.WriteFile(buf, make([]byte, p.BufferMiB<<20), 0o644); err != nil {
			return nil, err
		}
	}
	r.logf("calibration %s %s", series, phase)
	var rows []calibrationRow
	for rep := 0; rep < p.Reps; rep++ {
		for _, n := range p.Processes {
			start := time.Now()
			errs := make(chan error, n)
			for i := 0; i < n; i++ {
				go func() {
					_, err := run(ctx, command{Name: r.Tools.Sha256sum, Args: []string{buf}, Timeout: 2 * time.Minute}, io.Discard)
					errs <- err
				}()
			}
			var first error
			for i := 0; i < n; i++ {
				if err := <-errs; err != nil && first == nil {
					first = err
				}
			}
			if first != nil {
				return nil, fmt.Errorf("calibration: %w", first)
			}
			rows = append(rows, calibrationRow{UTC: start.UTC(), Processes: n, MS: time.Since(start).Milliseconds()})
		}
	}
	r.note("calibration", command{Name: r.Tools.Sha256sum, Args: []string{"$WORK/calib.bin"}})
	out, err := r.path(calibrationName(series, phase))
	if err != nil {
		return nil, err
	}
	return rows, writeCalibration(out, rows)
}
