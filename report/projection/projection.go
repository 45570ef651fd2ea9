// Package projection lays out any figure of the runs as a table, the way
// benchstat projects benchmarks: the runs (one row each, as the store's
// run_figures view gives them) are grouped into cells by the values of
// the row keys and the column keys, a cell shows the median of its rounds
// for each metric of a cell template, and every label that varies beyond
// the keys splits the table rather than being pooled into one cell.
package projection

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
)

// MinRounds is the number of rounds a cell needs before its median is
// published without a footnote.
const MinRounds = 3

// SplitLabels are the labels that tell experiments apart: a table whose
// cells would pool runs that differ in one of them is split by it. Labels
// named in the runs' label_keys (those a manifest or the command line
// set) split too.
var SplitLabels = []string{"tool", "format", "kind", "server", "database", "test", "connections", "threads", "target_rps"}

// notMetrics are the columns of runs that are labels or bookkeeping, not
// figures to lay out.
var notMetrics = []string{"run_id", "source", "source_line", "tool", "format", "server", "database", "test", "round",
	"connections", "threads", "target_rps", "duration_s", "latency_corrected", "started_at", "labels", "kind", "still_holding", "step_sources"}

// Spec is a layout: which figures, laid out by which keys.
type Spec struct {
	// Title, when set, heads every table of the layout (with the labels
	// that split it appended).
	Title string
	// Cell is the template of a cell: "{rps}", "{rps} ({latency_p99_ms})".
	Cell string
	// Rows and Cols are the keys: columns of the runs or labels.
	Rows, Cols []string
	// NoSplit names labels that never split a table (a timestamp per
	// run): runs that differ only in them are rounds of one cell.
	NoSplit []string
	// Spread adds the min and max of the rounds and their number to
	// every figure but HeldMetric, whose runs are listed.
	Spread bool
	// Sort orders the rows by a metric of the template, highest first
	// ("rps") or lowest first ("+latency_p99_ms"), taken from the first
	// column that has it; empty orders by the row keys.
	Sort string
	// Filter keeps the runs whose columns or labels have the values
	// given (machine = "8cpu-4g"): a table of some runs of a folder, by
	// the labels that tell them apart.
	Filter map[string]string
	// Figures, in place of Cell, lay out several templates side by side,
	// each its own column (per column-key value where Cols is set) with
	// its own heading: a table of requests/s, p50 and p99 as authors
	// print it. The rows follow the first figure.
	Figures []Figure

	// heading heads the cell's column where no Cols are given (the cell
	// template where empty); keepOrder leaves the rows in the order of
	// their keys: a figure laid out beside the first.
	heading   string
	keepOrder bool
}

// Cells is the template whose figures a layout reads: its cell, or the
// cells of its figures side by side.
func (s Spec) Cells() string {
	if len(s.Figures) == 0 {
		return s.Cell
	}
	var parts []string
	for _, f := range s.Figures {
		parts = append(parts, f.Cell)
	}
	return strings.Join(parts, " ")
}

// Figure is one column of a layout of several figures: its heading,
// its cell template, and its name in machine formats (the heading made
// a name where empty).
type Figure struct {
	Title, Cell, Name string
}

// Runs are the runs to lay out: column names and one row of values per
// run, as the store's run_figures view gives them, with at least run_id
// and, for the footnotes, round, source, source_line, tool and labels
// (JSON text); the caveats of their groups (Runs.Caveats, as
// analysis.ReadCaveats reads them) are footnoted beside the cells
// whose runs were read where the caveats' groups say, in
// group_caveats' words.
type Runs = model.RunFigures

// ErrNoRuns is returned when there is nothing to lay out.
var ErrNoRuns = errors.New("no runs to lay out (is the --where condition too narrow?)")

// run is one run with its labels.
type run struct {
	vals   []any
	labels map[string]any
	// steps are where the runs of a ladder run's steps were read
	// (ladder_figures.step_sources): the groups whose caveats are
	// beside its cell; none for a run of run_figures.
	steps []model.Source
}

type projector struct {
	display model.Display // names and order of label values, from the runs' model.DisplayLabel
	spec    Spec
	tmpl    template
	col     map[string]int
	runs    []run
	metrics []int // column of each template metric
	caveats model.DesignCaveats
}

