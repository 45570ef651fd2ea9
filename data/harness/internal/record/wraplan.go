package record

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The corpus is recorded by wra record --plan: the harness writes its
// plan (the stacks it starts, with their commands, and the loads of the
// corpus as command templates) and wra runs the trials, measures every
// run and writes the folder. What is the corpus's own stays here: the
// stacks' sources, the databases and their tables, and the README.

// DatabaseVar is the --var that gives a database's process to the plan:
// postgresql_pid, mariadb_pid.
func DatabaseVar(db string) string { return db + "_pid" }

// tq quotes s as a TOML string.
func tq(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func tlist(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = tq(x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func ttable(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " = " + tq(m[k])
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func secs(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }

// load is one [[loads]] table of the plan.
type load struct {
	name, test, path string
	command          []string
	rates            []int
	connections      []int
	duration         time.Duration
	report           *string
	files            map[string]string
	labels           map[string]string
	env              map[string]string
	exitCodes        []int
	records          string // "" none, else the records file
	memory, noWarmup bool
}

func (l load) toml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n[[loads]]\nname = %s\ntest = %s\n", tq(l.name), tq(l.test))
	if l.path != "" {
		fmt.Fprintf(&b, "path = %s\n", tq(l.path))
	}
	fmt.Fprintf(&b, "command = %s\n", tlist(l.command))
	ints := func(key string, xs []int) {
		if len(xs) > 0 {
			s := make([]string, len(xs))
			for i, x := range xs {
				s[i] = strconv.Itoa(x)
			}
			fmt.Fprintf(&b, "%s = [%s]\n", key, strings.Join(s, ", "))
		}
	}
	ints("rates", l.rates)
	ints("connections", l.connections)
	ints("exit_codes", l.exitCodes)
	fmt.Fprintf(&b, "duration = %s\n", tq(l.duration.String()))
	if l.report != nil {
		fmt.Fprintf(&b, "report = %s\n", tq(*l.report))
	}
	for key, m := range map[string]map[string]string{"files": l.files, "labels": l.labels, "env": l.env} {
		if len(m) > 0 {
			fmt.Fprintf(&b, "%s = %s\n", key, ttable(m))
		}
	}
	switch {
	case l.memory:
		b.WriteString("memory_series = true\n")
	case l.records == "":
		b.WriteString("records = false\n")
	default:
		fmt.Fprintf(&b, "records_file = %s\n", tq(l.records))
	}
	if l.noWarmup {
		b.WriteString("warmup = []\n")
	}
	return b.String()
}

// loads are the corpus's loads of the plan, in the order its cells are
// listed: the fixed rates, the tools, the waiting series, the ladder.
func (r *Runner) loads() []load {
	p := r.Plan
	wrk2, abBin, bombardier, k6Bin := orName(r.Tools.WRK2, "wrk2"), orName(r.Tools.AB, "ab"), orName(r.Tools.Bombardier, "bombardier"), orName(r.Tools.K6, "k6")
	var out []load
	report := func(s string) *string { return &s }
	for _, t := range p.Fixed.Tests {
		out = append(out, load{
			name: "fixed-rate-" + t.Test, test: t.Test, path: t.Path, rates: t.Rates, connections: []int{p.Fixed.Connections},
			command:  []string{wrk2, "-t" + strconv.Itoa(p.Fixed.Threads), "-c{connections}", "-d" + seconds(p.Fixed.Duration), "-R{rate}", "-U", "{url}"},
			duration: p.Fixed.Duration, report: report("wrk2/t{trial}/{server}/{test}-r{rate}-c{connections}.txt"),
			labels:  map[string]string{"tool": "wrk2", "threads": strconv.Itoa(p.Fixed.Threads), "duration_s": secs(p.Fixed.Duration)},
			records: recordsName,
		})
	}
	d := p.Tools.Duration
	for _, e := range p.Tools.Endpoints {
		base := load{test: e.Test, path: e.Path, duration: d, labels: map[string]string{"duration_s": secs(d)}}
		ab, bomb, k6 := base, base, base
		ab.name, ab.connections = "ab-"+e.Test, []int{p.Tools.Connections}
		ab.command = []string{abBin, "-k", "-c", "{connections}", "-t", secs(d), "-n", strconv.Itoa(p.Tools.ABMaxRequests), "{url}"}
		ab.report, ab.labels = report("tools/t{trial}/ab/{server}/{test}-c{connections}.txt"), map[string]string{"tool": "ab", "duration_s": secs(d)}
		bomb.name, bomb.connections = "bombardier-"+e.Test, []int{p.Tools.Connections}
		bomb.command = append(append([]string{bombardier, "-c", "{connections}", "-d", seconds(d), "-l"}, p.Tools.BombardierOpts...), "{url}")
		bomb.report, bomb.labels = report("tools/t{trial}/bombardier/{server}/{test}-c{connections}.txt"), map[string]string{"tool": "bombardier", "duration_s": secs(d)}
		k6.name, k6.rates = "k6-"+e.Test, []int{p.Tools.K6Rate}
		k6.command = []string{k6Bin, "run", "--system-tags", k6SystemTags, "-e", "BASE={base}", "-e", "PATH_={path}", "-e", "RATE={rate}",
			"-e", "DURATION=" + seconds(d), "-e", "MAXVUS=" + strconv.Itoa(p.Tools.K6MaxVUs), filepath.Join(r.Src, "k6", "constant_rate.js")}
		k6.report, k6.labels = report("tools/t{trial}/k6/{server}/{test}-r{rate}.txt"), map[string]string{"tool": "k6", "duration_s": secs(d)}
		k6.env, k6.exitCodes = k6Env, []int{99} // 99: a threshold failed, the report is complete
		out = append(out, ab, bomb, k6)
	}
	w := p.Waiting
	limit := strconv.Itoa(int((r.Plan.longestWait() + margin) / time.Second))
	out = append(out, load{
		name: "waiting", test: "waiting", path: "/wait?ms=" + strconv.Itoa(w.WaitMS), connections: w.Concurrencies,
		command:  []string{abBin, "-r", "-s", limit, "-c", "{connections}", "-n", "{connections*" + strconv.Itoa(w.RequestsPerConn) + "}", "{url}"},
		duration: time.Duration(w.RequestsPerConn*w.WaitMS) * time.Millisecond, report: report("waiting/t{trial}/{server}/c{connections}.txt"),
		labels: map[string]string{"tool": "ab", "wait_ms": strconv.Itoa(w.WaitMS)}, memory: true, noWarmup: true,
	})
	l := p.Ladder
	ladder := map[string]string{"tool": "k6", "stages": l.Stages(), "p95_threshold_ms": strconv.Itoa(l.P95MS)}
	out = append(out, load{
		name: "ladder", test: l.Test, path: l.Path, duration: l.Duration(), report: report(""),
		command: []string{k6Bin, "run", "--quiet", "--system-tags", k6SystemTags, "-e", "BASE={base}", "-e", "PATH_={path}",
			"-e", "STEPS=" + joinInts(l.Steps), "-e", "RAMP=" + secs(l.Ramp), "-e", "HOLD=" + secs(l.Hold),
			"-e", "MAXVUS=" + strconv.Itoa(l.MaxVUs), "-e", "P95_MS=" + strconv.Itoa(l.P95MS),
			"--out", "json={points}", "--summary-export", "{summary}", filepath.Join(r.Src, "k6", "ladder.js")},
		files:  map[string]string{"points": "ladder/t{trial}/{server}/{test}.ndjson.gz", "summary": "ladder/t{trial}/{server}/{test}.summary.json"},
		labels: ladder, env: k6Env, exitCodes: []int{99}, // 99: a step's p95 threshold failed, which is what a ladder looks for
	})
	return out
}

// longestWait is the longest run of the waiting series over the plan's
// stacks and concurrencies.
func (p Plan) longestWait() time.Duration {
	var d time.Duration
	for _, s := range p.Servers {
		for _, c := range p.Waiting.Concurrencies {
			d = max(d, p.waitingDuration(s, c))
		}
	}
	return d
}

// WraPlan is the plan's text for wra record --plan: its stacks as the
// harness starts them (commands in the work folder, on their ports),
// their databases by the --var that gives each one's process, and the
// corpus's loads.
func (r *Runner) WraPlan() (string, error) {
	p := r.Plan
	var b strings.Builder
	fmt.Fprintf(&b, "# The plan of wra's corpus (data/harness plan %q), written by the harness.\n", p.Name)
	fmt.Fprintf(&b, "trials = %d\nwarmup = %s\nwait_calm = %s\nignore = %s\n", p.Trials,
		tlist([]string{orName(r.Tools.AB, "ab"), "-k", "-c", strconv.Itoa(WarmUpConns), "-n", strconv.Itoa(WarmUpRequests), "{url}"}),
		tq(p.Calm.MaxWait.String()), tlist([]string{"harness/**", "README.md"}))
	fmt.Fprintf(&b, "\n[calm]\nmax_load_per_cpu = %s\npoll = %s\n", strconv.FormatFloat(p.Calm.MaxLoadPerCPU, 'f', -1, 64), tq(p.Calm.Poll.String()))
	procs := make([]string, len(p.Calibration.Processes))
	for i, n := range p.Calibration.Processes {
		procs[i] = strconv.Itoa(n)
	}
	fmt.Fprintf(&b, "\n[calibration]\ncommand = %s\nprocesses = [%s]\nrepeat = %d\nfile_mib = %d\n",
		tlist([]string{orName(r.Tools.Sha256sum, "sha256sum"), "{calibration_file}"}), strings.Join(procs, ", "), p.Calibration.Reps, p.Calibration.BufferMiB)
	for _, name := range p.Servers {
		st, ok := StackOf(name)
		if !ok {
			return "", fmt.Errorf("unknown server %q", name)
		}
		port := r.BasePort + indexOf(ServerNames, name)
		bin, args, err := r.serverCommand(name, port)
		if err != nil {
			return "", err
		}
		url := "http://127.0.0.1:" + strconv.Itoa(port)
		fmt.Fprintf(&b, "\n[[stacks]]\nserver = %s\nserver_cmd = %s\nurl = %s\nready = %s\nstartup_timeout = \"30s\"\ndatabase = %s\ndatabase_target = %s\n",
			tq(name), tq(shellJoin(append([]string{"exec", bin}, args...))), tq(url), tq(url+Ping.Path), tq(st.Database), tq("pid:{"+DatabaseVar(st.Database)+"}"))
	}
	for _, l := range r.loads() {
		b.WriteString(l.toml())
	}
	return b.String(), nil
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
		if a == "exec" && i == 0 {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}

// orName is a tool's path, or its name where the path is not known (a
// dry run on a machine without it).
func orName(path, tool string) string {
	if path == "" {
		return tool
	}
	return path
}
