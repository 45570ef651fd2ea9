package ingest

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestLexUnits(t *testing.T) {
	// Hand-worked: wrk's units.c divides by 1000 (us->ms->s), 60 (s->m->h),
	// 1000 for counts (k, M, G) and 1024 for bytes (K, M, G before B); Go
	// prints a duration as h, m, s parts and µs for microseconds.
	times := map[string]float64{
		"619.77us": 0.61977, "0.00us": 0, "6.37ms": 6.37, "7.59s": 7590, "1.00m": 60000,
		"1.50m": 90000, "2.00h": 7200000, "850.00us": 0.85, "0.85s": 850,
		"403.595µs": 0.403595, "12μs": 0.012, "1500ns": 0.0015, "1m2.5s": 62500, "2h0m0s": 7200000,
		"1m30.000000001s": 90000.000001, "0": 0, "0s": 0,
	}
	for s, want := range times {
		if got, err := durationMS(s); err != nil || got != want {
			t.Errorf("durationMS(%q) = %v %v, want %v", s, got, err, want)
		}
	}
	metrics := map[string]float64{"514.51": 514.51, "2.64k": 2640, "1.06k": 1060, "12.79k": 12790, "1.00M": 1e6, "0.00": 0}
	for s, want := range metrics {
		if got, ok := countValue(s); !ok || got != want {
			t.Errorf("countValue(%q) = %v %v, want %v", s, got, ok, want)
		}
	}
	sizes := map[string]int64{"650.71B": 651, "3.19KB": 3267, "0.89MB": 933233, "1.00GB": 1 << 30, "0.00B": 0, "1.00TB": 1 << 40}
	for s, want := range sizes {
		if got, ok := binaryBytes(s); !ok || got != want {
			t.Errorf("binaryBytes(%q) = %v %v, want %v", s, got, ok, want)
		}
	}
	for _, bad := range []string{"", "ms", "1.2.3ms", "12xs", "-1ms", "1e3ms", "99999999999999999999ms", "1KiB", "12 ms", "1m-2s", "s1", "00", "1"} {
		if _, err := durationMS(bad); err == nil {
			t.Errorf("durationMS(%q) accepted", bad)
		}
		if _, ok := binaryBytes(bad); ok {
			t.Errorf("binaryBytes(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"", "k", "1.2.3k", "2.64K", "1kk", "-1"} {
		if _, ok := countValue(bad); ok {
			t.Errorf("countValue(%q) accepted", bad)
		}
	}
}

func TestLexDecimalMS(t *testing.T) {
	for _, c := range []struct {
		s    string
		exp  int
		want float64
	}{{"0.0306", 3, 30.6}, {"418.149", -3, 0.418149}, {"12", 0, 12}, {"0", 3, 0}} {
		if got, err := decimalMS(c.s, c.exp); err != nil || got != c.want {
			t.Errorf("decimalMS(%q, %d) = %v %v, want %v", c.s, c.exp, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "1e3", "-1", "0x10", "1_000", "nan", "inf"} {
		if _, err := decimalMS(bad, 0); err == nil {
			t.Errorf("decimalMS(%q) accepted", bad)
		}
	}
	for _, c := range []struct {
		n    json.Number
		want float64
	}{{"403.595", 0.403595}, {"4.03595e2", 0.403595}, {"4035.95E-1", 0.403595}, {"1e+3", 1}} {
		if got, err := jsonNumberMS(c.n, -3); err != nil || got != c.want {
			t.Errorf("jsonNumberMS(%q) = %v %v, want %v", c.n, got, err, c.want)
		}
	}
	for _, bad := range []json.Number{"-1", "1e", "1e99999", "0x1p3"} {
		if _, err := jsonNumberMS(bad, -3); err == nil {
			t.Errorf("jsonNumberMS(%q) accepted", bad)
		}
	}
}

func TestLexDecodeJSON(t *testing.T) {
	type doc struct {
		N int64 `json:"n"`
	}
	for _, c := range []struct{ in, want string }{
		{`{"n": 1`, "f:3:8: truncated JSON: the document ends before it closes"},
		{"{\n\"n\": \"x\"}", `f:4:9: JSON field "n" is a JSON string, want int64`},
		{`{"n": 1,}`, "f:3:9: invalid JSON: invalid character '}' looking for beginning of object key string"},
		{`{"n": 1} {"n": 2}`, "f:3:10: a second JSON document follows: a file holds one report"},
		{"{\"n\": 1}\n}", "f:4:1: text after the end of the JSON: a file holds one report"},
	} {
		var d doc
		err := decodeJSON("f", 3, []byte(c.in), &d, "JSON", false)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, want %s", c.in, err, c.want)
		}
	}
	var d doc
	if err := decodeJSON("f", 1, []byte(" {\"n\": 7}\n\n"), &d, "JSON", false); err != nil || d.N != 7 {
		t.Errorf("got %v %v, want 7", d.N, err)
	}
}

func TestLexCSVError(t *testing.T) {
	_, err := readAllCSV("a,b\n1,2\n3\n")
	got := csvError("f.csv", err, 2)
	var se *SyntaxError
	if !errors.As(got, &se) || got.Error() != "f.csv:3:1: wrong number of fields: expected 2 as in the header (a truncated row?)" {
		t.Errorf("got %v", got)
	}
	_, err = readAllCSV("a,b\n\"1,2\n")
	if got := csvError("f.csv", err, 2).Error(); !strings.HasPrefix(got, "f.csv:2:") || !strings.Contains(got, `extraneous or missing " in quoted-field`) {
		t.Errorf("got %v", got)
	}
	if got := csvError("f.csv", errors.New("disk"), 2).Error(); got != "f.csv: disk" {
		t.Errorf("got %v", got)
	}
}

func readAllCSV(s string) ([][]string, error) { return csv.NewReader(strings.NewReader(s)).ReadAll() }

// Zeros after the point that no other digit follows do not count against
// the 18 digits: wrk2 prints a calibration of no sample as
// 9223372036854776.000ms.
func TestLexExactDecimalDigits(t *testing.T) {
	for s, want := range map[string]float64{"9223372036854776.000": 9223372036854776, "1.0500": 1.05, "0.000100": 0.0001, "100.00": 100, "1.000000000000000000001": 1} {
		d, ok := parseExactDecimal(s)
		if s == "1.000000000000000000001" {
			if ok {
				t.Errorf("%s: accepted, want refused (22 significant digits)", s)
			}
			continue
		}
		if !ok || d.float() != want {
			t.Errorf("%s = %v %v, want %v", s, d.float(), ok, want)
		}
	}
}
