package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/wra-bench/wra/cmd/wra/internal/record/cgroup"
	"github.com/wra-bench/wra/cmd/wra/internal/record/proc"
)

// Sources of a figure, as a record names them (cpu_source,
// memory_source and their db_ twins).
const (
	SourceCgroupV1 = "cgroup-v1"  // v1 cpuacct (ns) or memory controller
	SourceCgroupV2 = "cgroup-v2"  // v2 cpu.stat (µs) or memory controller
	SourceProc     = "proc-ticks" // /proc/<pid>/stat of a process tree, in 10 ms clock ticks
	SourceProcMem  = "proc"       // VmRSS, VmHWM and smaps_rollup of the processes
)

// CPU choices of Host.CPU (wra record --cpu-source).
const (
	CPUAuto = "auto"
	CPUV1   = SourceCgroupV1
	CPUV2   = SourceCgroupV2
	CPUProc = "proc"
)

// CPUChoices are the values --cpu-source takes.
var CPUChoices = []string{CPUAuto, CPUV1, CPUV2, CPUProc}

// Host is the machine wra record measures on: its /proc, its cgroup
// hierarchies and the programs it asks about units and containers.
type Host struct {
	Proc    string         // "/proc"
	Cgroups *cgroup.System // the mounted hierarchies; nil or none: /proc only
	CPU     string         // one of CPUChoices; "" is CPUAuto
	Self    int            // this process's id, the parent of the cgroups it makes
	Prefix  string         // of the cgroups it makes: wra-record-<pid>
	Output  func(ctx context.Context, name string, args ...string) ([]byte, error)
	seq     atomic.Int64
}

// cpuMount is the hierarchy CPU is read from under h.CPU, nil for /proc.
func (h *Host) cpuMount() *cgroup.Mount {
	if h.Cgroups == nil {
		return nil
	}
	switch h.CPU {
	case CPUProc:
		return nil
	case CPUV1:
		return h.Cgroups.CPUMount(cgroup.V1)
	case CPUV2:
		return h.Cgroups.CPUMount(cgroup.V2)
	}
	return h.Cgroups.CPUMount(0)
}

func (h *Host) memMount() *cgroup.Mount {
	if h.Cgroups == nil {
		return nil
	}
	return h.Cgroups.MemoryMount()
}

func (h *Host) procFS() proc.FS { return proc.FS{Root: h.Proc} }

// newName is a name for a cgroup of this process's own.
func (h *Host) newName() string {
	return fmt.Sprintf("%s-%d", h.Prefix, h.seq.Add(1))
}

// create makes a cgroup of this process's own below parent. A name a
// cgroup already has (left by a process of the same pid that was killed
// before it could remove it) is passed over for the next.
func (h *Host) create(parent cgroup.Group) (cgroup.Group, error) {
	for range 64 {
		g, err := cgroup.Create(parent, h.newName())
		if !errors.Is(err, fs.ErrExist) {
			return g, err
		}
	}
	return cgroup.Group{}, fmt.Errorf("below %s: 64 names of %s-N taken", parent.Dir(), h.Prefix)
}

// Meter reads the CPU and memory of one server or database: from a
// cgroup where one can be had, else from the /proc process tree of Root.
type Meter struct {
	Target Target
	// Note says why a figure comes from where it does, where that is not
	// the first choice ("no cgroup could be made: …"), for stderr.
	Note string

	host  *Host
	cpu   *cgroup.Group // nil: /proc ticks of the tree at root
	mem   *cgroup.Group // nil: /proc of the processes
	root  int           // the tree's root for /proc, 0 for a cgroup target
	peak  *cgroup.Peak
	undo  []func() error
	moved bool // a cgroup made for the target, its processes moved in
}

// CPUSource names where the meter's CPU comes from.
func (m *Meter) CPUSource() string {
	if m.cpu == nil {
		return SourceProc
	}
	return m.cpu.Source()
}

// MemorySource names where the meter's working set and peak come from.
func (m *Meter) MemorySource() string {
	if m.mem == nil {
		return SourceProcMem
	}
	return m.mem.Source()
}

// Where names the cgroup or the process tree read, for messages.
func (m *Meter) Where() string {
	if m.cpu == nil {
		return fmt.Sprintf("the process tree of %d in /proc", m.root)
	}
	return m.cpu.Dir()
}

// CPUTime is CPU time in nanoseconds: a total and its split into user
// and system time. A reading of a cgroup keeps the kernel's tick
// samples of the split beside the exact total; Sub scales the samples'
// split to the total's change.
type CPUTime struct{ TotalNS, UserNS, SystemNS int64 }

