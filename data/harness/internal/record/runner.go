package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wra-bench/wra/data/harness/internal/mariadb"
	"github.com/wra-bench/wra/data/harness/internal/pg"
)

// Tools are the paths of the programs a recording runs.
type Tools struct {
	WRA        string // the wra binary, whose record --plan runs the trials
	WRK2       string // built by the user from giltene/wrk2
	WRK2Source string // where that binary came from, for the README (e.g. "giltene/wrk2 44a94c1")
	AB         string
	Bombardier string
	K6         string
	Node       string
	Python     string // Debian's python3, with python3-uvicorn and python3-asyncpg
	PHPFPM     string // Debian's php-fpm, with php-pgsql
	Nginx      string
	NPM        string
	Go         string
	Sha256sum  string
}

// DefaultTimeout is the recording's time limit unless told otherwise:
// twice the full plan's scheduled load and more, for server starts,
// warm-ups, calibrations and waiting for a calm machine.
const DefaultTimeout = 4 * time.Hour

// margin is added to a run's planned length for its time limits.
const margin = 30 * time.Second

// Warm-up before measuring: ab -k -c WarmUpConns -n WarmUpRequests on the
// cell's endpoint, output discarded, so that connection pools are full
// and JIT compilers have run before the first recorded request.
const (
	WarmUpConns    = 8
	WarmUpRequests = 1000
)

// k6Env keeps k6 from phoning home (there is no network, and a benchmark
// should not depend on one).
var k6Env = map[string]string{"K6_NO_USAGE_REPORT": "true"}

// k6SystemTags trims the tags k6 writes on every point (url duplicates name;
// proto, group, tls_version, subproto and service are constant here), which
// keeps the ladders' NDJSON small without dropping a metric.
const k6SystemTags = "status,method,name,scenario,expected_response,check,error_code"

// The files of the corpus the harness names itself.
const (
	recordsName  = "records/fixed-rate.csv"
	memoryName   = "memory/waiting.csv"
	scheduleName = "trials.csv"
	pairsName    = "pairs.csv"
)

// Runner records one corpus.
type Runner struct {
	Plan   Plan
	Tools  Tools
	Src    string    // the harness module folder (servers, k6 scripts)
	Out    string    // the corpus folder
	Log    io.Writer // progress and every command line
	PGBin  string    // "" finds Debian's PostgreSQL
	PGPort int
	// MariaDBBin is the folder of mariadbd; "" finds Debian's MariaDB.
	MariaDBBin  string
	MariaDBPort int
	BasePort    int // servers listen on BasePort, BasePort+1, ...
	// Invocation is the harness command line, written into the README.
	Invocation string
	// Seed draws the order of the cells in every trial; the README and
	// wra.toml give it, and -dry-run -seed prints the same orders again.
	Seed uint64

	work    string
	stage   string
	dbs     map[string]*runningDB // by database name, those the plan needs
	live    map[*server]struct{}
	started time.Time
}

// outputs are the top-level entries of the corpus folder the harness owns;
// a recording replaces all of them and touches nothing else (harness/ stays).
var outputs = []string{"README.md", "wra.toml", scheduleName, pairsName, "records", "memory", "calibration", "wrk2", "tools", "waiting", "ladder"}

// DryRun prints what wra record --plan would run for the plan and seed:
// every trial's cells in order, with their commands; nothing is built,
// started or run.
func (r *Runner) DryRun(ctx context.Context, stdout io.Writer) (err error) {
	if err := r.Plan.Validate(); err != nil {
		return fmt.Errorf("plan %s: %w", r.Plan.Name, err)
	}
	if r.work, err = os.MkdirTemp("", "wra-harness-dry-"); err != nil {
		return err
	}
	defer os.RemoveAll(r.work)
	r.dbs = map[string]*runningDB{}
	for _, name := range r.Plan.Databases() {
		r.dbs[name] = &runningDB{Name: name, dsn: "(the " + name + " DSN)", url: "(the " + name + " URL)"}
	}
	plan, err := r.writePlan()
	if err != nil {
		return err
	}
	return r.wra(ctx, stdout, "record", "--plan", plan, "--seed", strconv.FormatUint(r.Seed, 10), "--out", r.Out, "--dry-run")
}

