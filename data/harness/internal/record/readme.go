package record

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"
	"time"
)

type readmeData struct {
	Plan       Plan
	Machine    Machine
	Versions   []Version
	Examples   []example
	Invocation string
	Started    string
	Finished   string
	Wall       string
	Stacks     []Stack
	Pairs      []pairStat // the noise pair, then one per trial
	Seed       uint64
	Cells      int    // per trial
	CellLoad   string // a fixed-rate cell's measured load
	Databases  []*runningDB
	Stages     string
	Counts     []fileCount
	Records    int
	Memory     int

	WarmUpConns, WarmUpRequests int
}

// stacks are the plan's servers, in plan order.
func (r *Runner) stacks() []Stack {
	out := make([]Stack, 0, len(r.Plan.Servers))
	for _, name := range r.Plan.Servers {
		if st, ok := StackOf(name); ok {
			out = append(out, st)
		}
	}
	return out
}

// databases are the running databases, in the plan's order.
func (r *Runner) databases() []*runningDB {
	var out []*runningDB
	for _, name := range r.Plan.Databases() {
		if db := r.dbs[name]; db != nil {
			out = append(out, db)
		}
	}
	return out
}

type fileCount struct {
	Folder string
	Files  int
	Bytes  int64
}

type example struct{ Kind, Command string }

// pairStat is what the README says of a calibration pair: from pairs.csv
// (cells, times, load average, waiting) and from wra's calibration_drift
// view over the recorded corpus (the medians and their drift).
type pairStat struct {
	Name             string
	Cells            string
	Started, Ended   time.Time
	Load1, LoadLimit float64
	Waited           time.Duration
	Before, After    string // "1: 264, 2: 272" (median ms by processes)
	Drift            float64
	Flagged          bool
}

// DriftText is the drift in percent with one decimal, and whether it held.
func (s pairStat) DriftText() string {
	t := strconv.FormatFloat(100*s.Drift, 'f', 1, 64) + "%"
	if s.Flagged {
		t += " (over the limit)"
	}
	return t
}

func (r *Runner) writeReadme(ctx context.Context, finished time.Time) error {
	m, err := readMachine()
	if err != nil {
		return err
	}
	counts, err := r.countFiles()
	if err != nil {
		return err
	}
	pairs, err := r.pairs(ctx)
	if err != nil {
		return err
	}
	runs, err := readRows(filepath.Join(r.stage, scheduleName))
	if err != nil {
		return err
	}
	records, _ := readRows(filepath.Join(r.stage, recordsName))
	memory, _ := readRows(filepath.Join(r.stage, memoryName))
	d := readmeData{
		Plan: r.Plan, Machine: m, Versions: r.versions(ctx), Examples: r.examples(runs),
		Invocation: r.Invocation, Stacks: r.stacks(), Pairs: pairs, Databases: r.databases(), Stages: r.Plan.Ladder.Stages(), Counts: counts,
		Seed: r.Seed, Cells: len(runs) / max(r.Plan.Trials, 1),
		CellLoad: (r.Plan.Fixed.Duration - WRK2Calibration).String(),
		Started:  r.started.Format(time.RFC3339),
		Finished: finished.Format(time.RFC3339),
		Wall:     finished.Sub(r.started).Round(time.Second).String(),
		Records:  len(records), Memory: len(memory),
		WarmUpConns: WarmUpConns, WarmUpRequests: WarmUpRequests,
	}
	var b bytes.Buffer
	if err := readmeTemplate.Execute(&b, d); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.stage, "README.md"), b.Bytes(), 0o644)
}

