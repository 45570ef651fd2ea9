package ingest

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/wra-bench/wra/model"
)

// ManifestName is the file name of a folder's labels manifest.
const ManifestName = "wra.toml"

// Manifest maps the files of a folder to labels. It is read from wra.toml
// at the root of an ingested folder:
//
//	ignore = ["harness/**", "README.md"]   # files that are not records
//
//	[labels]                                # labels of every file
//	database = "postgresql"
//
//	[labels.server]                         # how people read a label's values
//	title = "Server"
//	order = ["dext", "node"]
//	names = { dext = "Dext 1.0.1 (HTTP.sys)" }
//
//	[[files]]                               # labels captured from the path
//	pattern = "wrk2/{server}/{test}-r{target_rps}-p{round}.txt"
//	labels = { tool_note = "fixed rate" }
//
//	[[files]]                               # fixed labels for a glob
//	glob = "k6/*.ndjson.gz"
//	labels = { test = "ladder" }
//
//	[findings]                              # thresholds of wra analyze's findings
//	alpha = 0.01
//
// In a pattern, {name} captures part of one path segment as the label
// name; in patterns and globs * matches within a segment and ** across
// segments. Paths are relative to the folder, with forward slashes. Every
// entry that matches a file adds its labels, later entries overriding
// earlier ones.
type Manifest struct {
	Ignore []string `toml:"ignore"`
	// Labels are the labels of every file: the strings of [labels].
	Labels map[string]string `toml:"-"`
	// Display is how people read the values of labels: the tables of
	// [labels] ([labels.server] with order and names). Every run of the
	// folder keeps it in its model.DisplayLabel label, so that a report
	// reads it from the store.
	Display   model.Display   `toml:"-"`
	RawLabels map[string]any  `toml:"labels"`
	Files     []ManifestEntry `toml:"files"`
	// Findings holds thresholds of wra analyze's findings by name
	// (stats.FindingSettings), e.g. alpha = 0.01; the labels of the files
	// do not depend on them.
	Findings map[string]float64 `toml:"findings"`
	// NoSplit names labels that never tell experiments apart (a
	// timestamp or a host name per run): every other label the manifest
	// or the command line sets is listed in the run's label_keys label,
	// and the tables of wra split by it rather than pool runs that differ
	// in it.
	NoSplit []string `toml:"no_split"`
	// Blocks name the labels that tell trials apart: runs recorded side
	// by side in time, every alternative once per trial. Without it a
	// run's trial label is its block (DefaultBlocks). A block label is
	// not a factor: it is left out of label_keys and listed in the
	// run's block_keys label, which the store's run_groups view reads.
	Blocks []string `toml:"blocks"`
	// Replicates name labels that number repeats of one configuration,
	// as round does (a run number, a pass): left out of label_keys and
	// listed in the run's replicate_keys label.
	Replicates []string `toml:"replicates"`
	// HeadingLabel names the label that a Markdown heading fills in a
	// file of several reports, each under its own heading (## PHP —
	// Swoole 6.2 (port 9501), then its report): "server" when unset, ""
	// for none (see readReports).
	HeadingLabel *string `toml:"heading_label"`
	// Headings name the labels that the heading levels of a write-up fill
	// where their texts differ between its reports, outermost first
	// (DefaultHeadings, server then test, when unset; [] for none); a
	// further differing level is a label heading.N. It takes the place
	// of HeadingLabel, which names the first alone.
	Headings []string `toml:"headings"`
	// Tables are layouts wra analyze publishes beside its own tables, as
	// wra table lays them out; ingesting does not depend on them.
	Tables []TableLayout `toml:"tables"`
	// Reports give labels to some reports of a file: those whose first
	// line lies in a range of lines, or under a line of text the author
	// wrote above them ("Here is the light-java server:", "0.5-500"),
	// whose named groups become labels (see ReportRule).
	Reports []ReportRule `toml:"reports"`

	ignore      []*regexp.Regexp
	headingsSet bool // the manifest has headings, [] too
	derived     []derivedLabel
}

// A derivedLabel is a label made from another of the same run
// ([labels.test] from = "endpoint"): the other's value, or the part of
// it pattern matches (its first group, or the whole match without one).
// It fills the label where the run has none of its own.
type derivedLabel struct {
	key, from string
	pattern   *regexp.Regexp
}

