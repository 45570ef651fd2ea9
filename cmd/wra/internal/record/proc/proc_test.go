package proc

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

func TestParseStat(t *testing.T) {
	// A real /proc/<pid>/stat line (of a process named "a b) (c"), fields
	// 14-17 set to 11 22 33 44 by hand.
	line := "4242 (a b) (c) S 17 4242 4242 0 -1 4194560 100 0 0 0 11 22 33 44 20 0 1 0 5000 1000 100 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n"
	got, err := ParseStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := Stat{PID: 4242, PPID: 17, UTime: 11, STime: 22, CUTime: 33, CSTime: 44}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, bad := range []string{"", "12 no comm", "x (a) S 1 2 3", "12 (a) S 1 2 3 4 5 6 7 8 9 10 11", "12 (a) S 1 2 3 4 5 6 7 8 9 10 x 22 33 44"} {
		if _, err := ParseStat([]byte(bad)); err == nil {
			t.Errorf("ParseStat(%q): no error", bad)
		}
	}
}

// fakeProc writes a /proc tree: 1 -> 10 -> 11, and 2 -> 20 outside it.
func fakeProc(t *testing.T) FS {
	t.Helper()
	root := t.TempDir()
	procs := []struct {
		pid, ppid              int
		u, s, cu, cs           int
		rss, hwm, clean, dirty int
	}{
		{1, 0, 100, 50, 7, 3, 1000, 1500, 10, 200},
		{10, 1, 20, 10, 0, 0, 300, 400, 1, 2},
		{11, 10, 5, 5, 1, 1, 100, 100, 0, 50},
		{20, 2, 999, 999, 999, 999, 9999, 9999, 999, 999},
	}
	for _, p := range procs {
		dir := filepath.Join(root, strconv.Itoa(p.pid))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		stat := strconv.Itoa(p.pid) + " (worker " + strconv.Itoa(p.pid) + ") S " + strconv.Itoa(p.ppid) +
			" 1 1 0 -1 0 0 0 0 0 " + strconv.Itoa(p.u) + " " + strconv.Itoa(p.s) + " " + strconv.Itoa(p.cu) + " " + strconv.Itoa(p.cs) + " 20 0 1 0\n"
		status := "Name:\tworker\nVmHWM:\t" + strconv.Itoa(p.hwm) + " kB\nVmRSS:\t" + strconv.Itoa(p.rss) + " kB\nThreads:\t1\n"
		smaps := "00400000-7fff [rollup]\nRss: 1 kB\nPrivate_Clean:  " + strconv.Itoa(p.clean) + " kB\nPrivate_Dirty:  " + strconv.Itoa(p.dirty) + " kB\n"
		for name, text := range map[string]string{"stat": stat, "status": status, "smaps_rollup": smaps} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "self"), 0o755); err != nil { // non-numeric entries are skipped
		t.Fatal(err)
	}
	return FS{Root: root}
}

func TestTree(t *testing.T) {
	fs := fakeProc(t)
	got, err := fs.Tree(1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 10, 11}; !reflect.DeepEqual(got, want) {
		t.Errorf("Tree(1) = %v, want %v", got, want)
	}
	if _, err := fs.Tree(99); err == nil {
		t.Error("Tree(99) of a missing process: no error")
	}
}

func TestTreeCPUAndMemory(t *testing.T) {
	fs := fakeProc(t)
	cpu, err := fs.TreeCPU(1)
	if err != nil {
		t.Fatal(err)
	}
	// user: (100+7) + (20+0) + (5+1) = 133; kernel: (50+3) + (10+0) + (5+1) = 69.
	if want := (CPU{User: 133, Kernel: 69}); cpu != want {
		t.Errorf("TreeCPU = %+v, want %+v", cpu, want)
	}
	mem, err := fs.TreeMemory(1)
	if err != nil {
		t.Fatal(err)
	}
	// rss 1000+300+100, hwm 1500+400+100, private (10+200)+(1+2)+(0+50).
	if want := (Memory{RSSKiB: 1400, PeakRSSKiB: 2000, PrivateKiB: 263}); mem != want {
		t.Errorf("TreeMemory = %+v, want %+v", mem, want)
	}
}

