package main

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/wra-bench/wra/cmd/wra/internal/record"
	"github.com/wra-bench/wra/cmd/wra/internal/record/cgroup"
	"github.com/wra-bench/wra/cmd/wra/internal/record/proc"
)

// postgres is a throw-away PostgreSQL cluster of Debian's packages,
// started with pg_ctl as the postgres user in a folder of its own,
// listening on a Unix socket there only.
type postgres struct {
	bin, dir string
	pid      int
	cred     *syscall.Credential
}

func startPostgres(t *testing.T) *postgres {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(bins, func(i, j int) bool { return ver(bins[i]) > ver(bins[j]) })
	if len(bins) == 0 || !isExec(filepath.Join(bins[0], "pgbench")) {
		missing(t, "Debian's postgresql package is not installed")
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		missing(t, "no postgres user: "+err.Error())
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	pg := &postgres{bin: bins[0], cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	if pg.dir, err = os.MkdirTemp("", "wra-record-pg-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(pg.dir) })
	if err := os.Chown(pg.dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(pg.dir, "data")
	pg.run(t, "initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync")
	// no autovacuum: no work of PostgreSQL's own that a run's span may
	// or may not hold
	pg.run(t, "pg_ctl", "-D", data, "-l", filepath.Join(pg.dir, "log"), "-w", "-o",
		"-c listen_addresses='' -k "+pg.dir+" -c fsync=off -c autovacuum=off", "start")
	t.Cleanup(func() { pg.run(t, "pg_ctl", "-D", data, "-m", "immediate", "-w", "stop") })
	b, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	if pg.pid, err = strconv.Atoi(first); err != nil {
		t.Fatalf("postmaster.pid: %q", first)
	}
	return pg
}

func ver(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// run runs one of PostgreSQL's programs as postgres.
func (pg *postgres) run(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(pg.bin, name), args...)
	cmd.Dir = pg.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: pg.cred}
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
}

// treeCPUEnv asks the test binary, run as a command, for the CPU seconds
// of a process tree from /proc: PID:FILE, written to FILE.
const treeCPUEnv = "WRA_TEST_TREE_CPU"

// helperTreeCPU is the test binary run as that command (TestMain): it
// reports whether it was, having written the seconds.
func helperTreeCPU() bool {
	v := os.Getenv(treeCPUEnv)
	if v == "" {
		return false
	}
	pid, file, _ := strings.Cut(v, ":")
	n, err := strconv.Atoi(pid)
	if err == nil {
		var c proc.CPU
		if c, err = (proc.FS{Root: "/proc"}).TreeCPU(n); err == nil {
			err = os.WriteFile(file, []byte(strconv.FormatFloat(proc.Seconds(c.User+c.Kernel), 'g', -1, 64)), 0o644)
		}
	}
	if err != nil {
		os.Stderr.WriteString(treeCPUEnv + ": " + err.Error() + "\n")
		os.Exit(1)
	}
	return true
}

// TestRecordDatabaseCPU checks the database's CPU, which wra reads
// from a cgroup it makes for PostgreSQL's process tree, against that
// tree's own counters in /proc, read first and last by the load command
// itself: a different mechanism (the processes' times, the backends
// that exited through the postmaster's cutime and cstime) over a span
// inside wra's. pgbench drives PostgreSQL beside ab, whose
// report the record pairs with; nothing else uses the cluster.
func TestRecordDatabaseCPU(t *testing.T) {
	needRecording(t)
	ab, spin := tool(t, "ab"), spinServer(t)
	pg := startPostgres(t)
	pgbench := filepath.Join(pg.bin, "pgbench")
	conn := "-h " + pg.dir + " -U postgres postgres"
	if out, err := exec.Command("sh", "-c", pgbench+" -i -s 2 -q "+conn).CombinedOutput(); err != nil {
		t.Fatalf("pgbench -i: %v\n%s", err, out)
	}
	h, err := record.NewHost(record.CPUAuto, nil)
	if err != nil {
		t.Fatal(err)
	}
	mount := h.Cgroups.CPUMount(0)
	before, err := h.Cgroups.GroupOf(pg.pid, mount)
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	url := "http://127.0.0.1:" + port
	dir := filepath.Join(t.TempDir(), "rec")
	// The load reads the tree's CPU itself, first and last, so that the
	// span of the independent reading is inside the load's, which wra
	// measures, by no more than the time to start this binary.
	marks := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mark := func(name string) string {
		return treeCPUEnv + "=" + strconv.Itoa(pg.pid) + ":" + filepath.Join(marks, name) + " " + self
	}
	load := mark("before") + "; " + pgbench + " -n -S -c 2 -j 2 -T 5 " + conn + " >/dev/null 2>&1 & " + ab + " -n 500 -c 2 " + url + "/spin?us=100; wait; " + mark("after")
	r := wra(t, filepath.Join(t.TempDir(), "wra.duckdb"), "record", "--server", "spin", "--server-cmd", spin+" -addr 127.0.0.1:"+port,
		"--database", "postgresql="+strconv.Itoa(pg.pid), "--label", "test=db", "--out", dir, "--", "sh", "-c", load)
	if r.code != 0 {
		t.Fatalf("wra record: exit %d\n%s", r.code, r.stderr)
	}
	readMark := func(name string) float64 {
		b, err := os.ReadFile(filepath.Join(marks, name))
		if err != nil {
			t.Fatal(err)
		}
		return num(t, string(b))
	}
	row := readCSV(t, filepath.Join(dir, record.RecordsFile))[0]
	got, independent := num(t, row["cpu_db_s"]), readMark("after")-readMark("before")
	tree, _ := proc.FS{Root: "/proc"}.Tree(pg.pid)
	// /proc counts in 10 ms ticks, rounded at each process at each
	// reading; wra's span holds the readings' and their starts (a few ms
	// of PostgreSQL's own background work at most).
	slack := 0.01*float64(2*len(tree)+4) + 0.02*independent
	t.Logf("PostgreSQL CPU: wra %.4f s (%s), the tree in /proc %.2f s (slack %.2f s)", got, row["db_cpu_source"], independent, slack)
	if row["db_cpu_source"] != record.SourceCgroupV1 && row["db_cpu_source"] != record.SourceCgroupV2 {
		t.Errorf("db_cpu_source %q, want a cgroup", row["db_cpu_source"])
	}
	if independent < 0.5 {
		t.Fatalf("pgbench made PostgreSQL work only %.2f s: too little to check against", independent)
	}
	if got < independent-slack || got > independent+slack {
		t.Errorf("wra measured %.4f s of PostgreSQL CPU, its process tree %.2f s ± %.2f", got, independent, slack)
	}
	after, err := h.Cgroups.GroupOf(pg.pid, mount)
	if err != nil || after != before {
		t.Errorf("the postmaster is in %v after the run, was in %v: wra did not move it back", after, before)
	}
	// this process's own: others (another test binary's wra record) may
	// have theirs there at the same time
	leftovers, _ := filepath.Glob(filepath.Join(cgroup.Group{Mount: mount, Path: before.Path}.Dir(), "wra-record-"+strconv.Itoa(os.Getpid())+"-*"))
	if len(leftovers) > 0 {
		t.Errorf("cgroups left behind: %v", leftovers)
	}
}
