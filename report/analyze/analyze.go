// Package analyze computes what a benchmarker publishes from a store of raw
// records: the tables of CPU per request, rounds, memory, ladders,
// single-run rankings, calibration and cost, their footnotes, and the plots
// that go with them. It reads the per-row figures of the store's views and
// table macros through typed readers (a Store: CPU per request, the runs
// that price a stack, ladder steps under a rule, calibration pairs) and
// aggregates them with stats and cost, so that it links no database
// itself and every figure keeps the one definition its view gives it.
package analyze

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/projection"
	"github.com/wra-bench/wra/stats"
)

// Store gives the figures an analysis reads, each from its view or table
// macro (model/store implements it).
type Store interface {
	CPURuns(ctx context.Context) ([]model.CPURun, error)
	AllServers(ctx context.Context) ([]string, error)
	RateRuns(ctx context.Context, rounds bool) ([]model.RateRun, error)
	RatesHeld(ctx context.Context, p95MS, maxErrorRate, minAchievedRatio float64) (map[string]bool, error)
	Spectra(ctx context.Context, fn func(model.SpectrumRow) error) error
	PeakMemory(ctx context.Context) ([]model.PeakMemory, error)
	MemorySeries(ctx context.Context) ([]model.MemorySeriesPoint, error)
	MemorySlopes(ctx context.Context) ([]model.MemorySlope, error)
	LadderSteps(ctx context.Context, rule stats.LadderRule) ([]model.LadderStepRow, error)
	Ladders(ctx context.Context, rule stats.LadderRule) ([]model.LadderRow, error)
	CalibrationTimings(ctx context.Context) ([]model.CalibrationTiming, error)
	RunCounters(ctx context.Context) ([]model.RunCounters, error)
	RunsStartedBetween(ctx context.Context, from, to time.Time) ([]model.RunRef, error)
	RunFigures(ctx context.Context, where string) (model.RunFigures, error)
	LadderFigures(ctx context.Context, rule stats.LadderRule, where string) (model.RunFigures, error)
	Caveats(ctx context.Context, rule model.DesignRule) (map[string][]model.Caveat, error)
	RunGroupRefs(ctx context.Context) ([]model.RunGroupRef, error)
	LabelDisplay(ctx context.Context) (model.Display, error)
	RunTools(ctx context.Context) ([]model.ToolRuns, error)
	RunLabels(ctx context.Context, keys []string) ([]model.LabelCount, error)
	// the readers of the one cost builder, cost.Build
	cost.Source
}

// Options are the settings of an analysis.
type Options struct {
	// The ladder rule: a step is held when p95 < P95MS and the error rate
	// < MaxErrorRate; a fixed-rate run held its rate when it also
	// achieved at least MinAchievedRatio of its target.
	stats.LadderRule
	// DriftTolerance flags a calibration that moved by more than this
	// fraction between before and after.
	DriftTolerance float64
	// The cost table: load, waiting time per request, target utilisation,
	// price.
	RPS   float64
	Wait  time.Duration
	Util  float64
	Price cost.Price
	// Ties: neighbours of a ranking, and rows beside the best of a
	// column, share the place when stats.TieRule cannot tell them apart:
	// the Mann–Whitney test at Alpha, or TiePct percent for single runs.
	Alpha, TiePct float64
	// Layouts are the manifest's tables, published after the Findings.
	Layouts []Layout
	// CostTest prices only the stacks of this test; empty prices every
	// stack (server, database, test), as wra cost does.
	CostTest string
	// Findings are the thresholds of the rules of the Findings section.
	Findings stats.FindingRules
	// Corpus is what the analyzed folder says of itself (ReadCorpus),
	// for the context block.
	Corpus Corpus
	// InlinePlots says whether the report page holds its plots inline
	// or links their files (WriteFiles).
	InlinePlots report.InlinePlots
}

// DesignRule is the rule the caveats of the groups are computed under:
// the drift tolerance, and the ladder rule with the achieved ratio by
// which a fixed-rate run held its rate.
func (o Options) DesignRule() model.DesignRule {
	return model.DesignRule{Tolerance: o.DriftTolerance, P95MS: o.P95MS, MaxErrorRate: o.MaxErrorRate, MinAchievedRatio: o.MinAchievedRatio}
}

// A Layout is a table the manifest asks for ([[tables]]): a projection
// of the runs of run_figures that match Where (a SQL condition, empty for
// all), laid out as wra table lays it out.
type Layout struct {
	Spec  projection.Spec
	Where string
}

// DefaultOptions are the defaults of wra analyze, the one place they are
// written: the command's flags take their defaults from here.
func DefaultOptions() Options {
	p, _ := cost.NewBook().Lookup(cost.DefaultProvider)
	rule := stats.DefaultLadderRule
	rule.MinAchievedRatio = stats.DefaultMinAchievedRatio
	return Options{LadderRule: rule, DriftTolerance: stats.DefaultDriftTolerance,
		RPS: cost.DefaultWorkload.RPS, Wait: cost.DefaultWorkload.Wait, Util: cost.DefaultWorkload.Utilisation, Price: p,
		Alpha: stats.DefaultAlpha, TiePct: stats.DefaultTiePct, Findings: stats.DefaultFindingRules(),
		InlinePlots: report.InlineAuto}
}

