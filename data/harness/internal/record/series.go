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

// runCell runs one cell of a trial on a server started for it alone, so
// that no cell inherits another's connections, caches or heap: the
// fixed-rate, tools and ladder cells after a warm-up of their endpoint,
// the waiting cells without one (their peak resident set must be that of
// the point alone).
func (r *Runner) runCell(ctx context.Context, trial int, c Cell) error {
	if r.cellJob != nil {
		return r.cellJob(ctx, trial, c)
	}
	if c.Kind == kindWaiting {
		return r.waitingRun(ctx, trial, c.Server, c.Concurrency)
	}
	s, err := r.startServer(ctx, c.Server)
	if err != nil {
		return err
	}
	err = r.warmUp(ctx, s, []Endpoint{c.Endpoint})
	if err == nil {
		switch c.Kind {
		case kindFixed:
			err = r.fixedRun(ctx, s, c.Endpoint, c.Rate, trial)
		case kindTools:
			err = r.toolsRun(ctx, s, c, trial)
		case kindLadder:
			err = r.ladderRun(ctx, s, trial)
		default:
			err = fmt.Errorf("unknown kind of cell %q", c.Kind)
		}
	}
	if serr := r.stopServer(s); err == nil {
		err = serr
	}
	return err
}

// fixedRun is a fixed-rate cell: wrk2 -R at the cell's rate, with one
// records row of the CPU seconds of the server's and its database's
// process trees and the server's memory.
func (r *Runner) fixedRun(ctx context.Context, s *server, e Endpoint, rate, trial int) error {
	p := r.Plan.Fixed
	out, err := r.path(wrk2Name(trial, s.Name, e, rate, p.Connections))
	if err != nil {
		return err
	}
	c := command{Name: r.Tools.WRK2, Timeout: p.Duration + margin, Stdout: out, Args: []string{
		"-t" + strconv.Itoa(p.Threads), "-c" + strconv.Itoa(p.Connections), "-d" + seconds(p.Duration),
		"-R" + strconv.Itoa(rate), "-U", s.URL(e.Path)}}
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
		UTC: started, Server: s.Name, Database: s.Database, Round: trial, Trial: trial, Test: e.Test, Connections: p.Connections,
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

// toolsRun is a tools cell: the cell's endpoint once with its tool, ab,
// bombardier or k6 (constant arrival rate).
func (r *Runner) toolsRun(ctx context.Context, s *server, cell Cell, trial int) error {
	p := r.Plan.Tools
	d := seconds(p.Duration)
	conns := strconv.Itoa(p.Connections)
	e := cell.Endpoint
	out, err := r.path(cell.files(r.Plan, trial)[0])
	if err != nil {
		return err
	}
	var kind string
	var c command
	switch cell.Tool {
	case toolAB:
		kind = "ab"
		c = command{Name: r.Tools.AB, Stdout: out, Timeout: p.Duration + margin,
			Args: []string{"-k", "-c", conns, "-t", strconv.Itoa(int(p.Duration / time.Second)),
				"-n", strconv.Itoa(p.ABMaxRequests), s.URL(e.Path)}}
	case toolBombardier:
		kind = "bombardier"
		c = command{Name: r.Tools.Bombardier, Stdout: out, Timeout: p.Duration + margin,
			Args: append(append([]string{"-c", conns, "-d", d, "-l"}, p.BombardierOpts...), s.URL(e.Path))}
	case toolK6:
		kind = "k6 constant arrival rate"
		c = command{Name: r.Tools.K6, Stdout: out, Timeout: p.Duration + margin, Env: k6Env,
			Args: []string{"run", "--system-tags", k6SystemTags,
				"-e", "BASE=" + s.URL(""), "-e", "PATH_=" + e.Path, "-e", "RATE=" + strconv.Itoa(cell.Rate),
				"-e", "DURATION=" + d, "-e", "MAXVUS=" + strconv.Itoa(p.K6MaxVUs),
				filepath.Join(r.Src, "k6", "constant_rate.js")},
			OK: []int{99}} // 99: a threshold failed, the report is complete
	default:
		return fmt.Errorf("tools cell %s: unknown tool %q", cell, cell.Tool)
	}
	if _, err := run(ctx, c, r.Log); err != nil {
		return err
	}
	r.note(kind, c)
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

// waitingRun is a waiting cell: /wait?ms=W at one concurrency on a fresh
// server, so that the peak resident set (VmHWM) belongs to that
// concurrency alone.
func (r *Runner) waitingRun(ctx context.Context, trial int, name string, conc int) error {
	p := r.Plan.Waiting
	path := "/wait?ms=" + strconv.Itoa(p.WaitMS)
	s, err := r.startServer(ctx, name)
	if err != nil {
		return err
	}
	defer r.stopServer(s)
	out, err := r.path(waitingName(trial, name, conc))
	if err != nil {
		return err
	}
	planned := r.Plan.waitingDuration(name, conc)
	// ab's per-request limit: a request may queue for the whole run where
	// the stack serves fewer requests at once than ab keeps open.
	limit := strconv.Itoa(int((planned + margin) / time.Second))
	c := command{Name: r.Tools.AB, Stdout: out, Timeout: planned + margin, Args: []string{
		"-r", "-s", limit, "-c", strconv.Itoa(conc), "-n", strconv.Itoa(conc * p.RequestsPerConn), s.URL(path)}}
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
		Server: name, Pass: trial, Concurrency: conc, WaitMS: p.WaitMS,
		PeakRSSKiB: mem.PeakRSSKiB, Requests: a.Complete, CPUTicks: d.User + d.Kernel,
	})
	return nil
}

