// Package report renders wra's results for people and for programs: tables
// in terminal, Markdown, CSV, JSON and HTML form, plots (gonum/plot, SVG
// and PNG), and the self-contained HTML report page. It works on values
// already computed; it reads no files and links no database.
package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/wra-bench/wra/model"
)

// Format is an output format for tables.
type Format string

const (
	Table    Format = "table"
	CSV      Format = "csv"
	JSON     Format = "json"
	Markdown Format = "markdown"
	HTML     Format = "html"
)

// Formats lists the table formats in the order help texts show them.
var Formats = []Format{Table, CSV, JSON, Markdown, HTML}

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("--format must be one of %s, not %q", strings.Join(names, ", "), s)
}

// Cell is a value with a mark: the best value of its column, shown in bold
// in Markdown and HTML and with a trailing * on a terminal. Machine formats
// write the bare value. Text, when set, is what people read instead of
// the column's formatting of Value (a figure printed by a cell
// template's format).
type Cell struct {
	Value any
	Best  bool
	Text  string
	// Spread, when set, is the range of the rounds behind a median
	// Value (a float64): people read Value at the one Precision of its
	// column (RoundColumns), in place of Text.
	Spread *Spread
}

// MarkBest is v marked as the best of its column, keeping the text of a
// Cell.
func MarkBest(v any) Cell {
	if c, ok := v.(Cell); ok {
		c.Best = true
		return c
	}
	return Cell{Value: v, Best: true}
}

// Rank is a place in a ranking: people read "=1" where the place is
// shared, machines the number N (and a tied column beside it).
type Rank struct {
	N    int
	Tied bool
}

// String is the rank for people: "=N" when shared, "N" otherwise, empty
// for no place (N <= 0).
func (r Rank) String() string {
	switch {
	case r.N <= 0:
		return ""
	case r.Tied:
		return "=" + strconv.Itoa(r.N)
	}
	return strconv.Itoa(r.N)
}

// Column describes one column of a table.
type Column struct {
	// Name is the column's name in machine formats (snake_case, unit
	// suffixed) and, unless Title is set, its heading for people.
	Name  string
	Title string
	// Human formats the value for people (terminal, Markdown, HTML);
	// machine formats always write the exact value.
	Human func(v any) string
	// Machine columns are written only in the machine formats (CSV,
	// JSON), for a figure people read in another column (the tied flag
	// beside a rank printed "=1").
	Machine bool
	// Wrap, when positive, wraps the column's text at word boundaries
	// to lines of at most this many characters on a terminal.
	Wrap int
	// People columns are written only in the human formats (terminal,
	// Markdown, HTML), for text that machines read from other columns as
	// numbers (a cell "31,550 (2.5)" beside rps and p99 columns).
	People bool
}

// Data is a table of values: nil (NULL), string, bool, int64 (or int),
// float64, json.Number (an exact decimal, such as a SQL DECIMAL),
// time.Time, or a Cell holding one of these.
type Data struct {
	Title string
	// Name, when set, names the table in file names: the keys it is for,
	// such as "one 250rps" (see Slug); the same from run to run.
	Name    string
	Columns []Column
	Rows    [][]any
	// Notes are footnotes: warnings and the method, shown under the table
	// for people and on stderr or in a notes field for machines.
	Notes []string
	// RowSources, when set, lists for each row the runs behind its
	// numbers. HTML shows them in a last column, as a list that opens on
	// a click; the other formats leave them out.
	RowSources [][]Source
}

// Source is where a run was read: a file, as a path below the ingested
// folder, and the 1-based line where the run starts (0 when unknown).
type Source = model.Source

// Columns makes plain columns from names.
func Columns(names ...string) []Column {
	cs := make([]Column, len(names))
	for i, n := range names {
		cs[i] = Column{Name: n}
	}
	return cs
}

// Write renders a table in a format.
func Write(w io.Writer, d *Data, f Format) error {
	switch f {
	case Table:
		return writeText(w, d)
	case CSV:
		return writeCSV(w, d)
	case JSON:
		return writeJSON(w, d)
	case Markdown:
		return writeMarkdown(w, d)
	case HTML:
		return WriteHTMLTable(w, d, "")
	}
	return fmt.Errorf("unknown format %q", f)
}

func unwrap(v any) (any, bool) {
	if c, ok := v.(Cell); ok {
		return c.Value, c.Best
	}
	return v, false
}

// Exact formats a value for machines: the shortest decimal that reads back
// as the same number, RFC 3339 times, empty for NULL.
func Exact(v any) string {
	v, _ = unwrap(v)
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case []byte:
		return string(x)
	case json.Number:
		return string(x)
	case Rank:
		if x.N <= 0 {
			return ""
		}
		return strconv.Itoa(x.N)
	}
	return fmt.Sprint(v)
}

func (c Column) heading() string {
	if c.Title != "" {
		return c.Title
	}
	return c.Name
}