// CacheKey identifies an analysis for a cache of its output: the store's
// content (fingerprint), the program that analyses (program, any text
// that changes with it) and the whole of the options, encoded, so that a
// new option can never serve a stale report.
func CacheKey(fingerprint, program string, opts Options) string {
	h := sha256.New()
	fmt.Fprintf(h, "store %s\nprogram %s\noptions %#v\n", fingerprint, program, opts)
	return hex.EncodeToString(h.Sum(nil))
}

// Figure is a plot of a section, named for its files.
type Figure struct {
	Name    string // file name without extension, e.g. "cpu-per-request"
	Caption string
	Figure  report.Figure
}

// Section is one published table kind: its tables (one per test, rate …)
// and plots; Skipped says why it has none.
type Section struct {
	ID      string
	Title   string
	Tables  []*report.Data
	Figures []Figure
	Skipped string
	// Single names the files of the section's one table by its ID alone
	// (tables/findings.csv, not tables/findings-1.csv).
	Single bool
	// Bullets are the sentences the page and report.md print as a list
	// in place of the section's tables (the summary, the context); the
	// tables hold the same for CSV, JSON and the terminal. Remarks are
	// paragraphs in small print after them.
	Bullets []report.Bullet
	Remarks []string
	// Opening sections come before the page's list of contents.
	Opening bool
}

// Result is a whole analysis.
type Result struct {
	Sections []*Section
}

// holder is a store that can evaluate once, for a whole analysis, the
// views its sections read many times over (store.Store.Hold).
type holder interface {
	Hold(ctx context.Context) (release func() error, err error)
}

// Analyze computes every section the store has inputs for.
func Analyze(ctx context.Context, st Store, opts Options) (_ *Result, err error) {
	if h, ok := st.(holder); ok {
		release, err := h.Hold(ctx)
		if err != nil {
			return nil, err
		}
		defer func() {
			if rerr := release(); rerr != nil && err == nil {
				err = rerr
			}
		}()
	}
	caveats, err := st.Caveats(ctx, opts.DesignRule())
	if err != nil {
		return nil, err
	}
	disp, err := st.LabelDisplay(ctx)
	if err != nil {
		return nil, err
	}
	a := &analysis{ctx: ctx, st: st, opts: opts, caveats: caveats, disp: disp}
	sh, err := a.shared()
	if err != nil {
		return nil, err
	}
	// The ladders tables group the ladder runs into the rows the
	// findings read.
	ladders, ladderRows := a.ladders(sh.ladders)
	steps := []func() (*Section, error){
		func() (*Section, error) { return a.cpuFixedRate(sh.fixed, sh.cpuSplit), nil },
		a.spectra,
		func() (*Section, error) { return a.rounds(sh.rounds, sh.roundSplit), nil },
		func() (*Section, error) { return a.cpuSplitTable(sh.fixed, sh.open, sh.cpuSplit), nil },
		func() (*Section, error) { return a.memory(sh.memory) },
		func() (*Section, error) { return ladders, nil },
		func() (*Section, error) { return a.ranking(sh.singles, sh.rounds) },
		func() (*Section, error) { return a.achieved(sh.rounds, sh.singles), nil },
		func() (*Section, error) { return a.calibration(sh.drifts, sh.driftNotes), nil },
		a.cost,
	}
	res := &Result{}
	for _, step := range steps {
		s, err := step()
		if err != nil {
			return nil, err
		}
		res.Sections = append(res.Sections, s)
	}
	a.display(res)
	// The runs' groups, by where each run was read.
	refs, err := st.RunGroupRefs(ctx)
	if err != nil {
		return nil, err
	}
	groupOf := map[report.Source][]string{}
	for _, r := range refs {
		src := report.Source{File: r.Source, Line: r.Line}
		groupOf[src] = append(groupOf[src], r.GroupID)
	}
	// The summary, its context and the findings come first, from the
	// same figures as the sections.
	found, err := a.findings(res, sh, ladderRows, groupOf)
	if err != nil {
		return nil, err
	}
	summary := a.summary(res, sh, ladderRows, groupOf)
	ctxSec, err := a.context(res, sh)
	if err != nil {
		return nil, err
	}
	res.Sections = append([]*Section{summary, ctxSec, found}, res.Sections...)
	if len(opts.Layouts) > 0 {
		lay, err := a.layouts()
		if err != nil {
			return nil, err
		}
		res.Sections = append(slices.Clone(res.Sections[:3]), append([]*Section{lay}, res.Sections[3:]...)...)
	}
	// One colour per server in every plot.
	servers, err := st.AllServers(ctx)
	if err != nil {
		return nil, err
	}
	pal := analysisPalette(servers, a.disp)
	for _, sec := range res.Sections {
		for _, f := range sec.Figures {
			switch c := f.Figure.(type) {
			case *report.LadderChart:
				c.Palette = pal
			case *report.MemoryChart:
				c.Palette = pal
			case *report.SpectrumChart:
				c.Palette = pal
			case *report.RateChart:
				c.Palette = pal
			}
		}
	}
	return res, nil
}

