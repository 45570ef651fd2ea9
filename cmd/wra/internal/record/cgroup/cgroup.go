// Package cgroup reads and makes Linux control groups for wra record: it
// finds the hierarchies a machine has mounted (cgroup v1 controllers, a
// v2 hierarchy, or both), the cgroup of a process in each, the CPU
// counters of a cgroup (v1 cpuacct.usage, usage_user and usage_sys in
// nanoseconds; v2 cpu.stat usage_usec, user_usec and system_usec in
// microseconds) and
// its memory (v1 memory.usage_in_bytes, max_usage_in_bytes and memory.stat;
// v2 memory.current, memory.peak and memory.stat), and it makes a cgroup
// below another, moves processes into it and removes it again.
//
// A cgroup's counters include the time of every process that ran in it,
// those that have exited too, at the scheduler's precision: the total is
// the exact run time; the split into user and system time is the kernel's
// tick samples (at CONFIG_HZ, 250 or 1000 a second), which wra record
// scales to the exact total as the kernel does for v2 and for /proc.
package cgroup

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Version 1 or 2 of the cgroup interface.
const (
	V1 = 1
	V2 = 2
)

// Mount is one mounted cgroup hierarchy.
type Mount struct {
	Version int
	// Controllers are a v1 hierarchy's (from its mount options, such as
	// cpuacct or memory; name=systemd for a named one); for v2, those
	// listed in the root's cgroup.controllers.
	Controllers []string
	// Root is the cgroup of the hierarchy that is mounted at Dir ("/" but
	// in a container, which sees its own cgroup as the root).
	Root string
	Dir  string // the mount point
}

// Has tells whether the hierarchy has a controller.
func (m *Mount) Has(controller string) bool { return slices.Contains(m.Controllers, controller) }

// System is the cgroup hierarchies of a machine, read from /proc.
type System struct {
	Proc   string // the /proc folder ("/proc"; a test's folder in tests)
	Mounts []*Mount
}

// Detect reads the cgroup mounts of the machine from proc/self/mountinfo.
// A machine with none is a System without mounts, not an error.
func Detect(proc string) (*System, error) {
	p := filepath.Join(proc, "self", "mountinfo")
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	mounts, err := ParseMountinfo(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	for _, m := range mounts {
		if m.Version == V2 {
			if c, err := os.ReadFile(filepath.Join(m.Dir, "cgroup.controllers")); err == nil {
				m.Controllers = strings.Fields(string(c))
			}
		}
	}
	return &System{Proc: proc, Mounts: mounts}, nil
}

// ParseMountinfo returns the cgroup and cgroup2 mounts of a
// /proc/<pid>/mountinfo (proc(5)): "36 35 98:0 /root /mnt rw,noatime
// shared:1 - cgroup cgroup rw,cpuacct"; the optional fields end at "-",
// after which come the file system type, the source and the super
// options. A hierarchy mounted twice is kept once, at its first mount.
func ParseMountinfo(b []byte) ([]*Mount, error) {
	var out []*Mount
	seen := map[string]bool{}
	for n, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		sep := slices.Index(f, "-")
		if sep < 6 || len(f) < sep+4 {
			return nil, fmt.Errorf("line %d: expected \"ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - TYPE SOURCE SUPEROPTIONS\", found %q", n+1, clip(line))
		}
		typ, super := f[sep+1], f[sep+3]
		var m *Mount
		switch typ {
		case "cgroup":
			m = &Mount{Version: V1}
			for _, o := range strings.Split(super, ",") {
				switch {
				case o == "rw" || o == "ro" || strings.HasPrefix(o, "release_agent=") || o == "noprefix" || o == "clone_children" || o == "xattr" || o == "all" || o == "none" || o == "cpuset_v2_mode" || o == "favordynmods":
				default:
					m.Controllers = append(m.Controllers, o)
				}
			}
		case "cgroup2":
			m = &Mount{Version: V2}
		default:
			continue
		}
		m.Root, m.Dir = unescape(f[3]), unescape(f[4])
		key := typ + " " + strings.Join(m.Controllers, ",")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, m)
	}
	return out, nil
}

// unescape undoes mountinfo's octal escapes of space, tab, newline and
// backslash (\040, \011, \012, \134).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// CPUMount is the hierarchy whose counters CPU time is read from: v1's
// cpuacct hierarchy (nanoseconds) where version is V1, the v2 hierarchy
// (microseconds) where it is V2, and where it is 0 the first of them the
// machine has; nil where it has none.
func (s *System) CPUMount(version int) *Mount {
	for _, v := range []int{V1, V2} {
		if version != 0 && v != version {
			continue
		}
		for _, m := range s.Mounts {
			if m.Version == v && (v == V2 || m.Has("cpuacct")) {
				return m
			}
		}
	}
	return nil
}

// MemoryMount is the hierarchy of the memory controller: v1's memory
// hierarchy, or the v2 hierarchy where its root lists memory; nil where
// the machine has neither.
func (s *System) MemoryMount() *Mount {
	for _, v := range []int{V1, V2} {
		for _, m := range s.Mounts {
			if m.Version == v && m.Has("memory") {
				return m
			}
		}
	}
	return nil
}

