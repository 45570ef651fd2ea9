package store_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
)

// oneByOne is a store seen as the plain ingest.Store: no batches, no
// groups of streams, one file a transaction, one file after another.
type oneByOne struct{ s *store.Store }

func (o oneByOne) IngestedHash(ctx context.Context, source string) (string, bool, error) {
	return o.s.IngestedHash(ctx, source)
}

func (o oneByOne) Load(ctx context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	return o.s.Load(ctx, f, fill)
}

// streamsFolder writes a folder of k6 point streams, gzipped and plain,
// NDJSON and CSV (of two time formats, and two with a column named as
// the scanner's file_index), and JMeter JTLs (three of one header, two
// of them with the same label, one without a header, and one
// tab-separated, which its reader stores itself), so that a group has
// seven scans, beside summaries and a stream with a bad line in its
// middle; a manifest labels them.
func streamsFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	read := func(name string) []byte { return readK6(t, name) }
	jtl := func(name string) []byte {
		b, err := os.ReadFile("../../ingest/testdata/wild/jmeter/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b[:bytes.LastIndexByte(b, '\n')+1]
	}
	ping := read("k6_constant_go2_ping_points.ndjson")
	lines := bytes.SplitAfter(read("k6_constant_err_points.ndjson"), []byte("\n"))
	bad := bytes.Join(lines[:len(lines)/2], nil)
	bad = append(bad, []byte("{\"type\":\"Point\",\"metric\":\"http_reqs\",\"data\":{\"time\":\"not a time\"\n")...)
	bad = append(bad, bytes.Join(lines[len(lines)/2:], nil)...)
	files := map[string][]byte{
		"wra.toml":                      []byte("[labels]\ntest = \"ping\"\n"),
		"a/ladder.ndjson.gz":            read("k6_ladder_points.ndjson.gz"),
		"a/ladder.summary.json":         read("k6_ladder_points_summary_export.json"),
		"b/ping.ndjson.gz":              gz(ping),
		"b/err.ndjson.gz":               gz(read("k6_constant_err_points.ndjson")),
		"c/bad.ndjson":                  bad,
		"c/ladder.csv":                  read("k6_ladder_csv_points.csv"),
		"d/ping.ndjson":                 ping,
		"d/err.ndjson":                  read("k6_constant_err_points.ndjson"),
		"e/ping-again.ndjson.gz":        gz(append(bytes.Clone(ping), '\n')),
		"e/ladder-summary-export.json":  read("k6_ladder_go1_db_summary_export.json"),
		"e/ladder-summary-stdout.txt":   read("k6_ladder_go1_db_stdout.txt"),
		"e/notes/ladder-copy.ndjson.gz": read("k6_ladder_points.ndjson.gz"),
		"f/ladder.csv.gz":               gz(read("k6_ladder_csv_points.csv")),
		"f/err.csv.gz":                  gz(read("k6_constant_err_points.csv")),
		"f/ping-ms.csv.gz":              gz(milliseconds(t, read("k6_constant_go2_ping_points.csv"))),
		"f/index.csv.gz":                gz(fileIndex(t, read("k6_constant_err_points.csv"))),
		"f/ping-index.csv.gz":           gz(fileIndex(t, read("k6_constant_go2_ping_points.csv"))),
		"h/one-label.jtl.gz":            gz(jtl("perfaction-2020-one-label-100-samples.jtl")),
		"h/one-label-half.jtl.gz":       gz(halfLines(jtl("perfaction-2020-one-label-100-samples.jtl"))),
		"h/transactions.jtl.gz":         gz(jtl("tdc2020-transaction-controller-embedded-resources.jtl")),
		"h/tabs.jtl.gz":                 gz(bytes.ReplaceAll(jtl("perfaction-2020-one-label-100-samples.jtl"), []byte(","), []byte("\t"))),
		"h/headerless.jtl.gz":           gz(jtl("jenkins-perf-plugin-2014-headerless-10-columns.jtl")),
		"c/one-label.jtl":               jtl("perfaction-2020-one-label-100-samples.jtl"),
	}
	for name, b := range files {
		p := filepath.Join(dir, "streams", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "streams")
}

// halfLines is the first half of the lines of b.
func halfLines(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	return bytes.Join(lines[:len(lines)/2], nil)
}

// readK6 is a file of the k6 test data.
func readK6(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(k6Testdata + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gz is b gzipped.
func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// milliseconds is a k6 CSV stream with its timestamps in milliseconds
// (k6's timeFormat unix_milli) instead of seconds.
func milliseconds(t *testing.T, b []byte) []byte {
	return rewriteCSV(t, b, func(i int, r []string) []string {
		if i > 0 {
			r[1] += "000"
		}
		return r
	})
}

// fileIndex is a k6 CSV stream with a tag column named file_index, as
// DuckDB's scanner names a column of its own, of 0 in every row.
func fileIndex(t *testing.T, b []byte) []byte {
	return rewriteCSV(t, b, func(i int, r []string) []string {
		v := "0"
		if i == 0 {
			v = "file_index"
		}
		return append(r[:3:3], append([]string{v}, r[3:]...)...)
	})
}

// rewriteCSV is the CSV b with each of its rows (the header row 0) as
// edit makes it.
func rewriteCSV(t *testing.T, b []byte, edit func(i int, r []string) []string) []byte {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		rows[i] = edit(i, r)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.WriteAll(rows)
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestStreamsLoadAsFileByFile: a folder whose point streams are loaded in
// groups, several files in one scan, gives the store that loading its
// files one by one gives, row for row in every table, and the same
// result for every file: the bad stream fails alone, with the error that
// names its line, and the other streams of its group are stored.
func TestStreamsLoadAsFileByFile(t *testing.T) {
	ctx := context.Background()
	dir := streamsFolder(t)
	now := func() time.Time { return time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC) }
	open := func(name string) *store.Store {
		s, err := store.Open(ctx, filepath.Join(t.TempDir(), name+".duckdb"), store.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	grouped, alone := open("grouped"), open("alone")
	groups := map[bool][]int{} // the sizes of the groups stored and failed
	var seen []ingest.Progress
	gres, err := ingest.Ingest(ctx, countGroups{grouped, groups}, []string{dir}, ingest.Options{Progress: func(p ingest.Progress) { seen = append(seen, p) }})
	if err != nil {
		t.Fatal(err)
	}
	ares, err := ingest.Ingest(ctx, oneByOne{alone}, []string{dir}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The first 16 streams are a group: its 11 gzipped ones are
	// stored in one transaction, its 5 plain ones in another, which
	// fails for its bad stream and is loaded again file by file. The
	// last four JTLs are a group of their own: three of one header are
	// stored in one scan, the tab-separated one is not handed over and
	// is loaded alone.
	if fmt.Sprint(groups) != "map[false:[5] true:[11 3]]" {
		t.Errorf("groups by outcome (stored: true) and size: %v, want map[false:[5] true:[11 3]]", groups)
	}
	// The bar moves through a group as through a file, and ends full.
	group := false
	for i, p := range seen {
		if i > 0 && (p.Bytes < seen[i-1].Bytes || p.Files < seen[i-1].Files) {
			t.Fatalf("progress went back: %+v after %+v", p, seen[i-1])
		}
		group = group || strings.HasSuffix(p.Current, " and 10 more")
	}
	if last := seen[len(seen)-1]; last.Files != last.TotalFiles || last.Bytes != last.TotalBytes || last.TotalFiles != len(gres.Files) {
		t.Errorf("progress ends at %+v, want every file and byte of %d files", last, len(gres.Files))
	}
	if !group {
		t.Error("no progress named the group of 11 gzipped streams")
	}
	if got, want := describe(gres), describe(ares); got != want {
		t.Errorf("results differ:\ngrouped:\n%s\none by one:\n%s", got, want)
	}
	if want := "streams/c/bad.ndjson k6-ndjson failed rows 0 \"\" \"\" streams/c/bad.ndjson:4187: "; !strings.Contains(describe(ares), want) {
		t.Errorf("the bad stream did not fail at its line: want %q in\n%s", want, describe(ares))
	}
	// Again, with two streams changed: their rows are replaced, in a
	// group and file by file alike, the others unchanged.
	for _, name := range []string{"b/ping.ndjson.gz", "d/err.ndjson"} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			var plain bytes.Buffer
			plain.ReadFrom(zr)
			lines := bytes.SplitAfter(plain.Bytes(), []byte("\n"))
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(bytes.Join(lines[:len(lines)/2], nil))
			zw.Close()
			b = buf.Bytes()
		} else {
			b = b[:bytes.LastIndexByte(b[:len(b)/2], '\n')+1]
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clear(groups)
	if gres, err = ingest.Ingest(ctx, countGroups{grouped, groups}, []string{dir}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	if ares, err = ingest.Ingest(ctx, oneByOne{alone}, []string{dir}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	if got, want := describe(gres), describe(ares); got != want {
		t.Errorf("results of the second ingest differ:\ngrouped:\n%s\none by one:\n%s", got, want)
	}
	if !strings.Contains(describe(gres), "streams/b/ping.ndjson.gz k6-ndjson replaced") || !strings.Contains(describe(gres), "streams/d/err.ndjson k6-ndjson replaced") {
		t.Errorf("the changed streams were not replaced:\n%s", describe(gres))
	}
	if fmt.Sprint(groups) != "map[false:[2] true:[1]]" {
		t.Errorf("second ingest, groups by outcome and size: %v, want map[false:[2] true:[1]] (the bad stream fails again with the changed plain one)", groups)
	}
	gpath, apath := grouped.Path(), alone.Path()
	grouped.Close()
	alone.Close()
	compareStores(t, gpath, apath)
}

// countGroups keeps the sizes of the groups of streams a store loads, by
// whether they were stored.
type countGroups struct {
	*store.Store
	sizes map[bool][]int
}

func (c countGroups) LoadStreams(ctx context.Context, streams []model.BulkStream) ([]int64, error) {
	rows, err := c.Store.LoadStreams(ctx, streams)
	c.sizes[err == nil] = append(c.sizes[err == nil], len(streams))
	return rows, err
}

func describe(res *ingest.Result) string {
	var b strings.Builder
	for _, f := range res.Files {
		fmt.Fprintf(&b, "%s %s %s rows %d %q %q %v\n", f.Source, f.Format, f.Status, f.Rows, f.Reason, f.Warning, f.Err)
	}
	return b.String()
}

// compareStores wants every table of two stores to hold the same rows,
// as many times each.
func compareStores(t *testing.T, a, b string) {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{`ATTACH '` + a + `' AS a (READ_ONLY)`, `ATTACH '` + b + `' AS b (READ_ONLY)`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.Query(`SELECT table_name FROM information_schema.tables WHERE table_catalog = 'a' AND table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY table_name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 8 {
		t.Fatalf("tables %v: fewer than the schema's", tables)
	}
	for _, tb := range tables {
		if tb == "wra_generation" {
			// A count of the store's transactions, which differ: the
			// fingerprint of a store holds it beside every file's hash.
			continue
		}
		var n, onlyA, onlyB int64
		q := fmt.Sprintf(`SELECT (SELECT count(*) FROM a.%[1]s), (SELECT count(*) FROM (SELECT * FROM a.%[1]s EXCEPT ALL SELECT * FROM b.%[1]s)), (SELECT count(*) FROM (SELECT * FROM b.%[1]s EXCEPT ALL SELECT * FROM a.%[1]s))`, tb)
		if err := db.QueryRow(q).Scan(&n, &onlyA, &onlyB); err != nil {
			t.Fatalf("%s: %v", tb, err)
		}
		if onlyA != 0 || onlyB != 0 {
			t.Errorf("%s: %d rows only in the grouped store, %d only in the one loaded file by file (of %d)", tb, onlyA, onlyB, n)
		}
	}
}
