package record

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Plan is what wra record --plan records: stacks × loads × K trials. It is
// read from a TOML file (docs/recording.md gives every key):
//
//	trials = 5
//	seed = 20261201
//	warmup = "ab -k -c 8 -n 1000 {url}"
//
//	[[stacks]]
//	server = "go"
//	server_cmd = "./server -addr 127.0.0.1:8080"
//	url = "http://127.0.0.1:8080"
//	ready = "http://127.0.0.1:8080/ping"
//	database = "postgresql"
//	database_target = "pid:{pg_pid}"
//
//	[[loads]]
//	name = "fixed-rate"
//	path = "/db/one?id=42"
//	command = "wrk2 -t2 -c{connections} -d20s -R{rate} {url}"
//	rates = [100, 250, 500]
//	connections = [16]
//	duration = "20s"
type Plan struct {
	Trials   int               `toml:"trials"`
	Seed     *uint64           `toml:"seed"`
	WaitCalm Duration          `toml:"wait_calm"`
	Cooldown Duration          `toml:"cooldown"`
	Warmup   Command           `toml:"warmup"`
	Ignore   []string          `toml:"ignore"`
	Vars     map[string]string `toml:"vars"`
	Calm     CalmPlan          `toml:"calm"`
	// Calibration is the fixed CPU job timed before and after each trial.
	Calibration CalibrationPlan `toml:"calibration"`
	Stacks      []StackPlan     `toml:"stacks"`
	Loads       []LoadPlan      `toml:"loads"`

	file string
}

// CalmPlan is how a recording waits for a quiet machine: before the
// noise pair and before each trial it reads the 1-minute load average
// and, where WaitCalm is above 0, waits (polling every Poll, at most
// WaitCalm) until it is at most MaxLoadPerCPU times the CPUs, then goes
// on whatever it is.
type CalmPlan struct {
	MaxLoadPerCPU float64  `toml:"max_load_per_cpu"`
	Poll          Duration `toml:"poll"`
}

// CalibrationPlan is the calibration job: Command (with
// {calibration_file}, a file of FileMiB zero bytes) run by each of
// Processes parallel processes, Repeat times, timed in wall ms, before
// and after each trial, and twice back to back before the first (the
// noise pair) unless Noise is false.
type CalibrationPlan struct {
	Command   Command `toml:"command"`
	Processes []int   `toml:"processes"`
	Repeat    int     `toml:"repeat"`
	FileMiB   int     `toml:"file_mib"`
	Noise     *bool   `toml:"noise"`
	Off       bool    `toml:"off"`
}

// StackPlan is one stack: a server, started by wra for each cell
// (server_cmd) or there already (server_target), and its database.
type StackPlan struct {
	Server         string            `toml:"server"`
	ServerCmd      string            `toml:"server_cmd"`
	ServerTarget   string            `toml:"server_target"`
	URL            string            `toml:"url"`
	Ready          string            `toml:"ready"`
	StartupTimeout Duration          `toml:"startup_timeout"`
	Dir            string            `toml:"dir"`
	Env            map[string]string `toml:"env"`
	Database       string            `toml:"database"`
	DatabaseTarget string            `toml:"database_target"`
	Labels         map[string]string `toml:"labels"`
	Vars           map[string]string `toml:"vars"`
}

// LoadPlan is one load: a command template run against every stack at
// each of its rates and connections.
type LoadPlan struct {
	Name        string            `toml:"name"`
	Test        string            `toml:"test"`
	Path        string            `toml:"path"`
	Command     Command           `toml:"command"`
	Rates       []float64         `toml:"rates"`
	Connections []int             `toml:"connections"`
	Duration    Duration          `toml:"duration"`
	Timeout     Duration          `toml:"timeout"`
	Warmup      *Command          `toml:"warmup"`
	Report      *string           `toml:"report"`
	Files       map[string]string `toml:"files"`
	Labels      map[string]string `toml:"labels"`
	Env         map[string]string `toml:"env"`
	ExitCodes   []int             `toml:"exit_codes"`
	Records     *bool             `toml:"records"`
	RecordsFile string            `toml:"records_file"`
	Memory      bool              `toml:"memory_series"`
	Stacks      []string          `toml:"stacks"`
}