// readRows reads a CSV into maps by its header.
func readRows(p string) ([]map[string]string, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	var out []map[string]string
	for _, row := range all[min(1, len(all)):] {
		m := map[string]string{}
		for i, h := range all[0] {
			if i < len(row) {
				m[h] = row[i]
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// examples are the first command of each load, as wra ran it, with the
// staging folder shown as the corpus root and the work folder as $WORK.
func (r *Runner) examples(runs []map[string]string) []example {
	var out []example
	seen := map[string]bool{}
	for _, run := range runs {
		if seen[run["load"]] {
			continue
		}
		seen[run["load"]] = true
		c := strings.ReplaceAll(run["command"], r.stage+"/", "")
		c = strings.ReplaceAll(c, r.work+"/", "$WORK/")
		c = strings.ReplaceAll(c, r.Src+"/", "")
		if r.Tools.WRK2 != "" {
			c = strings.ReplaceAll(c, r.Tools.WRK2, "$WRK2")
		}
		for _, t := range []string{r.Tools.AB, r.Tools.Bombardier, r.Tools.K6} {
			if t != "" {
				c = strings.ReplaceAll(c, t, filepath.Base(t))
			}
		}
		if run["file"] != "" && !strings.Contains(c, run["file"]) {
			c += " > " + run["file"]
		}
		out = append(out, example{run["load"], c})
	}
	return out
}

// pairs are the recording's calibration pairs: pairs.csv's rows with the
// medians and the drift of wra's calibration_drift view, which wra reads
// from the recorded corpus itself (one definition of drift).
func (r *Runner) pairs(ctx context.Context) ([]pairStat, error) {
	rows, err := readRows(filepath.Join(r.stage, pairsName))
	if err != nil {
		return nil, err
	}
	db := filepath.Join(r.work, "readme.duckdb")
	if err := r.wra(ctx, io.Discard, "--db", db, "--quiet", "ingest", r.stage); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	q := fmt.Sprintf("SELECT source, processes, before_ms, after_ms, ratio, flagged FROM calibration_drift(tolerance := %s) ORDER BY source, processes",
		strconv.FormatFloat(r.Plan.Calm.MaxDrift, 'f', -1, 64))
	if err := r.wra(ctx, &out, "--db", db, "sql", "--format", "csv", q); err != nil {
		return nil, err
	}
	drift, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("calibration_drift: %w", err)
	}
	var stats []pairStat
	for _, row := range rows {
		st := pairStat{Name: row["pair"], Cells: row["cells"]}
		st.Started, _ = time.Parse(time.RFC3339Nano, row["started_at"])
		st.Ended, _ = time.Parse(time.RFC3339Nano, row["ended_at"])
		st.Load1, _ = strconv.ParseFloat(row["load1"], 64)
		st.LoadLimit, _ = strconv.ParseFloat(row["load_limit"], 64)
		w, _ := strconv.ParseFloat(row["waited_s"], 64)
		st.Waited = time.Duration(w * float64(time.Second))
		var before, after []string
		for _, d := range drift[min(1, len(drift)):] {
			if len(d) < 6 || d[0] != "calibration/"+st.Name+"-*.csv" {
				continue
			}
			before = append(before, d[1]+": "+d[2])
			after = append(after, d[1]+": "+d[3])
			ratio, _ := strconv.ParseFloat(d[4], 64)
			st.Drift = math.Max(st.Drift, math.Abs(ratio-1))
			st.Flagged = st.Flagged || d[5] == "true"
		}
		st.Before, st.After = strings.Join(before, ", "), strings.Join(after, ", ")
		stats = append(stats, st)
	}
	return stats, nil
}

// countFiles counts the staged corpus files per top-level folder.
func (r *Runner) countFiles() ([]fileCount, error) {
	var out []fileCount
	for _, name := range outputs {
		st, err := os.Stat(filepath.Join(r.stage, name))
		if err != nil || !st.IsDir() {
			continue
		}
		fc := fileCount{Folder: name + "/"}
		err = filepath.WalkDir(filepath.Join(r.stage, name), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			fi, err := e.Info()
			if err != nil {
				return err
			}
			fc.Files++
			fc.Bytes += fi.Size()
			return nil
		})
		if err != nil {
			return nil, err
		}
		out = append(out, fc)
	}
	return out, nil
}

var readmeTemplate = template.Must(template.New("readme").Funcs(template.FuncMap{
	"ints": func(xs []int) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = fmt.Sprint(x)
		}
		return strings.Join(s, ", ")
	},
	"paths": func(es []Endpoint) string {
		s := make([]string, len(es))
		for i, e := range es {
			s[i] = "`" + e.Path + "` (" + e.Test + ")"
		}
		return strings.Join(s, ", ")
	},
	"kib": func(b int64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<10)) },
	"plural": func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	},
	"gib": func(g float64) string { return fmt.Sprintf("%.1f", g) },
	"utc": func(t time.Time) string { return t.Format("15:04:05") },
	"yesno": func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	},
	"pct": func(f float64) string { return strconv.FormatFloat(100*f, 'f', -1, 64) + "%" },
	"dblist": func(dbs []*runningDB) string {
		names := make([]string, len(dbs))
		for i, d := range dbs {
			names[i] = d.Name
		}
		if len(names) == 1 {
			return "a real " + names[0]
		}
		return "a real " + strings.Join(names[:len(names)-1], ", a real ") + " and a real " + names[len(names)-1]
	},
}).Parse(readmeText))