// value is the label's value from the run's, and whether it has one.
func (dl derivedLabel) value(r *model.Run) (string, bool) {
	v, ok := r.Label(dl.from)
	if !ok || v == "" {
		return "", false
	}
	if dl.pattern == nil {
		return v, true
	}
	m := dl.pattern.FindStringSubmatch(v)
	switch {
	case m == nil:
		return "", false
	case len(m) > 1:
		return m[1], m[1] != ""
	}
	return m[0], true
}

// labelKey reports whether k can name a label.
func labelKey(k string) bool { return labelName.MatchString(k) }

// TableLayout is one [[tables]] entry of a manifest: a table as wra table
// --metric/--cell --row --col --where --sort --spread lays it out.
type TableLayout struct {
	Title  string `toml:"title"`
	Metric string `toml:"metric"`
	Cell   string `toml:"cell"`
	// Figures lay out several cells side by side, each a column with a
	// heading of its own: figures = [{ title = "Requests/sec", cell =
	// "{rps:,.2f}" }, { title = "p99", cell = "{latency_p99_ms:.2f} ms" }].
	Figures []TableFigure `toml:"figures"`
	// Filter keeps the runs with these values of columns or labels:
	// filter = { machine = "8cpu-4g" }.
	Filter map[string]string `toml:"filter"`
	Rows   []string          `toml:"rows"`
	Cols   []string          `toml:"cols"`
	Where  string            `toml:"where"`
	Sort   string            `toml:"sort"`
	Spread bool              `toml:"spread"`
}

// ReportRule is one [[reports]] table of a manifest: labels for the
// reports of the files that File matches (every file where empty) that
// start within Lines ([from, to], both counted; every line where empty)
// and, where Above is set, that have a line matching it between the
// report before them (or the file's start) and their first line: the
// nearest such line, whose named groups ((?P<server>…)) are labels too.
// Labels set so are factors of the design, as the manifest's are.
//
//	[[reports]]
//	file = "README.md"
//	above = '^Here is the (?P<server>\S+) server'
type ReportRule struct {
	File   string            `toml:"file"`
	Lines  []int             `toml:"lines"`
	Above  string            `toml:"above"`
	Labels map[string]string `toml:"labels"`

	file  *regexp.Regexp
	above *regexp.Regexp
}

// matches reports whether the rule is for a report of the file rel
// (relative to the folder) starting at line.
func (rr *ReportRule) matches(rel string, line int) bool {
	if rr.file != nil && !rr.file.MatchString(rel) {
		return false
	}
	return len(rr.Lines) == 0 || line >= rr.Lines[0] && line <= rr.Lines[1]
}

// TableFigure is one column of a [[tables]] layout of several figures:
// its heading, its cell template, and its name in CSV and JSON (the
// heading's words joined by _ where unset).
type TableFigure struct {
	Title string `toml:"title"`
	Cell  string `toml:"cell"`
	Name  string `toml:"name"`
}

// ManifestEntry is one [[files]] table of a manifest.
type ManifestEntry struct {
	Pattern string            `toml:"pattern"`
	Glob    string            `toml:"glob"`
	Labels  map[string]string `toml:"labels"`

	re *regexp.Regexp
}

