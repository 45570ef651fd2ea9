// Package record drives a recording of wra's corpus: it builds the
// stacks, starts the databases (PostgreSQL, MariaDB) and loads their
// tables, checks that every stack answers the same bytes, and hands the
// rest to wra record --plan: a plan of the stacks it starts and the
// corpus's loads, which wra runs in K trials whose orders are drawn from
// a seed, measuring each run (CPU and memory from cgroups) and writing
// the corpus folder. The harness then writes the corpus's README.md.
// The plan (what to run, how long, how often) is data: Full is the
// published corpus, Short a few-minute version for testing the harness.
package record

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Endpoint is one URL of the API, named by the test label it gets.
type Endpoint struct {
	Test string // label value: ping, one, page, wait
	Path string // path and query, e.g. /db/one?id=42
}

// Standard endpoints; the same URL for every server and every tool.
var (
	Ping   = Endpoint{"ping", "/ping"}
	DBOne  = Endpoint{"one", "/db/one?id=42"}
	DBPage = Endpoint{"page", "/db/page?after=100&limit=20"}
	Wait10 = Endpoint{"wait", "/wait?ms=10"}
)

// FixedTest is one endpoint driven by wrk2 at several request rates.
type FixedTest struct {
	Endpoint
	Rates []int // requests per second
}

// FixedPlan is the fixed-rate series (wrk2 -R): a cell per server, test
// and rate.
type FixedPlan struct {
	Tests []FixedTest
	// Duration is wrk2's -d: its own calibration (WRK2Calibration, no
	// latency recorded) and then the measured load.
	Duration    time.Duration
	Threads     int
	Connections int
}

// ToolsPlan is the tools series: a cell per server, endpoint and tool.
type ToolsPlan struct {
	Endpoints      []Endpoint
	Connections    int           // ab -c, bombardier -c
	Duration       time.Duration // ab -t, bombardier -d, k6 duration
	K6Rate         int           // k6 constant-arrival-rate, requests per second
	K6MaxVUs       int
	ABMaxRequests  int // ab -n: the cap when -t runs out later
	BombardierOpts []string
}

// WaitingPlan is the memory series: /wait?ms=WaitMS at each concurrency,
// a cell per server and concurrency, ab -c C -n C*RequestsPerConn.
type WaitingPlan struct {
	Concurrencies   []int
	WaitMS          int
	RequestsPerConn int
}

// LadderPlan is the k6 ramping-arrival-rate ladder, a cell per server.
type LadderPlan struct {
	Endpoint
	Steps  []int         // requests per second, ascending
	Ramp   time.Duration // to reach each step
	Hold   time.Duration // each step is held this long after its ramp
	MaxVUs int
	P95MS  int // the per-step threshold written into the script's thresholds
}

// CalmPlan is whether the recording waits for a quiet machine: before
// the noise pair and each trial wra reads the 1-minute load average and,
// where MaxWait is above 0, waits (polling every Poll, at most MaxWait)
// until it is at most MaxLoadPerCPU times the CPUs. A calibration pair
// whose medians differ by more than MaxDrift is flagged in the README.
type CalmPlan struct {
	MaxLoadPerCPU float64
	MaxWait       time.Duration
	Poll          time.Duration
	MaxDrift      float64
}

// CalibrationPlan is the fixed CPU job timed before and after each trial.
type CalibrationPlan struct {
	Processes []int
	Reps      int
	BufferMiB int
}

// Plan is everything a recording does.
type Plan struct {
	Name    string // "full" or "short"
	Servers []string
	// Trials is how many times every cell runs, each time in a trial of
	// its own with every other cell, in an order drawn for that trial.
	Trials      int
	Fixed       FixedPlan
	Tools       ToolsPlan
	Waiting     WaitingPlan
	Ladder      LadderPlan
	Calibration CalibrationPlan
	Calm        CalmPlan
	Rows        int // rows in the items table
	PoolSize    int // database connections per server
}

// Databases the stacks run on, by the name the records and wra.toml give.
const (
	PostgreSQL = "postgresql"
	MariaDB    = "mariadb"
)

// Runtimes of the stacks that are not Go programs.
const (
	Node   = "node"
	Python = "python"
	PHP    = "php" // PHP-FPM behind nginx
)