// Record makes the whole corpus: it builds the stacks, starts the
// databases, checks every stack's answers, and runs wra record --plan
// into a staging folder inside Out, which replaces the previous corpus
// only when every trial succeeded; servers, the databases and the work
// folder are cleaned up on every path.
func (r *Runner) Record(ctx context.Context) (err error) {
	if err := r.Plan.Validate(); err != nil {
		return fmt.Errorf("plan %s: %w", r.Plan.Name, err)
	}
	if err := r.checkTools(); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(r.Src, "servers", "api", "api.go")); err != nil {
		return fmt.Errorf("harness sources not found in %s (run from data/harness or pass -src): %w", r.Src, err)
	}
	r.started = time.Now().UTC()
	r.live = map[*server]struct{}{}
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		return err
	}
	if r.work, err = os.MkdirTemp("", "wra-harness-work-"); err != nil {
		return err
	}
	defer os.RemoveAll(r.work)
	if r.stage, err = os.MkdirTemp(r.Out, ".recording-"); err != nil {
		return err
	}
	defer os.RemoveAll(r.stage)
	if err := os.MkdirAll(filepath.Join(r.work, "logs"), 0o755); err != nil {
		return err
	}
	defer func() {
		for s := range r.live {
			if serr := r.stopServer(s); serr != nil {
				err = errors.Join(err, serr)
			}
		}
		if err != nil {
			fmt.Fprintf(r.Log, "server and database logs of the failed recording were in %s (removed)\n", filepath.Join(r.work, "logs"))
		}
	}()
	r.logf("building servers")
	if err := r.prepareServers(ctx); err != nil {
		return err
	}
	defer func() {
		for _, db := range r.dbs {
			if derr := db.stop(); derr != nil {
				err = errors.Join(err, derr)
			}
		}
	}()
	if err := r.startDatabases(ctx); err != nil {
		return err
	}
	if err := r.verifyStacks(ctx); err != nil {
		return err
	}
	plan, err := r.writePlan()
	if err != nil {
		return err
	}
	args := []string{"record", "--plan", plan, "--seed", strconv.FormatUint(r.Seed, 10), "--out", r.stage}
	for _, name := range r.Plan.Databases() {
		args = append(args, "--var", DatabaseVar(name)+"="+strconv.Itoa(r.dbs[name].pid))
	}
	r.logf("recording: %s", shellJoin(append([]string{"wra"}, args...)))
	if err := r.wra(ctx, r.Log, args...); err != nil {
		return err
	}
	if err := r.recompressLadders(); err != nil {
		return err
	}
	if err := r.writeReadme(ctx, time.Now().UTC()); err != nil {
		return err
	}
	return r.promote()
}

// writePlan writes the plan for wra record into the work folder.
func (r *Runner) writePlan() (string, error) {
	text, err := r.WraPlan()
	if err != nil {
		return "", err
	}
	p := filepath.Join(r.work, "plan.toml")
	return "plan.toml", os.WriteFile(p, []byte(text), 0o644)
}

// wra runs the wra binary, its standard output to stdout and its
// standard error (progress, every cell) to the log. An interrupt reaches
// it as an interrupt, so that it ends the cell under way as it does for
// a user.
func (r *Runner) wra(ctx context.Context, stdout io.Writer, args ...string) error {
	cmd := exec.CommandContext(ctx, r.Tools.WRA, args...)
	cmd.Stdout, cmd.Stderr = stdout, r.Log
	cmd.Dir = r.workDir() // the plan is plan.toml there
	cmd.Env = append(os.Environ(), "WRA_DB="+filepath.Join(r.workDir(), "wra.duckdb"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 30 * time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("wra %s: %w", strings.Join(args[:1], " "), err)
	}
	return nil
}

func (r *Runner) workDir() string {
	if r.work != "" {
		return r.work
	}
	return os.TempDir()
}

// verifyStacks starts every stack once and checks that each answers
// the same bytes on every endpoint, before any is measured.
func (r *Runner) verifyStacks(ctx context.Context) error {
	for _, name := range r.Plan.Servers {
		s, err := r.startServer(ctx, name)
		if err != nil {
			return err
		}
		if err := r.stopServer(s); err != nil {
			return err
		}
	}
	return nil
}

// recompressLadders rewrites k6's gzipped point streams at gzip's best
// level (the NDJSON inside is k6's, checked byte for byte).
func (r *Runner) recompressLadders() error {
	// The pattern within the stage, whose own path is no pattern.
	files, err := fs.Glob(os.DirFS(r.stage), "ladder/t*/*/*.ndjson.gz")
	if err != nil {
		return err
	}
	for _, f := range files {
		f = filepath.Join(r.stage, filepath.FromSlash(f))
		before, after, err := recompress(f)
		if err != nil {
			return err
		}
		r.logf("%s: points recompressed, %d -> %d bytes", r.rel(f), before, after)
	}
	return nil
}

func (r *Runner) checkTools() error {
	var errs []error
	for _, t := range []struct{ flag, path string }{
		{"wra (-wra, or built from the repository)", r.Tools.WRA},
		{"wrk2 (-wrk2, $WRK2 or wrk2 on PATH)", r.Tools.WRK2}, {"ab", r.Tools.AB}, {"bombardier", r.Tools.Bombardier},
		{"k6", r.Tools.K6}, {"node", r.Tools.Node}, {"npm", r.Tools.NPM}, {"python3 (-python)", r.Tools.Python},
		{"php-fpm (-php-fpm)", r.Tools.PHPFPM}, {"nginx", r.Tools.Nginx}, {"go", r.Tools.Go}, {"sha256sum", r.Tools.Sha256sum},
	} {
		if t.path == "" {
			errs = append(errs, fmt.Errorf("%s: not found", t.flag))
			continue
		}
		if st, err := os.Stat(t.path); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			errs = append(errs, fmt.Errorf("%s: %s is not an executable file", t.flag, t.path))
		}
	}
	return errors.Join(errs...)
}

