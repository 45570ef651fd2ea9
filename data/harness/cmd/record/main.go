// Command record records wra's benchmark corpus: it builds the web stacks,
// starts PostgreSQL and MariaDB on 127.0.0.1 and loads their tables, and
// runs wra record --plan with the corpus's plan: K trials (each runs
// every cell once, in an order drawn at random for it from -seed) of
// wrk2, ab, bombardier and k6 against stacks wra starts in cgroups of
// their own, measuring CPU and memory around every run; then it writes
// the corpus's README.md into -out.
//
//	WRK2=/path/to/wrk2 go run ./cmd/record -out ..          # the full corpus (about 2.5 hours)
//	go run ./cmd/record -dry-run -seed 42                    # the trials and their orders; nothing runs
//	WRK2=/path/to/wrk2 go run ./cmd/record -plan compact -out ..  # 6 stacks, about 75 minutes
//	WRK2=/path/to/wrk2 go run ./cmd/record -short -out DIR  # a few minutes, for testing
//
// wrk2 is built by the user from giltene/wrk2 (-wrk2, $WRK2, or wrk2 on
// PATH, where tools.sh installs it); wra is built from this repository
// (../..) unless -wra gives it; the other tools are looked up on PATH
// (and in $GOPATH/bin for k6 and bombardier) unless given by flag.
// Exit codes: 0 recorded, 1 failed (the previous corpus is untouched),
// 2 usage error, 130 interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/wra-bench/wra/data/harness/internal/record"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