// Duration is a TOML string such as "20s" or "1m30s".
type Duration struct{ time.Duration }

// UnmarshalText reads a Go duration.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil || v < 0 {
		return fmt.Errorf("expected a duration such as 20s or 1m30s, found %q", b)
	}
	d.Duration = v
	return nil
}

// Command is a command template: a TOML array of words, or a string
// split into words as a shell would split it (quotes and backslashes;
// nothing is expanded).
type Command []string

// UnmarshalTOML reads an array of strings or a string.
func (c *Command) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case string:
		words, err := SplitWords(x)
		if err != nil {
			return err
		}
		*c = words
		return nil
	case []any:
		out := make(Command, 0, len(x))
		for _, w := range x {
			s, ok := w.(string)
			if !ok {
				return fmt.Errorf("expected a command as a string or an array of strings, found %v", w)
			}
			out = append(out, s)
		}
		*c = out
		return nil
	}
	return fmt.Errorf("expected a command as a string or an array of strings, found %v", v)
}

// SplitWords splits s into words as a POSIX shell does, without
// expanding anything: blanks separate words, single quotes keep
// everything, double quotes keep all but \" and \\, a backslash outside
// quotes keeps the next character.
func SplitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
				i++
				w.WriteByte(s[i])
			default:
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\':
			if i+1 == len(s) {
				return nil, errors.New("the command ends in a backslash")
			}
			i++
			w.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("the command has an unclosed %c quote", quote)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// Expand fills the {name} placeholders of s from vars; {name*N} is the
// value times the whole number N; {{ and }} are literal braces. A
// placeholder without a value is an error naming it.
func Expand(s string, vars map[string]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				i++
			}
			b.WriteByte('}')
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("%q: an unclosed { (write {{ for a literal brace)", s)
		}
		name := s[i+1 : i+end]
		mul := ""
		if n, m, ok := strings.Cut(name, "*"); ok {
			name, mul = n, m
		}
		v, ok := vars[name]
		if !ok {
			return "", fmt.Errorf("%q: no value for {%s} (the placeholders: %s)", s, name, strings.Join(slices.Sorted(mapKeys(vars)), ", "))
		}
		if mul != "" {
			k, err1 := strconv.ParseInt(mul, 10, 64)
			x, err2 := strconv.ParseFloat(v, 64)
			if err1 != nil || err2 != nil {
				return "", fmt.Errorf("%q: {%s*%s} needs a number times a whole number; %s is %q", s, name, mul, name, v)
			}
			v = ftoa(x * float64(k))
		}
		b.WriteString(v)
		i += end
	}
	return b.String(), nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// ReadPlan reads and checks a plan file.
func ReadPlan(path string) (*Plan, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParsePlan(path, b)
}

// ParsePlan reads a plan from its TOML text; name is the file's name in
// messages.
func ParsePlan(name string, b []byte) (*Plan, error) {
	p := &Plan{file: name}
	md, err := toml.Decode(string(b), p)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d:%d: %s", name, pe.Position.Line, pe.Position.Col, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %q (docs/recording.md lists the keys of a plan)", name, und[0].String())
	}
	p.defaults()
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// DefaultTrials is the number of trials of a plan that names none.
const DefaultTrials = 5