func (c Column) human(v any) string {
	if cell, ok := v.(Cell); ok && cell.Text != "" && cell.Value != nil {
		return cell.Text
	}
	v, _ = unwrap(v)
	if v == nil {
		return ""
	}
	if c.Human != nil {
		return c.Human(v)
	}
	if r, ok := v.(Rank); ok {
		return r.String()
	}
	return Exact(v)
}

func isNumber(v any) bool {
	v, _ = unwrap(v)
	switch v.(type) {
	case int, int32, int64, float32, float64, json.Number, Rank:
		return true
	}
	return false
}

// forMachines is d without its people-only columns.
func forMachines(d *Data) *Data { return keepColumns(d, func(c Column) bool { return !c.People }) }

// forPeople is d without its machine-only columns, its figures with a
// spread at their column's one precision (RoundColumns).
func forPeople(d *Data) *Data {
	return RoundColumns(keepColumns(d, func(c Column) bool { return !c.Machine }))
}

// keepColumns is d with the columns keep accepts.
func keepColumns(d *Data, keep func(Column) bool) *Data {
	idx := make([]int, 0, len(d.Columns))
	for i, c := range d.Columns {
		if keep(c) {
			idx = append(idx, i)
		}
	}
	if len(idx) == len(d.Columns) {
		return d
	}
	out := *d
	out.Columns = make([]Column, len(idx))
	for j, i := range idx {
		out.Columns[j] = d.Columns[i]
	}
	out.Rows = make([][]any, len(d.Rows))
	for r, row := range d.Rows {
		out.Rows[r] = make([]any, len(idx))
		for j, i := range idx {
			out.Rows[r][j] = row[i]
		}
	}
	return &out
}

func writeText(w io.Writer, d *Data) error {
	d = forPeople(d)
	if d.Title != "" {
		if _, err := fmt.Fprintln(w, d.Title); err != nil {
			return err
		}
	}
	t := table.NewWriter()
	t.SetStyle(table.StyleLight)
	t.Style().Format.Header = text.FormatDefault
	hdr := make(table.Row, len(d.Columns))
	cfg := make([]table.ColumnConfig, len(d.Columns))
	for i, c := range d.Columns {
		hdr[i] = c.heading()
		cfg[i] = table.ColumnConfig{Number: i + 1}
		if c.Wrap > 0 {
			cfg[i].WidthMax, cfg[i].WidthMaxEnforcer = c.Wrap, text.WrapSoft
		}
	}
	t.AppendHeader(hdr)
	numeric := make([]bool, len(d.Columns))
	for i := range d.Columns {
		numeric[i] = len(d.Rows) > 0
		for _, r := range d.Rows {
			if r[i] != nil && !isNumber(r[i]) {
				numeric[i] = false
			}
		}
		if numeric[i] {
			cfg[i].Align = text.AlignRight
		}
	}
	t.SetColumnConfigs(cfg)
	for _, r := range d.Rows {
		row := make(table.Row, len(r))
		for i, v := range r {
			s := d.Columns[i].human(v)
			if _, best := unwrap(v); best {
				s += " *"
			}
			row[i] = s
		}
		t.AppendRow(row)
	}
	if _, err := fmt.Fprintln(w, t.Render()); err != nil {
		return err
	}
	return writeNotes(w, d.Notes, "")
}

func writeNotes(w io.Writer, notes []string, prefix string) error {
	for i, n := range notes {
		if _, err := fmt.Fprintf(w, "%s%s %s\n", prefix, Footmark(i+1), n); err != nil {
			return err
		}
	}
	return nil
}

// Footmark is the superscript number of a footnote, as benchstat prints
// them.
func Footmark(n int) string {
	const sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	digits := []rune(sup)
	var b strings.Builder
	for _, c := range strconv.Itoa(n) {
		b.WriteRune(digits[c-'0'])
	}
	return b.String()
}