func run(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "corpus folder to (re)write (required); only the harness's own files in it are replaced")
	short := fs.Bool("short", false, "record the short plan (a few minutes; for testing the harness): the same as -plan short")
	planName := fs.String("plan", "full", "the plan to record: full (8 stacks, 5 trials, about 2.5 hours), compact (6 stacks, 5 trials, about 75 minutes) or short (a few minutes; for testing the harness)")
	src := fs.String("src", ".", "the harness module folder (data/harness)")
	timeout := fs.Duration("timeout", record.DefaultTimeout, "limit for the whole recording")
	pgBin := fs.String("pg-bin", "", "folder of PostgreSQL's initdb and postgres (default: Debian's newest)")
	pgPort := fs.Int("pg-port", 55432, "PostgreSQL port on 127.0.0.1")
	myBin := fs.String("mariadb-bin", "", "folder of mariadbd (default: Debian's /usr/sbin)")
	myPort := fs.Int("mariadb-port", 53306, "MariaDB port on 127.0.0.1")
	basePort := fs.Int("port", 18081, "first server port on 127.0.0.1 (one per server)")
	maxDrift := fs.Float64("max-drift", record.Full().Calm.MaxDrift, "calibration drift, relative, beyond which a trial's calibration pair is marked in the README (as wra flags it)")
	dryRun := fs.Bool("dry-run", false, "print the plan's trials and the order of their cells on standard output, and exit; nothing is built, started or run")
	trials := fs.Int("trials", 0, "trials: each runs every cell of the plan once (default: the plan's, 5 in the full plan, 2 in the short one)")
	seed := fs.Uint64("seed", 0, "seed of the trials' orders (default: drawn from the clock; the README and wra.toml give it)")
	cell := fs.Duration("cell", 0, "measured load of a fixed-rate cell, whole seconds; wrk2 runs 10 s longer, its own calibration, which it records no latency for (default: the plan's, 10s in the full plan)")
	waitCalm := fs.Duration("wait-calm", 0, "before the noise pair and each trial, wait at most this long for a 1-minute load average of at most 0.5 per CPU, then go on whatever it is (default 0: record the load, never wait)")
	servers := fs.String("servers", "", "comma-separated stacks to record (default: all, "+strings.Join(record.ServerNames, ", ")+")")
	var t record.Tools
	fs.StringVar(&t.WRA, "wra", "", "the wra binary whose record --plan runs the trials (default: built from this repository, ../.., into the work folder)")
	fs.StringVar(&t.WRK2, "wrk2", getenv("WRK2"), "wrk2 binary built from giltene/wrk2 (default $WRK2, else wrk2 on PATH)")
	fs.StringVar(&t.WRK2Source, "wrk2-source", getenv("WRK2_SOURCE"), "where the wrk2 binary was built from, for the README, e.g. \"giltene/wrk2 44a94c1\" (default $WRK2_SOURCE)")
	fs.StringVar(&t.AB, "ab", "", "ab binary (default: on PATH)")
	fs.StringVar(&t.Bombardier, "bombardier", "", "bombardier binary (default: on PATH or in $GOPATH/bin)")
	fs.StringVar(&t.K6, "k6", "", "k6 binary (default: on PATH or in $GOPATH/bin)")
	fs.StringVar(&t.Node, "node", "", "node binary (default: on PATH)")
	fs.StringVar(&t.PHPFPM, "php-fpm", "", "php-fpm with pdo_pgsql (default: Debian's /usr/sbin/php-fpm<version>)")
	fs.StringVar(&t.Nginx, "nginx", "", "nginx binary (default: on PATH or /usr/sbin)")
	fs.StringVar(&t.Python, "python", "", "python3 with Debian's python3-uvicorn and python3-asyncpg (default: /usr/bin/python3, else on PATH)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if !(*maxDrift > 0) {
		fmt.Fprintln(stderr, "record: -max-drift must be above 0 (0.05 is 5%)")
		return 2
	}
	if *out == "" && !*dryRun || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "record: -out is required and no arguments are accepted; see -h")
		return 2
	}
	gobin := goBin(getenv)
	if t.WRK2 == "" {
		t.WRK2 = lookPathIn("wrk2", getenv("PATH"))
	}
	for _, x := range []struct {
		dst  *string
		name string
		dirs []string
	}{
		{&t.AB, "ab", nil}, {&t.Bombardier, "bombardier", []string{gobin}}, {&t.K6, "k6", []string{gobin}},
		{&t.Node, "node", nil}, {&t.Nginx, "nginx", []string{"/usr/sbin"}}, {&t.NPM, "npm", nil}, {&t.Go, "go", nil}, {&t.Sha256sum, "sha256sum", nil},
	} {
		if *x.dst == "" {
			*x.dst = lookPath(x.name, x.dirs)
		}
	}
	if t.Python == "" {
		t.Python = lookPath("python3", nil)
		if st, err := os.Stat("/usr/bin/python3"); err == nil && !st.IsDir() {
			t.Python = "/usr/bin/python3" // Debian's, where its python3-* packages are
		}
	}
	if t.PHPFPM == "" {
		if m, _ := filepath.Glob("/usr/sbin/php-fpm*"); len(m) > 0 {
			t.PHPFPM = m[len(m)-1] // Debian's php-fpm<version>
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *short {
		if set["plan"] && *planName != "short" {
			fmt.Fprintln(stderr, "record: -short is -plan short: give one of them")
			return 2
		}
		*planName = "short"
	}
	newPlan, ok := record.Plans[*planName]
	if !ok {
		fmt.Fprintf(stderr, "record: -plan %q: the plans are %s\n", *planName, strings.Join(record.PlanNames, ", "))
		return 2
	}
	plan := newPlan()
	plan.Calm.MaxDrift = *maxDrift
	if set["trials"] {
		plan.Trials = *trials
	}
	if set["cell"] {
		plan.Fixed.Duration = record.WRK2Calibration + *cell
	}
	plan.Calm.MaxWait = *waitCalm
	if *servers != "" {
		plan.Servers = strings.Split(*servers, ",")
	}
	if err := usageErrors(plan, set, *trials, *cell, *waitCalm); err != nil {
		fmt.Fprintln(stderr, "record:", err)
		return 2
	}
	if !set["seed"] {
		*seed = uint64(time.Now().UnixNano())
	}
	absOut, err1 := filepath.Abs(*out)
	absSrc, err2 := filepath.Abs(*src)
	if err := errors.Join(err1, err2); err != nil {
		fmt.Fprintln(stderr, "record:", err)
		return 2
	}
	r := &record.Runner{
		Plan: plan, Tools: t, Src: absSrc, Out: absOut, Log: stderr,
		PGBin: *pgBin, PGPort: *pgPort, MariaDBBin: *myBin, MariaDBPort: *myPort, BasePort: *basePort,
		Invocation: invocation(t.WRK2, args), Seed: *seed,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if r.Tools.WRA == "" {
		bin, cleanup, err := buildWra(ctx, absSrc, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "record:", err)
			return 1
		}
		defer cleanup()
		r.Tools.WRA = bin
	}
	if *dryRun {
		if err := r.DryRun(ctx, stdout); err != nil {
			fmt.Fprintln(stderr, "record:", err)
			return 1
		}
		return 0
	}
	raiseFileLimit()
	start := time.Now()
	if err := r.Record(ctx); err != nil {
		fmt.Fprintln(stderr, "record:", err)
		if errors.Is(ctx.Err(), context.Canceled) {
			return 130
		}
		return 1
	}
	fmt.Fprintf(stderr, "record: plan %s, %d trials from seed %d, written to %s in %s\n", plan.Name, plan.Trials, *seed, absOut, time.Since(start).Round(time.Second))
	return 0
}

// buildWra builds the wra binary of this repository (the module two
// folders above the harness) into a temporary folder.
func buildWra(ctx context.Context, src string, log io.Writer) (string, func(), error) {
	dir, err := os.MkdirTemp("", "wra-harness-bin-")
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "wra")
	fmt.Fprintln(log, "record: building wra (a minute the first time: DuckDB)")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/wra")
	cmd.Dir = filepath.Join(src, "..", "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("go build ./cmd/wra in %s: %w\n%s", cmd.Dir, err, out)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// usageErrors are the flags' values a plan cannot run with, each naming
// its flag; the plan's own check follows.
func usageErrors(plan record.Plan, set map[string]bool, trials int, cell, waitCalm time.Duration) error {
	var errs []error
	if set["trials"] && trials < 1 {
		errs = append(errs, fmt.Errorf("-trials must be at least 1"))
	}
	if set["cell"] && (cell <= 0 || cell%time.Second != 0) {
		errs = append(errs, fmt.Errorf("-cell must be whole seconds above 0, e.g. 10s"))
	}
	if waitCalm < 0 {
		errs = append(errs, fmt.Errorf("-wait-calm must be 0 (never wait) or a duration, e.g. 10m"))
	}
	if errs != nil {
		return errors.Join(errs...)
	}
	if err := plan.Validate(); err != nil {
		return fmt.Errorf("plan %s: %w", plan.Name, err)
	}
	return nil
}

// invocation is the command line for the README, each argument quoted for
// the shell where it needs it, with the user's wrk2 path shown as $WRK2.
func invocation(wrk2 string, args []string) string {
	parts := []string{"WRK2=/path/to/wrk2", "go", "run", "./cmd/record"}
	for _, a := range args {
		q := record.ShellQuote(a)
		if wrk2 != "" && q == a && strings.Contains(a, wrk2) {
			q = strings.ReplaceAll(a, wrk2, "$WRK2")
		}
		parts = append(parts, q)
	}
	return strings.Join(parts, " ")
}

func goBin(getenv func(string) string) string {
	if d := getenv("GOBIN"); d != "" {
		return d
	}
	if p := getenv("GOPATH"); p != "" {
		return filepath.Join(strings.Split(p, string(os.PathListSeparator))[0], "bin")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, "go", "bin")
	}
	return ""
}

// lookPathIn is the executable name in the first folder of path (a PATH
// value) that has one, or "".
func lookPathIn(name, path string) string {
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func lookPath(name string, dirs []string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// raiseFileLimit lifts the soft open-files limit to the hard one: the
// waiting series holds hundreds of connections in ab and in the server.
func raiseFileLimit() {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) == nil && l.Cur < l.Max {
		l.Cur = l.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
	}
}