// Group is one cgroup of one hierarchy.
type Group struct {
	Mount *Mount
	Path  string // the cgroup, as /proc/<pid>/cgroup names it ("/system.slice/x.service")
}

// Dir is the cgroup's folder.
func (g Group) Dir() string {
	rel := strings.TrimPrefix(path.Clean("/"+g.Path), path.Clean("/"+g.Mount.Root))
	return filepath.Join(g.Mount.Dir, filepath.FromSlash(rel))
}

func (g Group) String() string { return g.Dir() }

// Source names where the group's CPU figures come from, as a record
// says it: cgroup-v1 or cgroup-v2.
func (g Group) Source() string { return "cgroup-v" + strconv.Itoa(g.Mount.Version) }

// Exists tells whether the cgroup's folder is there.
func (g Group) Exists() bool {
	st, err := os.Stat(g.Dir())
	return err == nil && st.IsDir()
}

// ProcCgroup is one line of /proc/<pid>/cgroup: the hierarchy's ID, its
// controllers (empty for v2) and the process's cgroup in it.
type ProcCgroup struct {
	ID          int
	Controllers []string
	Path        string
}

// ParseProcCgroup parses /proc/<pid>/cgroup (cgroups(7)):
// "4:memory:/user.slice" per v1 hierarchy, "0::/user.slice" for v2.
func ParseProcCgroup(b []byte) ([]ProcCgroup, error) {
	var out []ProcCgroup
	for n, line := range strings.Split(string(b), "\n") {
		if line == "" {
			continue
		}
		id, rest, ok1 := strings.Cut(line, ":")
		ctl, p, ok2 := strings.Cut(rest, ":")
		v, err := strconv.Atoi(id)
		if !ok1 || !ok2 || err != nil || v < 0 || !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("line %d: expected \"ID:CONTROLLERS:/PATH\", found %q", n+1, clip(line))
		}
		c := ProcCgroup{ID: v, Path: p}
		if ctl != "" {
			c.Controllers = strings.Split(ctl, ",")
		}
		out = append(out, c)
	}
	return out, nil
}

// GroupOf is the cgroup of process pid in hierarchy m.
func (s *System) GroupOf(pid int, m *Mount) (Group, error) {
	p := filepath.Join(s.Proc, strconv.Itoa(pid), "cgroup")
	b, err := os.ReadFile(p)
	if err != nil {
		return Group{}, err
	}
	lines, err := ParseProcCgroup(b)
	if err != nil {
		return Group{}, fmt.Errorf("%s: %w", p, err)
	}
	for _, l := range lines {
		if m.Version == V2 && l.ID == 0 && len(l.Controllers) == 0 ||
			m.Version == V1 && l.ID != 0 && slices.Equal(l.Controllers, m.Controllers) {
			return Group{Mount: m, Path: l.Path}, nil
		}
	}
	return Group{}, fmt.Errorf("%s: process %d is in no cgroup of the hierarchy at %s", p, pid, m.Dir)
}

// CPU is a cgroup's CPU counters in nanoseconds: TotalNS is the
// scheduler's exact run time of its tasks (v1 cpuacct.usage, v2 cpu.stat
// usage_usec); UserNS and SystemNS are how the kernel split it between
// user and system mode, from tick samples (v1 cpuacct.usage_user and
// usage_sys, which need not add up to the total; v2 user_usec and
// system_usec, scaled by the kernel to add up to it).
type CPU struct{ TotalNS, UserNS, SystemNS int64 }

// CPU reads the group's CPU counters.
func (g Group) CPU() (CPU, error) {
	if g.Mount.Version == V1 {
		var c CPU
		for _, f := range []struct {
			name string
			dst  *int64
		}{{"cpuacct.usage", &c.TotalNS}, {"cpuacct.usage_user", &c.UserNS}, {"cpuacct.usage_sys", &c.SystemNS}} {
			v, err := readInt(filepath.Join(g.Dir(), f.name))
			if err != nil {
				return CPU{}, err
			}
			*f.dst = v
		}
		return c, nil
	}
	p := filepath.Join(g.Dir(), "cpu.stat")
	b, err := os.ReadFile(p)
	if err != nil {
		return CPU{}, err
	}
	kv, err := ParseKeyValues(b)
	if err != nil {
		return CPU{}, fmt.Errorf("%s: %w", p, err)
	}
	t, ok0 := kv["usage_usec"]
	u, ok1 := kv["user_usec"]
	s, ok2 := kv["system_usec"]
	if !ok0 || !ok1 || !ok2 {
		return CPU{}, fmt.Errorf("%s: expected usage_usec, user_usec and system_usec lines", p)
	}
	return CPU{TotalNS: t * 1000, UserNS: u * 1000, SystemNS: s * 1000}, nil
}

