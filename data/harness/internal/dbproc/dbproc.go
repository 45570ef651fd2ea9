// Package dbproc is what PostgreSQL (internal/pg) and MariaDB
// (internal/mariadb) share as child processes of the harness: the OS user
// they run as (both refuse root, so a harness started as root hands their
// folders and processes to an ordinary user), commands that die with the
// harness, waiting until the server accepts connections, and a shutdown
// that ends in SIGKILL to the process group.
package dbproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Credential is the credential of user name (fallback when name is "") when
// the harness runs as root, and nil otherwise (the server runs as the
// harness's own user).
func Credential(name, fallback string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	if name == "" {
		name = fallback
	}
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("running as root, the database server needs another user: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("user %s: %w", name, err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// ChownTree gives dir and everything under it to cred's user; a nil cred
// leaves the tree alone.
func ChownTree(dir string, cred *syscall.Credential) error {
	if cred == nil {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(cred.Uid), int(cred.Gid))
	})
}

// Command is name with args run in dir as cred's user (nil: the harness's
// own), in the C locale, killed when the harness dies (Pdeathsig) even when
// the harness itself is killed outright.
func Command(ctx context.Context, dir string, cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd
}

// Process is a started database server.
type Process struct {
	Name string // for messages: "postgres", "mariadbd"
	cmd  *exec.Cmd
	done chan error
}

// Start starts cmd in a process group of its own.
func Start(name string, cmd *exec.Cmd) (*Process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Process{Name: name, cmd: cmd, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	return p, nil
}

// PID is the root of the server's process tree.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// WaitReady calls ping every 100 ms (each call under a 1 s limit) until it
// succeeds, the process exits, ctx ends or limit passes.
func (p *Process) WaitReady(ctx context.Context, limit time.Duration, ping func(context.Context) error) error {
	deadline := time.Now().Add(limit)
	for {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		err := ping(cctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case werr := <-p.done:
			p.done <- werr
			return fmt.Errorf("%s exited before accepting connections: %v", p.Name, werr)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %s: %w", p.Name, limit, err)
		}
	}
}

// Stop sends sig (the server's own fast shutdown) and, when the server has
// not exited after grace, SIGKILL to its process group. It is safe to call
// on a nil Process and more than once.
func (p *Process) Stop(sig syscall.Signal, grace time.Duration) error {
	if p == nil || p.done == nil {
		return nil
	}
	defer func() { p.done = nil }()
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
		return nil
	case <-time.After(grace):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
		return fmt.Errorf("%s did not stop within %s and was killed", p.Name, grace)
	}
}

// RemoveDir removes *dir and everything under it once (it sets *dir to "")
// and joins the error to err.
func RemoveDir(dir *string, err error) error {
	if *dir == "" {
		return err
	}
	rerr := os.RemoveAll(*dir)
	*dir = ""
	if rerr != nil && err == nil {
		return rerr
	}
	return err
}

// NewFolder makes a temporary folder named prefix* with subdirs (mode 0700)
// for a server that runs as runAs (fallback when ""; see Credential), owned
// by that user. On an error nothing is left behind.
func NewFolder(runAs, fallback, prefix string, subdirs ...string) (*syscall.Credential, string, error) {
	cred, err := Credential(runAs, fallback)
	if err != nil {
		return nil, "", err
	}
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, "", err
	}
	for _, d := range subdirs {
		if err == nil {
			err = os.Mkdir(filepath.Join(dir, d), 0o700)
		}
	}
	if err == nil {
		err = ChownTree(dir, cred)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, "", err
	}
	return cred, dir, nil
}

// IsExecutable tells whether p is a regular file that someone may run.
func IsExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}