// ReadManifest reads the manifest of a folder; a folder without one has an
// empty manifest.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestName)
	m := &Manifest{}
	md, err := toml.DecodeFile(path, m)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, Errorf(path, pe.Position.Line, pe.Position.Col, "%s", pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.headingsSet = md.IsDefined("headings")
	for _, h := range m.Headings {
		if !labelName.MatchString(h) {
			return nil, Errorf(path, 0, 0, "headings: label name %q: expected lower-case letters, digits and _", h)
		}
	}
	if err := m.splitLabels(); err != nil {
		return nil, Errorf(path, 0, 0, "%v", err)
	}
	und := slices.DeleteFunc(md.Undecoded(), func(k toml.Key) bool { return len(k) > 1 && k[0] == "labels" }) // read by splitLabels
	if len(und) > 0 {
		return nil, Errorf(path, 0, 0, "unknown key %q: expected ignore, no_split, blocks, replicates, heading_label, headings, [labels], [[reports]] with file, lines, above and labels, [labels.<label>] with order and names, [findings], [[tables]] with title, metric, cell or figures, rows, cols, where, filter, sort and spread, or [[files]] with pattern or glob and labels", und[0].String())
	}
	for _, g := range m.Ignore {
		re, err := compileTemplate(g, false)
		if err != nil {
			return nil, Errorf(path, 0, 0, "ignore %q: %v", g, err)
		}
		m.ignore = append(m.ignore, re)
	}
	for i := range m.Reports {
		rr := &m.Reports[i]
		if rr.File != "" {
			if rr.file, err = compileTemplate(rr.File, false); err != nil {
				return nil, Errorf(path, 0, 0, "[[reports]] entry %d: file %q: %v", i+1, rr.File, err)
			}
		}
		if len(rr.Lines) != 0 && (len(rr.Lines) != 2 || rr.Lines[0] < 1 || rr.Lines[1] < rr.Lines[0]) {
			return nil, Errorf(path, 0, 0, "[[reports]] entry %d: lines = %v: expected [first, last], line numbers from 1", i+1, rr.Lines)
		}
		if rr.Above != "" {
			if rr.above, err = regexp.Compile(rr.Above); err != nil {
				return nil, Errorf(path, 0, 0, "[[reports]] entry %d: above = %q: %v", i+1, rr.Above, err)
			}
			for _, name := range rr.above.SubexpNames()[1:] {
				if name != "" && !labelName.MatchString(name) {
					return nil, Errorf(path, 0, 0, "[[reports]] entry %d: above = %q: label name %q: expected lower-case letters, digits and _", i+1, rr.Above, name)
				}
			}
		}
		if rr.Above == "" && len(rr.Lines) == 0 && rr.File == "" {
			return nil, Errorf(path, 0, 0, "[[reports]] entry %d: expected file, lines or above to say which reports", i+1)
		}
		if len(rr.Labels) == 0 && (rr.above == nil || rr.above.NumSubexp() == 0) {
			return nil, Errorf(path, 0, 0, "[[reports]] entry %d: expected labels, or named groups in above", i+1)
		}
	}
	for i := range m.Files {
		e := &m.Files[i]
		switch {
		case e.Pattern != "" && e.Glob != "":
			return nil, Errorf(path, 0, 0, "[[files]] entry %d has both pattern and glob: expected one", i+1)
		case e.Pattern != "":
			e.re, err = compileTemplate(e.Pattern, true)
		case e.Glob != "":
			e.re, err = compileTemplate(e.Glob, false)
		default:
			return nil, Errorf(path, 0, 0, "[[files]] entry %d: expected a pattern or a glob", i+1)
		}
		if err != nil {
			return nil, Errorf(path, 0, 0, "[[files]] entry %d: %v", i+1, err)
		}
	}
	return m, nil
}

// splitLabels sorts the entries of [labels]: a string is a label of
// every file, a table ([labels.server]) the display of a label's values.
func (m *Manifest) splitLabels() error {
	for _, k := range slices.Sorted(maps.Keys(m.RawLabels)) {
		switch v := m.RawLabels[k].(type) {
		case string:
			if m.Labels == nil {
				m.Labels = map[string]string{}
			}
			m.Labels[k] = v
		case map[string]any:
			var ld model.LabelDisplay
			dl := derivedLabel{key: k}
			for _, f := range slices.Sorted(maps.Keys(v)) {
				x := v[f]
				var ok bool
				switch f {
				case "order":
					ld.Order, ok = stringList(x)
				case "names":
					ld.Names, ok = stringMap(x)
				case "title":
					ld.Title, ok = x.(string)
				case "from":
					dl.from, ok = x.(string)
					ok = ok && labelKey(dl.from)
				case "pattern":
					var p string
					if p, ok = x.(string); ok {
						re, err := regexp.Compile(p)
						if err != nil {
							return fmt.Errorf("[labels.%s] pattern %q: %v", k, p, err)
						}
						dl.pattern = re
					}
				default:
					return fmt.Errorf("[labels.%s] has %s: expected order = [\"value\", …], names = { value = \"name\" }, title = \"heading\", from = \"label\" and pattern = \"regexp\"", k, f)
				}
				if !ok {
					return fmt.Errorf("[labels.%s] %s: expected %s", k, f, map[string]string{"order": "a list of the label's values, as text", "names": "a table of value = \"display name\"", "title": "text",
						"from": "the name of the label its value is made from (url, endpoint, target …)", "pattern": "a regular expression"}[f])
				}
			}
			switch {
			case dl.from != "":
				m.derived = append(m.derived, dl)
			case dl.pattern != nil:
				return fmt.Errorf("[labels.%s] has a pattern but no from: expected from = \"label\" to say what the pattern reads", k)
			}
			if m.Display == nil {
				m.Display = model.Display{}
			}
			m.Display[k] = ld
		default:
			return fmt.Errorf("[labels] %s = %v: expected text (a label of every file) or a table [labels.%s] with order and names", k, v, k)
		}
	}
	return nil
}

