package ingest

// Hostile and broken inputs. The corpus under testdata/bad holds the few
// files that are not derived from a capture (an empty file, a binary file,
// the refusal messages the tools print on a closed port); every other bad
// input is made here from the real captures under testdata/<tool>/ by a
// deterministic transformation: truncation at every line end, CRLF line
// ends, non-UTF-8 bytes, hostile numbers in place of printed ones, a line
// of 100 MB, a gzip bomb, a symbolic-link loop.
//
// Every case either loads well-formed runs or fails with a *SyntaxError
// naming the file and a line; nothing panics and no run is a row of zeros
// that its file does not print.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/wra-bench/wra/ingest/ingesttest"
	"github.com/wra-bench/wra/model"
)

// badCapture is a real capture, the format it is detected as, and the
// runs it loads.
type badCapture struct {
	path   string
	format *Format
	data   []byte
	full   *model.Collector
}

// badCaptures reads every capture under testdata/<tool>/ that loads. It
// fails the test when a capture is not detected or does not load, so that
// the transformations below start from good inputs.
func badCaptures(t *testing.T) []badCapture {
	t.Helper()
	paths, err := filepath.Glob("testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	// The tools whose captures are all from the wild.
	for _, d := range []string{"locust", "jmeter", "autocannon", "siege", "h2load"} {
		more, _ := filepath.Glob(filepath.Join(wildDir, d, "*"))
		paths = append(paths, more...)
	}
	var out []badCapture
	for _, p := range paths {
		dir := filepath.Base(filepath.Dir(p))
		ext := filepath.Ext(p)
		if dir == "bad" || dir == "fuzz" || dir == "wild" || ext == ".md" || ext == ".js" || ext == ".gz" {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			continue // a run's files kept together (testdata/locust/<run>/)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := Detect(b[:min(len(b), HeadBytes)])
		if f == nil {
			continue // usage messages and the like: covered by TestBadSkipped
		}
		c, err := readWith(f, filepath.Base(p), bytes.NewReader(b))
		if err != nil {
			continue // captures of refusals: covered by TestBadRefusedPort
		}
		out = append(out, badCapture{path: p, format: f, data: b, full: c})
	}
	if len(out) < 40 {
		t.Fatalf("only %d captures load: testdata missing?", len(out))
	}
	return out
}

// streamFormats hold one point per line: a prefix of such a file is itself
// a shorter, valid stream, so its run may differ from the whole file's.
var streamFormats = map[string]bool{
	"k6-ndjson": true, "k6-csv": true, "hey-csv": true, "ab-gnuplot-tsv": true,
	"vegeta-results-csv": true, "vegeta-results-json": true, "vegeta-results-gob": true,
	"memory-csv": true, "calibration-csv": true, "records-csv": true,
	"jmeter-jtl-csv": true, "jmeter-jtl-xml": true, "locust-history-csv": true,
	"gatling-simulation-log": true, "gatling-simulation-log-binary": true,
}

// jsonDocuments are read as one JSON document: their errors name the
// place by its JSON path (metric http_req_duration avg) instead of a line.
var jsonDocuments = map[string]bool{
	"k6-summary-json": true, "k6-handle-summary": true, "k6-summary-export": true,
	"bombardier-json": true, "vegeta-json": true,
}

// tableFormats are CSV and TSV tables, whose last value may be cut short.
var tableFormats = map[string]bool{"ab-percentiles-csv": true, "locust-stats-csv": true}

// readBytes detects and reads data as ReadFile does, without a file on
// disk. A nil format means no reader claims the data.
func readBytes(name string, data []byte) (*Format, *model.Collector, error) {
	f := Detect(data[:min(len(data), HeadBytes)])
	if f == nil {
		return nil, nil, nil
	}
	c, err := readWith(f, name, bytes.NewReader(data))
	return f, c, err
}

// readWith reads with one format, bypassing detection, through the checks
// that ReadFile and the walker put between every reader and its sink.
func readWith(f *Format, name string, r io.Reader) (*model.Collector, error) {
	c := &model.Collector{}
	in := &Input{Name: name, R: r}
	return c, f.Read(in, &guardSink{Sink: c, name: name, in: in})
}

// checkNamedError fails unless err is a *SyntaxError of the file, with a
// line when line is set. An error about what the end of a file lacks (a
// truncation) may name the file alone: its message says what is missing.
func checkNamedError(t *testing.T, what, name string, err error, line bool) {
	t.Helper()
	var se *SyntaxError
	switch {
	case !errors.As(err, &se):
		t.Errorf("%s: error %q (%T) is not a *SyntaxError", what, err, err)
	case se.File != name:
		t.Errorf("%s: error %q names %q, want %q", what, err, se.File, name)
	case line && se.Line < 1:
		t.Errorf("%s: error %q has no line", what, err)
	}
}

// zeroRun reports whether a run reads as nothing happened: requests and
// rps zero or absent and every latency zero or absent.
func zeroRun(r *model.Run) bool {
	if r.Requests.V != 0 || r.RPS.V != 0 {
		return false
	}
	for _, o := range []model.Opt[float64]{r.LatencyMeanMS, r.LatencyMaxMS, r.LatencyP50MS, r.LatencyP90MS,
		r.LatencyP95MS, r.LatencyP99MS, r.LatencyP999MS} {
		if o.V != 0 {
			return false
		}
	}
	for _, p := range r.Percentiles {
		if p.LatencyMS != 0 {
			return false
		}
	}
	return true
}

// runProblems lists what is wrong with a loaded run: a number that is not
// finite or is negative, text that is not UTF-8, a run without requests or
// latency. A zero run is a problem unless zeroOK (its capture prints one).
func runProblems(r *model.Run, zeroOK bool) []string {
	var out []string
	v := reflect.ValueOf(r).Elem()
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		switch x := v.Field(i).Interface().(type) {
		case model.Opt[float64]:
			if x.Valid && (math.IsNaN(x.V) || math.IsInf(x.V, 0) || x.V < 0) {
				out = append(out, fmt.Sprintf("%s = %v", name, x.V))
			}
		case model.Opt[int64]:
			if x.Valid && x.V < 0 {
				out = append(out, fmt.Sprintf("%s = %d", name, x.V))
			}
		case string:
			if !utf8.ValidString(x) {
				out = append(out, fmt.Sprintf("%s %q is not UTF-8", name, x))
			}
		}
	}
	for k, val := range r.Labels {
		if !utf8.ValidString(k) || !utf8.ValidString(val) {
			out = append(out, fmt.Sprintf("label %q = %q is not UTF-8", k, val))
		}
	}
	for _, p := range r.Percentiles {
		if math.IsNaN(p.LatencyMS) || math.IsInf(p.LatencyMS, 0) || p.LatencyMS < 0 || !(p.Percentile >= 0 && p.Percentile <= 100) {
			out = append(out, fmt.Sprintf("percentile %+v", p))
		}
	}
	if r.Tool != "records" && !r.Requests.Valid && !r.LatencyP50MS.Valid && !r.LatencyMeanMS.Valid && len(r.Percentiles) == 0 {
		out = append(out, "neither requests nor latency")
	}
	if r.Tool != "records" && zeroRun(r) && !zeroOK {
		out = append(out, "a run of zeros")
	}
	return out
}

// anyZeroRun reports whether a capture loads a run of zeros: then its
// derived inputs may too.
func anyZeroRun(c *model.Collector) bool {
	for _, r := range c.Runs {
		if zeroRun(r) {
			return true
		}
	}
	return false
}

// checkCollector checks every run and sample a reader produced.
func checkCollector(t *testing.T, what string, c *model.Collector, zeroOK bool) {
	t.Helper()
	for _, r := range c.Runs {
		if p := runProblems(r, zeroOK); len(p) > 0 {
			t.Errorf("%s: run %d (line %d): %s", what, r.Index, r.Line, strings.Join(p, "; "))
		}
	}
	for _, ss := range c.Samples {
		for _, s := range ss {
			if math.IsNaN(s.Value) || math.IsInf(s.Value, 0) || !utf8.ValidString(s.Tags) || !utf8.ValidString(s.Metric) {
				t.Errorf("%s: bad sample %+v", what, s)
				break
			}
		}
	}
}

// optFields lists a run's optional scalar fields by name.
func optFields(r *model.Run) map[string]any {
	out := map[string]any{}
	v := reflect.ValueOf(r).Elem()
	for i := 0; i < v.NumField(); i++ {
		switch x := v.Field(i).Interface().(type) {
		case model.Opt[float64]:
			if x.Valid {
				out[v.Type().Field(i).Name] = x.V
			}
		case model.Opt[int64]:
			if x.Valid {
				out[v.Type().Field(i).Name] = x.V
			}
		case model.Opt[time.Time]:
			if x.Valid {
				out[v.Type().Field(i).Name] = x.V
			}
		}
	}
	return out
}

// checkSubset fails when a run of a truncated summary holds a number that
// the whole capture's run does not: a truncation may lose figures but must
// not change or invent one.
func checkSubset(t *testing.T, what string, got, full *model.Collector) {
	t.Helper()
	for _, r := range got.Runs {
		i := slices.IndexFunc(full.Runs, func(f *model.Run) bool { return f.Index == r.Index })
		if i < 0 {
			t.Errorf("%s: run %d that the whole file does not have", what, r.Index)
			continue
		}
		want := optFields(full.Runs[i])
		for k, v := range optFields(r) {
			if w, ok := want[k]; !ok || !reflect.DeepEqual(v, w) {
				t.Errorf("%s: run %d %s = %v, the whole file gives %v", what, r.Index, k, v, w)
			}
		}
		for _, p := range r.Percentiles {
			if !slices.Contains(full.Runs[i].Percentiles, p) {
				t.Errorf("%s: run %d percentile %+v not in the whole file", what, r.Index, p)
				break
			}
		}
	}
}

// lineEnds returns the offsets just past each line end of data.
func lineEnds(data []byte) []int {
	var out []int
	for i, c := range data {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// cutPoints are the offsets a capture is truncated at: after every line
// (so at every section boundary) and in the middle of every line for a
// report; for a long stream, the first 40 lines, 20 evenly spaced lines
// and the last 3. A binary capture is cut at 40 offsets.
func cutPoints(data []byte) []int {
	if !isText(data) {
		var out []int
		for i := 0; i < 40; i++ {
			out = append(out, len(data)*i/40)
		}
		return out
	}
	ends := append([]int{0}, lineEnds(data)...)
	if len(ends) > 400 {
		keep := slices.Clone(ends[:40])
		for i := 1; i <= 20; i++ {
			keep = append(keep, ends[len(ends)*i/21])
		}
		keep = append(keep, ends[len(ends)-3:]...)
		ends = keep
	}
	var out []int
	for i, e := range ends {
		out = append(out, e)
		if i+1 < len(ends) && len(ends) <= 400 {
			out = append(out, (e+ends[i+1])/2)
		}
	}
	sort.Ints(out)
	return slices.Compact(out)
}

func TestBadTruncated(t *testing.T) {
	for _, c := range badCaptures(t) {
		name := filepath.Base(c.path)
		zeroOK := anyZeroRun(c.full)
		loaded, failed := 0, 0
		for _, n := range cutPoints(c.data) {
			if n >= len(c.data) {
				continue
			}
			what := fmt.Sprintf("%s cut at byte %d", c.path, n)
			data := c.data[:n]
			// The reader of the whole capture, without detection, as when
			// the head of a long file is intact and its tail is lost.
			got, err := readWith(c.format, name, bytes.NewReader(data))
			if err != nil {
				checkNamedError(t, what, name, err, false)
				failed++
				continue
			}
			loaded++
			checkCollector(t, what, got, zeroOK)
			// A number cut short at the very end of a table cannot be told
			// from a shorter number: the last line of a CSV is left out.
			inLastLine := bytes.IndexByte(c.data[n:], '\n') == len(c.data[n:])-1 && n > 0 && c.data[n-1] != '\n'
			if !streamFormats[c.format.Name] && !(inLastLine && tableFormats[c.format.Name]) &&
				!(n > 0 && c.data[n-1] != '\n' && plowBareSeconds(c.path)) && !isSnapshotStream(c.path) {
				checkSubset(t, what, got, c.full)
			}
			// Detection on the truncated file picks a reader that either
			// fails with a named error or loads well-formed runs.
			if f, got, err := readBytes(name, data); err != nil {
				checkNamedError(t, what+" detected as "+f.Name, name, err, false)
			} else if f != nil {
				checkCollector(t, what+" detected as "+f.Name, got, zeroOK)
			}
		}
		t.Logf("%s (%s): %d truncations load, %d fail with a named error", c.path, c.format.Name, loaded, failed)
	}
}

// TestBadCRLF reads every text capture with CRLF line ends, as a file
// copied through Windows has them: it loads as the same format with the
// same numbers.
func TestBadCRLF(t *testing.T) {
	for _, c := range badCaptures(t) {
		if !isText(c.data) || bytes.Contains(c.data, []byte("\r\n")) {
			continue
		}
		crlf := bytes.ReplaceAll(c.data, []byte("\n"), []byte("\r\n"))
		name := filepath.Base(c.path)
		f, got, err := readBytes(name, crlf)
		switch {
		case f == nil:
			t.Errorf("%s with CRLF: not detected (LF: %s)", c.path, c.format.Name)
			continue
		case f != c.format:
			t.Errorf("%s with CRLF: detected as %s, LF as %s", c.path, f.Name, c.format.Name)
			continue
		case err != nil:
			checkNamedError(t, c.path+" with CRLF", name, err, true)
			continue
		}
		if len(got.Runs) != len(c.full.Runs) {
			t.Errorf("%s with CRLF: %d runs, LF %d", c.path, len(got.Runs), len(c.full.Runs))
			continue
		}
		for i, r := range got.Runs {
			if !reflect.DeepEqual(r, c.full.Runs[i]) {
				t.Errorf("%s with CRLF: run %d differs:\n got %+v\nwant %+v", c.path, i, r, c.full.Runs[i])
			}
		}
		if got.Rows() != c.full.Rows() {
			t.Errorf("%s with CRLF: %d rows, LF %d", c.path, got.Rows(), c.full.Rows())
		}
	}
}

// TestBadNonUTF8 puts bytes that are not UTF-8 into every text capture: a
// Latin-1 letter at the end of the first line (where reports print their
// URL), a stray 0xff in the middle of the file, and the whole file as
// UTF-16 with a byte-order mark (what a PowerShell redirect writes). A
// reader fails with a named error or loads runs whose text is UTF-8.
func TestBadNonUTF8(t *testing.T) {
	for _, c := range badCaptures(t) {
		if !isText(c.data) {
			continue
		}
		name := filepath.Base(c.path)
		zeroOK := anyZeroRun(c.full)
		ends := lineEnds(c.data)
		first := bytes.IndexByte(c.data, '\n')
		if first < 0 || len(ends) < 2 {
			continue
		}
		mid := ends[len(ends)/2-1]
		cases := map[string][]byte{
			"latin-1 first line": slices.Concat(c.data[:first], []byte("caf\xe9"), c.data[first:]),
			"0xff mid-file":      slices.Concat(c.data[:mid], []byte("\xff"), c.data[mid:]),
			"utf-16":             utf16LE(c.data),
		}
		for what, data := range cases {
			what = c.path + " " + what
			for _, f := range []*Format{c.format, nil} {
				var got *model.Collector
				var err error
				if f == nil {
					f, got, err = readBytes(name, data)
					if f == nil {
						continue
					}
				} else {
					got, err = readWith(f, name, bytes.NewReader(data))
				}
				if err != nil {
					// A point is named by its metric and time stamp.
					checkNamedError(t, what+" as "+f.Name, name, err, !jsonDocuments[f.Name] && !streamFormats[f.Name])
					continue
				}
				checkCollector(t, what+" as "+f.Name, got, zeroOK)
			}
		}
	}
}

// utf16LE encodes bytes (taken as Latin-1/ASCII) as UTF-16LE with a BOM.
func utf16LE(b []byte) []byte {
	out := []byte{0xff, 0xfe}
	for _, c := range b {
		out = append(out, c, 0)
	}
	return out
}

// hostileNumbers are what a tool prints when its arithmetic goes wrong
// (C's printf prints -nan, nan, inf; Go prints NaN, +Inf) or what overflows
// the types wra stores.
var hostileNumbers = []string{"1e400", "-1e400", "99999999999999999999", "nan", "-nan", "NaN", "inf", "-inf", "+Inf", "Infinity", "-1"}

// TestBadNumbers replaces, on every line of one capture of each summary
// format, the first number by each hostile number. A reader fails with a
// named error, or ignores that figure, or loads a finite, non-negative one.
func TestBadNumbers(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range badCaptures(t) {
		if !isText(c.data) || seen[c.format.Name] || len(lineEnds(c.data)) > 400 {
			continue
		}
		seen[c.format.Name] = true
		name := filepath.Base(c.path)
		zeroOK := anyZeroRun(c.full)
		lines := strings.SplitAfter(string(c.data), "\n")
		cases, failed := 0, 0
		for i, line := range lines {
			lo, hi := firstNumber(line)
			if lo < 0 {
				continue
			}
			for _, h := range hostileNumbers {
				changed := slices.Clone(lines)
				changed[i] = line[:lo] + h + line[hi:]
				data := []byte(strings.Join(changed, ""))
				what := fmt.Sprintf("%s line %d %q", c.path, i+1, strings.TrimSpace(changed[i]))
				cases++
				got, err := readWith(c.format, name, bytes.NewReader(data))
				if err != nil {
					checkNamedError(t, what, name, err, !jsonDocuments[c.format.Name])
					failed++
					continue
				}
				checkCollector(t, what, got, zeroOK)
			}
		}
		t.Logf("%s (%s): %d hostile numbers, %d refused with a named error", c.path, c.format.Name, cases, failed)
	}
}

// firstNumber returns the span of the first decimal number in a line, or
// -1: digits with at most one point, not part of a word.
func firstNumber(s string) (int, int) {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			continue
		}
		if i > 0 && (isWordByte(s[i-1]) || s[i-1] == '.') {
			continue
		}
		j := i
		dot := false
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' && !dot) {
			dot = dot || s[j] == '.'
			j++
		}
		if j < len(s) && isWordByte(s[j]) && !strings.HasPrefix(s[j:], "ms") && !strings.HasPrefix(s[j:], "us") && s[j] != 's' && s[j] != 'm' && s[j] != 'K' && s[j] != 'M' && s[j] != 'G' && s[j] != 'k' && s[j] != 'B' {
			continue
		}
		return i, j
	}
	return -1, -1
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// TestBadNaNCaptures reads the real captures in which the tools print NaN
// or infinity (wrk's -nan% when no latency was recorded, wrk2's -nan
// Req/Sec and its inf last bucket, hey's NaN averages after a refused
// port, vegeta's +Inf histogram bucket): none of those values reaches a
// run.
func TestBadNaNCaptures(t *testing.T) {
	for _, p := range []string{
		"testdata/wrk/wrk_timeouts_go1_wait1500.txt",
		"testdata/wrk2/wrk2_short_6s_go1_ping_R500.txt",
		"testdata/hey/hey_refused_port.txt",
		"testdata/vegeta/vegeta_report_go2_ping_hist.txt",
	} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(bytes.ToLower(b), []byte("nan")) && !bytes.Contains(bytes.ToLower(b), []byte("inf")) {
			t.Fatalf("%s prints no NaN or infinity", p)
		}
		c := &model.Collector{}
		_, err = ReadFile(p, c)
		if err != nil {
			checkNamedError(t, p, filepath.Base(p), err, true)
			continue
		}
		for _, r := range c.Runs {
			if pr := runProblems(r, false); len(pr) > 0 && !(len(pr) == 1 && pr[0] == "a run of zeros" && r.Errors.V > 0) {
				t.Errorf("%s: %s", p, strings.Join(pr, "; "))
			}
		}
	}
}

