// Package analyze lays out an analysis (package model/analysis) as what
// a benchmarker publishes: the tables of each section with their
// footnotes, the plots that go with them, the page and report.md
// (WriteFiles). It decides nothing: which groups, figures, orders, marks
// and sentences come from the analysis's typed results; this package
// gives them columns, titles, file names and charts.
package analyze

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"

	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/projection"
)

// Store gives what an analysis reads (analysis.Store) and what the
// manifest's layouts read (projection.Reader); model/store implements
// both.
type Store interface {
	analysis.Store
	projection.Reader
}

// Options are the settings of an analysis, and those of its report: the
// manifest's layouts and whether the page holds its plots.
type Options struct {
	analysis.Options
	// Layouts are the manifest's tables, published after the Findings.
	Layouts []Layout
	// InlinePlots says whether the report page holds its plots inline
	// or links their files (WriteFiles).
	InlinePlots report.InlinePlots
}

// A Layout is a table the manifest asks for ([[tables]]): a projection
// of the runs of run_figures that match Where (a SQL condition, empty for
// all), laid out as wra table lays it out.
type Layout struct {
	Spec  projection.Spec
	Where string
}

// DefaultOptions are the defaults of wra analyze (analysis.DefaultOptions),
// the plots inline where the page stays small.
func DefaultOptions() Options {
	return Options{Options: analysis.DefaultOptions(), InlinePlots: report.InlineAuto}
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
	// Bullet, where above 0, is the section's bullet (counted from 1)
	// the figure draws: the page shows it beside that bullet.
	Bullet int
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

// Result is a whole analysis laid out.
type Result struct {
	Sections []*Section
}

// Analyze analyses the store (analysis.Analyze) and lays the result out
// with the manifest's layouts (Render), the views both read evaluated
// once for the whole of it where the store can.
func Analyze(ctx context.Context, st Store, opts Options) (*Result, error) {
	var res *Result
	err := analysis.Holding(ctx, st, func() error {
		a, err := analysis.Analyze(ctx, st, opts.Options)
		if err != nil {
			return err
		}
		var layouts *Section
		if len(opts.Layouts) > 0 {
			if layouts, err = layoutSection(ctx, st, opts.Layouts, opts.LadderRule, a.Caveats); err != nil {
				return err
			}
		}
		res = Render(a, layouts)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Findings analyses the store and lays out its Findings section alone.
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

// The values of table cells and their formats for people.

func s(v any) string { return report.CellText(v) }

func f(v any) float64 { return report.CellNumber(v) }

// num is a value for a table: NaN becomes NULL.
func num(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// Sig formats a cell with three significant figures (report.SigCell).
func Sig(v any) string { return report.SigCell(v) }

// Pct formats a fraction as a percentage (report.PctCell).
func Pct(v any) string { return report.PctCell(v) }

func pm(v any) string {
	x := f(v)
	if math.IsNaN(x) {
		return ""
	}
	return "±" + strconv.FormatFloat(x, 'f', 1, 64) + "%"
}

// times formats a ratio for people: ×1.23.
func times(v any) string {
	if x := f(v); !math.IsNaN(x) {
		return "×" + Sig(x)
	}
	return s(v)
}

func col(name, title string, human func(any) string) report.Column {
	return report.Column{Name: name, Title: title, Human: human}
}

func nullIfEmpty(v string) any {
	if v == "" {
		return nil
	}
	return v
}

// rounded is a figure of a row with the range of the rounds (passes)
// behind it, lo to hi: people read it at the one precision its column's
// spreads support (report.RoundColumns).
func rounded(x, lo, hi float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return report.Cell{Value: x, Spread: &report.Spread{Lo: lo, Hi: hi}}
}

// LadderRun is one run of a held-rate ladder (analysis.LadderRun).
type LadderRun = analysis.LadderRun

// LadderRuns groups ladder steps into ladder runs (analysis.LadderRuns),
// the one builder of wra analyze and wra compare.
var LadderRuns = analysis.LadderRuns

// Corpus is what an analyzed folder says of itself (analysis.Corpus).
type Corpus = analysis.Corpus

// ReadCorpus reads what an analyzed folder says of itself
// (analysis.ReadCorpus).
var ReadCorpus = analysis.ReadCorpus

// MachineLabels are the labels the context block names the machine by
// (analysis.MachineLabels).
var MachineLabels = analysis.MachineLabels
