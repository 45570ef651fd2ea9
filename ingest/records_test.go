package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

// readString reads in-memory content with a detected format, as a file
// named name.
func readString(t *testing.T, name, content string) (*model.Collector, string, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &model.Collector{}
	f, err := ReadFile(p, c)
	format := ""
	if f != nil {
		format = f.Name
	}
	return c, format, err
}

func TestRecordsCSV(t *testing.T) {
	c := &model.Collector{}
	f, err := ReadFile("testdata/records/records.csv", c)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "records-csv" {
		t.Fatalf("format = %s, want records-csv", f.Name)
	}
	// 48 data rows in the file (wc -l says 49 with the header).
	if len(c.Runs) != 48 {
		t.Fatalf("runs = %d, want 48", len(c.Runs))
	}
	// First row: 2026-11-29T18:56:57Z,go-gmp1,1,ping,16,18479.79,0.697,8.090,55650,0,1.90,,14.9,6.6,0.192,0.94,0.96
	r := c.Runs[0]
	check := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("server", r.Server, "go-gmp1")
	check("test", r.Test, "ping")
	check("round", r.Round, model.Some[int64](1))
	check("connections", r.Connections, model.Some[int64](16))
	check("rps", r.RPS, model.Some(18479.79))
	check("p50", r.LatencyP50MS, model.Some(0.697))
	check("p99", r.LatencyP99MS, model.Some(8.090))
	check("2xx", r.Responses2xx, model.Some[int64](55650))
	check("errors", r.Errors, model.Some[int64](0))
	check("cpu", r.CPUServerS, model.Some(1.90))
	check("cpu_db", r.CPUDBS.Valid, false) // empty field stays NULL
	check("ws", r.WorkingSetMB, model.Some(14.9))
	check("private", r.PrivateMB, model.Some(6.6))
	check("startup", r.StartupS, model.Some(0.192))
	check("user", r.CPUServerUserS, model.Some(0.94))
	check("kernel", r.CPUServerKernelS, model.Some(0.96))
	check("line", r.Line, 2)
	check("started", r.StartedAt.V.Format("2006-01-02T15:04:05Z"), "2026-11-29T18:56:57Z")
	check("corrected", r.LatencyCorrected, false)
	check("requests", r.Requests.Valid, false)
	last := c.Runs[47]
	check("last server", last.Server, "nginx")
	check("last line", last.Line, 49)
	check("last rps", last.RPS, model.Some(27221.27))
	// awk -F, 'NR>1{s+=$11} END{print s}' records.csv prints 81.7
	var sum float64
	for _, r := range c.Runs {
		sum += r.CPUServerS.V
	}
	if d := sum - 81.7; d > 1e-9 || d < -1e-9 {
		t.Errorf("sum of cpu_server_s = %v, want 81.7", sum)
	}
}

func TestRecordsAliasesAndLabels(t *testing.T) {
	c, format, err := readString(t, "r.csv", "server,rps,p99_ms,req_per_s_note,cpu_postgres_s,host,latency_corrected\ngo,100.5,3.25,x,0.5,box1,true\n")
	if err != nil {
		t.Fatal(err)
	}
	if format != "records-csv" {
		t.Fatalf("format = %q", format)
	}
	r := c.Runs[0]
	if r.RPS != model.Some(100.5) || r.LatencyP99MS != model.Some(3.25) || r.CPUDBS != model.Some(0.5) {
		t.Errorf("aliases not mapped: %+v", r)
	}
	if !r.LatencyCorrected {
		t.Error("latency_corrected=true not read")
	}
	if r.Labels["host"] != "box1" || r.Labels["req_per_s_note"] != "x" {
		t.Errorf("labels = %v, want unknown columns kept", r.Labels)
	}
}

func TestMemoryCSV(t *testing.T) {
	c := &model.Collector{}
	f, err := ReadFile("testdata/records/memory_waiting.csv", c)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "memory-csv" || len(c.MemoryPoints) != 16 {
		t.Fatalf("format %s, %d points; want memory-csv, 16", f.Name, len(c.MemoryPoints))
	}
	// Last line: go-gmp2,2,400,1000,25.1,1625,0.27
	m := c.MemoryPoints[15]
	want := model.MemoryPoint{Line: 17, Server: "go-gmp2", Pass: model.Some[int64](2), Concurrency: 400,
		WaitMS: model.Some(1000.0), MemoryMB: 25.1, Requests: model.Some[int64](1625), CPUS: model.Some(0.27)}
	if m != want {
		t.Errorf("last point = %+v, want %+v", m, want)
	}
}