// Stack is one server the harness knows how to build and start.
type Stack struct {
	Name     string // the server label
	Database string // PostgreSQL or MariaDB
	// Build is the folder under servers/ the program comes from: a Go
	// package (built into bin/<Build>), a Node program (server.js with its
	// locked dependencies) or a Python program (server.py on Debian's
	// packages); stacks may share one, with different DSNs.
	Build   string
	Runtime string // "" (Go), Node, Python or PHP
	// DSNQuery is appended to the database's DSN (e.g. a driver mode).
	DSNQuery string
	// Module is the driver's module, npm package or Python module, for the
	// versions table.
	Module string
	Doc    string // the README's one-line description
}

// Stacks are the servers the harness knows, in recording order.
var Stacks = []Stack{
	{Name: "go-pgx", Database: PostgreSQL, Build: "go-pgx", Module: "github.com/jackc/pgx/v5",
		Doc: "Go net/http + pgx v5 pool (pgxpool; statements cached per connection)"},
	{Name: "go-pq", Database: PostgreSQL, Build: "go-pq", Module: "github.com/lib/pq",
		Doc: "Go net/http + database/sql + lib/pq (every parameterised query is prepared anew: a Parse/Describe round trip, then Bind/Execute)"},
	{Name: "node-pg", Database: PostgreSQL, Build: "node-pg", Runtime: Node, Module: "pg",
		Doc: "Node.js http + pg (node-postgres) Pool, one process"},
	{Name: "go-mysql", Database: MariaDB, Build: "go-mysql", Module: "github.com/go-sql-driver/mysql",
		Doc: "Go net/http + database/sql + go-sql-driver/mysql, default mode (every parameterised query is a server-side prepared statement: prepare, execute, close)"},
	{Name: "go-mysql-interp", Database: MariaDB, Build: "go-mysql", DSNQuery: "interpolateParams=true", Module: "github.com/go-sql-driver/mysql",
		Doc: "the same program with `interpolateParams=true` (the driver writes the parameters into the query text: one plain query)"},
	{Name: "py-asyncpg", Database: PostgreSQL, Build: "py-asyncpg", Runtime: Python, Module: "asyncpg",
		Doc: "Python uvicorn (ASGI, h11, asyncio loop, one process) + asyncpg pool (statements prepared once per connection and cached)"},
	{Name: "php-pdo", Database: PostgreSQL, Build: "php-pdo", Runtime: PHP, Module: "pdo_pgsql",
		Doc: "nginx + PHP-FPM (static pool, one persistent connection per worker) + PDO pdo_pgsql with native prepares (each query prepared anew per request)"},
	{Name: "node-mysql", Database: MariaDB, Build: "node-mysql", Runtime: Node, Module: "mysql2",
		Doc: "Node.js http + mysql2 pool, one process (`pool.query`: parameters escaped into the query text by the client)"},
}

// ServerNames are the stacks the harness knows how to start.
var ServerNames = stackNames()

func stackNames() []string {
	names := make([]string, len(Stacks))
	for i, s := range Stacks {
		names[i] = s.Name
	}
	return names
}

// StackOf is the stack of a server name.
func StackOf(name string) (Stack, bool) {
	for _, s := range Stacks {
		if s.Name == name {
			return s, true
		}
	}
	return Stack{}, false
}

// Databases are the databases the plan's servers need, in the order of
// their first server.
func (p Plan) Databases() []string {
	var dbs []string
	for _, name := range p.Servers {
		if st, ok := StackOf(name); ok && !contains(dbs, st.Database) {
			dbs = append(dbs, st.Database)
		}
	}
	return dbs
}

// WRK2Calibration is the start of a wrk2 run that it records no latency
// for: a fixed-rate cell's measured load is what follows it.
const WRK2Calibration = 10 * time.Second

