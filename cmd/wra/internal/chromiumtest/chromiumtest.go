// Package chromiumtest runs headless Chromium for the tests of the
// report's pages: Find looks the browser up (skipping the test when there
// is none, failing it when WRA_REQUIRE_CHROMIUM is set, as CI sets it)
// and Run runs it offline on a local file. It is imported by tests only.
package chromiumtest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Find finds Debian's chromium (or another Chromium build). The test is
// skipped when there is none, unless WRA_REQUIRE_CHROMIUM is set.
func Find(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("WRA_REQUIRE_CHROMIUM") != "" {
		t.Fatal("chromium is not installed and WRA_REQUIRE_CHROMIUM is set (apt-get install chromium)")
	}
	t.Skip("chromium is not installed (apt-get install chromium); set WRA_REQUIRE_CHROMIUM=1 to make this a failure")
	return ""
}

// Run runs headless Chromium bin offline with a profile of its own in
// dir and returns what it printed on stdout (the DOM for --dump-dom).
func Run(t testing.TB, bin, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + filepath.Join(dir, "profile"),
	}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	// Without a session bus Chromium waits seconds for D-Bus; tell it
	// there is none.
	cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=disabled:")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	defer func() { t.Logf("chromium %s: %v", args[0], time.Since(start)) }()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// DumpDOM loads the local file page in headless Chromium and returns the
// DOM it built.
func DumpDOM(t testing.TB, bin, dir, page string) string {
	t.Helper()
	return string(Run(t, bin, dir, "--dump-dom", "file://"+page))
}
