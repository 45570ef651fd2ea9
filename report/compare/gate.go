package compare

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/stats"
)

// A Gate is a gate's result with the names of its two sides, laid out by
// GateMarkdown, GateJUnit, GateJSON and GateTable.
type Gate struct {
	*analysis.GateResult
	Base, Vs string
}

// verdictLine is the verdict first, in words.
func (g Gate) verdictLine() string {
	n := len(g.Rows)
	switch g.Verdict {
	case stats.GateRegression:
		return fmt.Sprintf("Regression: %d of %d checks got worse beyond their limits, significantly.", g.Regressions(), n)
	case stats.GateTooFew:
		return fmt.Sprintf("Too few runs to tell: with the runs there are, no test of %s can reach alpha %s; it takes %d runs a side.",
			g.undecided(), strconv.FormatFloat(g.Options.Alpha, 'f', -1, 64), g.RunsNeeded)
	}
	return fmt.Sprintf("Pass: none of %d checks got worse beyond its limit significantly.", n)
}

func (g Gate) undecided() string {
	n := 0
	for _, r := range g.Rows {
		if r.Check.Verdict == stats.GateTooFew {
			n++
		}
	}
	if n == 1 {
		return "1 check"
	}
	return fmt.Sprintf("%d checks", n)
}

// method says how the checks were decided, in one line.
func (g Gate) method() string {
	o := g.Options
	m := fmt.Sprintf("A check fails when the change of the candidate (%s) from the baseline (%s) is beyond its limit and a one-sided test says it got worse at alpha %s: "+
		"where both sides ran in the same trials, the sign test of the ratios within trials (the change is their median ratio), else the Mann-Whitney U test "+
		"(the change is the median of the ratios of every candidate run to every baseline run); the interval is the distribution-free %s interval of that ratio.",
		g.Vs, g.Base, strconv.FormatFloat(o.Alpha, 'f', -1, 64), strconv.FormatFloat(o.Confidence*100, 'f', -1, 64)+"%")
	if o.Holm && len(g.Rows) > 1 {
		m += fmt.Sprintf(" The p-values of the %d checks are Holm-Bonferroni adjusted together.", len(g.Rows))
	}
	return m
}

// labels is a row's match as "tool=wrk2 server=go-pgx", its NULL labels
// left out.
func (g Gate) labels(r analysis.GateRow) string {
	var parts []string
	for i, k := range g.Keys {
		if v := r.Key[i]; v != nil {
			parts = append(parts, k+"="+report.Exact(v))
		}
	}
	return strings.Join(parts, " ")
}

func gpct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", v)
}

func gp(v float64) string {
	if math.IsNaN(v) {
		return "?"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// GateMarkdown writes the gate for a pull request's comment or a CI
// job's summary: the verdict first, then a row per check with both
// medians, the change, its interval and p.
func GateMarkdown(w io.Writer, g Gate) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## wra gate: %s\n\n**%s**\n\n", g.Verdict, g.verdictLine())
	b.WriteString("| verdict | metric | limit | match | baseline | candidate | change | interval | p | runs |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range g.Rows {
		c := r.Check
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | [%s, %s] | %s | %s |\n",
			mdCell(string(c.Verdict)), mdCell(r.Limit.Metric), mdCell(r.Limit.String()), mdCell(g.labels(r)),
			mdCell(sigOr(c.BaseMedian)), mdCell(sigOr(c.VsMedian)),
			gpct(c.ChangePct), gpct(c.LowPct), gpct(c.HighPct), gp(c.P), runsCell(c))
	}
	// the caveats as a list between the table and the method, blank
	// lines around it, so that the method is no part of its last item
	if cv := g.caveats(); len(cv) > 0 {
		b.WriteString("\n")
		for _, n := range cv {
			fmt.Fprintf(&b, "- %s\n", mdCell(n))
		}
	}
	fmt.Fprintf(&b, "\n%s\n", mdCell(g.method()))
	_, err := io.WriteString(w, b.String())
	return err
}

func runsCell(c stats.GateCheck) string {
	s := strconv.Itoa(c.N1) + "+" + strconv.Itoa(c.N2)
	if c.Method == stats.GatePaired {
		s = strconv.Itoa(c.N1) + " trials"
	}
	if c.Verdict == stats.GateTooFew {
		s += fmt.Sprintf(" (needs %d)", c.RunsNeeded)
	}
	return s
}

// sigOr is a median for people, three significant figures; "?" for
// none.
func sigOr(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "?"
	}
	return report.SigCell(v)
}

