package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/wra-bench/wra/cmd/wra/internal/record"
)

// The tests of wra record run real load tools against a real server on
// this machine. They need root (to make cgroups) and the tools (.ci/setup
// installs them); elsewhere they are skipped with a message, but in CI
// (CI=true) a missing piece fails them.

func needRecording(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		missing(t, "wra record's tests make cgroups, which needs root")
	}
	h, err := record.NewHost(record.CPUAuto, nil)
	if err != nil || len(h.Cgroups.Mounts) == 0 {
		missing(t, "no cgroup hierarchy is mounted here")
	}
}

// missing skips the test, or fails it in CI.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why + " (CI=true: .ci/run must provide it)")
	}
	t.Skip(why)
}

// tool finds a load tool on PATH or where go install puts it.
func tool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range []string{os.Getenv("GOBIN"), filepath.Join(os.Getenv("GOPATH"), "bin"), filepath.Join(os.Getenv("HOME"), "go", "bin")} {
		if p := filepath.Join(d, name); d != "" && isExec(p) {
			return p
		}
	}
	missing(t, name+" is not installed (.ci/setup installs it)")
	return ""
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

var spinOnce struct {
	sync.Once
	bin string
	err error
	out []byte
}

// spinServer builds testdata/spinserver once.
func spinServer(t *testing.T) string {
	t.Helper()
	spinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wra-spinserver-")
		if err != nil {
			spinOnce.err = err
			return
		}
		spinOnce.bin = filepath.Join(dir, "spinserver")
		spinOnce.out, spinOnce.err = exec.Command("go", "build", "-o", spinOnce.bin, "./testdata/spinserver").CombinedOutput()
	})
	if spinOnce.err != nil {
		t.Fatalf("go build ./testdata/spinserver: %v\n%s", spinOnce.err, spinOnce.out)
	}
	return spinOnce.bin
}