// Full is the published corpus: 5 trials of 8 stacks x 16 cells (4
// fixed rates of 10 s measured after wrk2's calibration, 2 endpoints by 3
// tools, 5 waiting points, a ladder whose steps are held 10 s), each
// trial about 23 minutes of scheduled load (Plan.Estimate; about 2.5 hours
// in all with starts, warm-ups and calibrations), with every fixed rate
// and the first ladder steps well below what a stack, its database and
// the load generator sharing 2 cores can serve.
func Full() Plan {
	return Plan{
		Name:    "full",
		Servers: ServerNames,
		Trials:  5,
		Fixed: FixedPlan{
			Tests: []FixedTest{
				{DBOne, []int{100, 250, 500}},
				{DBPage, []int{250}},
			},
			Duration: WRK2Calibration + 10*time.Second, Threads: 2, Connections: 16,
		},
		Tools: ToolsPlan{
			Endpoints:   []Endpoint{Ping, DBOne},
			Connections: 16, Duration: 3 * time.Second,
			K6Rate: 500, K6MaxVUs: 100, ABMaxRequests: 1000000,
		},
		Waiting: WaitingPlan{
			Concurrencies: []int{50, 100, 200, 400, 800},
			WaitMS:        1000, RequestsPerConn: 2,
		},
		Ladder: LadderPlan{
			Endpoint: DBPage,
			Steps:    []int{100, 200, 400, 800},
			Ramp:     time.Second, Hold: 10 * time.Second, MaxVUs: 300, P95MS: 50,
		},
		Calibration: CalibrationPlan{Processes: []int{1, 2}, Reps: 5, BufferMiB: 128},
		Calm:        CalmPlan{MaxLoadPerCPU: 0.5, Poll: 15 * time.Second, MaxDrift: 0.05},
		Rows:        10000,
		PoolSize:    20,
	}
}

// Short is a few-minute recording of the same shape, for testing the
// harness itself: every server, every series, every file kind, fewer and
// shorter runs in 2 trials. Its numbers are not for publishing.
func Short() Plan {
	p := Full()
	p.Name = "short"
	p.Trials = 2
	p.Fixed.Tests = []FixedTest{{DBOne, []int{250}}}
	p.Fixed.Duration = WRK2Calibration + time.Second
	p.Tools.Endpoints = []Endpoint{Ping, DBOne}
	p.Tools.Duration = 2 * time.Second
	p.Tools.K6Rate = 200
	p.Waiting.Concurrencies = []int{50, 200}
	p.Waiting.WaitMS = 500
	p.Ladder.Steps = []int{100, 200}
	p.Ladder.Hold = 2 * time.Second
	p.Calibration.Reps = 1
	p.Calibration.BufferMiB = 32
	p.Rows = 1000
	return p
}

// Compact is the full plan cut to fit about 75 minutes of wall time on a
// 2-core machine: 5 trials of the 6 stacks that pair a driver contrast on
// one database (go-pgx vs go-pq on PostgreSQL, go-mysql vs go-mysql-interp
// on MariaDB) or one runtime on both databases (node-pg, node-mysql), and
// per stack a subset of the full plan's cells: 3 fixed rates (10 s
// measured each), the 3 tools on /db/one, 3 points of the waiting series
// (50..800) and the same ladder (steps held 10 s). Every cell is one of the
// full plan's, so its runs compare with a full recording's.
func Compact() Plan {
	p := Full()
	p.Name = "compact"
	p.Servers = []string{"go-pgx", "go-pq", "node-pg", "go-mysql", "go-mysql-interp", "node-mysql"}
	p.Fixed.Tests = []FixedTest{
		{DBOne, []int{100, 500}},
		{DBPage, []int{250}},
	}
	p.Tools.Endpoints = []Endpoint{DBOne}
	p.Waiting.Concurrencies = []int{50, 200, 800}
	return p
}

// Plans are the named plans, for -plan.
var Plans = map[string]func() Plan{"full": Full, "compact": Compact, "short": Short}

// PlanNames are the names of Plans, in the order -h lists them.
var PlanNames = []string{"full", "compact", "short"}

// Flags are the command-line flags that make this plan again from its
// named plan: -plan, then -servers, -trials and -cell where they differ
// from it (e.g. "-plan short -servers go-pgx,go-pq -trials 1 -cell 2s").
func (p Plan) Flags() string {
	flags := []string{"-plan", p.Name}
	base := p
	if f, ok := Plans[p.Name]; ok {
		base = f()
	}
	if strings.Join(p.Servers, ",") != strings.Join(base.Servers, ",") {
		flags = append(flags, "-servers", strings.Join(p.Servers, ","))
	}
	if p.Trials != base.Trials {
		flags = append(flags, "-trials", strconv.Itoa(p.Trials))
	}
	if p.Fixed.Duration != base.Fixed.Duration {
		flags = append(flags, "-cell", seconds(p.Fixed.Duration-WRK2Calibration))
	}
	return strings.Join(flags, " ")
}