func finiteOr(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// mdCell escapes what would break a Markdown table cell or start
// markup: the pipe, backslash, and the characters of emphasis, code and
// links.
func mdCell(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", "&lt;", "\n", " ")
	return r.Replace(s)
}

// JUnit XML, as CI systems read it (the Jenkins / Surefire schema): a
// suite per metric, a test case per match, a failure per regression, a
// skip where there are too few runs to tell.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// GateJUnit writes the gate as JUnit XML.
func GateJUnit(w io.Writer, g Gate) error {
	out := junitSuites{Name: "wra gate"}
	index := map[string]int{}
	for _, r := range g.Rows {
		i, ok := index[r.Limit.Metric]
		if !ok {
			i = len(out.Suites)
			index[r.Limit.Metric] = i
			out.Suites = append(out.Suites, junitSuite{Name: r.Limit.Metric})
		}
		c := r.Check
		name := g.labels(r)
		if name == "" {
			name = r.Limit.Metric
		}
		line := fmt.Sprintf("%s: %s, limit %s; baseline median %s, candidate median %s",
			r.Limit.Metric, c.String(), r.Limit.String(), report.Exact(finiteOr(c.BaseMedian)), report.Exact(finiteOr(c.VsMedian)))
		for _, cv := range r.Caveats {
			line += "; " + cv
		}
		tc := junitCase{Name: name, Classname: "wra.gate." + r.Limit.Metric, SystemOut: line}
		s := &out.Suites[i]
		switch c.Verdict {
		case stats.GateRegression:
			tc.Failure = &junitMessage{Message: line, Type: "regression", Text: g.method()}
			s.Failures++
		case stats.GateTooFew:
			tc.Skipped = &junitMessage{Message: fmt.Sprintf("too few runs to tell: %s; it takes %d runs a side", runsCell(c), c.RunsNeeded)}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

type gateJSON struct {
	Verdict    stats.GateVerdict `json:"verdict"`
	Summary    string            `json:"summary"`
	Base       string            `json:"base"`
	Vs         string            `json:"vs"`
	Alpha      float64           `json:"alpha"`
	Confidence float64           `json:"confidence"`
	Holm       bool              `json:"holm"`
	RunsNeeded int               `json:"runs_needed,omitempty"`
	Method     string            `json:"method"`
	Checks     []gateCheckJSON   `json:"checks"`
}

type gateCheckJSON struct {
	Metric     string            `json:"metric"`
	Limit      string            `json:"limit"`
	LimitPct   float64           `json:"limit_pct"`
	Labels     map[string]any    `json:"labels"`
	Verdict    stats.GateVerdict `json:"verdict"`
	Test       stats.GateMethod  `json:"test"`
	BaseN      int               `json:"base_n"`
	VsN        int               `json:"vs_n"`
	BaseMedian *float64          `json:"base_median"`
	VsMedian   *float64          `json:"vs_median"`
	ChangePct  *float64          `json:"change_pct"`
	LowPct     *float64          `json:"low_pct"`
	HighPct    *float64          `json:"high_pct"`
	Coverage   *float64          `json:"coverage"`
	PRaw       *float64          `json:"p_raw"`
	P          *float64          `json:"p"`
	RunsNeeded int               `json:"runs_needed,omitempty"`
	Caveats    []string          `json:"caveats,omitempty"`
}

func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// GateJSON writes the gate as one JSON document (numbers as the
// shortest exact decimals, NaN as null).
func GateJSON(w io.Writer, g Gate) error {
	o := gateJSON{Verdict: g.Verdict, Summary: g.verdictLine(), Base: g.Base, Vs: g.Vs,
		Alpha: g.Options.Alpha, Confidence: g.Options.Confidence, Holm: g.Options.Holm,
		RunsNeeded: g.RunsNeeded, Method: g.method(), Checks: []gateCheckJSON{}}
	for _, r := range g.Rows {
		c := r.Check
		labels := map[string]any{}
		for i, k := range g.Keys {
			if r.Key[i] != nil {
				labels[k] = r.Key[i]
			}
		}
		o.Checks = append(o.Checks, gateCheckJSON{Metric: r.Limit.Metric, Limit: r.Limit.String(), LimitPct: r.Limit.Pct, Labels: labels,
			Verdict: c.Verdict, Test: c.Method, BaseN: c.N1, VsN: c.N2,
			BaseMedian: num(c.BaseMedian), VsMedian: num(c.VsMedian), ChangePct: num(c.ChangePct),
			LowPct: num(c.LowPct), HighPct: num(c.HighPct), Coverage: num(c.Coverage),
			PRaw: num(c.PRaw), P: num(c.P), RunsNeeded: c.RunsNeeded, Caveats: r.Caveats})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(o)
}

// GateTable lays the gate out as a table for the terminal, CSV and HTML:
// the verdict in the notes, first.
func GateTable(g Gate) *report.Data {
	d := &report.Data{Columns: report.Columns("verdict", "metric", "limit", "match", "base_median", "vs_median", "change_pct", "low_pct", "high_pct", "p", "test", "base_n", "vs_n", "runs_needed")}
	for _, r := range g.Rows {
		c := r.Check
		var need any
		if c.RunsNeeded > 0 {
			need = int64(c.RunsNeeded)
		}
		d.Rows = append(d.Rows, []any{string(c.Verdict), r.Limit.Metric, r.Limit.String(), g.labels(r),
			finiteOr(c.BaseMedian), finiteOr(c.VsMedian), finiteOr(c.ChangePct), finiteOr(c.LowPct), finiteOr(c.HighPct), finiteOr(c.P),
			string(c.Method), int64(c.N1), int64(c.N2), need})
	}
	d.Notes = append(append([]string{g.verdictLine()}, g.caveats()...), g.method())
	return d
}

// caveats are the checks' caveats for a note each: the metric and match,
// then the caveat, in the rows' order; one of both sides of a check is
// one note for the two ("…: both sides: …"), and one of both sides of
// every check one note, first ("both sides of every check: …").
func (g Gate) caveats() []string {
	var all [][]string
	for _, r := range g.Rows {
		all = append(all, r.Caveats)
	}
	everywhere := bothSidesEverywhere(all)
	var out []string
	for _, t := range everywhere {
		out = append(out, "both sides of every check: "+t)
	}
	for _, r := range g.Rows {
		what := r.Limit.Metric
		if l := g.labels(r); l != "" {
			what += " " + l
		}
		for _, cv := range r.Caveats {
			t := sideless(cv)
			both := slices.Contains(r.Caveats, "base: "+t) && slices.Contains(r.Caveats, "vs: "+t)
			switch {
			case slices.Contains(everywhere, t):
			case both && strings.HasPrefix(cv, "base: "):
				out = append(out, what+": both sides: "+t)
			case !both:
				out = append(out, what+": "+cv)
			}
		}
	}
	return out
}
