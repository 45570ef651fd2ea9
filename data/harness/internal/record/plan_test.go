package record

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPlansValidate(t *testing.T) {
	for _, p := range []Plan{Full(), Compact(), Short()} {
		if err := p.Validate(); err != nil {
			t.Errorf("plan %s: %v", p.Name, err)
		}
	}
}

func TestFullPlanShape(t *testing.T) {
	p := Full()
	// What the corpus promises: at least five stacks on both databases,
	// at least five trials, fixed rates well inside what 2 cores serve, a
	// waiting series of 50..800, calibration with 1 and 2 processes.
	if len(p.Servers) < 5 || len(p.Databases()) != 2 || p.Trials < 5 {
		t.Errorf("full plan too small: %d servers on %v, %d trials", len(p.Servers), p.Databases(), p.Trials)
	}
	for _, ft := range p.Fixed.Tests {
		for _, r := range ft.Rates {
			if r > 500 {
				t.Errorf("test %s: rate %d, want at most 500 requests/s", ft.Test, r)
			}
		}
	}
	if c := p.Waiting.Concurrencies; c[0] != 50 || c[len(c)-1] != 800 {
		t.Errorf("waiting concurrencies %v, want 50..800", c)
	}
	if !reflect.DeepEqual(p.Calibration.Processes, []int{1, 2}) {
		t.Errorf("calibration processes %v", p.Calibration.Processes)
	}
	// wrk2 keeps only what follows its 10 s calibration: a fixed-rate run
	// must be longer; the full plan's measures 10 s after it.
	for _, q := range []Plan{p, Short()} {
		if q.Fixed.Duration <= WRK2Calibration {
			t.Errorf("plan %s: wrk2 duration %s leaves no recorded latency", q.Name, q.Fixed.Duration)
		}
	}
	if p.Fixed.Duration-WRK2Calibration != 10*time.Second {
		t.Errorf("full plan: %s measured per fixed-rate cell, want 10s", p.Fixed.Duration-WRK2Calibration)
	}
	// The recording goes on whatever the load unless asked to wait.
	if p.Calm.MaxWait != 0 || Short().Calm.MaxWait != 0 {
		t.Errorf("plans wait for a calm machine: %s, %s", p.Calm.MaxWait, Short().Calm.MaxWait)
	}
}

