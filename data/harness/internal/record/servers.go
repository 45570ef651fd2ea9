package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// server is one running instance of a stack.
type server struct {
	Name     string
	Database string // PostgreSQL or MariaDB
	Port     int
	Startup  time.Duration // from exec to the first 200 on /ping
	cmd      *exec.Cmd
	done     chan error
	logFile  *os.File
}

// PID is the root of the server's process tree.
func (s *server) PID() int { return s.cmd.Process.Pid }

// URL of a path on the server.
func (s *server) URL(path string) string { return fmt.Sprintf("http://127.0.0.1:%d%s", s.Port, path) }

// serverCommand is how each stack is started from the prepared work folder.
func (r *Runner) serverCommand(name string, port int) (string, []string, error) {
	st, ok := StackOf(name)
	if !ok {
		return "", nil, fmt.Errorf("unknown server %q", name)
	}
	db, err := r.dbOf(name)
	if err != nil {
		return "", nil, err
	}
	flags := []string{"-addr", "127.0.0.1:" + strconv.Itoa(port), "-dsn", serverDSN(st, db), "-pool", strconv.Itoa(r.Plan.PoolSize)}
	switch st.Runtime {
	case Node:
		return r.Tools.Node, append([]string{filepath.Join(r.work, st.Build, "server.js")}, flags...), nil
	case Python:
		return r.Tools.Python, append([]string{filepath.Join(r.work, st.Build, "server.py")}, flags...), nil
	case PHP:
		p, err := r.preparePHP(st, port, pdoDSN(db))
		if err != nil {
			return "", nil, err
		}
		return "/bin/sh", phpCommand(r.Tools.PHPFPM, r.Tools.Nginx, p, os.Geteuid() == 0), nil
	}
	return filepath.Join(r.work, "bin", st.Build), flags, nil
}

// prepareServers builds the Go servers, installs the Node servers' locked
// dependencies and copies the Python servers (which run on Debian's
// packages) into the work folder, once per program.
func (r *Runner) prepareServers(ctx context.Context) error {
	done := map[string]bool{}
	for _, name := range r.Plan.Servers {
		st, ok := StackOf(name)
		if !ok {
			return fmt.Errorf("unknown server %q", name)
		}
		if done[st.Build] {
			continue
		}
		done[st.Build] = true
		switch st.Runtime {
		case PHP:
			continue // each instance's folder is written when it starts (preparePHP)
		case Python:
			if err := os.MkdirAll(filepath.Join(r.work, st.Build), 0o755); err != nil {
				return err
			}
			if err := copyFile(filepath.Join(r.Src, "servers", st.Build, "server.py"), filepath.Join(r.work, st.Build, "server.py")); err != nil {
				return err
			}
			continue
		case "":
			if _, err := run(ctx, command{Name: r.Tools.Go, Dir: r.Src, Timeout: 10 * time.Minute,
				Args: []string{"build", "-trimpath", "-o", filepath.Join(r.work, "bin", st.Build), "./servers/" + st.Build}}, r.Log); err != nil {
				return err
			}
			continue
		}
		dst := filepath.Join(r.work, st.Build)
		// The Node stacks share the API in servers/node-api (required as ../node-api/api.js).
		for _, d := range []string{dst, filepath.Join(r.work, "node-api")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		if err := copyFile(filepath.Join(r.Src, "servers", "node-api", "api.js"), filepath.Join(r.work, "node-api", "api.js")); err != nil {
			return err
		}
		for _, f := range []string{"server.js", "package.json", "package-lock.json"} {
			if err := copyFile(filepath.Join(r.Src, "servers", st.Build, f), filepath.Join(dst, f)); err != nil {
				return err
			}
		}
		if _, err := run(ctx, command{Name: r.Tools.NPM, Dir: dst, Timeout: 5 * time.Minute,
			Args: []string{"ci", "--omit=dev", "--no-audit", "--no-fund"}}, r.Log); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// startServer starts a fresh instance, waits for /ping and checks that every
// endpoint answers the expected bytes.
func (r *Runner) startServer(ctx context.Context, name string) (*server, error) {
	port := r.BasePort + indexOf(ServerNames, name)
	bin, args, err := r.serverCommand(name, port)
	if err != nil {
		return nil, err
	}
	lf, err := os.OpenFile(filepath.Join(r.work, "logs", name+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	st, _ := StackOf(name)
	s := &server{Name: name, Database: st.Database, Port: port, logFile: lf, done: make(chan error, 1)}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Stdout, s.cmd.Stderr = lf, lf
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL} // dies with the harness
	fmt.Fprintf(r.Log, "$ %s\n", command{Name: bin, Args: args})
	start := time.Now()
	if err := s.cmd.Start(); err != nil {
		lf.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	r.live[s] = struct{}{}
	go func() { s.done <- s.cmd.Wait() }()
	if err := s.waitReady(ctx, 30*time.Second); err != nil {
		r.stopServer(s)
		return nil, err
	}
	s.Startup = time.Since(start)
	if err := r.verify(ctx, s); err != nil {
		r.stopServer(s)
		return nil, err
	}
	return s, nil
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

var httpClient = &http.Client{Timeout: 2 * time.Second}

func get(ctx context.Context, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func (s *server) waitReady(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		code, _, err := get(ctx, s.URL("/ping"))
		if err == nil && code == http.StatusOK {
			return nil
		}
		select {
		case werr := <-s.done:
			s.done <- werr
			return fmt.Errorf("%s exited before answering /ping (%v); see its log", s.Name, werr)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not answer /ping within %s", s.Name, limit)
		}
	}
}

// expectedBody is what every stack must answer for a path of the standard
// endpoints, computed from how the items table is filled (pg.load, mariadb.LoadStatements).
func expectedBody(path string) ([]byte, error) {
	type item struct {
		ID         int    `json:"id"`
		Name       string `json:"name"`
		PriceCents int    `json:"price_cents"`
	}
	mk := func(id int) item { return item{id, "item-" + strconv.Itoa(id), id * 7 % 10000} }
	switch path {
	case Ping.Path:
		return json.Marshal(map[string]bool{"ok": true})
	case DBOne.Path:
		return json.Marshal(mk(42))
	case DBPage.Path:
		var p struct {
			Items []item `json:"items"`
		}
		for id := 101; id <= 120; id++ {
			p.Items = append(p.Items, mk(id))
		}
		return json.Marshal(p)
	case Wait10.Path:
		return json.Marshal(map[string]int{"waited_ms": 10})
	}
	return nil, fmt.Errorf("no expected body for %s", path)
}

func (r *Runner) verify(ctx context.Context, s *server) error {
	for _, e := range []Endpoint{Ping, DBOne, DBPage, Wait10} {
		want, err := expectedBody(e.Path)
		if err != nil {
			return err
		}
		code, got, err := get(ctx, s.URL(e.Path))
		if err != nil {
			return fmt.Errorf("%s %s: %w", s.Name, e.Path, err)
		}
		if code != http.StatusOK || string(got) != string(want) {
			return fmt.Errorf("%s %s: got %d %q, want 200 %q", s.Name, e.Path, code, got, want)
		}
	}
	return nil
}

// stopServer ends the instance: SIGTERM to its process group, SIGKILL after 5 s.
func (r *Runner) stopServer(s *server) error {
	delete(r.live, s)
	defer s.logFile.Close()
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case err := <-s.done:
		var exitErr *exec.ExitError
		if err != nil && !errors.As(err, &exitErr) {
			return err
		}
		return nil
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
		return fmt.Errorf("%s did not stop within 5 s of SIGTERM and was killed", s.Name)
	}
}