// Sub is the CPU time from earlier to c: the total's change, split
// between user and system as the samples' changes are (all user where
// no tick fell in between). A counter that fell (it cannot, from a
// cgroup; a process left a /proc tree unwaited) counts as 0.
func (c CPUTime) Sub(earlier CPUTime) CPUTime {
	t := max(c.TotalNS-earlier.TotalNS, 0)
	u := max(c.UserNS-earlier.UserNS, 0)
	s := max(c.SystemNS-earlier.SystemNS, 0)
	if u+s == 0 {
		return CPUTime{TotalNS: t, UserNS: t}
	}
	user := int64(float64(t) * float64(u) / float64(u+s))
	return CPUTime{TotalNS: t, UserNS: user, SystemNS: t - user}
}

// ReadCPU reads the meter's CPU counters now.
func (m *Meter) ReadCPU() (CPUTime, error) {
	if m.cpu != nil {
		c, err := m.cpu.CPU()
		if err != nil {
			return CPUTime{}, fmt.Errorf("%s: %w", m.Target.Name, err)
		}
		return CPUTime{TotalNS: c.TotalNS, UserNS: c.UserNS, SystemNS: c.SystemNS}, nil
	}
	c, err := m.host.procFS().TreeCPU(m.root)
	if err != nil {
		return CPUTime{}, fmt.Errorf("%s: %w", m.Target.Name, err)
	}
	const ns = 1e9 / proc.UserHZ
	return CPUTime{TotalNS: int64(c.User+c.Kernel) * ns, UserNS: int64(c.User) * ns, SystemNS: int64(c.Kernel) * ns}, nil
}

// PIDs are the processes measured now.
func (m *Meter) PIDs() ([]int, error) {
	if m.cpu != nil {
		return m.cpu.Procs()
	}
	return m.host.procFS().Tree(m.root)
}

// StartRun resets the peaks before a run: the cgroup's memory peak
// where the meter has one of its own, and each process's peak resident
// set.
func (m *Meter) StartRun() error {
	if m.mem != nil && m.peak == nil {
		if p, err := m.mem.StartPeak(); err == nil {
			m.peak = p
		}
	}
	pids, err := m.PIDs()
	if err != nil {
		return fmt.Errorf("%s: %w", m.Target.Name, err)
	}
	m.host.procFS().ResetPeaks(pids)
	return nil
}

// Memory is what a meter reads of memory after a run, in bytes; a figure
// the source does not have is NULL.
type Memory struct {
	WorkingSet Opt[int64] // cgroup usage less inactive file, or the sum of VmRSS
	Peak       Opt[int64] // the cgroup's highest charge since StartRun (page cache included)
	PeakRSS    Opt[int64] // the sum of the processes' VmHWM since StartRun
	Private    Opt[int64] // the sum of Private_Clean + Private_Dirty (smaps_rollup)
}

// ReadMemory reads the meter's memory now.
func (m *Meter) ReadMemory() (Memory, error) {
	var out Memory
	pids, err := m.PIDs()
	if err != nil {
		return out, fmt.Errorf("%s: %w", m.Target.Name, err)
	}
	pm, err := m.host.procFS().MemoryOf(pids, m.root)
	if err != nil {
		return out, fmt.Errorf("%s: %w", m.Target.Name, err)
	}
	if len(pids) > 0 {
		out.PeakRSS = some(int64(pm.PeakRSSKiB) << 10)
		out.Private = some(int64(pm.PrivateKiB) << 10)
		out.WorkingSet = some(int64(pm.RSSKiB) << 10)
	}
	if m.mem != nil {
		cm, err := m.mem.Memory()
		if err != nil {
			return out, fmt.Errorf("%s: %w", m.Target.Name, err)
		}
		out.WorkingSet = some(cm.WorkingSet())
		if m.peak != nil {
			if b, err := m.peak.Bytes(); err == nil {
				out.Peak = some(b)
			}
		}
	}
	return out, nil
}

// Close undoes what opening the meter did: it moves processes back to
// the cgroup they came from and removes the cgroups it made.
func (m *Meter) Close() error {
	var errs []error
	if m.peak != nil {
		errs = append(errs, m.peak.Close())
		m.peak = nil
	}
	for i := len(m.undo) - 1; i >= 0; i-- {
		errs = append(errs, m.undo[i]())
	}
	m.undo = nil
	return errors.Join(errs...)
}

