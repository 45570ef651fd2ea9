package main

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"io"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
	"github.com/wra-bench/wra/stats"
)

type compareOptions struct {
	by, base, vs string
	alpha        float64
	confidence   float64
	holm         bool
	metrics      []string
	ladders      bool
	p95          float64
	maxErrors    float64
}

func (o *compareOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.by, "by", "", "the label that tells the two sides apart: a runs column ("+strings.Join(compareByColumns, ", ")+") or a label key")
	f.StringVar(&o.base, "base", "", "the --by value of the base side")
	f.StringVar(&o.vs, "vs", "", "the --by value of the side compared with the base")
	f.Float64Var(&o.alpha, "alpha", stats.DefaultAlpha, "significance level of the Mann-Whitney U test")
	f.Float64Var(&o.confidence, "confidence", stats.DefaultConfidence, "confidence level of the medians' intervals")
	f.BoolVar(&o.holm, "holm", true, "adjust the p-values of the table's rows together (Holm-Bonferroni); --holm=false for raw p-values")
	f.StringSliceVar(&o.metrics, "metric", nil, "metrics to compare (default all): "+strings.Join(compareMetricNames(), ", "))
	f.BoolVar(&o.ladders, "ladders", false, "list the held-rate ladder steps of both sides instead of comparing metrics")
	f.Float64Var(&o.p95, "p95", stats.DefaultLadderRule.P95MS, "ladder rule: a step is held while its p95 latency is under this many ms")
	f.Float64Var(&o.maxErrors, "max-errors", stats.DefaultLadderRule.MaxErrorRate, "ladder rule: and while under this fraction of its requests fail")
}

