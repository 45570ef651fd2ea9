package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestBuildVersion: wra names its version from what the build recorded,
// never "(devel)".
func TestBuildVersion(t *testing.T) {
	vcs := func(rev, modified, at string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "3a446afb95199dfeb39b01ed46aba25f72fc82e4"
	for _, tc := range []struct {
		name    string
		bi      *debug.BuildInfo
		stamped string
		want    string
	}{
		{"set by the build", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, "v0.4.0-rc1", "v0.4.0-rc1"},
		{"go install @version", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, "", "v0.3.0"},
		{"a pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201165914-3a446afb9519+dirty"}}, "", "v0.0.0-20261201165914-3a446afb9519+dirty"},
		{"a clean checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false", "2026-12-01T16:59:14Z")}, "", "3a446afb9519 (2026-12-01T16:59:14Z)"},
		{"a changed checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true", "2026-12-01T16:59:14Z")}, "", "3a446afb9519-dirty (2026-12-01T16:59:14Z)"},
	} {
		if got := buildVersion(tc.bi, true, tc.stamped); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, bi := range []*debug.BuildInfo{nil, {Main: debug.Module{Version: "(devel)"}}} {
		if got := buildVersion(bi, bi != nil, ""); !strings.HasPrefix(got, "unknown (built") {
			t.Errorf("no version recorded: %q", got)
		}
	}
}

// TestVersionFlag: wra --version prints the version wra version prints
// first.
func TestVersionFlag(t *testing.T) {
	db := t.TempDir() + "/none.duckdb"
	flag, cmd := wra(t, db, "--version"), wra(t, db, "version")
	if flag.code != 0 || cmd.code != 0 {
		t.Fatalf("exit %d and %d: %s %s", flag.code, cmd.code, flag.stderr, cmd.stderr)
	}
	first, _, _ := strings.Cut(cmd.stdout, "\n")
	if !strings.HasPrefix(flag.stdout, "wra ") || flag.stdout != first+"\n" || strings.Contains(flag.stdout, "(devel)") {
		t.Errorf("wra --version: %q; wra version: %q", flag.stdout, cmd.stdout)
	}
}
