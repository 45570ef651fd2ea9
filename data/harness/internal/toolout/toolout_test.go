package toolout

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The testdata files are real captures (wrk2 built from giltene/wrk2
// 44a94c1, ApacheBench 2.3, Debian wrk 4.1.0) copied unedited from the
// project's sample set; the expected numbers below were read off each file
// by eye (the lines are quoted in the comments).

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseWrk2(t *testing.T) {
	tests := []struct {
		file string
		want Wrk2
	}{
		// "11983 requests in 12.00s", "Requests/sec:    998.43", Recorded
		// " 50.000%    6.33ms", " 99.000%    9.13ms"; the Uncorrected block
		// (5.62ms, 7.03ms) must not override them.
		{"wrk2_U_go2_wait5_R1000.txt", Wrk2{Requests: 11983, DurationS: 12, RPS: 998.43, P50MS: 6.33, P99MS: 9.13, HasSpectrum: true}},
		// Seconds with a trailing space: " 50.000%    7.59s ".
		{"wrk2_cannot_keep_up_go1_ping_R100000.txt", Wrk2{Requests: 265482, DurationS: 12, RPS: 22131.17, P50MS: 7590, P99MS: 8870, HasSpectrum: true}},
		// "Non-2xx or 3xx responses: 708".
		{"wrk2_non2xx_go1_err5pct_R1500.txt", Wrk2{Requests: 14978, DurationS: 10, RPS: 1497.93, P50MS: 1.05, P99MS: 4.64, Non2xx: 708, HasSpectrum: true}},
		// No latency report at all.
		{"wrk2_plain_go2_ping_R2000.txt", Wrk2{Requests: 29943, DurationS: 15, RPS: 1996.06}},
		// "Socket errors: connect 0, read 9, write 109695, timeout 24".
		{"wrk2_socket_errors_flap_R1000.txt", Wrk2{Requests: 7820, DurationS: 12, RPS: 651.51, Read: 9, Write: 109695, Timeout: 24}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseWrk2(read(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !approx(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// approx compares Wrk2 values with float fields equal to 1e-9 relative
// (7.59 * 1000 is not exactly 7590 in binary floating point).
func approx(a, b Wrk2) bool {
	eq := func(x, y float64) bool {
		d := x - y
		if d < 0 {
			d = -d
		}
		return d <= 1e-9*max(1, y, -y)
	}
	ints := a.Requests == b.Requests && a.Non2xx == b.Non2xx && a.Connect == b.Connect && a.Read == b.Read &&
		a.Write == b.Write && a.Timeout == b.Timeout && a.HasSpectrum == b.HasSpectrum
	return ints && eq(a.DurationS, b.DurationS) && eq(a.RPS, b.RPS) && eq(a.P50MS, b.P50MS) && eq(a.P99MS, b.P99MS)
}

func TestWrk2SocketErrors(t *testing.T) {
	w := Wrk2{Connect: 1, Read: 2, Write: 3, Timeout: 4}
	if got := w.SocketErrors(); got != 10 {
		t.Errorf("SocketErrors = %d, want 10", got)
	}
}

func TestParseWrk2Bad(t *testing.T) {
	full := read(t, "wrk2_U_go2_wait5_R1000.txt")
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty (refused port: wrk2 prints nothing on stdout)", nil,
			&ParseError{Msg: "no \"N requests in\" line: not a complete wrk2 report"}},
		{"truncated before the totals", full[:len(full)/2],
			&ParseError{Msg: "no \"N requests in\" line: not a complete wrk2 report"}},
		{"no Requests/sec", []byte("  10 requests in 1.00s, 1KB read\n"),
			&ParseError{Msg: "no \"Requests/sec:\" line: not a complete wrk2 report"}},
		{"ab report", read(t, "ab_plain_nginx_static_n5000_c10.txt"),
			&ParseError{Msg: "no \"N requests in\" line: not a complete wrk2 report"}},
		{"bad unit", []byte("  Latency Distribution (HdrHistogram - Recorded Latency)\n 50.000%    6.33xs\n"),
			&ParseError{Line: 2, Msg: "want a duration like 1.23ms, got \"6.33xs\""}},
		{"distribution without 99%", []byte("  Latency Distribution (HdrHistogram - Recorded Latency)\n 50.000%    6.33ms\n" +
			"  10 requests in 1.00s, 1KB read\nRequests/sec: 10.00\n"),
			&ParseError{Msg: "Recorded Latency distribution without its 50.000% and 99.000% lines"}},
		{"bad socket errors", []byte("  Socket errors: connect x, read 9, write 1, timeout 2\n"),
			&ParseError{Line: 1, Msg: "Socket errors: expected integer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseWrk2(tt.in)
			var pe *ParseError
			if !errors.As(err, &pe) || *pe != *tt.want.(*ParseError) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestParseAB(t *testing.T) {
	tests := []struct {
		file string
		want AB
	}{
		{"ab_plain_nginx_static_n5000_c10.txt", AB{Complete: 5000}},
		// "Failed requests: 195" (Length failures) and "Non-2xx responses: 195".
		{"ab_non2xx_go1_err5pct_n4000_c8.txt", AB{Complete: 4000, Failed: 195, Non2xx: 195}},
	}
	for _, tt := range tests {
		got, err := ParseAB(read(t, tt.file))
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.file, got, tt.want)
		}
	}
}

func TestParseABBad(t *testing.T) {
	want := ParseError{Msg: "no \"Complete requests:\" and \"Failed requests:\" lines: not a complete ab report"}
	for _, f := range []string{"ab_refused_port.txt", "wrk_latency_go2_wait3.txt"} {
		_, err := ParseAB(read(t, f))
		var pe *ParseError
		if !errors.As(err, &pe) || *pe != want {
			t.Errorf("%s: err = %v, want %v", f, err, &want)
		}
	}
	_, err := ParseAB([]byte("Complete requests:      12x\nFailed requests: 0\n"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("bad number: err = %v, want a ParseError on line 1", err)
	}
}

func TestDurationMS(t *testing.T) {
	for in, want := range map[string]float64{"500.00us": 0.5, "6.33ms": 6.33, "15.00s": 15000, "1.50m": 90000, "2.00h": 7.2e6} {
		got, err := durationMS(in)
		if err != nil || got != want {
			t.Errorf("durationMS(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ms", "1.0", "1.0ns", "abc"} {
		if _, err := durationMS(in); err == nil {
			t.Errorf("durationMS(%q): no error", in)
		}
	}
}

// seed adds each capture, whole and truncated, to the fuzz corpus.
func seed(f *testing.F, names ...string) {
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
}

func FuzzParseWrk2(f *testing.F) {
	seed(f, "wrk2_U_go2_wait5_R1000.txt", "wrk2_cannot_keep_up_go1_ping_R100000.txt",
		"wrk2_non2xx_go1_err5pct_R1500.txt", "wrk2_plain_go2_ping_R2000.txt", "wrk2_socket_errors_flap_R1000.txt",
		"wrk_latency_go2_wait3.txt", "ab_plain_nginx_static_n5000_c10.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := ParseWrk2(b)
		if err == nil && w.Requests < 0 {
			t.Errorf("negative requests %d accepted", w.Requests)
		}
	})
}

func FuzzParseAB(f *testing.F) {
	seed(f, "ab_plain_nginx_static_n5000_c10.txt", "ab_non2xx_go1_err5pct_n4000_c8.txt",
		"ab_refused_port.txt", "wrk2_U_go2_wait5_R1000.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ParseAB(b) // must not panic
	})
}