// ladderRun is a ladder cell: the k6 ramping-arrival-rate ladder, every
// point to gzipped NDJSON and the end-of-test summary to
// --summary-export.
func (r *Runner) ladderRun(ctx context.Context, s *server, trial int) error {
	p := r.Plan.Ladder
	nd, err1 := r.path(ladderPointsName(trial, s.Name, p.Endpoint))
	sum, err2 := r.path(ladderSummaryName(trial, s.Name, p.Endpoint))
	if err := firstErr(err1, err2); err != nil {
		return err
	}
	c := command{Name: r.Tools.K6, Timeout: p.Duration() + margin, Env: k6Env,
		Stdout: filepath.Join(r.work, "logs", fmt.Sprintf("k6-ladder-%s-t%d.txt", s.Name, trial)),
		Args: []string{"run", "--quiet", "--system-tags", k6SystemTags,
			"-e", "BASE=" + s.URL(""), "-e", "PATH_=" + p.Path, "-e", "STEPS=" + joinInts(p.Steps),
			"-e", "RAMP=" + strconv.Itoa(int(p.Ramp/time.Second)), "-e", "HOLD=" + strconv.Itoa(int(p.Hold/time.Second)),
			"-e", "MAXVUS=" + strconv.Itoa(p.MaxVUs), "-e", "P95_MS=" + strconv.Itoa(p.P95MS),
			"--out", "json=" + nd, "--summary-export", sum,
			filepath.Join(r.Src, "k6", "ladder.js")},
		OK: []int{99}} // 99: a step's p95 threshold failed, which is what a ladder looks for
	res, err := run(ctx, c, r.Log)
	if err != nil {
		return err
	}
	r.logf("ladder %s trial %d: k6 exit %d", s.Name, trial, res.ExitCode)
	r.note("k6 ladder", c)
	// k6 gzips its points at its default level; the corpus keeps them at
	// the best (the content is k6's, checked byte for byte).
	before, after, err := recompress(nd)
	if err != nil {
		return err
	}
	r.logf("ladder %s trial %d: points recompressed, %d -> %d bytes", s.Name, trial, before, after)
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
// parallel, Reps times, into calibration/<pair>-<phase>.csv.
func (r *Runner) calibrate(ctx context.Context, pair, phase string) ([]calibrationRow, error) {
	p := r.Plan.Calibration
	buf := filepath.Join(r.work, "calib.bin")
	if _, err := os.Stat(buf); err != nil {
		if err := os.WriteFile(buf, make([]byte, p.BufferMiB<<20), 0o644); err != nil {
			return nil, err
		}
	}
	r.logf("calibration %s %s", pair, phase)
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
	out, err := r.path(calibrationName(pair, phase))
	if err != nil {
		return nil, err
	}
	return rows, writeCalibration(out, rows)
}