// Validate reports the first inconsistency of the plan.
func (p Plan) Validate() error {
	var errs []error
	check := func(ok bool, format string, a ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	check(len(p.Servers) > 0, "no servers")
	check(p.Trials > 0, "need at least one trial")
	for i, s := range p.Servers {
		check(contains(ServerNames, s), "unknown server %q (known: %s)", s, strings.Join(ServerNames, ", "))
		check(!contains(p.Servers[:i], s), "server %q listed twice", s)
	}
	check(len(p.Fixed.Tests) > 0, "fixed-rate series: no tests")
	for _, t := range p.Fixed.Tests {
		check(len(t.Rates) > 0, "fixed-rate test %s: no rates", t.Test)
		for _, r := range t.Rates {
			check(r > 0, "fixed-rate test %s: rate %d", t.Test, r)
		}
	}
	check(p.Fixed.Threads > 0 && p.Fixed.Connections >= p.Fixed.Threads, "fixed-rate series: need connections >= threads > 0")
	check(p.Fixed.Duration > WRK2Calibration && p.Fixed.Duration%time.Second == 0, "fixed-rate duration must be whole seconds, more than wrk2's %s calibration", WRK2Calibration)
	check(p.Tools.Duration >= time.Second && p.Tools.Duration%time.Second == 0, "tools duration must be whole seconds")
	check(p.Tools.Connections > 0 && p.Tools.K6Rate > 0 && p.Tools.K6MaxVUs > 0 && p.Tools.ABMaxRequests > 0, "tools series: non-positive setting")
	check(len(p.Waiting.Concurrencies) > 0 && p.Waiting.WaitMS > 0 && p.Waiting.RequestsPerConn > 0, "waiting series: non-positive setting")
	check(len(p.Ladder.Steps) > 0 && p.Ladder.MaxVUs > 0, "ladder: no steps or VUs")
	for i, s := range p.Ladder.Steps {
		check(s > 0 && (i == 0 || s > p.Ladder.Steps[i-1]), "ladder steps must be positive and ascending: %v", p.Ladder.Steps)
	}
	check(p.Ladder.Ramp >= time.Second && p.Ladder.Ramp%time.Second == 0 && p.Ladder.Hold >= time.Second && p.Ladder.Hold%time.Second == 0,
		"ladder ramp and hold must be whole seconds")
	check(len(p.Calibration.Processes) > 0 && p.Calibration.Reps > 0 && p.Calibration.BufferMiB > 0, "calibration: non-positive setting")
	check(p.Calm.MaxLoadPerCPU > 0 && p.Calm.MaxDrift > 0 && p.Calm.MaxWait >= 0 && (p.Calm.MaxWait == 0 || p.Calm.Poll > 0),
		"calm machine: need a load limit, a drift limit and a poll interval when waiting")
	check(p.Rows >= 200 && p.PoolSize > 0, "need at least 200 rows (the endpoints read ids up to 120) and a pool")
	return errors.Join(errs...)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Stages is the ladder's k6 stage schedule as "target:duration" pairs, the
// form wra.toml carries it in (e.g. "250:1s,250:3s,500:1s,500:3s").
func (l LadderPlan) Stages() string {
	var b strings.Builder
	for i, s := range l.Steps {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d:%s,%d:%s", s, seconds(l.Ramp), s, seconds(l.Hold))
	}
	return b.String()
}

// Duration is the ladder's scheduled length.
func (l LadderPlan) Duration() time.Duration {
	return time.Duration(len(l.Steps)) * (l.Ramp + l.Hold)
}

func seconds(d time.Duration) string { return strconv.Itoa(int(d/time.Second)) + "s" }

// waitingDuration is how long the waiting series' run of a server at a
// concurrency takes: RequestsPerConn waits of WaitMS, one after the other
// on each connection, where every request waits at once; where the stack
// serves at most PoolSize requests at a time (PHP-FPM's static pool: a
// worker per request), the rest queue and the run takes that many rounds
// of PoolSize.
func (p Plan) waitingDuration(server string, conc int) time.Duration {
	w := p.Waiting
	rounds := 1
	if st, ok := StackOf(server); ok && st.Runtime == PHP && p.PoolSize > 0 {
		rounds = (conc + p.PoolSize - 1) / p.PoolSize
	}
	return time.Duration(rounds*w.RequestsPerConn*w.WaitMS) * time.Millisecond
}
