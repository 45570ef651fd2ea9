package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wra-bench/wra/data/harness/internal/mariadb"
	"github.com/wra-bench/wra/data/harness/internal/pg"
	"github.com/wra-bench/wra/data/harness/internal/proc"
)

// Tools are the paths of the programs a recording runs.
type Tools struct {
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
	// Seed draws the order of the cells in every trial (Plan.DrawTrials);
	// the README and wra.toml give it, and -dry-run -seed prints the same
	// orders again.
	Seed uint64
	// LoadAvg is the load average file; "" is /proc/loadavg.
	LoadAvg string

	work     string
	stage    string
	dbs      map[string]*runningDB // by database name, those the plan needs
	proc     proc.FS
	live     map[*server]struct{}
	examples []example // the first command of each kind, for the README
	records  []recordRow
	memory   []memoryRow
	schedule []scheduleRow // every run in the order it ran, for trials.csv
	stats    []pairStat    // the noise pair, then one per trial, for the README
	trials   []Trial
	// calibrationJob, when set, times the calibration instead of calibrate
	// (tests set their own timings).
	calibrationJob func(ctx context.Context, pair, phase string) ([]calibrationRow, error)
	// cellJob, when set, runs the cells instead of runCell (tests record
	// the order instead of running load).
	cellJob func(ctx context.Context, trial int, c Cell) error
	clock   func() time.Time                           // nil: the wall clock
	sleep   func(context.Context, time.Duration) error // nil: the clock
	started time.Time
}

type example struct{ Kind, Command string }

// outputs are the top-level entries of the corpus folder the harness owns;
// a recording replaces all of them and touches nothing else (harness/ stays).
var outputs = []string{"README.md", "wra.toml", scheduleName, "records", "memory", "calibration", "wrk2", "tools", "waiting", "ladder"}

// Record makes the whole corpus: the noise pair, then the plan's trials,
// each running every cell once in its order drawn from Seed between the
// trial's two calibrations. It writes into a staging folder inside Out
// and replaces the previous corpus only when every trial succeeded;
// servers, the databases and the work folder are cleaned up on every path.
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
	r.proc = proc.FS{Root: "/proc"}
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
			fmt.Fprintf(r.Log, "server and PostgreSQL logs of the failed recording were in %s (removed)\n", filepath.Join(r.work, "logs"))
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

	if err := r.recordTrials(ctx); err != nil {
		return err
	}
	if err := r.writeRecords(); err != nil {
		return err
	}
	if err := r.writeMemory(); err != nil {
		return err
	}
	if err := r.writeSchedule(); err != nil {
		return err
	}
	if err := r.writeManifest(); err != nil {
		return err
	}
	if err := r.checkCorpus(); err != nil {
		return err
	}
	if err := r.writeReadme(ctx, time.Now().UTC()); err != nil {
		return err
	}
	return r.promote()
}

// recordTrials measures the machine's noise, then runs the trials.
func (r *Runner) recordTrials(ctx context.Context) error {
	r.trials = r.Plan.DrawTrials(r.Seed)
	r.logf("plan %s: %d trials of %d cells, orders drawn from seed %d", r.Plan.Name, len(r.trials), len(r.Plan.Cells()), r.Seed)
	if err := r.noiseFloor(ctx); err != nil {
		return err
	}
	for _, tr := range r.trials {
		if err := r.runTrial(ctx, tr); err != nil {
			return err
		}
	}
	return nil
}

func (r *Runner) checkTools() error {
	var errs []error
	for _, t := range []struct{ flag, path string }{
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

// path returns the staged path of a corpus file (slash-separated, relative
// to the corpus root), creating its folder.
func (r *Runner) path(rel string) (string, error) {
	p := filepath.Join(r.stage, filepath.FromSlash(rel))
	return p, os.MkdirAll(filepath.Dir(p), 0o755)
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

// note keeps the first command of each kind for the README, with the
// staging folder shown as the corpus root.
func (r *Runner) note(kind string, c command) {
	for _, e := range r.examples {
		if e.Kind == kind {
			return
		}
	}
	// Programs by name (wrk2 as the user's $WRK2), not by this machine's paths.
	if c.Name == r.Tools.WRK2 {
		c.Name = "$WRK2"
	} else {
		c.Name = filepath.Base(c.Name)
	}
	s := c.String()
	if c.Stdout != "" {
		s += " > " + shellQuote(c.Stdout)
	}
	s = strings.ReplaceAll(s, r.stage+"/", "")
	s = strings.ReplaceAll(s, r.work+"/", "$WORK/")
	s = strings.ReplaceAll(s, r.Src+"/", "")
	r.examples = append(r.examples, example{kind, s})
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
