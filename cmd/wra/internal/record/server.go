package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/wra-bench/wra/cmd/wra/internal/record/cgroup"
	"github.com/wra-bench/wra/model"
)

// Opt is an optional figure: NULL where a source does not have it.
type Opt[T any] = model.Opt[T]

func some[T any](v T) Opt[T] { return model.Some(v) }

// Server is a server wra started (--server-cmd) in a cgroup of its own,
// which it stops after the run.
type Server struct {
	Meter   *Meter
	Startup time.Duration // from start to the first answer of its ready check

	cmd     *exec.Cmd
	done    chan error
	exited  error
	started time.Time
	groups  []cgroup.Group
}

// StartOptions are how a server command is started.
type StartOptions struct {
	Dir string
	Env []string  // added to this process's environment
	Log io.Writer // the server's stdout and stderr
}

// Start runs command with /bin/sh -c in a process group of its own, in
// cgroups made for it below this process's own (CPU and, where the
// machine has the controller, memory), before it runs anything: the
// shell waits on a pipe until its process is in them. Without cgroups
// (none mounted, not writable, or --cpu-source proc) its process tree
// is read from /proc.
func (h *Host) Start(ctx context.Context, name, command string, o StartOptions) (s *Server, err error) {
	t := Target{Name: name, Kind: TargetCommand, Value: command}
	m := &Meter{Target: t, host: h}
	s = &Server{Meter: m, done: make(chan error, 1)}
	defer func() {
		if err != nil {
			err = errors.Join(err, m.Close())
		}
	}()
	var groups []cgroup.Group
	if mount := h.cpuMount(); mount != nil {
		g, err := h.ownGroup(mount)
		if err != nil {
			m.Note = fmt.Sprintf("CPU from /proc in clock ticks: no cgroup could be made for the server (%v)", err)
		} else {
			m.cpu = &g
			groups = append(groups, g)
			if mm := h.memMount(); mm != nil && mm != mount {
				if g2, err := h.ownGroup(mm); err == nil {
					m.mem = &g2
					groups = append(groups, g2)
				}
			} else if mm == mount {
				m.mem = &g
			}
		}
	} else {
		m.Note = h.procNote()
	}
	for _, g := range groups {
		m.undo = append(m.undo, g.Remove)
	}
	gateR, gateW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer gateR.Close()
	// fd 3 is the gate: the shell reads a line from it, closes it and
	// only then runs the command, so that all of it runs in the cgroups.
	s.cmd = exec.Command("/bin/sh", "-c", `read _ <&3; exec 3<&-; eval "$1"`, "sh", command)
	s.cmd.Dir = o.Dir
	s.cmd.Env = append(os.Environ(), o.Env...)
	s.cmd.ExtraFiles = []*os.File{gateR}
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if o.Log != nil {
		s.cmd.Stdout, s.cmd.Stderr = o.Log, o.Log
	}
	if err := s.cmd.Start(); err != nil {
		gateW.Close()
		return nil, fmt.Errorf("%s: start: %w", name, err)
	}
	s.started = time.Now()
	s.groups = groups
	go func() { s.done <- s.cmd.Wait() }()
	pid := s.cmd.Process.Pid
	for _, g := range groups {
		if err := g.Add(pid); err != nil {
			gateW.Close()
			return nil, errors.Join(fmt.Errorf("%s: moving it into %s: %w", name, g.Dir(), err), s.kill())
		}
	}
	if m.cpu == nil {
		m.root = pid
	}
	_, err = gateW.Write([]byte("\n"))
	gateW.Close()
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s: %w", name, err), s.kill())
	}
	return s, nil
}

// ownGroup makes a cgroup below this process's own in a hierarchy.
func (h *Host) ownGroup(mount *cgroup.Mount) (cgroup.Group, error) {
	self, err := h.Cgroups.GroupOf(h.Self, mount)
	if err != nil {
		return cgroup.Group{}, err
	}
	return h.create(self)
}

// PID is the server's first process (the shell, or what it exec'd).
func (s *Server) PID() int { return s.cmd.Process.Pid }

// WaitReady waits until the server answers: an HTTP GET of readyURL
// that gets any answer below 500 or, where readyURL is "", a TCP
// connection to the host and port of fallback. It polls every 20 ms
// for at most limit, and fails at once when the server exits.
func (s *Server) WaitReady(ctx context.Context, readyURL, fallback string, limit time.Duration) error {
	check, what, err := readyCheck(readyURL, fallback)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Meter.Target.Name, err)
	}
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		if err := check(ctx); err == nil {
			s.Startup = time.Since(s.started)
			return nil
		}
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("%s exited before it answered %s (%v)", s.Meter.Target.Name, what, err)
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return fmt.Errorf("%s did not answer %s within %s", s.Meter.Target.Name, what, limit)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

var readyClient = &http.Client{Timeout: 2 * time.Second}

func readyCheck(readyURL, fallback string) (func(context.Context) error, string, error) {
	if readyURL != "" {
		if _, err := url.ParseRequestURI(readyURL); err != nil {
			return nil, "", fmt.Errorf("ready check %q: %w", readyURL, err)
		}
		return func(ctx context.Context) error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, readyURL, nil)
			if err != nil {
				return err
			}
			resp, err := readyClient.Do(req)
			if err != nil {
				return err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode >= 500 {
				return fmt.Errorf("status %d", resp.StatusCode)
			}
			return nil
		}, readyURL, nil
	}
	u, err := url.Parse(fallback)
	if fallback == "" || err != nil || u.Host == "" {
		return nil, "", errors.New("no ready check: give a ready URL, or a load command with an http:// URL whose port the server opens")
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), map[string]string{"https": "443"}[u.Scheme])
		if u.Scheme != "https" {
			host = net.JoinHostPort(u.Hostname(), "80")
		}
	}
	return func(ctx context.Context) error {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", host)
		if err == nil {
			c.Close()
		}
		return err
	}, "on " + host, nil
}

// StopGrace is how long a server has to exit after SIGTERM.
const StopGrace = 5 * time.Second

// Stop ends the server: SIGTERM to its process group, SIGKILL after
// grace, then SIGKILL to whatever is left in its cgroups (a process that
// left the group); it removes the cgroups. An exit status of the server's
// own is not an error: it was asked to stop.
func (s *Server) Stop(grace time.Duration) error {
	var err error
	if s.exited == nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(grace):
			err = fmt.Errorf("%s did not stop within %s of SIGTERM and was killed", s.Meter.Target.Name, grace)
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
		s.exited = errors.New("stopped")
	}
	for _, g := range s.groups {
		for range 50 {
			procs, _ := g.Procs()
			if len(procs) == 0 {
				break
			}
			for _, p := range procs {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return errors.Join(err, s.Meter.Close())
}

func (s *Server) kill() error {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	return s.Stop(0)
}
