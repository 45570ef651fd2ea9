package cgroup

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The real mountinfo of a machine with v1 controllers beside a v2
// hierarchy: every cgroup mount, with its controllers, and nothing else
// (tmpfs, proc, the root).
func TestParseMountinfoHybrid(t *testing.T) {
	ms, err := ParseMountinfo(read(t, "mountinfo-v1-v2-hybrid.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, strconv.Itoa(m.Version)+" "+m.Dir+" "+m.Root+" "+strings.Join(m.Controllers, ","))
	}
	want := []string{
		"1 /sys/fs/cgroup/cpu / cpu", "1 /sys/fs/cgroup/cpuacct / cpuacct", "1 /sys/fs/cgroup/cpuset / cpuset",
		"1 /sys/fs/cgroup/memory / memory", "1 /sys/fs/cgroup/devices / devices", "1 /sys/fs/cgroup/freezer / freezer",
		"1 /sys/fs/cgroup/blkio / blkio", "1 /sys/fs/cgroup/pids / pids", "1 /sys/fs/cgroup/systemd / name=systemd",
		"2 /sys/fs/cgroup/unified / ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mounts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	s := &System{Mounts: ms}
	if m := s.CPUMount(0); m == nil || m.Dir != "/sys/fs/cgroup/cpuacct" {
		t.Errorf("CPUMount(0) = %+v, want the cpuacct hierarchy", m)
	}
	if m := s.CPUMount(V2); m == nil || m.Dir != "/sys/fs/cgroup/unified" {
		t.Errorf("CPUMount(V2) = %+v, want the v2 hierarchy", m)
	}
	if m := s.MemoryMount(); m == nil || m.Dir != "/sys/fs/cgroup/memory" {
		t.Errorf("MemoryMount = %+v, want v1's memory (the v2 root lists no memory)", m)
	}
}

// A container's view: a mount root below the hierarchy's root, and a
// mount point with a space, escaped as mountinfo escapes it.
func TestParseMountinfoRootAndEscapes(t *testing.T) {
	in := "30 25 0:26 /docker/abc /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n" +
		"31 25 0:27 / /mnt/my\\040cg rw - cgroup cgroup rw,cpu,cpuacct\n"
	ms, err := ParseMountinfo([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Root != "/docker/abc" || ms[1].Dir != "/mnt/my cg" || !ms[1].Has("cpuacct") || !ms[1].Has("cpu") {
		t.Fatalf("mounts %+v %+v", ms[0], ms[1])
	}
	g := Group{Mount: ms[0], Path: "/docker/abc/sub"}
	if d := g.Dir(); d != "/sys/fs/cgroup/sub" {
		t.Errorf("Dir of a cgroup below the mount's root = %q, want /sys/fs/cgroup/sub", d)
	}
}

func TestParseMountinfoErrors(t *testing.T) {
	for _, in := range []string{
		"36 35 98:0 /mnt1 /mnt2 rw\n",          // no separator
		"36 35 98:0 /mnt1 /mnt2 rw - cgroup\n", // truncated after it
		string(read(t, "v2-cpu.stat")),         // another file altogether
	} {
		if _, err := ParseMountinfo([]byte(in)); err == nil || !strings.HasPrefix(err.Error(), "line 1: expected") {
			t.Errorf("ParseMountinfo(%q) = %v, want a line 1 error", in, err)
		}
	}
}

func TestParseProcCgroup(t *testing.T) {
	lines, err := ParseProcCgroup(read(t, "proc-self-cgroup-hybrid.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 10 || lines[5].Path != "/batch/job-1" || !reflect.DeepEqual(lines[5].Controllers, []string{"memory"}) ||
		lines[9].ID != 0 || lines[9].Controllers != nil || lines[9].Path != "/" {
		t.Errorf("lines %+v", lines)
	}
	for _, bad := range []string{"memory:/x\n", "x:cpu:/\n", "1:cpu:relative\n", "-1:cpu:/\n"} {
		if _, err := ParseProcCgroup([]byte(bad)); err == nil {
			t.Errorf("ParseProcCgroup(%q): no error", bad)
		}
	}
}

func TestParseKeyValues(t *testing.T) {
	kv, err := ParseKeyValues(read(t, "v2-cpu.stat"))
	if err != nil {
		t.Fatal(err)
	}
	if kv["usage_usec"] != 229385218 || kv["user_usec"] != 163835399 || kv["system_usec"] != 65549818 {
		t.Errorf("cpu.stat: %v", kv)
	}
	mem, err := ParseKeyValues(read(t, "v1-memory.stat"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := mem["total_inactive_file"]; !ok || mem["cache"] != 417849344 {
		t.Errorf("memory.stat: %v", mem)
	}
	for _, bad := range []string{"usage_usec\n", "usage_usec -1\n", "usage_usec 1 2\n", "usage_usec 1e3\n"} {
		if _, err := ParseKeyValues([]byte(bad)); err == nil {
			t.Errorf("ParseKeyValues(%q): no error", bad)
		}
	}
}

func TestParseInt(t *testing.T) {
	if v, err := ParseInt(read(t, "v1-cpuacct.usage_user")); err != nil || v <= 0 {
		t.Errorf("usage_user: %d, %v", v, err)
	}
	for _, bad := range []string{"", "max\n", "-5\n", "12 13\n"} {
		if _, err := ParseInt([]byte(bad)); err == nil {
			t.Errorf("ParseInt(%q): no error", bad)
		}
	}
}

// A cgroup in a folder laid out as the kernel lays it out: CPU,
// memory and processes read from their files; v1's user and system
// samples beside its exact total.
func TestGroupFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"cpuacct.usage": "3000000000\n", "cpuacct.usage_user": "2000000000\n", "cpuacct.usage_sys": "800000000\n",
		"memory.usage_in_bytes": "10485760\n", "memory.stat": "cache 4096\ntotal_inactive_file 2097152\n",
		"cgroup.procs": "12\n13\n",
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := Group{Mount: &Mount{Version: V1, Root: "/", Dir: dir}, Path: "/"}
	cpu, err := g.CPU()
	if err != nil || cpu != (CPU{TotalNS: 3e9, UserNS: 2e9, SystemNS: 8e8}) {
		t.Errorf("CPU = %+v, %v", cpu, err)
	}
	mem, err := g.Memory()
	if err != nil || mem.WorkingSet() != 8<<20 {
		t.Errorf("Memory = %+v (working set %d), %v; want 8 MiB", mem, mem.WorkingSet(), err)
	}
	procs, err := g.Procs()
	if err != nil || !reflect.DeepEqual(procs, []int{12, 13}) {
		t.Errorf("Procs = %v, %v", procs, err)
	}
	v2 := Group{Mount: &Mount{Version: V2, Root: "/", Dir: dir}, Path: "/"}
	os.WriteFile(filepath.Join(dir, "cpu.stat"), []byte("usage_usec 10\nuser_usec 7\n"), 0o644)
	if _, err := v2.CPU(); err == nil {
		t.Error("a cpu.stat without system_usec: no error")
	}
}

// Create reports a folder it may not write as ErrNotWritable.
func TestCreateNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any folder")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o555)
	_, err := Create(Group{Mount: &Mount{Version: V2, Root: "/", Dir: dir}, Path: "/"}, "x")
	if !errors.Is(err, ErrNotWritable) {
		t.Errorf("Create in a read-only folder: %v, want ErrNotWritable", err)
	}
}

func fuzzSeeds(f *testing.F) {
	for _, name := range []string{"mountinfo-v1-v2-hybrid.txt", "proc-self-cgroup-hybrid.txt", "v2-cpu.stat", "v1-memory.stat", "v1-cpuacct.usage_user"} {
		b := read(f, name)
		f.Add(b)
		f.Add(b[:len(b)/2]) // cut short
	}
	f.Add([]byte{})
	f.Add([]byte("4242 (sh) S 1 4242 4242 0 -1 4194560 100 0 0 0 11 22 33 44 20 0 1 0\n")) // a /proc stat line
}

func FuzzParseMountinfo(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := ParseMountinfo(b)
		if err == nil {
			for _, m := range ms {
				if m.Version != V1 && m.Version != V2 {
					t.Fatalf("version %d", m.Version)
				}
			}
		}
	})
}

func FuzzParseProcCgroup(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		lines, err := ParseProcCgroup(b)
		if err == nil {
			for _, l := range lines {
				if !strings.HasPrefix(l.Path, "/") || l.ID < 0 {
					t.Fatalf("line %+v", l)
				}
			}
		}
	})
}

func FuzzParseKeyValues(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		kv, err := ParseKeyValues(b)
		if err == nil {
			for k, v := range kv {
				if v < 0 || k == "" {
					t.Fatalf("%q = %d", k, v)
				}
			}
		}
		if v, err := ParseInt(b); err == nil && v < 0 {
			t.Fatalf("ParseInt = %d", v)
		}
	})
}