// Open makes the meter of a target that is there already: a PID (its
// tree, through a cgroup made for it below the one it is in, or
// through its own cgroup where that holds the tree alone, else /proc),
// a cgroup, a unit or a container (their cgroup, read as it is).
func (h *Host) Open(ctx context.Context, t Target) (*Meter, error) {
	m := &Meter{Target: t, host: h}
	switch t.Kind {
	case TargetPID:
		pid, _ := strconv.Atoi(t.Value)
		return m, h.openPID(m, pid)
	case TargetCgroup:
		return m, h.openCgroup(m, t.Value)
	case TargetUnit:
		if h.Output == nil {
			return nil, fmt.Errorf("%s: cannot ask systemd for unit %s here", t.Name, t.Value)
		}
		out, err := h.Output(ctx, "systemctl", "show", "--property=ControlGroup", "--value", t.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: systemctl show %s: %w", t.Name, t.Value, err)
		}
		p := strings.TrimSpace(string(out))
		if !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("%s: unit %s has no cgroup (is it running?); systemctl said %q", t.Name, t.Value, clip(p))
		}
		return m, h.openCgroup(m, p)
	case TargetContainer:
		pid, err := h.containerPID(ctx, t.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		mount := h.cpuMount()
		if mount == nil {
			return nil, fmt.Errorf("%s: container %s: no cgroup hierarchy to read it from", t.Name, t.Value)
		}
		g, err := h.Cgroups.GroupOf(pid, mount)
		if err != nil {
			return nil, fmt.Errorf("%s: container %s: %w", t.Name, t.Value, err)
		}
		return m, h.openCgroup(m, g.Path)
	}
	return nil, fmt.Errorf("%s: cannot open a target of kind %q", t.Name, t.Kind)
}

// containerPID asks docker, then podman, for the main process of a
// container.
func (h *Host) containerPID(ctx context.Context, name string) (int, error) {
	if h.Output == nil {
		return 0, fmt.Errorf("cannot ask docker or podman for container %s here", name)
	}
	var errs []error
	for _, tool := range []string{"docker", "podman"} {
		out, err := h.Output(ctx, tool, "inspect", "--format", "{{.State.Pid}}", name)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s inspect: %w", tool, err))
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil || pid < 1 {
			return 0, fmt.Errorf("container %s is not running (%s inspect gave its process as %q)", name, tool, clip(strings.TrimSpace(string(out))))
		}
		return pid, nil
	}
	return 0, fmt.Errorf("container %s: %w", name, errors.Join(errs...))
}

// openCgroup reads a cgroup as it is: p is a cgroup path, or a folder
// under a mount of the hierarchy.
func (h *Host) openCgroup(m *Meter, p string) error {
	if h.CPU == CPUProc {
		return fmt.Errorf("%s: a cgroup is read from its own counters; --cpu-source proc applies to a PID or --server-cmd", m.Target.Name)
	}
	if h.Cgroups == nil || len(h.Cgroups.Mounts) == 0 {
		return fmt.Errorf("%s: this machine has no cgroup hierarchy mounted", m.Target.Name)
	}
	groups := h.groupsAt(p)
	mounts := []*cgroup.Mount{h.cpuMount()}
	if h.CPU == "" || h.CPU == CPUAuto {
		mounts = append(mounts, h.Cgroups.CPUMount(cgroup.V2))
	}
	for _, mt := range mounts {
		if g, ok := groups[mt]; ok && mt != nil {
			m.cpu = &g
			break
		}
	}
	if m.cpu == nil {
		return fmt.Errorf("%s: cgroup %s: no CPU counters found for it (in %s)", m.Target.Name, p, mountDirs(h.Cgroups.Mounts))
	}
	if g, ok := groups[h.memMount()]; ok {
		m.mem = &g
	}
	return nil
}

// groupsAt finds cgroup p in every hierarchy that has it.
func (h *Host) groupsAt(p string) map[*cgroup.Mount]cgroup.Group {
	out := map[*cgroup.Mount]cgroup.Group{}
	for _, mt := range h.Cgroups.Mounts {
		g := cgroup.Group{Mount: mt, Path: p}
		if rel, err := filepath.Rel(mt.Dir, p); err == nil && !strings.HasPrefix(rel, "..") && filepath.IsAbs(p) && strings.HasPrefix(p, mt.Dir+"/") {
			g.Path = filepath.ToSlash(filepath.Join(mt.Root, rel)) // a folder under the mount
		}
		if g.Exists() {
			out[mt] = g
		}
	}
	return out
}