func newCompareCmd(e *env, g *globals) *cobra.Command {
	o := &compareOptions{}
	cmd := &cobra.Command{
		Use:   "compare (--by LABEL --base A --vs B | FOLDER_A FOLDER_B)",
		Short: "Compare two groups of runs, metric by metric, as benchstat does",
		Long: `Compare the runs of two sides, told apart by a label (--by server
--base go --vs rust) or by the folders they were ingested from (two
arguments: the start of runs.source, e.g. before after).

Runs are matched by their other labels (tool, database, test,
connections, target rate); for each metric and match the table gives
each side's median with the half-width of its confidence interval
(± x%, distribution-free, from order statistics), the change of the
median, and the two-sided Mann-Whitney U test's p-value and sample
sizes, printed as benchstat prints them: "+12.34% (p=0.029 n=4)", or
"~ (p=0.343 n=4)" when the difference is not significant at --alpha.
The p-values of one table are Holm-Bonferroni adjusted together unless
--holm=false. Warnings (too few runs for an interval or for the test to
ever reach --alpha) are footnotes.

The held-rate ladder metric (highest_held_rps) comes from k6 samples
tagged with their step, under the --p95 and --max-errors rule; --ladders
lists every step of both sides instead.`,
		Example: `  wra compare --by server --base go-gmp1 --vs go-gmp2
  wra compare --by server --base go --vs rust --metric rps,latency_p99_ms --format markdown
  wra compare run-before run-after
  wra compare --ladders --by server --base go --vs rust --p95 100`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(cmd.Context(), e, g, o, args)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

// compareByColumns are the runs columns --by may name; any other name is
// a key of the runs' labels.
var compareByColumns = []string{"server", "database", "test", "tool", "tool_version", "connections", "threads", "target_rps", "round"}

// compareKeys are the labels that match a base run with a vs run.
var compareKeys = []string{"tool", "database", "test", "connections", "target_rps"}

// A compareMetric is one compared figure of a run.
type compareMetric struct {
	name, expr string
}

var compareMetrics = []compareMetric{
	{"rps", "r.rps"},
	{"latency_p50_ms", "r.latency_p50_ms"},
	{"latency_p90_ms", "r.latency_p90_ms"},
	{"latency_p99_ms", "r.latency_p99_ms"},
	{"cpu_server_us_per_req", "c.cpu_server_us_per_req"},
	{"cpu_db_us_per_req", "c.cpu_db_us_per_req"},
	{"working_set_mb", "r.working_set_mb"},
	{"highest_held_rps", ""}, // from the ladder steps
}

func compareMetricNames() []string {
	names := make([]string, len(compareMetrics))
	for i, m := range compareMetrics {
		names[i] = m.name
	}
	return names
}

var labelKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// compareSides is how the two sides are selected.
type compareSides struct {
	expr     string // SQL giving 'base', 'vs' or NULL for a run r
	args     []any
	base, vs string // names for people
	keys     []string
	byFolder bool
	byColumn string
}

func (o *compareOptions) sides(args []string) (*compareSides, error) {
	switch {
	case len(args) == 2 && (o.by != "" || o.base != "" || o.vs != ""):
		return nil, usagef("give two folders or --by with --base and --vs, not both")
	case len(args) == 2:
		a, b := filepath.ToSlash(filepath.Clean(args[0])), filepath.ToSlash(filepath.Clean(args[1]))
		if a == b {
			return nil, usagef("the two folders are the same: %s", a)
		}
		// Sources are stored from the ingested folder's name down, so a
		// folder given with its parents also matches by its last element.
		s := &compareSides{base: a, vs: b, keys: compareKeys, byFolder: true}
		under := `(r.source = ? OR starts_with(r.source, ? || '/') OR r.source = ? OR starts_with(r.source, ? || '/'))`
		s.expr = `CASE WHEN ` + under + ` THEN 'base' WHEN ` + under + ` THEN 'vs' END`
		ba, bb := path.Base(a), path.Base(b)
		if ba == bb {
			ba, bb = a, b // same last element: only the full paths tell them apart
		}
		s.args = []any{a, a, ba, ba, b, b, bb, bb}
		return s, nil
	case len(args) == 1:
		return nil, usagef("give two folders, or --by with --base and --vs")
	case o.by == "" || o.base == "" || o.vs == "":
		return nil, usagef("give --by, --base and --vs (e.g. --by server --base go --vs rust), or two folders")
	case o.base == o.vs:
		return nil, usagef("--base and --vs are the same: %q", o.base)
	}
	s := &compareSides{base: o.base, vs: o.vs}
	var col string
	if slices.Contains(compareByColumns, o.by) {
		col = "CAST(r." + o.by + " AS VARCHAR)"
		s.byColumn = o.by
	} else if labelKey.MatchString(o.by) {
		col = "json_extract_string(r.labels, ?)"
		s.args = append(s.args, `$."`+o.by+`"`)
	} else {
		return nil, usagef("--by %q: expected a runs column (%s) or a label key", o.by, strings.Join(compareByColumns, ", "))
	}
	s.expr = "CASE WHEN " + col + " = ? THEN 'base' WHEN " + col + " = ? THEN 'vs' END"
	if !slices.Contains(compareByColumns, o.by) {
		s.args = append(s.args, o.base, `$."`+o.by+`"`, o.vs)
	} else {
		s.args = append(s.args, o.base, o.vs)
	}
	for _, k := range compareKeys {
		if k != o.by {
			s.keys = append(s.keys, k)
		}
	}
	return s, nil
}

// compareRun is one selected run with its metrics.
type compareRun struct {
	id, side string
	key      []any // values of sides.keys, nil for NULL
	values   map[string]float64
	// stillHolding: the run's ladder held at its top step
	stillHolding bool
}

func runCompare(ctx context.Context, e *env, g *globals, o *compareOptions, args []string) error {
	sides, err := o.sides(args)
	if err != nil {
		return err
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return usagef("--alpha must be between 0 and 1, not %v", o.alpha)
	}
	if !(o.confidence > 0 && o.confidence < 1) {
		return usagef("--confidence must be between 0 and 1, not %v", o.confidence)
	}
	if !(o.p95 > 0) || !(o.maxErrors > 0 && o.maxErrors <= 1) {
		return usagef("--p95 must be positive and --max-errors between 0 and 1")
	}
	metrics, err := o.selectedMetrics()
	if err != nil {
		return err
	}
	format, err := g.outputFormat(e)
	if err != nil {
		return err
	}
	st, err := g.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	db := st.DB()
	runs, err := loadCompareRuns(ctx, db, sides)
	if err != nil {
		return err
	}
	if err := checkSides(runs, sides); err != nil {
		return err
	}
	rule := stats.LadderRule{P95MS: o.p95, MaxErrorRate: o.maxErrors}
	ladders, steps, err := loadLadders(ctx, db, runs, rule)
	if err != nil {
		return err
	}
	var d *report.Data
	if o.ladders {
		d = ladderStepsTable(sides, runs, steps, ladders, rule)
	} else {
		d = compareTable(sides, runs, metrics, o, format)
	}
	return writeCompare(e, g, format, d)
}

// writeCompare writes the table to stdout; for CSV and JSON the footnotes
// go to stderr (unless --quiet) so that stdout stays parseable.
func writeCompare(e *env, g *globals, f report.Format, d *report.Data) error {
	if f != report.CSV && f != report.JSON {
		return report.Write(e.stdout, d, f)
	}
	notes := d.Notes
	d.Notes = nil
	if err := report.Write(e.stdout, d, f); err != nil {
		return err
	}
	if g.quiet {
		return nil
	}
	var b strings.Builder
	for i, n := range notes {
		b.WriteString("wra: " + report.Footmark(i+1) + " " + n + "\n")
	}
	_, err := io.WriteString(e.stderr, b.String())
	return err
}

func (o *compareOptions) selectedMetrics() ([]string, error) {
	if len(o.metrics) == 0 {
		return compareMetricNames(), nil
	}
	var out []string
	for _, m := range o.metrics {
		m = strings.TrimSpace(m)
		if !slices.Contains(compareMetricNames(), m) {
			return nil, usagef("--metric must be one of %s, not %q", strings.Join(compareMetricNames(), ", "), m)
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out, nil
}

// loadCompareRuns reads the runs of both sides with their metrics.
func loadCompareRuns(ctx context.Context, db *sql.DB, s *compareSides) ([]*compareRun, error) {
	cols := []string{"r.run_id", "r.side"}
	for _, k := range s.keys {
		cols = append(cols, "r."+k)
	}
	var ms []compareMetric
	for _, m := range compareMetrics {
		if m.expr != "" {
			ms = append(ms, m)
			cols = append(cols, m.expr)
		}
	}
	q := `SELECT ` + strings.Join(cols, ", ") + `
FROM (SELECT r.*, ` + s.expr + ` AS side FROM runs r) r
LEFT JOIN cpu_per_request c ON c.run_id = r.run_id
WHERE r.side IS NOT NULL
ORDER BY r.run_id`
	rows, err := db.QueryContext(ctx, q, s.args...)
	if err != nil {
		return nil, fmt.Errorf("reading runs: %w", err)
	}
	defer rows.Close()
	var out []*compareRun
	for rows.Next() {
		r := &compareRun{key: make([]any, len(s.keys)), values: map[string]float64{}}
		vals := make([]sql.NullFloat64, len(ms))
		dest := []any{&r.id, &r.side}
		for i := range r.key {
			dest = append(dest, &r.key[i])
		}
		for i := range vals {
			dest = append(dest, &vals[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		for i := range r.key {
			r.key[i] = store.Value(r.key[i])
		}
		for i, m := range ms {
			if vals[i].Valid && !math.IsNaN(vals[i].Float64) {
				r.values[m.name] = vals[i].Float64
			}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func checkSides(runs []*compareRun, s *compareSides) error {
	n := map[string]int{}
	for _, r := range runs {
		n[r.side]++
	}
	for _, side := range []string{"base", "vs"} {
		if n[side] > 0 {
			continue
		}
		name := s.base
		if side == "vs" {
			name = s.vs
		}
		if s.byFolder {
			return fmt.Errorf("no runs from %s (runs.source starts with the ingested folder's name; see wra sql \"SELECT DISTINCT source FROM runs\")", name)
		}
		return fmt.Errorf("no runs with %s = %q", s.byLabel(), name)
	}
	return nil
}

func (s *compareSides) byLabel() string {
	if s.byColumn != "" {
		return s.byColumn
	}
	for _, a := range s.args {
		if p, ok := a.(string); ok && strings.HasPrefix(p, `$."`) {
			return strings.TrimSuffix(strings.TrimPrefix(p, `$."`), `"`)
		}
	}
	return ""
}

// loadLadders evaluates the ladder of every selected run that has tagged
// steps, and stores its highest held step as the run's highest_held_rps.
func loadLadders(ctx context.Context, db *sql.DB, runs []*compareRun, rule stats.LadderRule) (map[string]stats.LadderResult, map[string][]stats.LadderStep, error) {
	byID := map[string]*compareRun{}
	for _, r := range runs {
		byID[r.id] = r
	}
	rows, err := db.QueryContext(ctx, `SELECT run, step, target_rps, achieved_rps, p95_ms, error_rate, requests, failed
FROM ladder_steps WHERE target_rps IS NOT NULL ORDER BY run, target_rps`)
	if err != nil {
		return nil, nil, fmt.Errorf("reading ladder steps: %w", err)
	}
	defer rows.Close()
	steps := map[string][]stats.LadderStep{}
	for rows.Next() {
		var run string
		var st stats.LadderStep
		var achieved, p95, errRate sql.NullFloat64
		if err := rows.Scan(&run, &st.Step, &st.TargetRPS, &achieved, &p95, &errRate, &st.Requests, &st.Failed); err != nil {
			return nil, nil, err
		}
		if byID[run] == nil {
			continue
		}
		st.AchievedRPS, st.P95MS, st.ErrorRate = nullNaN(achieved), nullNaN(p95), nullNaN(errRate)
		steps[run] = append(steps[run], st)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	results := map[string]stats.LadderResult{}
	for run, ss := range steps {
		res := stats.EvaluateLadder(ss, rule)
		results[run] = res
		steps[run] = res.Steps
		byID[run].values["highest_held_rps"] = res.HighestHeldRPS
		byID[run].stillHolding = res.StillHolding
	}
	return results, steps, nil
}

func nullNaN(v sql.NullFloat64) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.Float64
}

// compareRow is one line of the comparison: a metric for one match.
type compareRow struct {
	metric string
	key    []any
	cmp    stats.Comparison
}

func compareTable(s *compareSides, runs []*compareRun, metrics []string, o *compareOptions, f report.Format) *report.Data {
	type group struct {
		key      []any
		base, vs []float64
		// still holding: a side's ladder held at its top step, so its
		// highest_held_rps is a lower bound
		baseHolding, vsHolding bool
	}
	var rows []compareRow
	for _, m := range metrics {
		groups := map[string]*group{}
		var order []string
		for _, r := range runs {
			v, ok := r.values[m]
			if !ok {
				continue
			}
			k := keyString(r.key)
			gr := groups[k]
			if gr == nil {
				gr = &group{key: r.key}
				groups[k] = gr
				order = append(order, k)
			}
			if r.side == "base" {
				gr.base = append(gr.base, v)
				gr.baseHolding = gr.baseHolding || (m == "highest_held_rps" && r.stillHolding)
			} else {
				gr.vs = append(gr.vs, v)
				gr.vsHolding = gr.vsHolding || (m == "highest_held_rps" && r.stillHolding)
			}
		}
		slices.SortFunc(order, func(a, b string) int { return compareKeysOrder(groups[a].key, groups[b].key) })
		for _, k := range order {
			gr := groups[k]
			if len(gr.base) == 0 || len(gr.vs) == 0 {
				continue // nothing to compare with
			}
			c := stats.CompareAt(gr.base, gr.vs, o.alpha, o.confidence)
			const holding = "a ladder still held at its top step: its highest held rps is a lower bound"
			if gr.baseHolding {
				c.Warnings = append(c.Warnings, stats.Warning{Kind: stats.WarnLowerBound, Msg: "base: " + holding})
			}
			if gr.vsHolding {
				c.Warnings = append(c.Warnings, stats.Warning{Kind: stats.WarnLowerBound, Msg: "vs: " + holding})
			}
			rows = append(rows, compareRow{metric: m, key: gr.key, cmp: c})
		}
	}
	if o.holm && len(rows) > 1 {
		cs := make([]stats.Comparison, len(rows))
		for i := range rows {
			cs[i] = rows[i].cmp
		}
		stats.AdjustHolm(cs)
		for i := range rows {
			rows[i].cmp = cs[i]
		}
	}
	return compareData(s, rows, o, f)
}

func keyString(key []any) string {
	var b strings.Builder
	for _, v := range key {
		fmt.Fprintf(&b, "%T:%v|", v, v)
	}
	return b.String()
}

// compareKeysOrder sorts matches by their labels, NULLs first, numbers
// as numbers.
func compareKeysOrder(a, b []any) int {
	for i := range a {
		x, y := a[i], b[i]
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			return -1
		case y == nil:
			return 1
		}
		fx, okx := toFloat(x)
		fy, oky := toFloat(y)
		if okx && oky {
			if c := cmp.Compare(fx, fy); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(report.Exact(x), report.Exact(y)); c != 0 {
			return c
		}
	}
	return 0
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// compareData lays the rows out: for people one cell per side with the
// median and its interval and benchstat's delta cell with footmarks; for
// machines every figure in its own column.
func compareData(s *compareSides, rows []compareRow, o *compareOptions, f report.Format) *report.Data {
	machine := f == report.CSV || f == report.JSON
	var notes []string
	noteIndex := func(msg string) int {
		if i := slices.Index(notes, msg); i >= 0 {
			return i + 1
		}
		notes = append(notes, msg)
		return len(notes)
	}
	// Key columns that say something: not NULL in every row.
	var keyCols []int
	for i := range s.keys {
		for _, r := range rows {
			if r.key[i] != nil {
				keyCols = append(keyCols, i)
				break
			}
		}
	}
	d := &report.Data{}
	baseName, vsName := s.base, s.vs
	if machine {
		d.Columns = report.Columns("metric")
		for _, i := range keyCols {
			d.Columns = append(d.Columns, report.Column{Name: s.keys[i]})
		}
		d.Columns = append(d.Columns, report.Columns(
			"base", "vs",
			"base_median", "base_ci_low", "base_ci_high", "base_ci_pct", "base_n",
			"vs_median", "vs_ci_low", "vs_ci_high", "vs_ci_pct", "vs_n",
			"delta_pct", "u", "p_raw", "p", "p_adjusted", "exact", "alpha", "significant", "warnings")...)
	} else {
		d.Columns = []report.Column{{Name: "metric"}}
		for _, i := range keyCols {
			d.Columns = append(d.Columns, report.Column{Name: s.keys[i]})
		}
		d.Columns = append(d.Columns,
			report.Column{Name: "base", Title: baseName},
			report.Column{Name: "vs", Title: vsName},
			report.Column{Name: "delta", Title: "vs base"})
	}
	for _, r := range rows {
		c := r.cmp
		row := []any{r.metric}
		for _, i := range keyCols {
			row = append(row, r.key[i])
		}
		if machine {
			var ws []string
			for _, w := range c.Warnings {
				ws = append(ws, w.Msg)
				noteIndex(w.Msg)
			}
			row = append(row, baseName, vsName)
			for _, sum := range []stats.Summary{c.Base, c.Vs} {
				pct, ok := sum.CIPct()
				row = append(row, sum.Median, finite(sum.CILow), finite(sum.CIHigh), okValue(pct, ok), int64(sum.N))
			}
			row = append(row, finite(c.DeltaPct), finite(c.Test.U), finite(c.Test.P), finite(c.P), c.Adjusted, c.Test.Exact, c.Alpha, c.Significant, strings.Join(ws, "; "))
		} else {
			var baseMarks, vsMarks, deltaMarks []int
			for _, w := range c.Warnings {
				switch {
				case strings.HasPrefix(w.Msg, "base: "):
					baseMarks = append(baseMarks, noteIndex(strings.TrimPrefix(w.Msg, "base: ")))
				case strings.HasPrefix(w.Msg, "vs: "):
					vsMarks = append(vsMarks, noteIndex(strings.TrimPrefix(w.Msg, "vs: ")))
				default:
					deltaMarks = append(deltaMarks, noteIndex(w.Msg))
				}
			}
			row = append(row,
				humanSummary(c.Base)+marks(baseMarks),
				humanSummary(c.Vs)+marks(vsMarks),
				c.String()+marks(deltaMarks))
		}
		d.Rows = append(d.Rows, row)
	}
	method := fmt.Sprintf("Medians with the half-width of their %s confidence interval (distribution-free, from order statistics); "+
		"delta is the change of the median; p from the two-sided Mann-Whitney U test (exact without ties below 50 runs a side, else normal with tie and continuity correction)",
		strconv.FormatFloat(o.confidence*100, 'f', -1, 64)+"%")
	if o.holm && len(rows) > 1 {
		method += fmt.Sprintf(", Holm-Bonferroni adjusted across the %d rows", len(rows))
	}
	method += fmt.Sprintf("; ~ means no significant difference at alpha %s.", strconv.FormatFloat(o.alpha, 'f', -1, 64))
	if slices.ContainsFunc(rows, func(r compareRow) bool { return r.metric == "highest_held_rps" }) {
		method += fmt.Sprintf(" highest_held_rps: the highest ladder step held (p95 < %s ms, under %s%% of requests failed) before the first failing step.",
			strconv.FormatFloat(o.p95, 'f', -1, 64), strconv.FormatFloat(o.maxErrors*100, 'f', -1, 64))
	}
	d.Notes = append(notes, method)
	if len(rows) == 0 {
		d.Notes = append(d.Notes, "No metric has runs on both sides with the same "+strings.Join(s.keys, ", ")+".")
	}
	return d
}

func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

func okValue(v float64, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

func marks(ns []int) string {
	slices.Sort(ns)
	ns = slices.Compact(ns)
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(" " + report.Footmark(n))
	}
	return b.String()
}

// humanSummary is "12.3k ± 4%" with three significant figures.
func humanSummary(s stats.Summary) string {
	return analyze.Sig(s.Median) + " " + s.FormatCIPct()
}

// ladderStepsTable lists every step of every ladder run of both sides,
// with each run's result and each side's median in the notes.
func ladderStepsTable(s *compareSides, runs []*compareRun, steps map[string][]stats.LadderStep, results map[string]stats.LadderResult, rule stats.LadderRule) *report.Data {
	d := &report.Data{Columns: []report.Column{
		{Name: "side"}, {Name: "run"}, {Name: "step"},
		{Name: "target_rps", Human: analyze.Sig},
		{Name: "achieved_rps", Human: analyze.Sig},
		{Name: "p95_ms", Human: analyze.Sig},
		{Name: "error_rate", Human: analyze.Pct},
		{Name: "requests"}, {Name: "failed"}, {Name: "held"},
	}}
	var notes []string
	for _, side := range []string{"base", "vs"} {
		name := s.base
		if side == "vs" {
			name = s.vs
		}
		var res []stats.LadderResult
		var listed []string
		for _, r := range runs {
			if r.side != side {
				continue
			}
			lr, ok := results[r.id]
			if !ok {
				continue
			}
			res = append(res, lr)
			listed = append(listed, r.id+": "+lr.String())
			for _, st := range steps[r.id] {
				d.Rows = append(d.Rows, []any{name, r.id, st.Step, st.TargetRPS, finite(st.AchievedRPS), finite(st.P95MS), finite(st.ErrorRate), st.Requests, st.Failed, st.Held})
			}
		}
		if len(res) == 0 {
			notes = append(notes, fmt.Sprintf("%s: no ladder (k6 samples tagged with their step).", name))
			continue
		}
		m := stats.MedianLadder(res)
		runsWord := "runs"
		if len(res) == 1 {
			runsWord = "run"
		}
		note := fmt.Sprintf("%s: highest step held %s rps (median of %d %s: %s); step %s rps.", name, m.String(), len(res), runsWord, strings.Join(listed, ", "), report.Exact(finite(m.StepRPS)))
		for _, w := range m.Warnings {
			note += " " + w.Msg + "."
		}
		notes = append(notes, note)
	}
	notes = append(notes, fmt.Sprintf("A step is held while its p95 (type 7, as k6 computes it) is under %s ms and under %s%% of its requests fail; \"+\" means the last step still held.",
		strconv.FormatFloat(rule.P95MS, 'f', -1, 64), strconv.FormatFloat(rule.MaxErrorRate*100, 'f', -1, 64)))
	d.Notes = notes
	return d
}
