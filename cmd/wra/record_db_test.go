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
	pg.run(t, "pg_ctl", "-D", data, "-l", filepath.Join(pg.dir, "log"), "-w", "-o",
		"-c listen_addresses='' -k "+pg.dir+" -c fsync=off", "start")
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

// treeSeconds is the CPU of the postmaster's process tree from /proc:
// the live processes' times and those of the backends that exited,
// which their parent waited for.
func (pg *postgres) treeSeconds(t *testing.T) float64 {
	t.Helper()
	c, err := proc.FS{Root: "/proc"}.TreeCPU(pg.pid)
	if err != nil {
		t.Fatal(err)
	}
	return proc.Seconds(c.User + c.Kernel)
}

// TestRecordDatabaseCPU checks the database's CPU, which wra reads
// from a cgroup it makes for PostgreSQL's process tree, against that
// tree's own counters in /proc, read by the test before wra starts and
// after it ends: a different mechanism (the processes' times, the
// backends that exited through the postmaster's cutime and cstime) over
// a span that holds wra's. pgbench drives PostgreSQL beside ab, whose
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
	load := pgbench + " -n -S -c 2 -j 2 -T 5 " + conn + " >/dev/null 2>&1 & " + ab + " -n 500 -c 2 " + url + "/spin?us=100; wait"
	cpu0 := pg.treeSeconds(t)
	r := wra(t, filepath.Join(t.TempDir(), "wra.duckdb"), "record", "--server", "spin", "--server-cmd", spin+" -addr 127.0.0.1:"+port,
		"--database", "postgresql="+strconv.Itoa(pg.pid), "--label", "test=db", "--out", dir, "--", "sh", "-c", load)
	cpu1 := pg.treeSeconds(t)
	if r.code != 0 {
		t.Fatalf("wra record: exit %d\n%s", r.code, r.stderr)
	}
	row := readCSV(t, filepath.Join(dir, record.RecordsFile))[0]
	got, independent := num(t, row["cpu_db_s"]), cpu1-cpu0
	tree, _ := proc.FS{Root: "/proc"}.Tree(pg.pid)
	// /proc counts in 10 ms ticks, rounded at each process at each
	// reading; the span around wra's adds PostgreSQL's own background
	// work (a few ms).
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
	leftovers, _ := filepath.Glob(filepath.Join(cgroup.Group{Mount: mount, Path: before.Path}.Dir(), "wra-record-*"))
	if len(leftovers) > 0 {
		t.Errorf("cgroups left behind: %v", leftovers)
	}
}
