// Package dbproctest holds what the tests of internal/pg and internal/mariadb
// check alike: whether the server can be started here, a free port, and
// that a stopped server left nothing behind.
package dbproctest

import (
	"net"
	"os"
	"syscall"
	"testing"
)

// RequireEnv, set to 1, makes a missing database server a test failure
// instead of a skip (.ci/run sets it in CI, where it installs both).
const RequireEnv = "WRA_REQUIRE_DATABASES"

// NeedServer skips the test where err says the database server's binaries
// are not installed, or fails it when RequireEnv is 1.
func NeedServer(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%v (%s=1: the database server must be installed)", err, RequireEnv)
	}
	t.Skip(err)
}

// FreePort is a TCP port on 127.0.0.1 nobody listens on right now.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Stopped calls stop twice and checks that the first succeeded, that the
// server's folder is gone, that process pid has exited, and that the second
// call is harmless.
func Stopped(t testing.TB, dir string, pid int, stop func() error) {
	t.Helper()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("server folder %s left behind: %v", dir, err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("server process %d still running", pid)
	}
	if err := stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}