// TestBadRefusedPort reads what each tool prints when nothing listens on
// the port: the message alone (wrk and wrk2 print it on stderr; ab prints
// its banner then fails) is skipped or fails with a named error; a
// report the tool still prints loads with its errors counted, never as a
// run that succeeded.
func TestBadRefusedPort(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*/*refused*")
	if len(paths) < 8 {
		t.Fatalf("%d refused-port captures", len(paths))
	}
	for _, p := range paths {
		c := &model.Collector{}
		f, err := ReadFile(p, c)
		switch {
		case errors.Is(err, ErrUnknownFormat):
			t.Logf("%s: skipped: %v", p, err)
			continue
		case err != nil:
			t.Logf("%s: %v", p, err)
			checkNamedError(t, p, filepath.Base(p), err, false)
			continue
		}
		t.Logf("%s: loads as %s, %d runs", p, f.Name, len(c.Runs))
		for _, r := range c.Runs {
			if r.Responses2xx.V > 0 || r.Requests.V > 0 && r.Errors.V == 0 && r.Non2xx.V == 0 && r.Labels["no_response"] == "" {
				t.Errorf("%s (%s): a refused port loads as a run that succeeded: %+v", p, f.Name, r)
			}
			if pr := runProblems(r, true); len(pr) > 0 {
				t.Errorf("%s (%s): %s", p, f.Name, strings.Join(pr, "; "))
			}
		}
	}
}

// TestBadWrongName gives reports the file names of other tools: detection
// is by content, so each loads as its own tool.
func TestBadWrongName(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ from, to, format string }{
		{"testdata/ab/ab_plain_nginx_static_n5000_c10.txt", "wrk2.txt", "ab"},
		{"testdata/wrk2/wrk2_plain_go2_ping_R2000.txt", "ab_results.txt", "wrk2"},
		{"testdata/wrk/wrk_plain_nginx_static.txt", "wrk2_R2000.txt", "wrk"},
		{"testdata/hey/hey_go2_ping_n5000_c20.txt", "bombardier.json", "hey"},
		{"testdata/bombardier/bombardier_json_go1_wait5.json", "k6_summary.json", "bombardier-json"},
		{"testdata/k6/k6_constant_go2_ping_summary_export.json", "vegeta_report.json", "k6-summary-export"},
		{"testdata/vegeta/vegeta_go2_ping_results.csv", "k6_points.csv", "vegeta-results-csv"},
	} {
		b, err := os.ReadFile(tc.from)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, tc.to)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c := &model.Collector{}
		f, err := ReadFile(p, c)
		if err != nil {
			t.Errorf("%s as %s: %v", tc.from, tc.to, err)
			continue
		}
		if f.Name != tc.format {
			t.Errorf("%s named %s: read as %s, want %s", tc.from, tc.to, f.Name, tc.format)
		}
		want := strings.SplitN(tc.format, "-", 2)[0]
		for _, r := range c.Runs {
			if r.Tool != want {
				t.Errorf("%s named %s: tool %q, want %q", tc.from, tc.to, r.Tool, want)
			}
		}
	}
}

// memStore is an ingest.Store in memory.
type memStore struct {
	loads map[string]*model.Collector
}

func (m *memStore) IngestedHash(context.Context, string) (string, bool, error) { return "", false, nil }

func (m *memStore) Load(_ context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	c := &model.Collector{}
	if err := fill(c); err != nil {
		return 0, err
	}
	if m.loads == nil {
		m.loads = map[string]*model.Collector{}
	}
	m.loads[f.Source] = c
	return c.Rows(), nil
}

// ingestDir runs the walker over a folder and returns each file's result
// by its name below the folder.
func ingestDir(t *testing.T, dir string) (map[string]FileResult, *memStore) {
	t.Helper()
	st := &memStore{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Ingest(ctx, st, []string{dir}, Options{})
	if err != nil {
		t.Fatalf("ingest %s: %v", dir, err)
	}
	out := map[string]FileResult{}
	for _, f := range res.Files {
		out[strings.TrimPrefix(f.Source, filepath.Base(dir)+"/")] = f
	}
	return out, st
}

// TestBadSkipped runs the walker over the committed corpus: the empty and
// the binary file are skipped with a reason; the refusal messages are
// skipped or fail with a named error.
func TestBadSkipped(t *testing.T) {
	res, st := ingestDir(t, "testdata/bad")
	for name, want := range map[string]string{
		"empty.txt":  "empty file",
		"binary.bin": "binary content of no known format",
	} {
		if r := res[name]; r.Status != Skipped || r.Reason != want {
			t.Errorf("%s: %s %q %v, want skipped: %s", name, r.Status, r.Reason, r.Err, want)
		}
	}
	for name, r := range res {
		switch r.Status {
		case Skipped:
			if r.Reason == "" {
				t.Errorf("%s skipped without a reason", name)
			}
		case Failed:
			checkNamedError(t, name, r.Source, r.Err, false)
		default:
			checkCollector(t, name, st.loads[r.Source], true)
		}
	}
}

// TestBadUTF16 walks a capture saved as UTF-16 (a PowerShell redirect):
// it is skipped with a reason that says how to fix it.
func TestBadUTF16(t *testing.T) {
	// Real captures as PowerShell's > saves them: UTF-16LE with its byte
	// order mark (and big-endian, which .NET's BigEndianUnicode writes).
	// Each loads with the numbers of its UTF-8 original.
	for _, f := range []string{"testdata/wrk2/wrk2_plain_go2_ping_R2000.txt", "testdata/k6/k6_constant_err_legacy_stdout.txt"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := &model.Collector{}
		fw, err := ReadFile(f, want)
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range []struct {
			name string
			data []byte
		}{{"utf-16le", utf16Of(string(b), false)}, {"utf-16be", utf16Of(string(b), true)}} {
			dir := filepath.Join(t.TempDir(), enc.name)
			os.Mkdir(dir, 0o755)
			name := filepath.Base(f)
			if err := os.WriteFile(filepath.Join(dir, name), enc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			got := &model.Collector{}
			fg, err := ReadFile(filepath.Join(dir, name), got)
			if err != nil || fg != fw {
				t.Errorf("%s in %s: format %v, error %v; want %s", f, enc.name, fg, err, fw.Name)
				continue
			}
			if len(got.Runs) != len(want.Runs) {
				t.Fatalf("%s in %s: %d runs, want %d", f, enc.name, len(got.Runs), len(want.Runs))
			}
			for i := range want.Runs {
				if !reflect.DeepEqual(got.Runs[i], want.Runs[i]) {
					t.Errorf("%s in %s: run %d\n got %+v\nwant %+v", f, enc.name, i, got.Runs[i], want.Runs[i])
				}
			}
			res, _ := ingestDir(t, dir)
			if r := res[name]; r.Status != Loaded || r.Format != fw.Name {
				t.Errorf("ingest of %s in %s: %s %s %v", f, enc.name, r.Status, r.Format, r.Err)
			}
		}
	}
}

// utf16Of encodes text as UTF-16 with its byte order mark.
func utf16Of(s string, bigEndian bool) []byte {
	out := []byte{0xff, 0xfe}
	if bigEndian {
		out = []byte{0xfe, 0xff}
	}
	for _, r := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(r>>8), byte(r))
		} else {
			out = append(out, byte(r), byte(r>>8))
		}
	}
	return out
}

// TestBadSymlinkLoop walks a folder with a link to itself, a link to its
// parent and two links to each other: the walk ends, the real file loads
// once, and each link is skipped with its reason.
func TestBadSymlinkLoop(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "loop")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/wrk/wrk_plain_nginx_static.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "wrk.txt"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"sub/self": ".", "sub/up": "..", "a": "b", "b": "a",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	res, _ := ingestDir(t, dir)
	if len(res) != 5 {
		t.Errorf("%d files, want 5: %v", len(res), res)
	}
	if r := res["sub/wrk.txt"]; r.Status != Loaded || r.Format != "wrk" {
		t.Errorf("sub/wrk.txt: %s %s %v", r.Status, r.Format, r.Err)
	}
	for name, want := range map[string]string{
		"sub/self": "symbolic link to a folder: not followed",
		"sub/up":   "symbolic link to a folder: not followed",
		"a":        "broken symbolic link",
		"b":        "broken symbolic link",
	} {
		if r := res[name]; r.Status != Skipped || !strings.HasPrefix(r.Reason, want) {
			t.Errorf("%s: %s %q, want skipped: %s", name, r.Status, r.Reason, want)
		}
	}
}

// endlessReader repeats a byte n times.
type endlessReader struct {
	c byte
	n int64
}

func (r *endlessReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.n)]
	for i := range p {
		p[i] = r.c
	}
	r.n -= int64(len(p))
	return len(p), nil
}

// TestBadLongLine inserts a line of 100 MB after the third line of one
// capture of each text format (the head stays intact, so detection still
// claims it): each reader fails with a named error, or loads well-formed
// runs, without holding the line whole. One such file on disk goes through
// the walker too.
func TestBadLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 100 MB per format")
	}
	const long = 100 << 20
	seen := map[string]bool{}
	var wrkData []byte
	for _, c := range badCaptures(t) {
		if !isText(c.data) || seen[c.format.Name] {
			continue
		}
		seen[c.format.Name] = true
		ends := lineEnds(c.data)
		if len(ends) < 4 {
			continue
		}
		at := ends[2]
		if c.format.Name == "wrk" {
			wrkData = c.data
		}
		name := filepath.Base(c.path)
		for _, fill := range []byte{'x', ' '} {
			r := io.MultiReader(bytes.NewReader(c.data[:at]), &endlessReader{c: fill, n: long}, bytes.NewReader(c.data[at:]))
			what := fmt.Sprintf("%s with a line of 100 MB of %q", c.path, fill)
			got, err := readWith(c.format, name, r)
			if err != nil {
				checkNamedError(t, what, name, err, !jsonDocuments[c.format.Name])
				continue
			}
			checkCollector(t, what, got, anyZeroRun(c.full))
		}
	}
	dir := filepath.Join(t.TempDir(), "long")
	os.Mkdir(dir, 0o755)
	f, err := os.Create(filepath.Join(dir, "wrk.txt"))
	if err != nil {
		t.Fatal(err)
	}
	at := lineEnds(wrkData)[2]
	w := bufio.NewWriter(f)
	w.Write(wrkData[:at])
	io.Copy(w, &endlessReader{c: 'x', n: long})
	w.Write(wrkData[at:])
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	res, _ := ingestDir(t, dir)
	r := res["wrk.txt"]
	if r.Status != Failed || !strings.Contains(fmt.Sprint(r.Err), "line longer than") {
		t.Errorf("wrk.txt with a 100 MB line: %s %v", r.Status, r.Err)
	} else {
		checkNamedError(t, "wrk.txt with a 100 MB line", r.Source, r.Err, true)
	}
}

// writeGzip writes head, then line repeated to n bytes or more,
// gzip-compressed, to path (ingesttest.GzipRepeat, chunks of 4 MiB).
func writeGzip(t *testing.T, path string, head, line []byte, n int64) {
	t.Helper()
	if err := os.WriteFile(path, ingesttest.GzipRepeat(head, bytes.Repeat(line, (4<<20)/len(line)), n), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBadGzipBomb makes small gzip files that expand past the limit
// (MaxExpansion times their size, at least MinExpansionLimit): a k6 point
// stream followed by blank lines (of spaces), and a wrk report followed by
// blank lines, each expanding to MinExpansionLimit and 64 MiB more; both
// stop at the limit with ErrTooLarge. A bomb of zeros is binary: skipped
// from its head, without expanding the rest. A gzip file too small to
// pass its limit, whatever it holds, is so by DEFLATE's bound
// (WithinLimit), and one a byte larger is not.
func TestBadGzipBomb(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bomb")
	os.Mkdir(dir, 0o755)
	nd, err := os.ReadFile("testdata/k6/k6_constant_go2_ping_points.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	wrk, err := os.ReadFile("testdata/wrk/wrk_plain_nginx_static.txt")
	if err != nil {
		t.Fatal(err)
	}
	const n = MinExpansionLimit + 64<<20
	blank := append(bytes.Repeat([]byte(" "), 4095), '\n')
	writeGzip(t, filepath.Join(dir, "points.ndjson.gz"), nd[:lineEnds(nd)[50]], blank, n)
	writeGzip(t, filepath.Join(dir, "wrk.txt.gz"), wrk[:lineEnds(wrk)[2]], blank, n)
	writeGzip(t, filepath.Join(dir, "zeros.gz"), nil, []byte{0}, n)
	for _, name := range []string{"points.ndjson.gz", "wrk.txt.gz", "zeros.gz"} {
		st, _ := os.Stat(filepath.Join(dir, name))
		if limit := ExpansionLimit(st.Size()); limit >= n || WithinLimit(st.Size()) {
			t.Fatalf("%s: %d bytes compressed, limit %d: not a bomb", name, st.Size(), limit)
		}
	}
	// The bound: the largest file within its limit, full of the longest
	// matches, could expand to the limit and no further.
	if s := int64(MinExpansionLimit / maxDeflateRatio); !WithinLimit(s) || WithinLimit(s+1) || s*maxDeflateRatio > ExpansionLimit(s) {
		t.Errorf("WithinLimit is wrong at %d bytes: limit %d", s, ExpansionLimit(s))
	}
	for _, name := range []string{"points.ndjson.gz", "wrk.txt.gz"} {
		c := &model.Collector{}
		_, err := ReadFile(filepath.Join(dir, name), c)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", name, err)
		} else {
			checkNamedError(t, name, name, err, true)
		}
	}
	res, _ := ingestDir(t, dir)
	for _, name := range []string{"points.ndjson.gz", "wrk.txt.gz"} {
		if r := res[name]; r.Status != Failed || !errors.Is(r.Err, ErrTooLarge) {
			t.Errorf("%s through the walker: %s %v, want ErrTooLarge", name, r.Status, r.Err)
		}
	}
	if r := res["zeros.gz"]; r.Status != Skipped || r.Reason != "binary content of no known format" {
		t.Errorf("zeros.gz: %s %q %v", r.Status, r.Reason, r.Err)
	}
}

// TestBadK6Counts gives a k6 summary a negative and a too large request
// count: the reader itself refuses both, before the checks every run
// passes (a float beyond int64 would wrap around when converted).
func TestBadK6Counts(t *testing.T) {
	const p = "testdata/k6/k6_constant_err_legacy_summary_export.json"
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(`"http_reqs"`))
	j := bytes.Index(b[i:], []byte(`"count": `)) + i + len(`"count": `)
	k := bytes.IndexAny(b[j:], ",\n}") + j
	if i < 0 || j < i || k < j {
		t.Fatalf("%s: no http_reqs count", p)
	}
	for _, v := range []string{"-1", "99999999999999999999"} {
		data := slices.Concat(b[:j], []byte(v), b[k:])
		c := &model.Collector{}
		err := formatByName(t, "k6-summary-export").Read(&Input{Name: "k6.json", R: bytes.NewReader(data)}, c)
		if err == nil || !strings.Contains(err.Error(), "http_reqs count "+v) && !strings.Contains(err.Error(), "http_reqs count 1e+20") {
			t.Errorf("http_reqs count %s: err %v, runs %d", v, err, len(c.Runs))
		}
	}
}