func TestCalibrationCSV(t *testing.T) {
	for _, tc := range []struct {
		file, phase string
		first       float64
	}{
		{"testdata/calibration/calibration_before.csv", "before", 653},
		{"testdata/calibration/calibration_after.csv", "after", 471},
	} {
		c := &model.Collector{}
		if _, err := ReadFile(tc.file, c); err != nil {
			t.Fatal(err)
		}
		if len(c.Calibrations) != 9 {
			t.Fatalf("%s: %d points, want 9", tc.file, len(c.Calibrations))
		}
		p := c.Calibrations[0]
		if p.Phase != tc.phase || p.Processes != 1 || p.MS != tc.first {
			t.Errorf("%s: first = %+v", tc.file, p)
		}
	}
}

func TestCalibrationPhase(t *testing.T) {
	for name, want := range map[string]string{
		"calibration_before.csv":        "before",
		"after-run.csv":                 "after",
		"calib_postgres_before.csv":     "before",
		"pre.csv":                       "before",
		"calib.csv":                     "",
		"calibration_before_after.csv":  "",
		"dir/calibration_after_3.csv":   "after",
		"calibration_prepare_after.csv": "after",
	} {
		if got := calibrationPhase(name); got != want {
			t.Errorf("calibrationPhase(%q) = %q, want %q", name, got, want)
		}
	}
}

