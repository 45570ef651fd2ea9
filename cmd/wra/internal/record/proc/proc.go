// Package proc reads CPU time and memory of a process tree from Linux's
// /proc, the way wra record accounts a server (all its processes and
// threads) or a database (PostgreSQL's postmaster and every backend it
// forks) where no cgroup can be had for it.
//
// CPU: the sum over the live tree of utime+stime plus cutime+cstime (the
// time of children that exited and were waited for by a process of the
// tree), so that a backend that exits between two readings keeps its time in
// the total through its parent. Memory: VmRSS (working set), VmHWM (peak
// resident set) from status and Private_Clean+Private_Dirty from
// smaps_rollup, summed over the tree. The times are clock ticks (10 ms):
// a figure read here is coarse for a short run, and wra record says so.
package proc

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// UserHZ is the unit of the times in /proc/<pid>/stat (clock ticks per
// second): USER_HZ is fixed at 100 by the kernel ABI on every architecture Go
// runs Linux on (x86, arm, arm64, ppc64, s390x, riscv64, mips, loong64).
const UserHZ = 100

// FS reads a /proc file system rooted at Root ("/proc" on a live system; a
// test folder in tests).
type FS struct{ Root string }

// Stat is the part of /proc/<pid>/stat wra record uses; times in ticks.
type Stat struct {
	PID, PPID                    int
	UTime, STime, CUTime, CSTime uint64
}

// ParseStat parses the content of /proc/<pid>/stat. The command name (field
// 2) is in parentheses and may itself hold spaces and parentheses, so the
// fields are counted from the last ')'.
func ParseStat(b []byte) (Stat, error) {
	var s Stat
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 1 || end < open {
		return s, fmt.Errorf("stat: no (comm) field in %q", truncate(b))
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return s, fmt.Errorf("stat: pid: %w", err)
	}
	s.PID = pid
	f := strings.Fields(string(b[end+1:]))
	// f[0] is field 3 (state); field n is f[n-3].
	if len(f) < 17-3+1 {
		return s, fmt.Errorf("stat: %d fields after comm, want at least 15", len(f))
	}
	if s.PPID, err = strconv.Atoi(f[4-3]); err != nil {
		return s, fmt.Errorf("stat: ppid: %w", err)
	}
	for i, dst := range []*uint64{&s.UTime, &s.STime, &s.CUTime, &s.CSTime} {
		v, err := strconv.ParseInt(f[14-3+i], 10, 64)
		if err != nil {
			return s, fmt.Errorf("stat: field %d: %w", 14+i, err)
		}
		if v < 0 { // cutime/cstime are signed in the kernel's format; never negative in practice
			v = 0
		}
		*dst = uint64(v)
	}
	return s, nil
}

func truncate(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

// Tree returns root and all its descendants, root first, the rest by pid.
// It fails if root does not exist.
func (fs FS) Tree(root int) ([]int, error) {
	if _, err := os.Stat(filepath.Join(fs.Root, strconv.Itoa(root))); err != nil {
		return nil, fmt.Errorf("process %d: %w", root, err)
	}
	entries, err := os.ReadDir(fs.Root)
	if err != nil {
		return nil, err
	}
	children := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(fs.Root, e.Name(), "stat"))
		if err != nil {
			continue // exited while we were reading
		}
		st, err := ParseStat(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(fs.Root, e.Name(), "stat"), err)
		}
		children[st.PPID] = append(children[st.PPID], pid)
	}
	tree := []int{root}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, children[tree[i]]...)
	}
	sort.Ints(tree[1:])
	return tree, nil
}

// CPU is CPU time of a process tree in clock ticks (see UserHZ).
type CPU struct{ User, Kernel uint64 }

// Sub returns c - earlier, per field; a field that went down (a process
// left the tree without being waited for inside it) counts as zero.
func (c CPU) Sub(earlier CPU) CPU {
	d := func(a, b uint64) uint64 {
		if a < b {
			return 0
		}
		return a - b
	}
	return CPU{User: d(c.User, earlier.User), Kernel: d(c.Kernel, earlier.Kernel)}
}

