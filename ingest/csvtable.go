package ingest

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// csvTable reads a CSV file with a header row, naming each field by its
// canonical column through an alias table, and reports every error at its
// line and column.
type csvTable struct {
	in     *Input
	r      *csv.Reader
	header []string // canonical names, "" for columns kept as labels
	raw    []string // header as written
	// noHeader tells that the columns were named by the caller: the
	// file has no header row.
	noHeader bool
	index    map[string]int
	rec      []string
	line     int
	// escaped tells that a field was not UTF-8 and was kept with its
	// bytes escaped (Input.keepNonUTF8).
	escaped bool
}

// newCSVTable reads the header of a comma-separated file. aliases maps a
// header name, lower-cased, to its canonical column; columns not in the
// table keep their own name.
func newCSVTable(in *Input, aliases map[string]string) (*csvTable, error) {
	return newCSVTableSep(in, aliases, ',')
}

// newCSVTableSep reads the header of a file whose fields are separated
// by comma (a JMeter JTL saved with default_delimiter=\t: a tab).
func newCSVTableSep(in *Input, aliases map[string]string, comma rune) (*csvTable, error) {
	r := csv.NewReader(in.R)
	r.Comma = comma
	r.ReuseRecord = true
	r.FieldsPerRecord = 0
	t := &csvTable{in: in, r: r, index: map[string]int{}}
	rec, err := r.Read()
	if err == io.EOF {
		return nil, Errorf(in.Name, 1, 0, "empty file: expected a CSV header")
	}
	if err != nil {
		return nil, t.csvErr(err)
	}
	if len(rec) == 1 && comma == ',' {
		for _, d := range []string{";", "\t", "|"} {
			if strings.Contains(rec[0], d) {
				return nil, Errorf(in.Name, 1, 0, "wrong delimiter: header is separated by %q, expected ','", d)
			}
		}
	}
	for i, h := range rec {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		if !utf8.ValidString(h) {
			line, _ := r.FieldPos(i)
			h = in.keepNonUTF8(line, "header", h)
		}
		name := strings.ToLower(strings.TrimSpace(h))
		if c, ok := aliases[name]; ok {
			name = c
		}
		if _, dup := t.index[name]; dup {
			line, col := r.FieldPos(i)
			return nil, Errorf(in.Name, line, col, "column %q appears twice in the header", h)
		}
		t.index[name] = i
		t.header = append(t.header, name)
		t.raw = append(t.raw, strings.TrimSpace(h))
	}
	return t, nil
}

// newCSVTableColumns reads a comma-separated file without a header, whose
// columns are named by cols (as a header would name them).
func newCSVTableColumns(in *Input, cols []string) *csvTable {
	r := csv.NewReader(in.R)
	r.ReuseRecord = true
	r.FieldsPerRecord = 0
	t := &csvTable{in: in, r: r, index: map[string]int{}, noHeader: true}
	for i, c := range cols {
		name := strings.ToLower(c)
		t.index[name] = i
		t.header = append(t.header, name)
		t.raw = append(t.raw, c)
	}
	return t
}

func (t *csvTable) csvErr(err error) error { return csvError(t.in.Name, err, len(t.header)) }

// has reports whether the header has a column.
func (t *csvTable) has(col string) bool { _, ok := t.index[col]; return ok }

// next reads the next row; it returns false at the end or on error.
func (t *csvTable) next() (bool, error) {
	rec, err := t.r.Read()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, t.csvErr(err)
	}
	if len(rec) != len(t.header) {
		line, _ := t.r.FieldPos(0)
		return false, Errorf(t.in.Name, line, 0, "wrong number of fields: expected %d as in the header, found %d", len(t.header), len(rec))
	}
	for i, f := range rec {
		if !utf8.ValidString(f) {
			line, _ := t.r.FieldPos(i)
			rec[i] = t.in.keepNonUTF8(line, t.raw[i], f)
			t.escaped = true
		}
	}
	t.rec = rec
	t.line, _ = t.r.FieldPos(0)
	return true, nil
}

func (t *csvTable) errAt(col string, format string, args ...any) error {
	line, c := t.r.FieldPos(t.index[col])
	return Errorf(t.in.Name, line, c, "%s: %s", t.raw[t.index[col]], fmt.Sprintf(format, args...))
}

// str returns a column's value and whether it is present and non-empty.
func (t *csvTable) str(col string) (string, bool) {
	i, ok := t.index[col]
	if !ok {
		return "", false
	}
	v := strings.TrimSpace(t.rec[i])
	return v, v != ""
}

// float parses a column as a finite number; empty means absent.
func (t *csvTable) float(col string) (float64, bool, error) {
	v, ok := t.str(col)
	if !ok {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, false, t.errAt(col, "expected a bare number, found %q%s", v, unitHint(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, t.errAt(col, "expected a finite number, found %q", v)
	}
	return f, true, nil
}

// int parses a column as a whole number; empty means absent.
func (t *csvTable) int(col string) (int64, bool, error) {
	v, ok := t.str(col)
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, false, t.errAt(col, "number %q out of range", v)
		}
		return 0, false, t.errAt(col, "expected a whole number, found %q%s", v, unitHint(v))
	}
	return n, true, nil
}

// time parses a column as an RFC 3339 time; empty means absent.
func (t *csvTable) time(col string) (time.Time, bool, error) {
	v, ok := t.str(col)
	if !ok {
		return time.Time{}, false, nil
	}
	ts, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, false, t.errAt(col, "expected an RFC 3339 time such as 2026-11-29T18:56:57Z, found %q", v)
	}
	return ts.UTC(), true, nil
}

// unitHint explains a number followed by a unit.
func unitHint(v string) string {
	i := strings.IndexFunc(v, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == 'e' || r == 'E')
	})
	if i > 0 {
		if _, err := strconv.ParseFloat(v[:i], 64); err == nil {
			return fmt.Sprintf(" (a number with the unit %q: the column name gives the unit)", v[i:])
		}
	}
	return ""
}

// headerFields splits the first line of head on any of , ; or tab and
// returns the lower-cased, alias-mapped names.
func headerFields(head []byte, aliases map[string]string) map[string]bool {
	line := string(head)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimPrefix(strings.TrimSuffix(line, "\r"), "\ufeff")
	set := map[string]bool{}
	for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ';' || r == '\t' }) {
		name := strings.ToLower(strings.Trim(strings.TrimSpace(f), `"`))
		if c, ok := aliases[name]; ok {
			name = c
		}
		set[name] = true
	}
	return set
}

// each calls fn for every row; a file with a header and no rows is an
// error naming what kind of file it is.
func (t *csvTable) each(kind string, fn func(i int) error) error {
	for i := 0; ; i++ {
		ok, err := t.next()
		if err != nil {
			return err
		}
		if !ok {
			if i == 0 {
				return Errorf(t.in.Name, 2, 0, "%s has a header but no rows", kind)
			}
			return nil
		}
		if err := fn(i); err != nil {
			return err
		}
	}
}
