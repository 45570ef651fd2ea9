package record

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// The corpus is recorded by wra record --plan: the harness writes its
// plan (the stacks it starts, with their commands, and the loads of the
// corpus as command templates) and wra runs the trials, measures every
// run and writes the folder. What is the corpus's own stays here: the
// stacks' sources, the databases and their tables, and the README.

// DatabaseVar is the --var that gives a database's process to the plan:
// postgresql_pid, mariadb_pid.
func DatabaseVar(db string) string { return db + "_pid" }

func secs(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }

// load is one [[loads]] table of the plan, as wra record reads it.
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

// table is the load's TOML table.
func (l load) table() map[string]any {
	t := map[string]any{"name": l.name, "test": l.test, "command": l.command, "duration": l.duration.String()}
	set := func(k string, v any, ok bool) {
		if ok {
			t[k] = v
		}
	}
	set("path", l.path, l.path != "")
	set("rates", l.rates, len(l.rates) > 0)
	set("connections", l.connections, len(l.connections) > 0)
	set("exit_codes", l.exitCodes, len(l.exitCodes) > 0)
	if l.report != nil {
		t["report"] = *l.report
	}
	set("files", l.files, len(l.files) > 0)
	set("labels", l.labels, len(l.labels) > 0)
	set("env", l.env, len(l.env) > 0)
	switch {
	case l.memory:
		t["memory_series"] = true
	case l.records == "":
		t["records"] = false
	default:
		t["records_file"] = l.records
	}
	set("warmup", []string{}, l.noWarmup)
	return t
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
	procs := p.Calibration.Processes
	plan := map[string]any{
		"trials":    p.Trials,
		"warmup":    []string{orName(r.Tools.AB, "ab"), "-k", "-c", strconv.Itoa(WarmUpConns), "-n", strconv.Itoa(WarmUpRequests), "{url}"},
		"wait_calm": p.Calm.MaxWait.String(),
		"ignore":    []string{"harness/**", "README.md"},
		"calm":      map[string]any{"max_load_per_cpu": p.Calm.MaxLoadPerCPU, "poll": p.Calm.Poll.String()},
		"calibration": map[string]any{"command": []string{orName(r.Tools.Sha256sum, "sha256sum"), "{calibration_file}"},
			"processes": procs, "repeat": p.Calibration.Reps, "file_mib": p.Calibration.BufferMiB},
	}
	var stacks []map[string]any
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
		stacks = append(stacks, map[string]any{
			"server": name, "server_cmd": shellJoin(append([]string{"exec", bin}, args...)), "url": url, "ready": url + Ping.Path,
			"startup_timeout": "30s", "database": st.Database, "database_target": "pid:{" + DatabaseVar(st.Database) + "}",
		})
	}
	plan["stacks"] = stacks
	var loads []map[string]any
	for _, l := range r.loads() {
		loads = append(loads, l.table())
	}
	plan["loads"] = loads
	var b strings.Builder
	fmt.Fprintf(&b, "# The plan of wra's corpus (data/harness plan %q), written by the harness.\n", p.Name)
	if err := toml.NewEncoder(&b).Encode(plan); err != nil {
		return "", err
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
