package notebook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fakeQuerier answers queries from a table of canned results, keyed by
// the query text without surrounding space.
type fakeQuerier struct {
	answers map[string]*report.Data
	asked   []string
}

func (f *fakeQuerier) Query(_ context.Context, q string) (*report.Data, error) {
	q = strings.TrimSpace(q)
	f.asked = append(f.asked, q)
	d, ok := f.answers[q]
	if !ok {
		return nil, errors.New("Catalog Error: Table with name nope does not exist!\nLINE 1: SELECT * FROM nope")
	}
	// A copy, as a database gives fresh rows for every query.
	c := *d
	c.Rows = append([][]any(nil), d.Rows...)
	c.Notes = append([]string(nil), d.Notes...)
	return &c, nil
}

func cpuData() *report.Data {
	return &report.Data{
		Columns: report.Columns("server", "target_rps", "cpu_ms"),
		Rows: [][]any{
			{"go-pgx", int64(500), 0.11},
			{"go-pgx", int64(500), 0.13},
			{"go-pgx", int64(1000), 0.1},
			{"node-pg", int64(500), json.Number("0.3")},
			{"node-pg", int64(1000), 0.25},
			{"node-pg", int64(1000), nil},
		},
	}
}

func querier() *fakeQuerier {
	return &fakeQuerier{answers: map[string]*report.Data{
		"SELECT server, target_rps, cpu_ms FROM cpu ORDER BY 1, 2": cpuData(),
		"SELECT 1 AS one":             {Columns: report.Columns("one"), Rows: [][]any{{int64(1)}}},
		"SELECT '<b>|x' AS label":     {Columns: report.Columns("label"), Rows: [][]any{{"<b>|x"}}},
		"SELECT 1 AS one WHERE false": {Columns: report.Columns("one")},
	}}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readFile(t, path)
	if !bytes.Equal(got, want) {
		os.WriteFile(path+".got", got, 0o644)
		t.Errorf("%s differs from the golden file; got written to %s.got\n--- got\n%s", name, path, got)
	}
}

// runMarkdown parses, runs and renders a notebook as Markdown.
func runMarkdown(t *testing.T, name string, src []byte) (string, *Notebook, []Result, []int) {
	t.Helper()
	nb, err := Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	res := nb.Run(context.Background(), querier(), Options{MaxRows: 4})
	var b bytes.Buffer
	lines, err := WriteMarkdown(&b, nb, res, func(bl *Block) string { return ChartFile(name, bl) })
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), nb, res, lines
}

func TestRunMarkdownGolden(t *testing.T) {
	src := readFile(t, "testdata/example.md")
	out, nb, res, lines := runMarkdown(t, "example.md", src)
	golden(t, "example.out.md", []byte(out))
	// The line chart is drawn here; the bar chart by package report,
	// whose own tests hold its golden plots.
	golden(t, ChartFile("example.out.md", res[1].Block), res[1].Chart.SVG)
	if svg := string(res[0].Chart.SVG); !strings.Contains(svg, ">CPU per request (ms)</text>") || !strings.Contains(svg, ">node-pg</text>") {
		t.Errorf("the bar chart lacks its title or a bar label")
	}
	// Exactly one block fails: the one at line 32 querying a missing table.
	errs := nb.Errors(res)
	if len(errs) != 1 || errs[0].Line != 32 || errs[0].Error() != "example.md:32: Catalog Error: Table with name nope does not exist!\nLINE 1: SELECT * FROM nope" {
		t.Errorf("errors: %v", errs)
	}
	// In the output, the error names the block's line there, where the
	// earlier results have moved it.
	outLines := strings.Split(out, "\n")
	if l := lines[4]; outLines[l-1] != "```sql" || outLines[l] != "SELECT * FROM nope" || !strings.Contains(out, fmt.Sprintf("**Error** in the block at line %d:", l)) {
		t.Errorf("the error is not shown in place with line %d:\n%s", l, out)
	}
}

// TestRunIsIdempotent runs a notebook, then runs its output: the second
// output is the first, byte for byte, and the output with its results
// taken out is the source.
func TestRunIsIdempotent(t *testing.T) {
	src := readFile(t, "testdata/example.md")
	first, _, _, _ := runMarkdown(t, "example.md", src)
	second, _, _, _ := runMarkdown(t, "example.md", []byte(first))
	if first != second {
		t.Errorf("a second run changed the output:\n--- first\n%s\n--- second\n%s", first, second)
	}
	nb, err := Parse("example.md", []byte(first))
	if err != nil {
		t.Fatal(err)
	}
	var stripped strings.Builder
	for _, p := range nb.parts {
		stripped.WriteString(p.text)
	}
	if stripped.String() != string(src) {
		t.Errorf("the output without its results is not the source:\n%s", stripped.String())
	}
	if strings.Count(first, ResultStart) != 5 || strings.Count(first, ResultEnd) != 5 {
		t.Errorf("want one result section per sql block (5):\n%s", first)
	}
}