// Project lays out runs as spec says: one table, or one per combination
// of the labels that split it.
func Project(runs Runs, spec Spec) ([]*report.Data, error) {
	if len(spec.Figures) > 0 {
		return projectFigures(runs, spec)
	}
	return project(runs, spec)
}

// projectFigures lays out the figures of spec side by side: each figure's
// tables as Project lays them out alone, their value columns joined on
// the row keys into the first figure's tables, headed by the figures'
// titles, the footnotes of all of them once.
func projectFigures(runs Runs, spec Spec) ([]*report.Data, error) {
	if spec.Cell != "" {
		return nil, errors.New("a layout has a cell or figures, not both")
	}
	var parts [][]*report.Data
	for i, f := range spec.Figures {
		if f.Cell == "" {
			return nil, fmt.Errorf("figure %d (%q) has no cell template", i+1, f.Title)
		}
		s := spec
		s.Figures, s.Cell, s.heading = nil, f.Cell, f.Title
		if s.Title == "" {
			var titles []string
			for _, g := range spec.Figures {
				titles = append(titles, g.Title)
			}
			s.Title = strings.Join(titles, ", ")
			if len(spec.Rows) > 0 {
				s.Title += " by " + strings.Join(spec.Rows, ", ")
			}
		}
		if i > 0 {
			s.Sort, s.keepOrder = "", true
		}
		ts, err := project(runs, s)
		if err != nil {
			return nil, fmt.Errorf("figure %q: %w", f.Title, err)
		}
		parts = append(parts, ts)
	}
	keys := len(spec.Rows)
	out := parts[0]
	for ti, d := range out {
		base := slices.Clone(d.Columns[:keys])
		var cols []report.Column
		rows := make([][]any, len(d.Rows))
		for ri := range rows {
			rows[ri] = slices.Clone(d.Rows[ri][:keys])
		}
		for fi, f := range spec.Figures {
			t := parts[fi][ti]
			at := map[string]int{}
			for ri, row := range t.Rows {
				at[rowKey(row[:keys])] = ri
			}
			name := f.Name
			if name == "" {
				name = strings.NewReplacer("-", "_", ".", "_").Replace(report.Slug(f.Title))
			}
			for _, c := range t.Columns[keys:] {
				switch {
				case len(spec.Cols) > 0:
					c.Title, c.Name = c.Title+" "+f.Title, name+"_"+c.Name
				case c.Machine && len(metricsOf(f.Cell)) == 1 && strings.HasPrefix(c.Name, metricsOf(f.Cell)[0]):
					// the figure's one metric: its name, with _min, _max …
					c.Name = name + strings.TrimPrefix(c.Name, metricsOf(f.Cell)[0])
				case c.Machine:
					c.Name = name + "_" + c.Name
				default:
					c.Title, c.Name = f.Title, name
				}
				cols = append(cols, c)
			}
			for ri, row := range d.Rows {
				j, ok := at[rowKey(row[:keys])]
				if !ok {
					rows[ri] = append(rows[ri], make([]any, len(t.Columns)-keys)...)
					continue
				}
				rows[ri] = append(rows[ri], t.Rows[j][keys:]...)
			}
			for _, n := range t.Notes {
				if !slices.Contains(d.Notes, n) {
					d.Notes = append(d.Notes, n)
				}
			}
		}
		d.Columns = append(base, cols...)
		d.Rows = rows
	}
	return out, nil
}

// aliases are names a figure may be asked for by beside its column's: a
// per-request CPU figure by the name that cpu_per_request, wra compare and
// wra gate give it (cpu_server_us_per_req is run_figures' cpu_server_us).
var aliases = []struct{ want, have string }{{"_us_per_req", "_us"}}

// unitSources are the columns metric m may read, in the order they are
// tried: its alias, then the same figure in another unit
// (report.Conversions: latency_mean_s is latency_mean_ms / 1000).
func unitSources(m string) []report.Conversion {
	var out []report.Conversion
	for _, a := range aliases {
		if base, ok := strings.CutSuffix(m, a.want); ok {
			out = append(out, report.Conversion{Column: base + a.have, Factor: 1})
		}
	}
	return append(out, report.Conversions(m)...)
}

