package record

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Target kinds: what a server or a database is measured as.
const (
	TargetPID       = "pid"       // a process and its tree
	TargetCgroup    = "cgroup"    // a cgroup, by path
	TargetUnit      = "unit"      // a systemd unit's cgroup
	TargetContainer = "container" // a container's cgroup (docker or podman)
	TargetCommand   = "cmd"       // a command wra starts in a cgroup of its own and stops after
)

// Target is a server or a database to measure, as --server NAME=TARGET,
// --database NAME=TARGET or --server-cmd give it.
type Target struct {
	Name  string // the server or database label
	Kind  string // one of the Target kinds
	Value string // the PID, cgroup path, unit, container or command
}

func (t Target) String() string { return t.Kind + ":" + t.Value }

// ErrTarget is the cause of every error ParseTarget returns.
var ErrTarget = errors.New("bad target")

// ParseTarget reads NAME=TARGET, where TARGET is a PID (1234 or
// pid:1234), a cgroup (cgroup:/system.slice/x.service, or a folder under
// a cgroup mount such as /sys/fs/cgroup/system.slice/x.service), a
// systemd unit (unit:x.service, or a name ending in .service, .scope or
// .slice) or a container (container:NAME).
func ParseTarget(s string) (Target, error) {
	name, v, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || v == "" {
		return Target{}, fmt.Errorf("%w %q: expected NAME=TARGET, e.g. go-pgx=1234 or postgresql=unit:postgresql.service", ErrTarget, s)
	}
	if !validName(name) {
		return Target{}, fmt.Errorf("%w %q: the name %q may hold letters, digits, '.', '_' and '-' only", ErrTarget, s, name)
	}
	t, err := parseTargetValue(v)
	if err != nil {
		return Target{}, fmt.Errorf("%w %q: %v", ErrTarget, s, err)
	}
	t.Name = name
	return t, nil
}

func parseTargetValue(v string) (Target, error) {
	kind, rest, ok := strings.Cut(v, ":")
	switch {
	case ok && kind == TargetPID, !ok && isDigits(v):
		if !ok {
			rest = v
		}
		pid, err := strconv.Atoi(rest)
		if err != nil || pid < 1 || !isDigits(rest) {
			return Target{}, fmt.Errorf("expected a process id above 0, found %q", rest)
		}
		return Target{Kind: TargetPID, Value: rest}, nil
	case ok && kind == TargetCgroup, !ok && strings.HasPrefix(v, "/"):
		if !ok {
			rest = v
		}
		if !strings.HasPrefix(rest, "/") {
			return Target{}, fmt.Errorf("expected a cgroup path starting with /, found %q", rest)
		}
		return Target{Kind: TargetCgroup, Value: rest}, nil
	case ok && kind == TargetUnit, !ok && hasUnitSuffix(v):
		if !ok {
			rest = v
		}
		if rest == "" || strings.ContainsAny(rest, "/ \t\n") {
			return Target{}, fmt.Errorf("expected a systemd unit name, found %q", rest)
		}
		return Target{Kind: TargetUnit, Value: rest}, nil
	case ok && kind == TargetContainer:
		if rest == "" || strings.ContainsAny(rest, "/ \t\n") {
			return Target{}, fmt.Errorf("expected a container name or id, found %q", rest)
		}
		return Target{Kind: TargetContainer, Value: rest}, nil
	}
	return Target{}, errors.New("expected a PID, pid:PID, cgroup:/PATH, unit:NAME or container:NAME")
}

func hasUnitSuffix(s string) bool {
	for _, suf := range []string{".service", ".scope", ".slice"} {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// validName tells whether s may name a server, a database, a load or a
// test: it becomes part of file names.
func validName(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