// freePort is a port of 127.0.0.1 that nothing listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// readCSV reads a CSV into maps by header.
func readCSV(t *testing.T, p string) []map[string]string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range all[1:] {
		m := map[string]string{}
		for i, h := range all[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// spinStats is spinserver's -stats file.
type spinStats struct {
	FirstSpinStartNS int64 `json:"first_spin_start_cpu_ns"`
	LastSpinEndNS    int64 `json:"last_spin_end_cpu_ns"`
	Spins            int   `json:"spins"`
}

// perSpinUS is the server's CPU per spin, in µs, from the start of its
// first spin to the end of its last.
func (s spinStats) perSpinUS() float64 {
	return float64(s.LastSpinEndNS-s.FirstSpinStartNS) / 1e3 / float64(s.Spins)
}

func readSpinStats(t *testing.T, p string) spinStats {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("the server's own account: %v", err)
	}
	var s spinStats
	if err := json.Unmarshal(b, &s); err != nil || s.Spins == 0 {
		t.Fatalf("the server's own account %s: %v, %d spins in %s", p, err, s.Spins, b)
	}
	return s
}

// TestRecordKnownCPUPerRequest records a server whose requests spend a
// known CPU time, at two rates, and reads CPU per request back from wra
// analyze's table.
//
// What is known: /spin?us=N spins N µs on the serving thread's CPU
// clock, so a request costs at least N µs of CPU however busy the
// machine is. Around it the server spends CPU of its own per request:
// HTTP handling, and the Go runtime's scheduler and sysmon thread, whose
// share grows with the wall time a request takes, so with the machine's
// load. That share is the server's own account: spinserver -stats reads
// its process CPU clock (the kernel's figure that a cgroup sums) when
// its first spin begins and when its last one ends. So the test runs two
// spins, 20 ms and 40 ms, one request at a time, at each rate, and
// checks that wra's CPU per request is at least the spin, and within 1%
// of the server's own CPU per spin over the same requests: a figure
// that does not depend on how busy the machine was. With --cpu-source
// proc the same table carries the tick-precision caveat, and the
// cgroup's does not.
func TestRecordKnownCPUPerRequest(t *testing.T) {
	needRecording(t)
	bombardier, spin := tool(t, "bombardier"), spinServer(t)
	dir, procDir := filepath.Join(t.TempDir(), "rec"), filepath.Join(t.TempDir(), "proc")
	db := filepath.Join(t.TempDir(), "wra.duckdb")
	// own is the server's account of each recording, by test and rate.
	type key struct {
		test string
		rate int
	}
	own := map[key]spinStats{}
	recordSpin := func(out, source string, us, rate int) {
		port := freePort(t)
		url := "http://127.0.0.1:" + port
		stats := filepath.Join(t.TempDir(), "stats.json")
		test := "spin" + strconv.Itoa(us)
		r := wra(t, db, "record", "--cpu-source", source, "--server", "spin",
			"--server-cmd", spin+" -addr 127.0.0.1:"+port+" -stats "+stats, "--ready", url+"/ping",
			"--label", "test="+test, "--out", out, "--",
			bombardier, "-c", "1", "-d", "6s", "-r", strconv.Itoa(rate), "-l", url+"/spin?us="+strconv.Itoa(us))
		if r.code != 0 {
			t.Fatalf("wra record: exit %d\n%s", r.code, r.stderr)
		}
		if source == record.CPUAuto {
			own[key{test, rate}] = readSpinStats(t, stats)
		}
	}
	for _, rate := range []int{5, 10} {
		for _, us := range []int{20000, 40000} {
			recordSpin(dir, record.CPUAuto, us, rate)
		}
	}
	recordSpin(procDir, record.CPUProc, 20000, 10)
	for _, row := range readCSV(t, filepath.Join(dir, record.RecordsFile)) {
		if row["cpu_source"] != record.SourceCgroupV1 && row["cpu_source"] != record.SourceCgroupV2 {
			t.Errorf("%s: cpu_source %q, want a cgroup", row["report"], row["cpu_source"])
		}
	}
	rep := filepath.Join(t.TempDir(), "report")
	a := wra(t, db, "analyze", "--out", rep, dir)
	if a.code != 0 {
		t.Fatalf("wra analyze: exit %d\n%s", a.code, a.stderr)
	}
	for _, rate := range []int{5, 10} {
		for _, us := range []int{20000, 40000} {
			k := key{"spin" + strconv.Itoa(us), rate}
			rows := readCSV(t, filepath.Join(rep, "tables", "cpu-per-request-"+k.test+"-"+strconv.Itoa(rate)+"rps.csv"))
			if len(rows) != 1 {
				t.Fatalf("%s at %d/s: %d rows, want 1", k.test, rate, len(rows))
			}
			got, o := num(t, rows[0]["stack_cpu_us"]), own[k]
			want := o.perSpinUS()
			t.Logf("%s at %d requests/s: wra %.0f µs per request; the server's own clock %.0f µs per spin over %d spins (%+.2f%%)", k.test, rate, got, want, o.Spins, 100*(got/want-1))
			if got < float64(us) {
				t.Errorf("%s at %d requests/s measured %.0f µs per request: less than the %d µs spin itself", k.test, rate, got, us)
			}
			if math.Abs(got/want-1) > 0.01 {
				t.Errorf("%s at %d requests/s: wra measured %.0f µs per request, the server's own clock %.0f µs per spin: want them within 1%%", k.test, rate, got, want)
			}
		}
	}
	const ticks = "read from /proc in clock ticks of 10 ms"
	if strings.Contains(a.stdout, ticks) {
		t.Errorf("the cgroup recording's report carries the tick caveat:\n%s", a.stdout)
	}
	p := wra(t, filepath.Join(t.TempDir(), "proc.duckdb"), "analyze", "--out", filepath.Join(t.TempDir(), "preport"), procDir)
	if p.code != 0 || !strings.Contains(p.stdout, "CPU of 1 of 1 runs was "+ticks) {
		t.Errorf("wra analyze of the /proc recording: exit %d, no tick caveat in\n%s", p.code, p.stdout)
	}
	row := readCSV(t, filepath.Join(procDir, record.RecordsFile))[0]
	if row["cpu_source"] != record.SourceProc {
		t.Errorf("--cpu-source proc: cpu_source %q, want %s", row["cpu_source"], record.SourceProc)
	}
}