// neutralise keeps a spreadsheet from executing a text cell: a value that
// starts with =, +, -, @, a tab or a carriage return gets a leading
// apostrophe. Numbers are written as numbers and left alone.
func neutralise(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func writeCSV(w io.Writer, d *Data) error {
	d = forMachines(d)
	cw := csv.NewWriter(w)
	hdr := make([]string, len(d.Columns))
	for i, c := range d.Columns {
		hdr[i] = neutralise(c.Name)
	}
	if err := cw.Write(hdr); err != nil {
		return err
	}
	rec := make([]string, len(d.Columns))
	for _, r := range d.Rows {
		for i, v := range r {
			s := Exact(v)
			if !isNumber(v) {
				s = neutralise(s)
			}
			rec[i] = s
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonValue is a value as JSON: numbers stay numbers (non-finite ones,
// which JSON cannot hold, become null).
func jsonValue(v any) any {
	v, _ = unwrap(v)
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return json.Number(Exact(x))
	case float32:
		return jsonValue(float64(x))
	case time.Time:
		return Exact(x)
	case []byte:
		return string(x)
	case Rank:
		if x.N <= 0 {
			return nil
		}
		return x.N
	}
	return v
}

func writeJSON(w io.Writer, d *Data) error {
	d = forMachines(d)
	var b strings.Builder
	b.WriteString("[")
	for ri, r := range d.Rows {
		if ri > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {")
		for i, v := range r {
			if i > 0 {
				b.WriteString(", ")
			}
			k, _ := json.Marshal(d.Columns[i].Name)
			val, err := json.Marshal(jsonValue(v))
			if err != nil {
				return err
			}
			b.Write(k)
			b.WriteString(": ")
			b.Write(val)
		}
		b.WriteString("}")
	}
	if len(d.Rows) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// EscapeMarkdown makes text safe in a Markdown table cell: Markdown syntax
// is backslash-escaped and HTML is written as entities, so a label such as
// <script> stays text.
func EscapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '|', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func writeMarkdown(w io.Writer, d *Data) error {
	d = forPeople(d)
	var b strings.Builder
	if d.Title != "" {
		fmt.Fprintf(&b, "### %s\n\n", EscapeMarkdown(d.Title))
	}
	b.WriteString("|")
	for _, c := range d.Columns {
		fmt.Fprintf(&b, " %s |", EscapeMarkdown(c.heading()))
	}
	b.WriteString("\n|")
	for i := range d.Columns {
		if len(d.Rows) > 0 && columnNumeric(d, i) {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, r := range d.Rows {
		b.WriteString("|")
		for i, v := range r {
			s := EscapeMarkdown(d.Columns[i].human(v))
			if _, best := unwrap(v); best && s != "" {
				s = "**" + s + "**"
			}
			fmt.Fprintf(&b, " %s |", s)
		}
		b.WriteString("\n")
	}
	if len(d.Notes) > 0 {
		b.WriteString("\n")
		for i, n := range d.Notes {
			fmt.Fprintf(&b, "%s %s  \n", Footmark(i+1), EscapeMarkdown(n))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func columnNumeric(d *Data, i int) bool {
	for _, r := range d.Rows {
		if r[i] != nil && !isNumber(r[i]) {
			return false
		}
	}
	return true
}

// WriteHTMLTable writes a table as an HTML fragment; every text is
// escaped. id, when set, is the table's element id.
func WriteHTMLTable(w io.Writer, d *Data, id string) error {
	d = forPeople(d)
	var b strings.Builder
	if id != "" {
		fmt.Fprintf(&b, "<table id=\"%s\">\n", html.EscapeString(id))
	} else {
		b.WriteString("<table>\n")
	}
	if d.Title != "" {
		fmt.Fprintf(&b, "<caption>%s</caption>\n", html.EscapeString(d.Title))
	}
	b.WriteString("<thead><tr>")
	for _, c := range d.Columns {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(c.heading()))
	}
	if len(d.RowSources) > 0 {
		b.WriteString("<th>runs</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for ri, r := range d.Rows {
		b.WriteString("<tr>")
		for i, v := range r {
			s := html.EscapeString(d.Columns[i].human(v))
			class := ""
			if isNumber(v) {
				class = ` class="num"`
			}
			if _, best := unwrap(v); best && s != "" {
				s = "<strong>" + s + "</strong>"
			}
			fmt.Fprintf(&b, "<td%s>%s</td>", class, s)
		}
		if len(d.RowSources) > 0 {
			writeSourcesCell(&b, d.RowSources, ri)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	writeHTMLNotes(&b, d.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeHTMLNotes writes footnotes as a numbered list, escaped.
func writeHTMLNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("<ol class=\"notes\">\n")
	for _, n := range notes {
		fmt.Fprintf(b, "<li>%s</li>\n", html.EscapeString(n))
	}
	b.WriteString("</ol>\n")
}

// writeSourcesCell writes the runs behind row ri as a <details> list.
func writeSourcesCell(b *strings.Builder, sources [][]Source, ri int) {
	if ri >= len(sources) || len(sources[ri]) == 0 {
		b.WriteString("<td class=\"src\"></td>")
		return
	}
	n := len(sources[ri])
	noun := "runs"
	if n == 1 {
		noun = "run"
	}
	fmt.Fprintf(b, "<td class=\"src\"><details><summary>%d %s</summary><ul>", n, noun)
	for _, s := range sources[ri] {
		fmt.Fprintf(b, "<li><code>%s</code></li>", html.EscapeString(s.String()))
	}
	b.WriteString("</ul></details></td>")
}

// DropEmpty removes the named columns of a table where no row has a
// value (nil, or a Cell of nil): a column of blanks says nothing.
func (d *Data) DropEmpty(names ...string) {
	for _, name := range names {
		c := slices.IndexFunc(d.Columns, func(col Column) bool { return col.Name == name })
		if c < 0 {
			continue
		}
		empty := true
		for _, r := range d.Rows {
			if v := r[c]; v != nil {
				if cell, ok := v.(Cell); !ok || cell.Value != nil {
					empty = false
					break
				}
			}
		}
		if !empty {
			continue
		}
		d.Columns = slices.Delete(d.Columns, c, c+1)
		for i, r := range d.Rows {
			d.Rows[i] = slices.Delete(r, c, c+1)
		}
	}
}