// withUnits adds to runs a column for each metric asked for in another
// unit than its column's (unitSources), so that a cell can print a latency
// in seconds as the author did, {latency_mean_s:.2f}, or a transfer rate
// in MiB/s, {reported_transfer_mib_per_s:.2f}. Runs are copied where a
// column is added.
func withUnits(runs Runs, metrics []string) Runs {
	col := map[string]int{}
	for i, c := range runs.Columns {
		col[c] = i
	}
	for _, m := range metrics {
		if _, ok := col[m]; ok {
			continue
		}
		for _, u := range unitSources(m) {
			src, ok := col[u.Column]
			if !ok || slices.Contains(notMetrics, u.Column) {
				continue
			}
			out := Runs{Columns: append(slices.Clone(runs.Columns), m), Caveats: runs.Caveats}
			for _, r := range runs.Rows {
				var v any
				switch x := r[src].(type) {
				case float64:
					v = x * u.Factor
				case int64:
					v = float64(x) * u.Factor
				}
				out.Rows = append(out.Rows, append(slices.Clone(r), v))
			}
			runs = out
			col[m] = len(runs.Columns) - 1
			break
		}
	}
	return runs
}

// rowKey is the text of a row's key cells.
func rowKey(cells []any) string {
	var b strings.Builder
	for _, c := range cells {
		if cell, ok := c.(report.Cell); ok {
			c = cell.Value
		}
		b.WriteString(keyText(c))
		b.WriteByte(0)
	}
	return b.String()
}

// metricsOf lists the metrics of a cell template, none where it does not
// parse (the layout then fails on it).
func metricsOf(cell string) []string {
	t, err := parseTemplate(cell)
	if err != nil {
		return nil
	}
	return t.metrics
}

// project lays out runs under one cell template.
func project(runs Runs, spec Spec) ([]*report.Data, error) {
	if t, err := parseTemplate(spec.Cell); err == nil {
		runs = withUnits(runs, t.metrics)
	}
	p := &projector{spec: spec, col: map[string]int{}, caveats: runs.Caveats}
	for i, c := range runs.Columns {
		p.col[c] = i
	}
	if _, ok := p.col["run_id"]; !ok {
		return nil, errors.New("projection: the runs have no run_id column")
	}
	var err error
	if p.tmpl, err = parseTemplate(spec.Cell); err != nil {
		return nil, err
	}
	for _, m := range p.tmpl.metrics {
		i, ok := p.col[m]
		if !ok || slices.Contains(notMetrics, m) {
			return nil, fmt.Errorf("no metric %q: the metrics are %s", m, strings.Join(p.metricNames(runs.Columns), ", "))
		}
		p.metrics = append(p.metrics, i)
	}
	for _, r := range runs.Rows {
		rr := run{vals: r}
		if i, ok := p.col["labels"]; ok {
			if text, ok := r[i].(string); ok && text != "" {
				if err := json.Unmarshal([]byte(text), &rr.labels); err != nil {
					return nil, fmt.Errorf("projection: labels of run %v: %w", r[p.col["run_id"]], err)
				}
			}
		}
		if i, ok := p.col["step_sources"]; ok {
			if rr.steps, err = stepSources(r[i]); err != nil {
				return nil, fmt.Errorf("projection: step_sources of run %v: %w", r[p.col["run_id"]], err)
			}
		}
		if p.kept(rr) {
			p.runs = append(p.runs, rr)
		}
	}
	if len(p.runs) == 0 {
		return nil, ErrNoRuns
	}
	if p.display, err = p.readDisplay(); err != nil {
		return nil, err
	}
	for _, k := range append(slices.Clone(spec.Rows), spec.Cols...) {
		if !p.known(k) {
			return nil, fmt.Errorf("no column or label %q in the runs: the columns are %s", k, strings.Join(runs.Columns, ", "))
		}
	}
	if spec.Sort != "" && !slices.Contains(p.tmpl.metrics, strings.TrimPrefix(spec.Sort, "+")) {
		return nil, fmt.Errorf("sort by %q: not a metric of the cell %q", spec.Sort, spec.Cell)
	}
	split := p.splitting()
	var out []*report.Data
	for _, part := range p.partition(split) {
		out = append(out, p.table(part, split))
	}
	return out, nil
}

// kept reports whether a run has the values of the layout's Filter.
func (p *projector) kept(r run) bool {
	for k, v := range p.spec.Filter {
		if keyText(p.value(r, k)) != v {
			return false
		}
	}
	return true
}

func (p *projector) metricNames(cols []string) []string {
	var out []string
	for _, c := range cols {
		if !slices.Contains(notMetrics, c) {
			out = append(out, c)
		}
	}
	return out
}