func mountDirs(ms []*cgroup.Mount) string {
	var ds []string
	for _, m := range ms {
		ds = append(ds, m.Dir)
	}
	return strings.Join(ds, ", ")
}

// openPID measures the tree of pid. Its own cgroup is read as it is where
// it holds that tree alone (a service or a container); else a cgroup is
// made for it below the one it is in (keeping that one's limits), the
// tree moved into it (children born later follow) and moved back on
// Close; where neither can be had, the tree is read from /proc.
func (h *Host) openPID(m *Meter, pid int) error {
	fs := h.procFS()
	tree, err := fs.Tree(pid)
	if err != nil {
		return fmt.Errorf("%s: %w", m.Target.Name, err)
	}
	m.root = pid
	mount := h.cpuMount()
	if mount == nil {
		m.Note = h.procNote()
		return nil
	}
	g, err := h.Cgroups.GroupOf(pid, mount)
	if err != nil {
		m.Note = fmt.Sprintf("CPU from /proc: %v", err)
		return nil
	}
	if own, _ := holdsOnly(g, tree); own {
		m.cpu, m.root = &g, 0
		if mm := h.memMount(); mm != nil {
			if mg, err := h.Cgroups.GroupOf(pid, mm); err == nil {
				if own, _ := holdsOnly(mg, tree); own {
					m.mem = &mg
				}
			}
		}
		return nil
	}
	child, err := h.create(g)
	if err != nil {
		m.Note = fmt.Sprintf("CPU from /proc in clock ticks: no cgroup could be made below %s (%v)", g.Dir(), err)
		return nil
	}
	m.undo = append(m.undo, func() error { return moveBack(child, g) })
	for _, p := range tree {
		if err := child.Add(p); err != nil && !errors.Is(err, syscall.ESRCH) {
			err = fmt.Errorf("%s: moving process %d into %s: %w", m.Target.Name, p, child.Dir(), err)
			return errors.Join(err, m.Close())
		}
	}
	// Memory charged before the move stays with the old cgroup: the
	// tree's memory is read from /proc.
	m.cpu, m.root, m.moved = &child, 0, true
	return nil
}

func (h *Host) procNote() string {
	if h.CPU == CPUProc {
		return "CPU from /proc in clock ticks, as --cpu-source proc asks"
	}
	return "CPU from /proc in clock ticks: this machine has no cgroup hierarchy with CPU counters"
}

// holdsOnly tells whether cgroup g holds processes of tree and no other.
func holdsOnly(g cgroup.Group, tree []int) (bool, error) {
	if g.Path == "/" || g.Path == g.Mount.Root {
		return false, nil // the root holds every process of the machine
	}
	procs, err := g.Procs()
	if err != nil || len(procs) == 0 {
		return false, err
	}
	for _, p := range procs {
		if !slices.Contains(tree, p) {
			return false, nil
		}
	}
	return true, nil
}

// moveBack moves every process of child to parent and removes child.
func moveBack(child, parent cgroup.Group) error {
	procs, err := child.Procs()
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range procs {
		if err := parent.Add(p); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, err)
		}
	}
	if err := child.Remove(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// NewHost is the machine this process runs on: /proc, its cgroup mounts,
// and the CPU choice.
func NewHost(cpu string, output func(ctx context.Context, name string, args ...string) ([]byte, error)) (*Host, error) {
	if cpu == "" {
		cpu = CPUAuto
	}
	if !slices.Contains(CPUChoices, cpu) {
		return nil, fmt.Errorf("--cpu-source %q: expected one of %s", cpu, strings.Join(CPUChoices, ", "))
	}
	h := &Host{Proc: "/proc", CPU: cpu, Self: os.Getpid(), Output: output}
	h.Prefix = "wra-record-" + strconv.Itoa(h.Self)
	sys, err := cgroup.Detect(h.Proc)
	if err != nil {
		return nil, err
	}
	h.Cgroups = sys
	if (cpu == CPUV1 || cpu == CPUV2) && h.cpuMount() == nil {
		return nil, fmt.Errorf("--cpu-source %s: this machine has no such hierarchy with CPU counters mounted (it has %s)", cpu, describeMounts(sys))
	}
	return h, nil
}

func describeMounts(s *cgroup.System) string {
	if len(s.Mounts) == 0 {
		return "none"
	}
	var b bytes.Buffer
	for i, m := range s.Mounts {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "v%d %s", m.Version, m.Dir)
		if len(m.Controllers) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(m.Controllers, ","))
		}
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}
