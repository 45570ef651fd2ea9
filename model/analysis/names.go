package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/stats"
)

// How the sentences and footnotes of an analysis name things and print
// numbers: the words every section shares.

// Sig prints a figure for people with three significant figures
// (model.Sig3).
func Sig(x float64) string { return model.Sig3(x) }

// pctText prints a fraction as a percentage with two decimals.
func pctText(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x*100, 'f', 2, 64) + "%"
}

// pct prints a fraction as a percentage with three significant figures.
func pct(v float64) string { return Sig(v*100) + "%" }

// times prints a ratio for people: ×1.23.
func times(x float64) string {
	if !math.IsNaN(x) {
		return "×" + Sig(x)
	}
	return "NaN"
}

// pValue prints "p = " and a p-value with two significant figures, or
// "p < 0.001".
func pValue(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return "p = " + strconv.FormatFloat(p, 'g', 2, 64)
}

// money prints dollars for people: $1,234.50.
func money(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return "$" + model.Thousands(fmt.Sprintf("%.2f", x))
}

// notes collects footnotes without repeating one.
type notes struct{ list []string }

func (n *notes) add(msg string) {
	if !slices.Contains(n.list, msg) {
		n.list = append(n.list, msg)
	}
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

// ciPct is stats' ± x% of a median, NaN where no interval exists.
func ciPct(sum stats.Summary) float64 {
	pct, ok := sum.CIPct()
	if !ok {
		return math.NaN()
	}
	return pct
}

// caveatNotes gathers the caveats of the groups behind the rows of one
// table (the store's group_caveats, in its words) and footnotes each
// once, naming the rows it belongs to: "go-pgx, node-pg: one run: …".
type caveatNotes struct {
	of    map[string][]model.Caveat // the analysis's caveats by group
	order []string                  // caveat texts, first seen first
	rows  map[string][]string       // caveat text: the rows it is beside
	all   []string                  // every row added
	// noun, where set, names the rows as one list: "finding 2",
	// "findings 1, 3"
	noun string
	// every names all the rows, "every row" where unset
	every string
}

func (a *analysis) newCaveats() *caveatNotes {
	return &caveatNotes{of: a.caveats, rows: map[string][]string{}}
}

// add notes the caveats of the groups ids under the row name row; only
// those of the given kinds where kinds are given.
func (c *caveatNotes) add(row string, ids []string, kinds ...string) {
	if !slices.Contains(c.all, row) {
		c.all = append(c.all, row)
	}
	for _, id := range ids {
		for _, cv := range c.of[id] {
			if len(kinds) > 0 && !slices.Contains(kinds, cv.Kind) {
				continue
			}
			if _, ok := c.rows[cv.Text]; !ok {
				c.order = append(c.order, cv.Text)
			}
			if !slices.Contains(c.rows[cv.Text], row) {
				c.rows[cv.Text] = append(c.rows[cv.Text], row)
			}
		}
	}
}

// to adds the footnotes to n, after its own: "every row: …" where a
// caveat is beside every row of a table of two or more.
func (c *caveatNotes) to(n *notes) {
	for _, text := range c.order {
		rows := strings.Join(c.rows[text], "; ")
		switch {
		case len(c.all) > 1 && len(c.rows[text]) == len(c.all):
			rows = cmp.Or(c.every, "every row")
		case c.noun != "" && len(c.rows[text]) == 1:
			rows = c.noun + " " + rows
		case c.noun != "":
			rows = c.noun + "s " + strings.Join(c.rows[text], ", ")
		}
		n.add(rows + ": " + text)
	}
}

// has reports whether a caveat of one of the kinds given is among
// those added.
func (c *caveatNotes) has(kind string) bool {
	for _, text := range c.order {
		for _, cvs := range c.of {
			for _, cv := range cvs {
				if cv.Text == text && cv.Kind == kind {
					return true
				}
			}
		}
	}
	return false
}

// rowName names a row of a table after its group's server, database and
// variant, those that are set, by the names the manifest gives their
// values ([labels.<key>] names), as the tables show them.
func (a *analysis) rowName(server, database, variant string) string {
	return rowName(a.disp.Name("server", server), a.disp.Name("database", database), variant)
}

// serverName names a server in a footnote by its display name.
func (a *analysis) serverName(s string) string { return ServerName(a.disp.Name("server", s)) }

// rowName names a row after the names of its server, database and
// variant, those that are set.
func rowName(server, database, variant string) string {
	name := ServerName(server)
	if database != "" {
		name += " (" + database
		if variant != "" {
			name += ", " + variant
		}
		name += ")"
	} else if variant != "" {
		name += " (" + variant + ")"
	}
	return name
}

// ServerName names a server in a footnote or a legend: "(no server
// label)" for none.
func ServerName(s string) string {
	if s == "" {
		return "(no server label)"
	}
	return s
}

// OrDash names a test in a title: "(no test label)" for none.
func OrDash(v string) string {
	if v == "" {
		return "(no test label)"
	}
	return v
}

// TestName is a test in a file name: "no-test" without a test label.
func TestName(test string) string {
	if test == "" {
		return "no-test"
	}
	return test
}

// ConnsName is a connection count in a file name: c16, or full-speed
// when unknown.
func ConnsName(c int64) string {
	if c < 0 {
		return "full-speed"
	}
	return "c" + strconv.FormatInt(c, 10)
}

// RateName is a rate in a file name: 250rps, or full-speed for none.
func RateName(rps float64) string {
	if math.IsNaN(rps) {
		return "full-speed"
	}
	return strconv.FormatFloat(rps, 'g', -1, 64) + "rps"
}

// seriesName is the legend entry of the runs of one test, tool and load
// ("db, wrk2, 16 connections", "one, wrk2, 250 requests/s"), followed by
// whatever else tells them apart from the other series of the plot (a
// variant, a database; empty ones are left out): every plot of the report
// names its series so.
func seriesName(test, tool, load string, more ...string) string {
	name := OrDash(test) + ", " + tool + ", " + load
	for _, m := range more {
		if m != "" {
			name += ", " + m
		}
	}
	return name
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// plural prints a count and its noun: "1 pair", "3 pairs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// cmpNaNLast orders numbers ascending with NaN last.
func cmpNaNLast(x, y float64) int {
	switch {
	case math.IsNaN(x) && math.IsNaN(y):
		return 0
	case math.IsNaN(x):
		return 1
	case math.IsNaN(y):
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func sameFloat(x, y float64) bool {
	return x == y || (math.IsNaN(x) && math.IsNaN(y))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// boolRank orders true before false.
func boolRank(b bool) int {
	if b {
		return 0
	}
	return 1
}

// appendGroups adds to ids the groups of the runs read at srcs.
func appendGroups(ids []string, srcs []model.Source, groupOf map[model.Source][]string) []string {
	return model.DesignCaveats{Groups: groupOf}.GroupsAt(ids, srcs...)
}