func (p *Plan) defaults() {
	if p.Trials == 0 {
		p.Trials = DefaultTrials
	}
	if p.Calm.MaxLoadPerCPU == 0 {
		p.Calm.MaxLoadPerCPU = 0.5
	}
	if p.Calm.Poll.Duration == 0 {
		p.Calm.Poll.Duration = 15 * time.Second
	}
	c := &p.Calibration
	if len(c.Command) == 0 {
		c.Command = Command{"sha256sum", "{calibration_file}"}
	}
	if len(c.Processes) == 0 {
		c.Processes = []int{1, 2}
	}
	if c.Repeat == 0 {
		c.Repeat = 5
	}
	if c.FileMiB == 0 {
		c.FileMiB = 128
	}
	if c.Noise == nil {
		yes := true
		c.Noise = &yes
	}
	for i := range p.Loads {
		l := &p.Loads[i]
		if l.Test == "" {
			l.Test = l.Name
		}
	}
}

func (p *Plan) check() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if p.Trials < 1 {
		bad("trials = %d: expected 1 or more", p.Trials)
	}
	if len(p.Stacks) == 0 || len(p.Loads) == 0 {
		bad("expected at least one [[stacks]] and one [[loads]]")
	}
	c := p.Calibration
	if !c.Off && (c.Repeat < 1 || c.FileMiB < 1 || slices.ContainsFunc(c.Processes, func(n int) bool { return n < 1 })) {
		bad("[calibration]: repeat, file_mib and processes must be 1 or more")
	}
	servers := map[string]bool{}
	for i, s := range p.Stacks {
		where := named(bad, servers, "[[stacks]]", i, "server", s.Server)
		if (s.ServerCmd == "") == (s.ServerTarget == "") {
			bad("%s: expected one of server_cmd (a command wra starts for each cell) and server_target (a PID, cgroup:, unit: or container:)", where)
		}
		if s.ServerCmd == "" && s.Ready != "" {
			bad("%s: ready goes with server_cmd", where)
		}
		if s.Database != "" && !validName(s.Database) {
			bad("%s: database = %q: expected a name of letters, digits, '.', '_' and '-'", where, s.Database)
		}
		if s.DatabaseTarget != "" && s.Database == "" {
			bad("%s: database_target needs the database's name (database = \"...\")", where)
		}
	}
	loads := map[string]bool{}
	for i, l := range p.Loads {
		where := named(bad, loads, "[[loads]]", i, "name", l.Name)
		if !validName(l.Test) {
			bad("%s: test = %q: expected a name of letters, digits, '.', '_' and '-'", where, l.Test)
		}
		if len(l.Command) == 0 {
			bad("%s: no command", where)
		}
		for _, r := range l.Rates {
			if !(r > 0) {
				bad("%s: rates: %v is not above 0", where, r)
			}
		}
		for _, n := range l.Connections {
			if n < 1 {
				bad("%s: connections: %d is not 1 or more", where, n)
			}
		}
		for _, s := range l.Stacks {
			if !servers[s] {
				bad("%s: stacks: no stack %q", where, s)
			}
		}
		if l.Memory && len(l.Connections) == 0 {
			bad("%s: memory_series needs connections, the concurrencies of the series", where)
		}
		if l.Report != nil && *l.Report == "" && (l.Records != nil && *l.Records || l.Memory) {
			bad("%s: records and memory_series need a report (the tool's output, to count its requests)", where)
		}
		if l.RecordsFile != "" && (!safeRel(l.RecordsFile) || !strings.HasSuffix(l.RecordsFile, ".csv")) {
			bad("%s: records_file = %q: expected a relative path of letters, digits, '.', '_', '-' and '/' ending in .csv", where, l.RecordsFile)
		}
		for name := range l.Files {
			if !validName(name) || name == "url" || name == "rate" || name == "connections" {
				bad("%s: files: %q cannot name a placeholder", where, name)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return p.checkKeys()
}

// named checks the name of the i-th table of an array of tables (a
// stack's server, a load's name): one for file names, used once. It
// returns how messages name the table.
func named(bad func(string, ...any), seen map[string]bool, table string, i int, key, name string) string {
	where := fmt.Sprintf("%s %d", table, i+1)
	if name != "" {
		where += " (" + name + ")"
	}
	switch {
	case !validName(name):
		bad("%s: %s = %q: expected a name of letters, digits, '.', '_' and '-'", where, key, name)
	case seen[name]:
		bad("%s: %s %q is used twice", where, key, name)
	}
	seen[name] = true
	return where
}

// checkKeys refuses two loads whose records rows of one stack would have
// the same run key in a trial: wra could not pair them with their
// reports.
func (p *Plan) checkKeys() error {
	seen := map[runKey]string{}
	for _, c := range p.Cells() {
		if c.records() == "" {
			continue
		}
		k := runKey{Server: c.Stack.Server, Database: c.Stack.Database, Test: c.Load.Test, TargetRPS: c.rate(), Connections: c.conns()}
		if other, ok := seen[k]; ok {
			return fmt.Errorf("cells %s and %s would give records of the same server, database, test, rate and connections in each trial, which wra cannot pair with their reports: give the loads different tests (test = \"...\")", other, c)
		}
		seen[k] = c.String()
	}
	return nil
}

// PlanCell is one point of a plan: a stack under one load at one rate
// and number of connections, run once in each trial.
type PlanCell struct {
	Stack       *StackPlan
	Load        *LoadPlan
	Rate        float64 // 0: the load has no rates
	Connections int     // 0: the load has no connections
}

func (c PlanCell) rate() string {
	if c.Rate == 0 {
		return ""
	}
	return ftoa(c.Rate)
}

func (c PlanCell) conns() string {
	if c.Connections == 0 {
		return ""
	}
	return strconv.Itoa(c.Connections)
}

// String names the cell: "fixed-rate go-pgx r=500 c=16".
func (c PlanCell) String() string {
	s := c.Load.Name + " " + c.Stack.Server
	if c.Rate != 0 {
		s += " r=" + c.rate()
	}
	if c.Connections != 0 {
		s += " c=" + c.conns()
	}
	return s
}

// records is the records CSV of the cell's runs, "" for none.
func (c PlanCell) records() string {
	if c.Load.Memory || c.Load.Report != nil && *c.Load.Report == "" || c.Load.Records != nil && !*c.Load.Records {
		return ""
	}
	if c.Load.RecordsFile != "" {
		return c.Load.RecordsFile
	}
	return "records/" + c.Load.Name + ".csv"
}

// Cells are the plan's cells in plan order: per stack, per load, per
// rate, per number of connections.
func (p *Plan) Cells() []PlanCell {
	var out []PlanCell
	for i := range p.Stacks {
		s := &p.Stacks[i]
		for j := range p.Loads {
			l := &p.Loads[j]
			if len(l.Stacks) > 0 && !slices.Contains(l.Stacks, s.Server) {
				continue
			}
			rates := l.Rates
			if len(rates) == 0 {
				rates = []float64{0}
			}
			conns := l.Connections
			if len(conns) == 0 {
				conns = []int{0}
			}
			for _, r := range rates {
				for _, n := range conns {
					out = append(out, PlanCell{Stack: s, Load: l, Rate: r, Connections: n})
				}
			}
		}
	}
	return out
}

// Trial is one pass over every cell of a plan, in its own order.
type Trial struct {
	N     int // 1, 2, …, K
	Cells []PlanCell
}

// DrawTrials are the plan's trials, their orders drawn from seed.
func (p *Plan) DrawTrials(seed uint64) []Trial {
	cells := p.Cells()
	orders := Schedule(len(cells), p.Trials, seed)
	out := make([]Trial, len(orders))
	for t, order := range orders {
		out[t] = Trial{N: t + 1, Cells: make([]PlanCell, len(order))}
		for i, c := range order {
			out[t].Cells[i] = cells[c]
		}
	}
	return out
}

// TrialEstimate is the scheduled load of a trial: the sum of its cells'
// durations (a load without one counts as 0).
func (p *Plan) TrialEstimate() time.Duration {
	var d time.Duration
	for _, c := range p.Cells() {
		d += c.Load.Duration.Duration
	}
	return d
}
