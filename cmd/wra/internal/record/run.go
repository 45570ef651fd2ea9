package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Load is a load command as wra record runs it.
type Load struct {
	Args    []string // the program and its arguments, run as given (no shell)
	Env     []string // added to this process's environment
	Dir     string
	Timeout time.Duration // 0: none
	OK      []int         // exit codes accepted besides 0
	Stdout  io.Writer     // the tool's standard output, byte for byte; nil discards it
	Stderr  io.Writer     // where its standard error goes as well (a terminal, a log); nil: kept only
	// Started, where set, is called once the command runs, between the
	// first reading of the meters and its exit.
	Started func()
}

// Measured is what one run measured, over exactly the load command's
// run: the meters were read just before it started and just after it
// exited.
type Measured struct {
	Start, End time.Time
	Server     Figures
	Database   *Figures // nil without a database
	// Generator is the load command's own CPU (it and the children it
	// waited for), from the kernel's resource usage at its exit.
	Generator CPUTime
	ExitCode  int
	Stderr    []byte // the tail of its standard error
}

// Wall is the measured interval.
func (m Measured) Wall() time.Duration { return m.End.Sub(m.Start) }

// Figures are one meter's over a run.
type Figures struct {
	CPU          CPUTime
	CPUSource    string
	Memory       Memory
	MemorySource string
}

// ErrInterrupted is returned by Measure when ctx ends during the run.
var ErrInterrupted = errors.New("interrupted")

// stderrTail is how much of a load command's standard error is kept for
// messages.
const stderrTail = 4 << 10

// Measure runs the load command once between two readings of the
// meters (a nil server: none, for a command that is only timed). The command runs in a process group of its own (so that a
// Ctrl-C reaches wra, which ends it: SIGINT, SIGKILL 5 s later); a
// timeout or an exit code not accepted is an error.
func Measure(ctx context.Context, l Load, server, database *Meter) (Measured, error) {
	var res Measured
	if len(l.Args) == 0 {
		return res, errors.New("no load command")
	}
	for _, m := range []*Meter{server, database} {
		if m != nil {
			if err := m.StartRun(); err != nil {
				return res, err
			}
		}
	}
	runCtx := ctx
	cancel := func() {}
	if l.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, l.Timeout)
	}
	defer cancel()
	cmd := exec.CommandContext(runCtx, l.Args[0], l.Args[1:]...)
	cmd.Dir = l.Dir
	cmd.Env = append(os.Environ(), l.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdout = l.Stdout
	tail := &tailBuffer{max: stderrTail}
	cmd.Stderr = tail
	if l.Stderr != nil {
		cmd.Stderr = io.MultiWriter(tail, l.Stderr)
	}
	s0, d0, err := readPair(server, database)
	if err != nil {
		return res, err
	}
	res.Start = time.Now().UTC()
	err = cmd.Start()
	if err == nil {
		if l.Started != nil {
			l.Started()
		}
		err = cmd.Wait()
	}
	res.End = time.Now().UTC()
	res.Stderr = tail.Bytes()
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			res.Generator = CPUTime{TotalNS: ru.Utime.Nano() + ru.Stime.Nano(), UserNS: ru.Utime.Nano(), SystemNS: ru.Stime.Nano()}
		}
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		return res, ErrInterrupted
	}
	var exitErr *exec.ExitError
	switch {
	case runCtx.Err() == context.DeadlineExceeded:
		return res, fmt.Errorf("%s: stopped after its time limit of %s", ShellJoin(l.Args), l.Timeout)
	case errors.As(err, &exitErr):
		if !accepted(res.ExitCode, l.OK) {
			return res, fmt.Errorf("%s: exit code %d%s", ShellJoin(l.Args), res.ExitCode, indent(res.Stderr))
		}
	case err != nil:
		return res, fmt.Errorf("%s: %w", ShellJoin(l.Args), err)
	}
	s1, d1, err := readPair(server, database)
	if err != nil {
		return res, err
	}
	if server != nil {
		if res.Server, err = figures(server, s0, s1); err != nil {
			return res, err
		}
	}
	if database != nil {
		f, err := figures(database, d0, d1)
		if err != nil {
			return res, err
		}
		res.Database = &f
	}
	return res, nil
}

func accepted(code int, ok []int) bool {
	if code == 0 {
		return true
	}
	for _, c := range ok {
		if c == code {
			return true
		}
	}
	return false
}

func readPair(server, database *Meter) (s, d CPUTime, err error) {
	if server != nil {
		if s, err = server.ReadCPU(); err != nil {
			return s, d, err
		}
	}
	if database != nil {
		d, err = database.ReadCPU()
	}
	return s, d, err
}

func figures(m *Meter, before, after CPUTime) (Figures, error) {
	mem, err := m.ReadMemory()
	if err != nil {
		return Figures{}, err
	}
	return Figures{CPU: after.Sub(before), CPUSource: m.CPUSource(), Memory: mem, MemorySource: m.MemorySource()}, nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2*t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) Bytes() []byte {
	if len(t.b) > t.max {
		return t.b[len(t.b)-t.max:]
	}
	return t.b
}

func indent(b []byte) string {
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return ""
	}
	return "\n  | " + strings.ReplaceAll(s, "\n", "\n  | ")
}

// ShellJoin is a command line as a POSIX shell would take it: each word
// as it is where it has no character the shell reads specially, else in
// single quotes.
func ShellJoin(args []string) string {
	var b bytes.Buffer
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ShellQuote(a))
	}
	return b.String()
}

// ShellQuote is s as one word of a POSIX shell.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