func TestParseBlocks(t *testing.T) {
	src := "# T\n" + // 1
		"~~~\n" + // 2
		"```sql\n" + // 3: inside a tilde fence, not a block
		"SELECT 0\n" +
		"<!-- wra:result -->\n" + // 5: inside a fence, kept as text
		"~~~\n" +
		"````sql rows=3\n" + // 7
		"SELECT 1\n" +
		"```\n" + // shorter than the opening: part of the query
		"````\n" +
		"```python\nprint(1)\n```\n" +
		"   ```sql\r\n" + // 14: indented three spaces, CRLF
		"SELECT 2\r\n" +
		"   ```\r\n" +
		"    ```sql\n" + // 17: indented four: a code block, not a fence
		"```sql chart=bar x=a y=\"b c\" title=\"say \\\"hi\\\"\"\nSELECT 3\n```"
	nb, err := Parse("t.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		line int
		sql  string
		rows int
	}
	// The fence at line 17 is indented four spaces, so it is text; the
	// next line opens the block that holds "SELECT 3".
	wants := []want{{7, "SELECT 1\n```\n", 3}, {14, "SELECT 2\r\n", -1}, {18, "SELECT 3\n", -1}}
	if len(nb.Blocks) != 3 {
		t.Fatalf("%d blocks, want 3", len(nb.Blocks))
	}
	for i, w := range wants {
		b := nb.Blocks[i]
		if b.Line != w.line || b.SQL != w.sql || b.Rows != w.rows || b.Index != i+1 || b.Err != nil {
			t.Errorf("block %d: line %d, sql %q, rows %d, err %v; want line %d, sql %q, rows %d", i+1, b.Line, b.SQL, b.Rows, b.Err, w.line, w.sql, w.rows)
		}
	}
	c := nb.Blocks[2].Chart
	if c == nil || *c != (Chart{Kind: "bar", X: "a", Y: "b c", Title: `say "hi"`}) {
		t.Errorf("chart: %+v", c)
	}
	// The text keeps everything but the sql blocks, including the marker
	// inside the tilde fence.
	var text strings.Builder
	for _, p := range nb.parts {
		if p.block == nil {
			text.WriteString(p.text)
		}
	}
	if !strings.Contains(text.String(), "```sql\nSELECT 0\n<!-- wra:result -->\n~~~\n") {
		t.Errorf("text lost the fenced example:\n%s", text.String())
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, err string }{
		{"a\n```sql\nSELECT 1\n", "t.md:2: the ```sql block is not closed"},
		{"```sql\nSELECT 1\n```\n\n<!-- wra:result -->\n| x |\n", "t.md:5: <!-- wra:result --> is not closed by <!-- /wra:result -->"},
		{"text\n<!-- /wra:result -->\n", "t.md:2: <!-- /wra:result --> without <!-- wra:result --> before it"},
		{"ok\n\xff\n", "t.md:2: the notebook is not valid UTF-8"},
	} {
		_, err := Parse("t.md", []byte(tc.src))
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != tc.err {
			t.Errorf("Parse(%q) = %v, want %s", tc.src, err, tc.err)
		}
	}
}

func TestInfoErrors(t *testing.T) {
	for _, tc := range []struct{ info, err string }{
		{"chart=pie x=a y=b", `chart="pie": expected one of bar, line`},
		{"chart=bar x=a", "chart=bar needs x=COLUMN and y=COLUMN"},
		{"x=a y=b", "x= is an attribute of a chart; add chart=bar or chart=line"},
		{"colour=red", `unknown attribute "colour": expected one of chart, x, y, series, title, rows`},
		{"norun", `"norun" in the info string: expected key=value with key one of chart, x, y, series, title, rows`},
		{"rows=-1", `rows="-1": expected a whole number of rows, 0 or more`},
		{`chart=bar x=a y=b title="open`, `attribute "title": the quoted value is not closed`},
		{`chart=bar x=a x=b y=c`, `attribute "x" given twice`},
	} {
		nb, err := Parse("t.md", []byte("```sql "+tc.info+"\nSELECT 1 AS one\n```\n"))
		if err != nil {
			t.Fatal(err)
		}
		q := querier()
		res := nb.Run(context.Background(), q, Options{})
		if res[0].Err == nil || res[0].Err.Error() != tc.err {
			t.Errorf("%s: error %v, want %s", tc.info, res[0].Err, tc.err)
		}
		if len(q.asked) != 0 {
			t.Errorf("%s: a block with a bad info string ran its query", tc.info)
		}
	}
}