// known says whether a key is a column or a label of some run.
func (p *projector) known(k string) bool {
	if _, ok := p.col[k]; ok {
		return true
	}
	for _, r := range p.runs {
		if _, ok := r.labels[k]; ok {
			return true
		}
	}
	return false
}

// value is a run's value of a key: its column, or else its label.
func (p *projector) value(r run, k string) any {
	if i, ok := p.col[k]; ok {
		return r.vals[i]
	}
	if v, ok := r.labels[k]; ok {
		if s, ok := v.(string); ok {
			return s
		}
		return fmt.Sprint(v)
	}
	return nil
}

func (p *projector) num(r run, k string) float64 {
	switch x := p.value(r, k).(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case json.Number:
		f, err := x.Float64()
		if err == nil {
			return f
		}
	}
	return math.NaN()
}

// keyText is a value as a grouping key and a column name: the exact
// decimal of a number, the text of a string, "" for NULL.
func keyText(v any) string { return report.Exact(v) }

// candidates are the labels that may split: SplitLabels and every
// run's label_keys, but for the table's keys and spec.NoSplit.
func (p *projector) candidates() []string {
	var out []string
	add := func(k string) {
		if !slices.Contains(out, k) && !slices.Contains(p.spec.Rows, k) && !slices.Contains(p.spec.Cols, k) &&
			!slices.Contains(p.spec.NoSplit, k) && k != "round" {
			out = append(out, k)
		}
	}
	for _, k := range SplitLabels {
		add(k)
	}
	var extra []string
	for _, r := range p.runs {
		for _, k := range LabelKeys(r.labels) {
			if !slices.Contains(extra, k) {
				extra = append(extra, k)
			}
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		add(k)
	}
	return out
}

// cellKey is the key of a run's cell: its row and column key values.
func (p *projector) cellKey(r run) string {
	var b strings.Builder
	for _, k := range append(slices.Clone(p.spec.Rows), p.spec.Cols...) {
		b.WriteString(keyText(p.value(r, k)))
		b.WriteByte(0)
	}
	return b.String()
}

// splitting lists the candidate labels on which the runs of some cell
// disagree: pooling them would mix experiments.
func (p *projector) splitting() []string {
	return Splitting(len(p.runs), p.candidates(),
		func(i int) string { return p.cellKey(p.runs[i]) },
		func(i int, k string) string { return keyText(p.value(p.runs[i], k)) })
}

// Splitting is the rule of never pooling what the labels tell apart
// (model.Splitting).
func Splitting(n int, candidates []string, cell func(i int) string, value func(i int, label string) string) []string {
	return model.Splitting(n, candidates, cell, value)
}

// LabelKeys are the labels of a run that may tell experiments apart:
// those a manifest or the command line set (its label_keys label, see
// ingest.LabelKeysLabel) and those its report gave (report_keys, see
// ingest.ReportKeysLabel).
func LabelKeys(labels map[string]any) []string {
	var out []string
	for _, key := range []string{"label_keys", "report_keys"} {
		if s, ok := labels[key].(string); ok {
			for _, k := range strings.Split(s, ",") {
				if k = strings.TrimSpace(k); k != "" && !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// partition groups the runs by their values of the splitting labels, in
// the order of those values.
func (p *projector) partition(split []string) [][]run {
	by := map[string][]run{}
	var keys []string
	rep := map[string]run{}
	for _, r := range p.runs {
		var b strings.Builder
		for _, k := range split {
			b.WriteString(keyText(p.value(r, k)))
			b.WriteByte(0)
		}
		k := b.String()
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
			rep[k] = r
		}
		by[k] = append(by[k], r)
	}
	slices.SortStableFunc(keys, func(a, b string) int {
		for _, k := range split {
			if c := compareValues(p.value(rep[a], k), p.value(rep[b], k)); c != 0 {
				return c
			}
		}
		return 0
	})
	out := make([][]run, len(keys))
	for i, k := range keys {
		out[i] = by[k]
	}
	return out
}

// compareValues orders key values: NULL first, numbers by value and
// before text, text by bytes.
func compareValues(a, b any) int {
	if a == nil || b == nil {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return -1
		}
		return 1
	}
	fa, aNum := number(a)
	fb, bNum := number(b)
	switch {
	case aNum && bNum:
		return cmp.Compare(fa, fb)
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return cmp.Compare(keyText(a), keyText(b))
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}