// ParseKeyValues parses a flat keyed cgroup file ("key value" per line:
// cpu.stat, memory.stat) into its values; a value must be a whole number
// >= 0 (the kernel writes nothing else in these files).
func ParseKeyValues(b []byte) (map[string]int64, error) {
	out := map[string]int64{}
	for n, line := range strings.Split(string(b), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: expected \"KEY VALUE\", found %q", n+1, clip(line))
		}
		v, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("line %d: %s: expected a whole number >= 0, found %q", n+1, f[0], clip(f[1]))
		}
		out[f[0]] = v
	}
	return out, nil
}

// ParseInt parses a cgroup file of one whole number >= 0
// (cpuacct.usage_user, memory.usage_in_bytes, memory.peak).
func ParseInt(b []byte) (int64, error) {
	s := string(bytes.TrimSpace(b))
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("expected a whole number >= 0, found %q", clip(s))
	}
	return v, nil
}

func readInt(p string) (int64, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	v, err := ParseInt(b)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p, err)
	}
	return v, nil
}

// Memory of a cgroup in bytes.
type Memory struct {
	// Usage is the memory charged to the group now (v1
	// memory.usage_in_bytes, v2 memory.current), page cache included.
	Usage int64
	// InactiveFile is page cache the kernel may take back first (v1
	// total_inactive_file, v2 inactive_file of memory.stat).
	InactiveFile int64
}

// WorkingSet is Usage less InactiveFile: the memory the group could not
// give up without paging (the working set of cAdvisor and Kubernetes).
func (m Memory) WorkingSet() int64 { return max(m.Usage-m.InactiveFile, 0) }

// Memory reads the group's memory now.
func (g Group) Memory() (Memory, error) {
	usage, stat, inactive := "memory.usage_in_bytes", "memory.stat", "total_inactive_file"
	if g.Mount.Version == V2 {
		usage, inactive = "memory.current", "inactive_file"
	}
	u, err := readInt(filepath.Join(g.Dir(), usage))
	if err != nil {
		return Memory{}, err
	}
	p := filepath.Join(g.Dir(), stat)
	b, err := os.ReadFile(p)
	if err != nil {
		return Memory{}, err
	}
	kv, err := ParseKeyValues(b)
	if err != nil {
		return Memory{}, fmt.Errorf("%s: %w", p, err)
	}
	return Memory{Usage: u, InactiveFile: kv[inactive]}, nil
}

// Peak follows the highest memory charged to a group from the moment
// it was made (StartPeak).
type Peak struct {
	g Group
	f *os.File // v2: memory.peak, reset for this descriptor
}

// StartPeak resets the group's peak to its usage now: a write of 0 to
// v1's memory.max_usage_in_bytes, or of "reset" to v2's memory.peak
// (Linux 6.12 and later; the reset holds for reads through the same
// descriptor, which Peak keeps open). It fails where the file cannot be
// written.
func (g Group) StartPeak() (*Peak, error) {
	if g.Mount.Version == V1 {
		if err := os.WriteFile(filepath.Join(g.Dir(), "memory.max_usage_in_bytes"), []byte("0"), 0); err != nil {
			return nil, err
		}
		return &Peak{g: g}, nil
	}
	f, err := os.OpenFile(filepath.Join(g.Dir(), "memory.peak"), os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if _, err := f.WriteString("reset\n"); err != nil {
		f.Close()
		return nil, err
	}
	return &Peak{g: g, f: f}, nil
}

// Bytes is the highest charge since StartPeak.
func (p *Peak) Bytes() (int64, error) {
	if p.f == nil {
		return readInt(filepath.Join(p.g.Dir(), "memory.max_usage_in_bytes"))
	}
	b := make([]byte, 64)
	n, err := p.f.ReadAt(b, 0)
	if err != nil && n == 0 {
		return 0, err
	}
	v, err := ParseInt(b[:n])
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.f.Name(), err)
	}
	return v, nil
}

// Close releases the peak's descriptor.
func (p *Peak) Close() error {
	if p.f == nil {
		return nil
	}
	return p.f.Close()
}

// Procs lists the processes in the group (cgroup.procs).
func (g Group) Procs() ([]int, error) {
	p := filepath.Join(g.Dir(), "cgroup.procs")
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil {
			return nil, fmt.Errorf("%s: expected a process id per line, found %q", p, clip(sc.Text()))
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// Add moves process pid (all its threads) into the group; its children
// from then on are born in it.
func (g Group) Add(pid int) error {
	return os.WriteFile(filepath.Join(g.Dir(), "cgroup.procs"), []byte(strconv.Itoa(pid)), 0)
}

// ErrNotWritable is returned by Create where the machine lets this
// process make no cgroup there (not root, a read-only mount, a container).
var ErrNotWritable = errors.New("cgroup not writable")

// Create makes the cgroup name below parent; where this process may not
// (not root, a read-only mount), the error is ErrNotWritable.
func Create(parent Group, name string) (Group, error) {
	g := Group{Mount: parent.Mount, Path: path.Join(parent.Path, name)}
	if err := os.Mkdir(g.Dir(), 0o755); err != nil {
		if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS) {
			return Group{}, fmt.Errorf("%w: %v", ErrNotWritable, err)
		}
		return Group{}, err
	}
	return g, nil
}

// Remove removes the (empty) group.
func (g Group) Remove() error { return os.Remove(g.Dir()) }