// Bad input refuses the file with the line and what was expected. A bad
// value of a figure (unit.csv, neg.csv, nan.csv) does so under --strict;
// without it the figure is stored as NULL (TestRecordsBrokenValuesKept).
func TestCSVBadInput(t *testing.T) {
	const hdr = "utc,server,round,test,connections,requests_per_s,cpu_server_s\n"
	strict := map[string]bool{"unit.csv": true, "neg.csv": true, "nan.csv": true}
	for _, tc := range []struct {
		name, content, want string
	}{
		{"unit.csv", hdr + "2026-11-29T18:56:57Z,go,1,ping,16,12ms,1.0\n",
			"unit.csv:2:35: requests_per_s: expected a bare number, found \"12ms\" (a number with the unit \"ms\": the column name gives the unit)"},
		{"short.csv", hdr + "2026-11-29T18:56:57Z,go,1\n",
			"short.csv:2:1: wrong number of fields: expected 7 as in the header (a truncated row?)"},
		{"hdr.csv", hdr, "hdr.csv:2: records CSV has a header but no rows"},
		{"semi.csv", "utc;server;round;test;connections;requests_per_s\nx;y;1;p;1;2\n",
			"semi.csv:1: wrong delimiter: header is separated by \";\", expected ','"},
		{"neg.csv", hdr + "2026-11-29T18:56:57Z,go,1,ping,16,-1,1\n",
			"neg.csv:2:35: requests_per_s: expected a number >= 0, found -1"},
		{"nan.csv", hdr + "2026-11-29T18:56:57Z,go,1,ping,16,NaN,1\n",
			"nan.csv:2:35: requests_per_s: expected a finite number, found \"NaN\""},
		{"big.csv", hdr + "2026-11-29T18:56:57Z,go,99999999999999999999,ping,16,1,1\n",
			"big.csv:2:25: round: number \"99999999999999999999\" out of range"},
		{"time.csv", hdr + "yesterday,go,1,ping,16,1,1\n",
			"time.csv:2:1: utc: expected an RFC 3339 time such as 2026-11-29T18:56:57Z, found \"yesterday\""},
		{"quote.csv", hdr + "2026-11-29T18:56:57Z,\"go,1,ping,16,1,1\n",
			"quote.csv:2:40: extraneous or missing \" in quoted-field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, format, err := readString(t, tc.name, tc.content)
			if strict[tc.name] {
				c = &model.Collector{}
				err = readRecords(&Input{Name: tc.name, R: strings.NewReader(tc.content), Strict: true}, c)
			}
			if tc.name == "semi.csv" {
				if format != "records-csv" {
					t.Fatalf("a semicolon records file should be recognised to explain its delimiter; format %q", format)
				}
			}
			if err == nil {
				t.Fatalf("no error; runs %d", len(c.Runs))
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("error\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestDetectCSVs(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"server,pass,concurrency,wait_ms,rss_mb\n", "memory-csv"},
		{"utc,processes,ms\n", "calibration-csv"},
		{"server,round,rps\n", "records-csv"},
		{"Percentage served,Time in ms\n", ""},
		{"\x00\x01\x02", ""},
		{"", ""},
	} {
		f := Detect([]byte(tc.head))
		got := ""
		if f != nil {
			got = f.Name
		}
		if tc.want == "" && got != "" && strings.HasSuffix(got, "-csv") && (got == "records-csv" || got == "memory-csv" || got == "calibration-csv") {
			t.Errorf("Detect(%q) = %s, want none of the harness CSVs", tc.head, got)
		}
		if tc.want != "" && got != tc.want {
			t.Errorf("Detect(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}

func fuzzCSV(f *testing.F, seeds []string, read func(*Input, model.Sink) error) {
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])                                  // truncated mid-file
		f.Add(b[:bytes.IndexByte(b, '\n')+1])                // header only
		f.Add(bytes.ReplaceAll(b, []byte(","), []byte(";"))) // wrong delimiter
		f.Add(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
	}
	for _, other := range []string{"../../shared/samples/wrk2/wrk2_plain_go2_ping_R2000.txt"} {
		if b, err := os.ReadFile(other); err == nil {
			f.Add(b) // another tool's report
		}
	}
	f.Add([]byte("server,rps\ngo,1e400\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &model.Collector{}
		err := read(&Input{Name: "fuzz.csv", R: bytes.NewReader(data)}, c)
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("error of type %T, want *SyntaxError: %v", err, err)
			}
			return
		}
		if c.Rows() == 0 {
			t.Fatalf("no error and no rows from %q", data)
		}
	})
}

func FuzzRecordsCSV(f *testing.F) {
	fuzzCSV(f, []string{"testdata/records/records.csv"}, readRecords)
}

func FuzzMemoryCSV(f *testing.F) {
	fuzzCSV(f, []string{"testdata/records/memory_waiting.csv"}, readMemory)
}

func FuzzCalibrationCSV(f *testing.F) {
	fuzzCSV(f, []string{"testdata/calibration/calibration_before.csv"}, func(in *Input, s model.Sink) error {
		in.Name = "calibration_before.csv"
		return readCalibration(in, s)
	})
}

// A value that cannot be right (a CPU counter that fell, a NaN, text
// where a number belongs) loses its figure, not the file: NULL, its text
// in raw.<figure>, the rest of the row and of the file loaded, and the
// file's one warning naming the lines; --strict refuses the file.
func TestRecordsBrokenValuesKept(t *testing.T) {
	const hdr = "utc,server,round,test,connections,requests_per_s,responses_2xx,cpu_server_s,cpu_postgres_s\n"
	text := hdr + "2026-11-29T18:56:57Z,go,1,ping,16,100,6000,1.5,0.7\n" +
		"2026-11-29T18:57:57Z,go,2,ping,16,100,6000,1.4,-41.73\n" +
		"2026-11-29T18:58:57Z,go,3,ping,16,NaN,6000,abc,0.6\n"
	in := &Input{Name: "broken.csv", R: strings.NewReader(text)}
	c := &model.Collector{}
	if err := readRecords(in, c); err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 3 {
		t.Fatalf("%d runs, want every row", len(c.Runs))
	}
	r := c.Runs[1]
	if r.CPUDBS.Valid || r.CPUServerS.V != 1.4 || r.Labels["raw.cpu_db_s"] != "-41.73" {
		t.Errorf("row 3: server %v database %v raw %q; want 1.4, NULL and -41.73", r.CPUServerS, r.CPUDBS, r.Labels["raw.cpu_db_s"])
	}
	r = c.Runs[2]
	if r.RPS.Valid || r.CPUServerS.Valid || r.CPUDBS.V != 0.6 || r.Labels["raw.rps"] != "NaN" || r.Labels["raw.cpu_server_s"] != "abc" {
		t.Errorf("row 4: rps %v server %v database %v labels %v", r.RPS, r.CPUServerS, r.CPUDBS, r.Labels)
	}
	if len(c.Runs[0].Labels) != 0 {
		t.Errorf("the sound row has labels %v", c.Runs[0].Labels)
	}
	want := "3 broken values stored as NULL, the rest of each row loaded (--strict refuses the file): " +
		"line 3 cpu_postgres_s -41.73; line 4 requests_per_s NaN; line 4 cpu_server_s abc"
	if got := brokenWarning(in.broken); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	in = &Input{Name: "broken.csv", R: strings.NewReader(text), Strict: true}
	err := readRecords(in, &model.Collector{})
	if err == nil || err.Error() != "broken.csv:3:48: cpu_postgres_s: expected a number >= 0, found -41.73" {
		t.Errorf("--strict: %v", err)
	}
	// A bad value of a column that says which run a row is still
	// refuses the file.
	if _, _, err := readString(t, "broken.csv", hdr+"2026-11-29T18:56:57Z,go,x,ping,16,100,6000,1.5,0.7\n"); err == nil {
		t.Error("a round of x was taken")
	}
}