func TestCPUSub(t *testing.T) {
	got := CPU{User: 10, Kernel: 3}.Sub(CPU{User: 4, Kernel: 5})
	if want := (CPU{User: 6, Kernel: 0}); got != want {
		t.Errorf("Sub = %+v, want %+v", got, want)
	}
	if Seconds(150) != 1.5 || MiB(1536) != 1.5 {
		t.Errorf("Seconds(150) = %v, MiB(1536) = %v; want 1.5 and 1.5", Seconds(150), MiB(1536))
	}
}

func TestReadKiBMissingKey(t *testing.T) {
	p := filepath.Join(t.TempDir(), "status")
	if err := os.WriteFile(p, []byte("VmRSS:\t12 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readKiB(p, "VmRSS", "VmHWM"); err == nil {
		t.Error("no error for a missing VmHWM line")
	}
	if err := os.WriteFile(p, []byte("VmRSS:\t12 MB\nVmHWM:\t1 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readKiB(p, "VmRSS", "VmHWM"); err == nil {
		t.Error("no error for a value not in kB")
	}
}

// TestLiveChildCPU checks on the real /proc that the CPU time of a child
// that has exited stays in the tree's total (through its parent's cutime):
// sh pipes 256 MiB through sha256sum, both children exit, and sh starts a
// sleep in the background before it says "done", so that the tree the test
// reads is sh and that sleep, whatever the machine's speed.
func TestLiveChildCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux /proc")
	}
	cmd := exec.Command("sh", "-c", "head -c 268435456 /dev/zero | sha256sum >/dev/null; sleep 30 & echo done; wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "done" {
		t.Fatalf("child did not finish: %q %v", sc.Text(), sc.Err())
	}
	fs := FS{Root: "/proc"}
	cpu, err := fs.TreeCPU(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	// Hashing 256 MiB takes well over 0.1 s of CPU on any machine that runs
	// this test (~0.6 s at 450 MB/s); sh itself uses ~0.
	if s := Seconds(cpu.User + cpu.Kernel); s < 0.1 {
		t.Errorf("tree CPU after the children exited = %v s, want >= 0.1 s", s)
	}
	tree, err := fs.Tree(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree) != 2 { // sh and its sleep
		t.Errorf("tree = %v, want sh and sleep", tree)
	}
}

// The real files of a process parse as the kernel wrote them.
func TestRealFiles(t *testing.T) {
	b, err := os.ReadFile("testdata/stat.txt")
	if err != nil {
		t.Fatal(err)
	}
	st, err := ParseStat(b)
	if err != nil || st.PID <= 0 || st.PPID <= 0 {
		t.Errorf("ParseStat(stat.txt) = %+v, %v", st, err)
	}
	v, err := readKiB("testdata/status.txt", "VmRSS", "VmHWM")
	if err != nil || v[0] == 0 || v[1] < v[0] {
		t.Errorf("status.txt: VmRSS, VmHWM = %v, %v", v, err)
	}
	if _, err := readKiB("testdata/smaps_rollup.txt", "Private_Clean", "Private_Dirty"); err != nil {
		t.Errorf("smaps_rollup.txt: %v", err)
	}
}

func FuzzParseStat(f *testing.F) {
	for _, name := range []string{"stat.txt", "status.txt", "smaps_rollup.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := ParseStat(b)
		if err == nil && st.PID < 0 {
			t.Fatalf("pid %d", st.PID)
		}
	})
}

func FuzzReadKiB(f *testing.F) {
	for _, name := range []string{"status.txt", "smaps_rollup.txt", "stat.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/3])
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "status")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		readKiB(p, "VmRSS", "VmHWM")
	})
}