// analysis holds what every section reads and none writes: the store,
// the options and the caveats of every group of the experiment's design
// (the store's group_caveats under the options' rule).
type analysis struct {
	ctx     context.Context
	st      Store
	opts    Options
	caveats map[string][]model.Caveat
	disp    model.Display // names and order of label values (LabelDisplay)
}

// shared are the figures that more than one section, and the findings,
// are made of: each computed once (shared), before any section, and
// handed to the sections as values.
type shared struct {
	// fixed and open are the CPU groups at a fixed rate and at full
	// speed; cpuSplit the labels that split the CPU tables (variants).
	fixed, open []cpuGroup
	cpuSplit    []string
	// rounds and singles are the runs of the rounds and single-run
	// tables; roundSplit the labels that split the rounds tables.
	rounds, singles         []runRow
	roundSplit, singleSplit []string
	// memory is each server's memory fits, per pass and pooled.
	memory []memoryPasses
	// drifts are the calibration pairs per process count; driftNotes
	// what could not be paired.
	drifts     []driftPair
	driftNotes []string
	// ladders are the ladder runs.
	ladders []LadderRun
}

// shared reads and computes the shared figures.
func (a *analysis) shared() (*shared, error) {
	sh := &shared{}
	var err error
	if sh.fixed, sh.cpuSplit, err = a.cpuGroups(true); err != nil {
		return nil, err
	}
	if sh.open, _, err = a.cpuGroups(false); err != nil {
		return nil, err
	}
	if sh.rounds, err = a.runRows(true); err != nil {
		return nil, err
	}
	sh.roundSplit = splitVariants(sh.rounds)
	if sh.singles, err = a.runRows(false); err != nil {
		return nil, err
	}
	sh.singleSplit = sortSingles(sh.singles)
	if sh.memory, err = a.memoryFits(); err != nil {
		return nil, err
	}
	if sh.drifts, sh.driftNotes, err = a.driftPairs(); err != nil {
		return nil, err
	}
	if sh.ladders, err = a.readLadders(); err != nil {
		return nil, err
	}
	return sh, nil
}

// Values of table cells.

func s(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

func f(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case interface{ String() string }:
		g, err := strconv.ParseFloat(x.String(), 64)
		if err == nil {
			return g
		}
	}
	return math.NaN()
}

func i64(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

// num is a value for a table: NaN becomes NULL.
func num(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// notes collects footnotes without repeating one.
type notes struct{ list []string }

func (n *notes) add(msg string) {
	if !slices.Contains(n.list, msg) {
		n.list = append(n.list, msg)
	}
}

// Sig formats v with three significant figures for people (report.Sig3).
func Sig(v any) string {
	x := f(v)
	if math.IsNaN(x) {
		return s(v)
	}
	return report.Sig3(x)
}

// Pct formats a fraction as a percentage.
func Pct(v any) string {
	x := f(v)
	if math.IsNaN(x) {
		return s(v)
	}
	return strconv.FormatFloat(x*100, 'f', 2, 64) + "%"
}

// ciPct is stats' ± x% of a median, NaN where no interval exists.
func ciPct(sum stats.Summary) float64 {
	pct, ok := sum.CIPct()
	if !ok {
		return math.NaN()
	}
	return pct
}

func pm(v any) string {
	x := f(v)
	if math.IsNaN(x) {
		return ""
	}
	return "±" + strconv.FormatFloat(x, 'f', 1, 64) + "%"
}

func col(name, title string, human func(any) string) report.Column {
	return report.Column{Name: name, Title: title, Human: human}
}

// summaryNotes turns a summary's warnings into footnotes.
func summaryNotes(n *notes, what string, sum stats.Summary) {
	for _, w := range sum.Warnings {
		if w.Kind == stats.WarnTooFewSamples {
			n.add(fmt.Sprintf("%s: %s; the spread shown is min–max of the passes", what, w.Msg))
		} else {
			n.add(what + ": " + w.Msg)
		}
	}
}

// Findings computes the analysis and returns its Findings section alone.
func Findings(ctx context.Context, st Store, opts Options) (*Section, error) {
	res, err := Analyze(ctx, st, opts)
	if err != nil {
		return nil, err
	}
	for _, sec := range res.Sections {
		if sec.ID == "findings" {
			return sec, nil
		}
	}
	return nil, fmt.Errorf("the analysis has no findings section")
}