// stringList is x as a list of strings.
func stringList(x any) ([]string, bool) {
	list, ok := x.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, len(list))
	for i, e := range list {
		if out[i], ok = e.(string); !ok {
			return nil, false
		}
	}
	return out, true
}

// stringMap is x as a table of strings.
func stringMap(x any) (map[string]string, bool) {
	t, ok := x.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(t))
	for k, e := range t {
		if out[k], ok = e.(string); !ok {
			return nil, false
		}
	}
	return out, true
}

var labelName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// compileTemplate turns a pattern with {name} captures (when captures is
// true), * and ** into an anchored regular expression.
func compileTemplate(t string, captures bool) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	seen := map[string]bool{}
	for i := 0; i < len(t); {
		switch {
		case strings.HasPrefix(t[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 3
		case strings.HasPrefix(t[i:], "**"):
			b.WriteString(".*")
			i += 2
		case t[i] == '*':
			b.WriteString("[^/]*")
			i++
		case t[i] == '?':
			b.WriteString("[^/]")
			i++
		case t[i] == '{' && captures:
			j := strings.IndexByte(t[i:], '}')
			if j < 0 {
				return nil, fmt.Errorf("unclosed { in %q", t)
			}
			name := t[i+1 : i+j]
			if !labelName.MatchString(name) {
				return nil, fmt.Errorf("label name %q in %q: expected lower-case letters, digits and _", name, t)
			}
			if seen[name] {
				return nil, fmt.Errorf("label {%s} appears twice in %q", name, t)
			}
			seen[name] = true
			fmt.Fprintf(&b, "(?P<%s>[^/]+?)", name)
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(t[i : i+1]))
			i++
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// Ignored reports whether a path (relative to the folder) is listed under
// ignore.
func (m *Manifest) Ignored(rel string) bool {
	for _, re := range m.ignore {
		if re.MatchString(rel) {
			return true
		}
	}
	return false
}

// LabelsFor returns the labels the manifest gives a path relative to the
// folder.
func (m *Manifest) LabelsFor(rel string) map[string]string {
	out := map[string]string{}
	for k, v := range m.Labels {
		out[k] = v
	}
	if len(m.Display) > 0 {
		out[model.DisplayLabel] = m.Display.JSON()
	}
	for _, e := range m.Files {
		sub := e.re.FindStringSubmatch(rel)
		if sub == nil {
			continue
		}
		for i, name := range e.re.SubexpNames() {
			if name != "" {
				out[name] = sub[i]
			}
		}
		for k, v := range e.Labels {
			out[k] = v
		}
	}
	return out
}

// design is what the manifest says of the roles of labels: those that
// never split (no_split), the blocks (DefaultBlocks when it names none)
// and the replicates.
func (m *Manifest) design() design {
	if m == nil {
		return design{blocks: DefaultBlocks}
	}
	// the display of the labels' values tells no experiments apart
	d := design{noSplit: append(slices.Clone(m.NoSplit), model.DisplayLabel), blocks: m.Blocks, replicates: m.Replicates, heading: m.HeadingLabel, headings: m.Headings,
		reports: m.Reports, derived: m.derived}
	if m.headingsSet && d.headings == nil {
		d.headings = []string{}
	}
	if len(d.blocks) == 0 {
		d.blocks = DefaultBlocks
	}
	return d
}
