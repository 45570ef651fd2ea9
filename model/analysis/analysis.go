// Package analysis decides what wra analyze publishes from a store of raw
// records: the groups of each section with their figures and caveats,
// the summary's comparisons, the findings and the context. It reads the
// per-row and per-group figures of the store's views and table macros
// through typed readers (a Store: CPU per request, the runs of a table,
// ladder steps under a rule, calibration drift) and computes only what
// SQL cannot: tests, fits, intervals, ties and the sentences that say
// them. Its results are typed values; it draws nothing (package
// report/analyze lays them out as tables, plots and the page) and links
// no database itself.
package analysis

import (
	"context"
	"math"
	"time"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// Store gives the figures an analysis reads, each from its view or table
// macro (model/store implements it).
type Store interface {
	CPURuns(ctx context.Context) ([]model.CPURun, error)
	GroupFigures(ctx context.Context) (map[string]model.GroupFigures, error)
	AllServers(ctx context.Context) ([]string, error)
	RateRuns(ctx context.Context, rounds bool) ([]model.RateRun, error)
	RatesHeld(ctx context.Context, rule stats.LadderRule) (map[string]bool, error)
	Spectra(ctx context.Context, fn func(model.SpectrumRow) error) error
	PeakMemory(ctx context.Context) ([]model.PeakMemory, error)
	MemorySeries(ctx context.Context) ([]model.MemorySeriesPoint, error)
	MemorySlopes(ctx context.Context) ([]model.MemorySlope, error)
	LadderSteps(ctx context.Context, rule stats.LadderRule) ([]model.LadderStepRow, error)
	Ladders(ctx context.Context, rule stats.LadderRule) ([]model.LadderRow, error)
	CalibrationTimings(ctx context.Context) ([]model.CalibrationTiming, error)
	CalibrationDrift(ctx context.Context, tolerance float64) ([]model.DriftRow, error)
	RunCounters(ctx context.Context) ([]model.RunCounters, error)
	RunsStartedBetween(ctx context.Context, from, to time.Time) ([]model.RunRef, error)
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
	// CostTest prices only the stacks of this test; empty prices every
	// stack (server, database, test), as wra cost does.
	CostTest string
	// Findings are the thresholds of the rules of the Findings section.
	Findings stats.FindingRules
	// Corpus is what the analyzed folder says of itself (ReadCorpus),
	// for the context block.
	Corpus Corpus
}

// DefaultOptions are the defaults of wra analyze, the one place they are
// written: the command's flags take their defaults from here.
func DefaultOptions() Options {
	p, _ := cost.NewBook().Lookup(cost.DefaultProvider)
	return Options{LadderRule: stats.DefaultLadderRule, DriftTolerance: stats.DefaultDriftTolerance,
		RPS: cost.DefaultWorkload.RPS, Wait: cost.DefaultWorkload.Wait, Util: cost.DefaultWorkload.Utilisation, Price: p,
		Alpha: stats.DefaultAlpha, TiePct: stats.DefaultTiePct, Findings: stats.DefaultFindingRules()}
}

// DesignRule is the rule the caveats of the groups are computed under:
// the drift tolerance, and the held rule.
func (o Options) DesignRule() model.DesignRule {
	return model.DesignRule{Tolerance: o.DriftTolerance, LadderRule: o.LadderRule}
}

// Result is a whole analysis, section by section in the order the report
// publishes them.
type Result struct {
	Summary     Summary
	Context     Context
	Findings    Findings
	CPU         CPUSection
	Spectra     SpectraSection
	Rounds      RoundsSection
	CPUSplit    CPUSplitSection
	Memory      MemorySection
	Ladders     LaddersSection
	Ranking     RankingSection
	Achieved    AchievedSection
	Calibration CalibrationSection
	Cost        CostSection
	// Servers are every server of the store and its memory series: the
	// plots give each one colour.
	Servers []string
	// Display is how the manifest names and orders label values: the
	// tables and plots show the values so.
	Display model.Display
	// Rule is the held rule of the ladders and fixed-rate runs.
	Rule stats.LadderRule
	// Caveats are the caveats of every group under the analysis's rule
	// and the groups of its runs: what the manifest's layouts print
	// beside their cells.
	Caveats model.DesignCaveats `json:"-"`
}

// CaveatReader reads what ReadCaveats needs.
type CaveatReader interface {
	Caveats(ctx context.Context, rule model.DesignRule) (map[string][]model.Caveat, error)
	RunGroupRefs(ctx context.Context) ([]model.RunGroupRef, error)
}

// ReadCaveats reads the caveats of every group of the store under rule
// (group_caveats) and the groups of its runs: what every table of wra
// prints beside a group's figures, in group_caveats' words.
func ReadCaveats(ctx context.Context, st CaveatReader, rule model.DesignRule) (model.DesignCaveats, error) {
	of, err := st.Caveats(ctx, rule)
	if err != nil {
		return model.DesignCaveats{}, err
	}
	refs, err := st.RunGroupRefs(ctx)
	if err != nil {
		return model.DesignCaveats{}, err
	}
	return model.NewDesignCaveats(of, refs), nil
}

// holder is a store that can evaluate once, for a whole analysis, the
// views its sections read many times over (store.Store.Hold).
type holder interface {
	Hold(ctx context.Context) (release func() error, err error)
}

// Hold evaluates, where the store can, the views an analysis reads many
// times over once; release frees them. Analyze does not hold them: its
// callers do, around it and what they read after it (the manifest's
// layouts), as wra table and wra compare do around their reads of the
// figures and the groups' caveats.
func Hold(ctx context.Context, st any) (release func() error, err error) {
	if h, ok := st.(holder); ok {
		return h.Hold(ctx)
	}
	return func() error { return nil }, nil
}

// Holding runs read with the views held (Hold) and releases them after:
// the error of read, or else that of the release.
func Holding(ctx context.Context, st any, read func() error) (err error) {
	release, err := Hold(ctx, st)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	return read()
}

// Analyze computes every section the store has inputs for.
func Analyze(ctx context.Context, st Store, opts Options) (_ *Result, err error) {
	design, err := ReadCaveats(ctx, st, opts.DesignRule())
	if err != nil {
		return nil, err
	}
	disp, err := st.LabelDisplay(ctx)
	if err != nil {
		return nil, err
	}
	figures, err := st.GroupFigures(ctx)
	if err != nil {
		return nil, err
	}
	groupOf := design.Groups
	a := &analysis{ctx: ctx, st: st, opts: opts, caveats: design.Of, disp: disp, figures: figures, groupOf: groupOf}
	sh, err := a.shared()
	if err != nil {
		return nil, err
	}
	res := &Result{Display: disp, Rule: opts.LadderRule, Caveats: design}
	res.CPU = a.cpuFixedRate(sh.fixed, sh.cpuSplit)
	if res.Spectra, err = a.spectra(); err != nil {
		return nil, err
	}
	res.Rounds = a.rounds(sh.rounds, sh.roundSplit)
	res.CPUSplit = a.cpuSplitTable(sh.fixed, sh.open, sh.cpuSplit)
	if res.Memory, err = a.memory(sh.memory); err != nil {
		return nil, err
	}
	var ladderRows []ladderRuns
	res.Ladders, ladderRows = a.ladders(sh.ladders)
	if res.Ranking, err = a.ranking(sh.singles, sh.rounds); err != nil {
		return nil, err
	}
	res.Achieved = a.achieved(sh.rounds, sh.singles)
	res.Calibration = a.calibration(sh.drifts, sh.driftNotes)
	if res.Cost, err = a.cost(); err != nil {
		return nil, err
	}
	// The summary, its context and the findings come first, from the
	// same figures as the sections.
	if res.Findings, err = a.findings(sh, ladderRows, groupOf); err != nil {
		return nil, err
	}
	res.Summary = a.summary(res, sh, ladderRows, groupOf)
	if res.Context, err = a.context(sh); err != nil {
		return nil, err
	}
	servers, err := st.AllServers(ctx)
	if err != nil {
		return nil, err
	}
	res.Servers = servers
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
	// figures are the groups' medians, ranges and totals, computed once
	// by the store (run_medians), by group id
	figures map[string]model.GroupFigures
	// groupOf are the groups of the runs read at each file and line
	// (RunGroupRefs), for the rows made of runs by where they were read
	groupOf map[model.Source][]string
}

// fig is the figures of the group id (run_medians). Every group a
// section reads is a group of run_groups and so has a row there; one
// without (a store that changed under the analysis) reads as no figure,
// NaN, never as zero.
func (a *analysis) fig(id string) model.GroupFigures {
	if f, ok := a.figures[id]; ok {
		return f
	}
	nan := math.NaN()
	return model.GroupFigures{GroupID: id, RPSMedian: nan, RPSMin: nan, RPSMax: nan, GoodputMedian: nan, GoodputMin: nan, GoodputMax: nan,
		P50MSMedian: nan, P95MSMedian: nan, P99MSMedian: nan, P99MSMin: nan, P99MSMax: nan, ErrorsTotal: -1,
		CPUServerUSMed: nan, CPUServerUSMin: nan, CPUServerUSMax: nan, CPUUserUSMedian: nan, CPUKernelUSMed: nan,
		CPUDBUSMedian: nan, CPUTotalUSMedian: nan, CPUTotalUSMin: nan, CPUTotalUSMax: nan, WorkingSetMBMax: nan}
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
