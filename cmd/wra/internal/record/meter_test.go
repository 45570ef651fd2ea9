package record

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/wra-bench/wra/cmd/wra/internal/record/cgroup"
)

// fakeHost is a host whose one cgroup hierarchy (v2) is a folder of the
// test's, and whose systemctl and docker answer as the test says.
func fakeHost(t *testing.T, answers map[string]string) (*Host, string) {
	t.Helper()
	dir := t.TempDir()
	mount := &cgroup.Mount{Version: cgroup.V2, Root: "/", Dir: dir, Controllers: []string{"memory"}}
	procDir := t.TempDir()
	h := &Host{Proc: procDir, Cgroups: &cgroup.System{Proc: procDir, Mounts: []*cgroup.Mount{mount}}, CPU: CPUAuto,
		Output: func(_ context.Context, name string, args ...string) ([]byte, error) {
			if a, ok := answers[name]; ok {
				return []byte(a), nil
			}
			return nil, errors.New(name + ": not found")
		}}
	return h, dir
}

func writeGroup(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A unit is read from the cgroup systemd names for it, and a container
// from the cgroup of its main process, as they are: CPU from cpu.stat,
// memory from memory.current and memory.stat.
func TestOpenUnitAndContainer(t *testing.T) {
	answers := map[string]string{"systemctl": "/system.slice/postgresql.service\n", "podman": "4242\n"}
	h, root := fakeHost(t, answers)
	writeGroup(t, filepath.Join(root, "system.slice", "postgresql.service"), map[string]string{
		"cpu.stat": "usage_usec 3000000\nuser_usec 2000000\nsystem_usec 1000000\n", "cgroup.procs": "",
		"memory.current": "10485760\n", "memory.stat": "anon 1\ninactive_file 2097152\n",
	})
	m, err := h.Open(context.Background(), Target{Name: "postgresql", Kind: TargetUnit, Value: "postgresql.service"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.ReadCPU()
	if err != nil || c != (CPUTime{TotalNS: 3e9, UserNS: 2e9, SystemNS: 1e9}) || m.CPUSource() != SourceCgroupV2 {
		t.Errorf("unit CPU %+v (%s), %v", c, m.CPUSource(), err)
	}
	mem, err := m.ReadMemory()
	if err != nil || !mem.WorkingSet.Valid || mem.WorkingSet.V != 8<<20 || m.MemorySource() != SourceCgroupV2 {
		t.Errorf("unit memory %+v (%s), %v; want a working set of 8 MiB", mem, m.MemorySource(), err)
	}
	// The container: docker is not there, podman names process 4242,
	// whose cgroup is the container's.
	writeGroup(t, filepath.Join(h.Proc, "4242"), map[string]string{"cgroup": "0::/machine.slice/libpod-abc.scope\n"})
	writeGroup(t, filepath.Join(root, "machine.slice", "libpod-abc.scope"), map[string]string{"cpu.stat": "usage_usec 5\nuser_usec 5\nsystem_usec 0\n"})
	m, err = h.Open(context.Background(), Target{Name: "db", Kind: TargetContainer, Value: "mariadb-1"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Where() != filepath.Join(root, "machine.slice", "libpod-abc.scope") {
		t.Errorf("container read from %s", m.Where())
	}
	answers["systemctl"] = "/system.slice/gone.service\n"
	if _, err := h.Open(context.Background(), Target{Name: "x", Kind: TargetUnit, Value: "gone.service"}); err == nil {
		t.Error("a unit whose cgroup is not there: no error")
	}
	h.CPU = CPUProc
	if _, err := h.Open(context.Background(), Target{Name: "x", Kind: TargetCgroup, Value: "/system.slice/postgresql.service"}); err == nil {
		t.Error("--cpu-source proc for a cgroup target: no error")
	}
}