// promote replaces the harness's outputs in Out by the staged ones.
func (r *Runner) promote() error {
	for _, name := range outputs {
		if err := os.RemoveAll(filepath.Join(r.Out, name)); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(r.stage)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(r.stage, e.Name()), filepath.Join(r.Out, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// rel is a staged path relative to the corpus root, with forward slashes.
func (r *Runner) rel(p string) string {
	rel, err := filepath.Rel(r.stage, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(rel)
}

func (r *Runner) logf(format string, a ...any) {
	fmt.Fprintf(r.Log, "[%s] %s\n", time.Now().UTC().Format("15:04:05"), fmt.Sprintf(format, a...))
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// runningDB is one database of the recording.
type runningDB struct {
	Name    string // PostgreSQL or MariaDB
	Port    int
	Version string
	pid     int
	dsn     string // the Go drivers' form
	url     string // the URL form (Node)
	stop    func() error
}

// startDatabases starts every database the plan's servers need, each from a
// fresh data folder with the items table of Plan.Rows rows, its output in
// the work folder's logs.
func (r *Runner) startDatabases(ctx context.Context) error {
	r.dbs = map[string]*runningDB{}
	for _, name := range r.Plan.Databases() {
		log, err := os.Create(filepath.Join(r.work, "logs", name+".log"))
		if err != nil {
			return err
		}
		defer log.Close()
		switch name {
		case PostgreSQL:
			r.logf("starting PostgreSQL on 127.0.0.1:%d", r.PGPort)
			c, err := pg.Start(ctx, pg.Options{BinDir: r.PGBin, Port: r.PGPort, Rows: r.Plan.Rows, Log: log})
			if err != nil {
				return fmt.Errorf("PostgreSQL: %w", err)
			}
			r.dbs[name] = &runningDB{Name: "PostgreSQL", Port: r.PGPort, Version: c.Version, pid: c.PID(), dsn: c.DSN(), url: c.DSN(), stop: c.Stop}
		case MariaDB:
			r.logf("starting MariaDB on 127.0.0.1:%d", r.MariaDBPort)
			s, err := mariadb.Start(ctx, mariadb.Options{BinDir: r.MariaDBBin, Port: r.MariaDBPort, Rows: r.Plan.Rows, Log: log})
			if err != nil {
				return fmt.Errorf("MariaDB: %w", err)
			}
			r.dbs[name] = &runningDB{Name: "MariaDB", Port: r.MariaDBPort, Version: s.Version, pid: s.PID(), dsn: s.DSN(), url: s.URL(), stop: s.Stop}
		default:
			return fmt.Errorf("unknown database %q", name)
		}
	}
	return nil
}

// dbOf is the running database of a server.
func (r *Runner) dbOf(server string) (*runningDB, error) {
	st, ok := StackOf(server)
	if !ok {
		return nil, fmt.Errorf("unknown server %q", server)
	}
	db := r.dbs[st.Database]
	if db == nil {
		return nil, fmt.Errorf("%s: database %s is not running", server, st.Database)
	}
	return db, nil
}

// serverDSN is the connection string a server is started with: the Go
// drivers' form (with the stack's DSN query) or, for Node and Python, the
// URL form.
func serverDSN(st Stack, db *runningDB) string {
	dsn := db.dsn
	if st.Runtime != "" {
		dsn = db.url
	}
	if st.DSNQuery != "" {
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		dsn += sep + st.DSNQuery
	}
	return dsn
}