func TestValidateErrors(t *testing.T) {
	p := Full()
	p.Servers = []string{"go-pgx", "rust", "go-pgx"}
	p.Fixed.Tests = []FixedTest{{DBOne, nil}}
	p.Ladder.Steps = []int{500, 250}
	p.Fixed.Duration = 1500 * time.Millisecond
	p.Trials = 0
	err := p.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`unknown server "rust"`, `server "go-pgx" listed twice`, "fixed-rate test one: no rates", "ladder steps must be positive and ascending",
		"fixed-rate duration must be whole seconds, more than wrk2's 10s calibration", "need at least one trial"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestLadderStages(t *testing.T) {
	l := LadderPlan{Steps: []int{250, 500}, Ramp: time.Second, Hold: 3 * time.Second}
	if got, want := l.Stages(), "250:1s,250:3s,500:1s,500:3s"; got != want {
		t.Errorf("Stages = %q, want %q", got, want)
	}
	if got := l.Duration(); got != 8*time.Second {
		t.Errorf("Duration = %s, want 8s", got)
	}
}

func TestStacksAndDatabases(t *testing.T) {
	p := Full()
	if got := p.Databases(); !reflect.DeepEqual(got, []string{PostgreSQL, MariaDB}) {
		t.Errorf("full plan databases %v", got)
	}
	p.Servers = []string{"go-mysql-interp", "go-mysql"}
	if got := p.Databases(); !reflect.DeepEqual(got, []string{MariaDB}) {
		t.Errorf("MariaDB-only plan databases %v", got)
	}
	builds := map[string]string{}
	for _, st := range Stacks {
		if st.Database != PostgreSQL && st.Database != MariaDB {
			t.Errorf("%s: database %q", st.Name, st.Database)
		}
		if st.Module == "" || st.Doc == "" || st.Build == "" {
			t.Errorf("%s: no module, description or build folder", st.Name)
		}
		builds[st.Name] = st.Build
	}
	// The two go-sql-driver/mysql modes are one program with two DSNs.
	if builds["go-mysql"] != builds["go-mysql-interp"] {
		t.Errorf("go-mysql built from %s, go-mysql-interp from %s", builds["go-mysql"], builds["go-mysql-interp"])
	}
	my := &runningDB{dsn: "root@tcp(127.0.0.1:3307)/wra", url: "mysql://root@127.0.0.1:3307/wra"}
	interp, _ := StackOf("go-mysql-interp")
	plain, _ := StackOf("go-mysql")
	if got := serverDSN(interp, my); got != "root@tcp(127.0.0.1:3307)/wra?interpolateParams=true" {
		t.Errorf("go-mysql-interp DSN %s", got)
	}
	if got := serverDSN(plain, my); got != my.dsn {
		t.Errorf("go-mysql DSN %s", got)
	}
	pgdb := &runningDB{dsn: "postgres://postgres@127.0.0.1:55432/postgres?sslmode=disable"}
	if got := serverDSN(Stack{DSNQuery: "x=1"}, pgdb); got != pgdb.dsn+"&x=1" {
		t.Errorf("a DSN with a query: %s", got)
	}
	if _, ok := StackOf("rust"); ok {
		t.Error("StackOf an unknown server")
	}
}

// A stack with a pool of workers serves the waiting series' requests in
// rounds of the pool; the others hold every request at once.
func TestWaitingDuration(t *testing.T) {
	p := Full()
	for _, c := range []struct {
		server string
		conc   int
		want   time.Duration
	}{
		{"go-pgx", 800, 2 * time.Second},
		{"php-pdo", 20, 2 * time.Second},
		{"php-pdo", 21, 4 * time.Second},
		{"php-pdo", 800, 80 * time.Second},
	} {
		if got := p.waitingDuration(c.server, c.conc); got != c.want {
			t.Errorf("waitingDuration(%s, %d) = %s, want %s", c.server, c.conc, got, c.want)
		}
	}
}

// The compact plan keeps what a published recording needs and fits in
// about 75 minutes on 2 cores: its load is at most 13 minutes a trial (the
// smoke recording's server starts, warm-ups and calibrations added about a
// tenth), and each of its cells is one of the full plan's.
func TestCompactPlanShape(t *testing.T) {
	p := Compact()
	if len(p.Servers) < 5 || p.Trials < 5 || !reflect.DeepEqual(p.Databases(), []string{PostgreSQL, MariaDB}) {
		t.Errorf("compact plan too small: %v on %v, %d trials", p.Servers, p.Databases(), p.Trials)
	}
	for _, pair := range [][2]string{{"go-pgx", "go-pq"}, {"go-mysql", "go-mysql-interp"}, {"node-pg", "node-mysql"}} {
		if !contains(p.Servers, pair[0]) || !contains(p.Servers, pair[1]) {
			t.Errorf("compact plan lacks the contrast %s vs %s", pair[0], pair[1])
		}
	}
	for _, s := range p.Servers {
		if !contains(Full().Servers, s) {
			t.Errorf("stack %s is not one of the full plan's", s)
		}
	}
	for _, ft := range p.Fixed.Tests {
		for _, r := range ft.Rates {
			if !slices.ContainsFunc(Full().Fixed.Tests, func(f FixedTest) bool { return f.Test == ft.Test && slices.Contains(f.Rates, r) }) {
				t.Errorf("fixed rate %s at %d is not one of the full plan's", ft.Test, r)
			}
		}
	}
	for _, ft := range p.Fixed.Tests {
		for _, r := range ft.Rates {
			if r > 500 {
				t.Errorf("test %s: rate %d, want at most 500 requests/s", ft.Test, r)
			}
		}
	}
	if p.Fixed.Duration != Full().Fixed.Duration || p.Ladder.Hold < 10*time.Second || p.Ladder.Steps[0] != Full().Ladder.Steps[0] {
		t.Errorf("compact plan: wrk2 %s, ladder %v held %s", p.Fixed.Duration, p.Ladder.Steps, p.Ladder.Hold)
	}
	if c := p.Waiting.Concurrencies; c[0] != 50 || c[len(c)-1] != 800 {
		t.Errorf("waiting concurrencies %v, want 50..800", c)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
}

func TestPlansByName(t *testing.T) {
	if len(Plans) != len(PlanNames) {
		t.Fatalf("Plans %d, PlanNames %d", len(Plans), len(PlanNames))
	}
	for _, name := range PlanNames {
		f, ok := Plans[name]
		if !ok || f().Name != name {
			t.Errorf("plan %q: ok %v", name, ok)
		}
	}
}

// A plan's flags make it again: its name, and what the flags changed.
func TestPlanFlags(t *testing.T) {
	p := Short()
	p.Servers = []string{"go-pgx", "go-pq"}
	p.Trials = 1
	p.Fixed.Duration = WRK2Calibration + 2*time.Second
	for _, c := range []struct {
		p    Plan
		want string
	}{
		{Full(), "-plan full"},
		{Compact(), "-plan compact"},
		{p, "-plan short -servers go-pgx,go-pq -trials 1 -cell 2s"},
	} {
		if got := c.p.Flags(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