// Seconds converts ticks to seconds.
func Seconds(ticks uint64) float64 { return float64(ticks) / UserHZ }

// TreeCPU sums user and kernel time over the tree rooted at root.
func (fs FS) TreeCPU(root int) (CPU, error) {
	pids, err := fs.Tree(root)
	if err != nil {
		return CPU{}, err
	}
	var c CPU
	for _, pid := range pids {
		b, err := os.ReadFile(filepath.Join(fs.Root, strconv.Itoa(pid), "stat"))
		if err != nil {
			if pid == root {
				return CPU{}, err
			}
			continue // a child exited: its time is now in its parent's cutime/cstime
		}
		st, err := ParseStat(b)
		if err != nil {
			return CPU{}, err
		}
		c.User += st.UTime + st.CUTime
		c.Kernel += st.STime + st.CSTime
	}
	return c, nil
}

// Memory of a process tree in KiB.
type Memory struct {
	RSSKiB, PeakRSSKiB, PrivateKiB uint64
}

// MiB converts KiB to MiB (2^20 bytes).
func MiB(kib uint64) float64 { return float64(kib) / 1024 }

// TreeMemory sums VmRSS, VmHWM and private memory over the tree.
func (fs FS) TreeMemory(root int) (Memory, error) {
	pids, err := fs.Tree(root)
	if err != nil {
		return Memory{}, err
	}
	return fs.MemoryOf(pids, root)
}

// MemoryOf sums VmRSS, VmHWM and private memory over pids; a process
// that exited meanwhile is left out, but for must (0: none), whose
// absence is an error.
func (fs FS) MemoryOf(pids []int, must int) (Memory, error) {
	var m Memory
	for _, pid := range pids {
		dir := filepath.Join(fs.Root, strconv.Itoa(pid))
		st, err := readKiB(filepath.Join(dir, "status"), "VmRSS", "VmHWM")
		if err == nil {
			var pr []uint64
			if pr, err = readKiB(filepath.Join(dir, "smaps_rollup"), "Private_Clean", "Private_Dirty"); err == nil {
				m.RSSKiB += st[0]
				m.PeakRSSKiB += st[1]
				m.PrivateKiB += pr[0] + pr[1]
			}
		}
		if err != nil && pid == must {
			return Memory{}, err
		}
	}
	return m, nil
}

// ResetPeaks sets the peak resident set (VmHWM) of each of pids to its
// resident set now (a write of 5 to /proc/<pid>/clear_refs, Linux 4.0
// and later), so that a peak read later is the peak since this call.
// It returns how many processes could not be reset (exited, or not
// ours to write).
func (fs FS) ResetPeaks(pids []int) (failed int) {
	for _, pid := range pids {
		if err := os.WriteFile(filepath.Join(fs.Root, strconv.Itoa(pid), "clear_refs"), []byte("5"), 0); err != nil {
			failed++
		}
	}
	return failed
}

// readKiB reads "Key:   N kB" lines of a /proc file; every key must be present.
func readKiB(path string, keys ...string) ([]uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := make([]uint64, len(keys))
	found := make([]bool, len(keys))
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		k, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		for i, want := range keys {
			if k != want {
				continue
			}
			fields := strings.Fields(rest)
			if len(fields) != 2 || fields[1] != "kB" {
				return nil, fmt.Errorf("%s:%d: %s: want \"N kB\", got %q", path, line, k, strings.TrimSpace(rest))
			}
			v, err := strconv.ParseUint(fields[0], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %w", path, line, k, err)
			}
			out[i], found[i] = v, true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i, ok := range found {
		if !ok {
			return nil, fmt.Errorf("%s: no %s line", path, keys[i])
		}
	}
	return out, nil
}