const readmeText = `# A real web-stack benchmark, recorded by data/harness

This folder is a corpus of raw benchmark records for wra: {{len .Stacks}} web stacks
serving the same small JSON API from {{dblist .Databases}}, driven by real load
generators on 127.0.0.1. Every file except this README and wra.toml is the
unedited output of a tool (stdout byte for byte, or the file the tool wrote)
or a CSV row wra record wrote; nothing here was edited by hand.
The harness in harness/ re-records all of it (plan "{{.Plan.Name}}", started
{{.Started}}, finished {{.Finished}}, {{.Wall}} of wall time).

    wra analyze data/        # every table and plot from this folder

**Noise, and why trials.** The machine has {{.Machine.CPUs}} cores, and the load
generator runs on the same cores as the server and the database. A machine
like this changes speed from one minute to the next with nothing running
(the noise pair below measures it), so the corpus is recorded in
{{.Plan.Trials}} trials: each trial runs every cell of the plan (a stack under one
load) once, in an order drawn at random for that trial, between a
calibration before and after it. Drift that lasts longer than a cell then
falls on every stack of a trial alike, and a comparison of two stacks made
within each trial (paired by the ` + "`trial`" + ` label) cancels it; compare stacks
within trials, and read the spread over the trials before the medians.
When the machine is oversubscribed the kernel shares CPU time per runnable
thread, so a single-threaded server (node-pg) loses the most to its
neighbours.

## What was measured

Stacks (started fresh by the harness for every cell, one at a time, pool
of {{.Plan.PoolSize}} database connections):

| server | database | stack |
|---|---|---|
{{- range .Stacks}}
| {{.Name}} | {{.Database}} | {{.Doc}} |
{{- end}}

API, identical bytes from every stack (the harness checks each server's
answers before using it): ` + "`/ping`" + `, ` + "`/db/one?id=42`" + ` (one row),
` + "`/db/page?after=100&limit=20`" + ` (20 rows), ` + "`/wait?ms=N`" + ` (sleeps N ms).
{{range .Databases}}{{.Name}} runs on 127.0.0.1:{{.Port}} from a fresh {{if eq .Name "MariaDB"}}mariadb-install-db (InnoDB){{else}}initdb{{end}}; {{end}}each has the table
` + "`items(id integer primary key, name text, price_cents integer)`" + ` with
{{.Plan.Rows}} rows (id 1..{{.Plan.Rows}}, name ` + "`item-<id>`" + `, price_cents id × 7 mod 10000).

Cells, {{.Cells}} per trial, each on a server started for it and (but for the
waiting series) warmed up first (ab ` + "`-k -c {{.WarmUpConns}} -n {{.WarmUpRequests}}`" + ` on its endpoint, output
discarded):

1. **fixed-rate** (wrk2/, records/): wrk2 ` + "`-t{{.Plan.Fixed.Threads}} -c{{.Plan.Fixed.Connections}} -d{{.Plan.Fixed.Duration}} -R<rate> -U`" + `;
{{- range .Plan.Fixed.Tests}} test {{.Test}} (` + "`{{.Path}}`" + `) at {{ints .Rates}} requests/s;{{end}}
   a cell per server, test and rate: {{.CellLoad}} measured after wrk2's own 10 s
   calibration, which wrk2 records no latency for. Around each run wra
   record read the CPU time of the server's and of its database's cgroups
   (the server in cgroups wra made for it, the database's process tree
   moved into one made below its own) and their memory, into one row of
   records/fixed-rate.csv ({{.Records}} rows).
2. **tools** (tools/): a cell per server, endpoint ({{paths .Plan.Tools.Endpoints}})
   and tool: ab (` + "`-k -c {{.Plan.Tools.Connections}} -t {{.Plan.Tools.Duration}}`" + `), bombardier
   (` + "`-c {{.Plan.Tools.Connections}} -d {{.Plan.Tools.Duration}} -l`" + `) or k6 (constant arrival rate,
   {{.Plan.Tools.K6Rate}} requests/s for {{.Plan.Tools.Duration}}).
3. **waiting** (waiting/, memory/): ` + "`/wait?ms={{.Plan.Waiting.WaitMS}}`" + ` driven by ab, a cell per
   server and concurrency ({{ints .Plan.Waiting.Concurrencies}}: ` + "`-c C -n {{.Plan.Waiting.RequestsPerConn}}C`" + `); memory/waiting.csv
   holds the peak resident set of each point ({{.Memory}} rows; ` + "`pass`" + ` is the trial).
4. **ladder** (ladder/): a cell per server: k6 ramping-arrival-rate against
   ` + "`{{.Plan.Ladder.Path}}`" + `, steps {{ints .Plan.Ladder.Steps}} requests/s, each reached in {{.Plan.Ladder.Ramp}}
   and held {{.Plan.Ladder.Hold}} (stages ` + "`{{.Stages}}`" + `), at most {{.Plan.Ladder.MaxVUs}} VUs; every
   request is tagged ` + "`step=<rate>`" + `; all points in gzipped NDJSON (gzipped by k6
   itself, then recompressed at gzip's best level with no name or time in
   the header, the NDJSON checked byte for byte) and the ` + "`--summary-export`" + `
   JSON (per-step thresholds: p95 < {{.Plan.Ladder.P95MS}} ms, failed rate < 1%, a request count,
   so that the summary keeps each step's p95, failures and requests; k6
   exits 99 when one fails, which is what a ladder looks for).
5. **calibration** (calibration/): ` + "`sha256sum`" + ` of a {{.Plan.Calibration.BufferMiB}} MiB zero buffer
   by {{ints .Plan.Calibration.Processes}} parallel processes, {{plural .Plan.Calibration.Reps "time" "times"}}, wall ms,
   before and after each trial (` + "`trial-<N>-before.csv`, `trial-<N>-after.csv`" + `: every
   run of trial N lies between them), and twice back to back before the
   first trial (` + "`noise-before.csv`, `noise-after.csv`" + `).

## Trials

{{.Plan.Trials}} trials of {{.Cells}} cells, in orders
drawn from seed **{{.Seed}}** by wra record (SplitMix64 and Fisher–Yates, written out in
wra, so that ` + "`go run ./cmd/record -dry-run {{.Plan.Flags}} -seed {{.Seed}}`" + ` prints the same
orders with any Go version). Every run's files are under its trial's
folder (` + "`wrk2/t<N>/...`" + `; wra.toml labels them ` + "`trial=N`" + ` and ` + "`round=N`" + `), and
trials.csv lists every run in the order it ran: ` + "`trial`, `position`" + `,
` + "`started_at`" + ` (UTC, when its server was started), ` + "`cell`, `kind`, `server`," + `
` + "`database`, `test`, `tool`, `target_rps`, `concurrency`" + ` and ` + "`file`" + ` (its
report).

The machine, measured: before each pair wra record read the 1-minute load
average from /proc/loadavg ({{if .Plan.Calm.MaxWait}}and waited, polling every {{.Plan.Calm.Poll}}
for at most {{.Plan.Calm.MaxWait}}, until it was at most {{.Plan.Calm.MaxLoadPerCPU}} per CPU, then went on
whatever it was{{else}}without waiting for it to fall{{end}}). Drift is the largest change of
the calibration's median wall ms per process count from before to after;
a pair beyond {{pct .Plan.Calm.MaxDrift}} is marked, as wra flags it, and nothing was
recorded again for it: a drift shared by the cells of a trial cancels in
the comparisons made within it. The first row, noise, is two calibrations
with nothing between them: the machine's own noise, which a trial's
drift cannot be told apart from.

| pair | cells | from (UTC) | to | load average (limit) | waited | calibration before, ms by processes | after | drift |
|---|---|---|---|---|---|---|---|---|
{{- range .Pairs}}
| {{.Name}} | {{.Cells}} | {{utc .Started}} | {{utc .Ended}} | {{printf "%.2f" .Load1}} ({{printf "%.2f" .LoadLimit}}) | {{.Waited}} | {{.Before}} | {{.After}} | {{.DriftText}} |
{{- end}}

## Machine

- {{.Machine.CPUs}} CPUs: {{.Machine.CPUModel}}
- {{gib .Machine.MemGiB}} GiB memory
- Linux {{.Machine.Kernel}}{{if .Machine.OS}}, {{.Machine.OS}}{{end}}

## Versions

| program | version |
|---|---|
{{- range .Versions}}
| {{.Name}} | {{.Text}} |
{{- end}}

## Files

| folder | files | KiB |
|---|---|---|
{{- range .Counts}}
| {{.Folder}} | {{.Files}} | {{kib .Bytes}} |
{{- end}}

wra.toml maps every file to its labels (server, database, test, target_rps,
connections, trial, round, and the ladder's stage schedule).

The CSVs are wra record's (machine numbers in shortest exact form; ` + "`_mb`" + ` is MiB;
every column is described in wra's docs/recording.md):

- records/fixed-rate.csv: a row per fixed-rate run, paired by wra with its
  wrk2 report: the run's start and end (` + "`utc`, `end_utc`" + `), its labels and
  the report's counts, ` + "`cpu_server_s`" + `, ` + "`cpu_server_user_s`" + `, ` + "`cpu_server_kernel_s`" + `
  and ` + "`cpu_db_s`" + `, ` + "`cpu_db_user_s`" + `, ` + "`cpu_db_kernel_s`" + ` (CPU seconds over the
  run: the cgroup's exact total, split between user and kernel time as the
  kernel's tick samples are), the memory of both (` + "`working_set_mb`" + ` at the
  end, ` + "`peak_mb`" + `, ` + "`peak_rss_mb`" + `, ` + "`private_mb`" + `), ` + "`startup_s`" + ` (start to the
  first answer of /ping), wrk2's own CPU (` + "`loadgen_cpu_s`" + `), where each figure
  came from (` + "`cpu_source`" + `, ` + "`memory_source`" + `), the command and the ` + "`report`" + `.
  CPU covers the whole wrk2 run, its calibration period included, as do
  ` + "`requests`" + `; wrk2's percentiles cover only the time after its 10 s
  calibration.
- memory/waiting.csv: ` + "`server`, `database`, `pass`" + ` (the trial), ` + "`concurrency`, `wait_ms`" + `,
  ` + "`rss_mb`" + ` (peak resident set over the run, VmHWM summed over the server's
  processes and reset at the run's start, of a fresh server that served only
  that point), ` + "`requests`" + ` (ab's Complete requests), ` + "`cpu_s`" + ` (server CPU
  seconds during the point), ` + "`memory_source`, `cpu_source`" + `.
- calibration/*.csv: ` + "`utc`, `processes`, `ms`" + `; trials.csv lists every run in the
  order it ran, pairs.csv every calibration pair with the load average.

## Exact commands

The recording:

    {{.Invocation}}

The first command of each kind, as run (` + "`$WORK`" + ` is the harness's temporary
folder; ` + "`> file`" + ` is where its standard output was written):
{{range .Examples}}
- {{.Kind}}: ` + "`{{.Command}}`" + `
{{- end}}

Every command runs in its own process group under a time limit (its
planned length plus 30 s); on a failure or an
interrupt the harness kills what it started, stops the databases, removes its
temporary folders and leaves the previous corpus untouched.

## Re-recording

From data/harness on an idle machine (Linux, Go, Node.js with npm, and
Debian's postgresql, mariadb-server, python3-uvicorn, python3-asyncpg,
php-fpm, php-pgsql, nginx-light and apache2-utils; k6, bombardier,
sha256sum; run as root, so that wra record can make cgroups (elsewhere it
reads /proc in clock ticks and every table built on it says so); nothing
else may run meanwhile; all traffic stays on 127.0.0.1; the harness builds
wra from this repository unless given one with -wra):

    WRK2=/path/to/wrk2 go run ./cmd/record {{.Plan.Flags}} -seed {{.Seed}} -out ..   # this plan and these orders
    go run ./cmd/record -dry-run {{.Plan.Flags}} -seed {{.Seed}}                      # the trials and their orders, nothing run
    WRK2=/path/to/wrk2 go run ./cmd/record -short -out /tmp/c        # a few minutes, for testing

wrk2 is not shipped: build it yourself from its public repository
(giltene/wrk2) and pass the binary with ` + "`-wrk2`" + ` or ` + "`$WRK2`" + `, or put it on
PATH as wrk2. ab comes from Debian's apache2-utils; k6 and bombardier
install with ` + "`go install`" + ` (go.k6.io/k6, github.com/codesenberg/bombardier).
` + "`bash tools.sh`" + ` installs all of it but wrk2 and checks wrk2;
` + "`go run ./cmd/record -h`" + ` lists every flag.
`