func TestChartErrors(t *testing.T) {
	for _, tc := range []struct{ info, err string }{
		{"chart=bar x=server y=cpu", `chart: the result has no column "cpu" (it has server, target_rps, cpu_ms)`},
		{"chart=line x=server y=cpu_ms", `chart: row 1: x=server: "go-pgx" is not a number`},
		{"chart=bar x=server y=cpu_ms series=nope", `chart: the result has no column "nope" (it has server, target_rps, cpu_ms)`},
	} {
		nb, err := Parse("t.md", []byte("```sql "+tc.info+"\nSELECT server, target_rps, cpu_ms FROM cpu ORDER BY 1, 2\n```\n"))
		if err != nil {
			t.Fatal(err)
		}
		res := nb.Run(context.Background(), querier(), Options{})
		if res[0].Err == nil || res[0].Err.Error() != tc.err {
			t.Errorf("%s: error %v, want %s", tc.info, res[0].Err, tc.err)
		}
	}
}

// TestLineMedians checks the line through the median of the rows at each
// x, worked by hand from cpuData: go-pgx has 0.11 and 0.13 at 500
// (median 0.12) and 0.1 at 1000; node-pg 0.3 at 500 and 0.25 at 1000
// (its NULL row left out).
func TestLineMedians(t *testing.T) {
	d := cpuData()
	p, err := newPlot(&Chart{Kind: "line", X: "target_rps", Y: "cpu_ms", Series: "server"}, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) != 1 || p.Notes[0] != "The plot leaves out 1 of 6 rows, whose target_rps or cpu_ms is NULL." {
		t.Errorf("notes: %q", p.Notes)
	}
	s := lineSeries{xy: [][2]float64{{1000, 0.1}, {500, 0.11}, {500, 0.13}}}
	xs, ys := s.medians()
	if len(xs) != 2 || xs[0] != 500 || xs[1] != 1000 || ys[0] != 0.12 || ys[1] != 0.1 {
		t.Errorf("medians: %v %v", xs, ys)
	}
}

func TestRowCap(t *testing.T) {
	nb, err := Parse("t.md", []byte("```sql\nSELECT server, target_rps, cpu_ms FROM cpu ORDER BY 1, 2\n```\n```sql rows=0\nSELECT server, target_rps, cpu_ms FROM cpu ORDER BY 1, 2\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := nb.Run(context.Background(), querier(), Options{MaxRows: 2})
	if n := len(res[0].Data.Rows); n != 2 || len(res[0].Data.Notes) != 1 || res[0].Data.Notes[0] != "The first 2 of 6 rows are shown; rows=N on the block's first line shows more, rows=0 all." {
		t.Errorf("capped block: %d rows, notes %q", n, res[0].Data.Notes)
	}
	if n := len(res[1].Data.Rows); n != 6 {
		t.Errorf("rows=0 shows %d rows, want all 6", n)
	}
}

func TestCancelledRun(t *testing.T) {
	nb, err := Parse("t.md", []byte("```sql\nSELECT 1 AS one\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q := querier()
	res := nb.Run(ctx, q, Options{})
	if !errors.Is(res[0].Err, context.Canceled) || len(q.asked) != 0 {
		t.Errorf("cancelled run: %v, asked %q", res[0].Err, q.asked)
	}
}

func TestHTML(t *testing.T) {
	src := readFile(t, "testdata/example.md")
	nb, err := Parse("example.md", src)
	if err != nil {
		t.Fatal(err)
	}
	res := nb.Run(context.Background(), querier(), Options{MaxRows: 4})
	var b bytes.Buffer
	if err := WriteHTML(&b, nb, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"<title>CPU per request, a worked example</title>",
		"<td>&lt;b&gt;|x</td>",           // a value is escaped
		"<!-- raw HTML omitted -->",      // the notebook's <script> is not copied
		"<figure>\n<svg width=\"540pt\"", // the plot is inline
		"<strong>Error</strong> in the block at line 32:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(out, "<script") || strings.Contains(out, "placeholder") || strings.Contains(out, "<?xml") {
		t.Errorf("HTML holds a script, a placeholder or an XML declaration")
	}
	// Each query is shown once, before its result.
	if n := strings.Count(out, `<pre><code class="language-sql">`); n != 5 {
		t.Errorf("%d sql code blocks in the page, want 5", n)
	}
	if i, j := strings.Index(out, "FROM nope"), strings.Index(out, `<div class="wra-result" id="block-5">`); i < 0 || j < i {
		t.Errorf("the failing query does not come before its result")
	}
}
