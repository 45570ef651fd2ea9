package ingest

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wra-bench/wra/model"
)

const gatlingBinCapture = "testdata/gatling/known-stats-3.13-binary-simulation.log"

// The binary log of Gatling's known_stats test (testdata/gatling/
// PROVENANCE.md). Gatling's LogFileReaderSpec asserts of it: 105
// requests, 104 OK and 1 KO, the shortest 87 ms and the longest 368 ms,
// all between 0 and 100000 ms.
func TestGatlingBinLog(t *testing.T) {
	c := &model.Collector{}
	f, err := ReadFile(gatlingBinCapture, c)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "gatling-simulation-log-binary" {
		t.Fatalf("format %s", f.Name)
	}
	g := c.Runs[0]
	if g.Labels["request_name"] != "Global Information" || g.Labels["aggregated"] != "true" || g.ToolVersion != "3.12.1" {
		t.Errorf("run 0: %v, version %q", g.Labels, g.ToolVersion)
	}
	expectI(t, "requests", g.Requests, 105)
	expectI(t, "errors", g.Errors, 1)
	expectF(t, "max", g.LatencyMaxMS, 368)
	if g.Labels["latency_min_ms"] != "87" {
		t.Errorf("latency_min_ms %q, want 87", g.Labels["latency_min_ms"])
	}
	var requests, errors int64
	names := map[string]bool{}
	for _, r := range c.Runs[1:] {
		requests += r.Requests.V
		errors += r.Errors.V
		names[r.Labels["request_name"]] = true
		if r.LatencyMaxMS.V > 100000 || r.LatencyMaxMS.V > g.LatencyMaxMS.V {
			t.Errorf("%s: max %v", r.Labels["request_name"], r.LatencyMaxMS.V)
		}
	}
	if requests != 105 || errors != 1 || len(names) != len(c.Runs)-1 {
		t.Errorf("the names' runs: %d requests, %d errors, %d names in %d runs; want 105, 1, one run each", requests, errors, len(names), len(c.Runs)-1)
	}
	// Each request is a row of samples at its start: the KO one with
	// the message of its failed check, as Gatling's report lists it.
	var n, ko int
	for _, ss := range c.Samples {
		for _, s := range ss {
			n++
			if strings.Contains(s.Tags, `"success":"false"`) {
				ko++
				if !strings.Contains(s.Tags, `"message":"status.find.is(201), but actually found 200"`) {
					t.Errorf("the KO sample's tags %s", s.Tags)
				}
			}
			if s.Metric != "http_req_duration" || s.Value < 87 || s.Value > 368 || s.Status.Valid {
				t.Errorf("sample %+v", s)
			}
		}
	}
	if n != 105 || ko != 1 {
		t.Errorf("%d samples, %d KO; want 105, 1", n, ko)
	}
}

func TestGatlingBinLogErrors(t *testing.T) {
	b := readTestdata(t, gatlingBinCapture)
	i := strings.Index(b, "Home Redirect 1") // its first REQUEST record
	checkLoadToolErrors(t, []loadToolErrorCase{
		{"empty", "gatling-simulation-log-binary", "", "f.txt: Gatling binary simulation.log: expected the RUN record first"},
		{"cut in a record", "gatling-simulation-log-binary", b[:len(b)-3],
			"f.txt: Gatling binary simulation.log: record 130 at byte 2826: the file ends inside the record, in its time (a cut file?)"},
		{"unknown header", "gatling-simulation-log-binary", b + "\x07",
			"f.txt: Gatling binary simulation.log: record 131 at byte 2836: expected a record header 1 to 4 (REQUEST, USER, GROUP, ERROR), found 7"},
		{"a string never written", "gatling-simulation-log-binary", b[:i-8] + "\xff\xff\xff\x63" + b[i-4:],
			"f.txt: Gatling binary simulation.log: record 6 at byte 178: request name: the string remembered as 157 was never written"},
		{"no request", "gatling-simulation-log-binary", b[:strings.Index(b, "Admins")+len("Admins")+1+4],
			"f.txt: Gatling binary simulation.log holds no REQUEST record"},
	})
}

// The binary log is told from the text log by its first bytes, and no
// other file of the test data is taken for it.
func TestGatlingBinLogDetection(t *testing.T) {
	all, _ := filepath.Glob("testdata/*/*")
	more, _ := filepath.Glob(filepath.Join(wildDir, "*", "*"))
	for _, p := range append(all, more...) {
		if f, err := DetectFile(p); err == nil && f != nil && f.Name == "gatling-simulation-log-binary" && p != gatlingBinCapture {
			t.Errorf("%s detected as a Gatling binary log", p)
		}
	}
	if f, err := DetectFile(gatlingBinCapture); err != nil || f == nil || f.Name != "gatling-simulation-log-binary" {
		t.Errorf("%s detected as %v (%v)", gatlingBinCapture, f, err)
	}
	b := []byte(readTestdata(t, gatlingBinCapture))
	for _, cut := range []int{0, 1, 5, 11, 15} {
		if f := Detect(b[:cut]); f != nil {
			t.Errorf("the first %d bytes, before the simulation's name, detected as %s", cut, f.Name)
		}
	}
	if !bytes.HasPrefix(b, []byte("\x00\x00\x00\x00\x063.12.1\x00")) {
		t.Errorf("the capture does not start with the RUN record of version 3.12.1")
	}
}

func FuzzGatlingBinLog(f *testing.F) {
	addFuzzSeeds(f, gatlingBinCapture, "testdata/vegeta/*_results.bin")
	addWildSeeds(f, "gatling")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormats(t, data, "gatling-simulation-log-binary") })
}

// An assertion of the RUN record is an int32 length and that many bytes,
// with no coder byte (LogFileDataWriter), where it was read as a Java
// String and refused ("expected the string's coder 0 (Latin-1) or 1
// (UTF-16), found 2"). No real binary log of a simulation with
// assertions could be had: the real capture's RUN record, whose
// assertion count is 0, is given one assertion of 3 bytes here, the
// first of them 2, and must read to the same runs.
func TestGatlingBinLogAssertion(t *testing.T) {
	b, err := os.ReadFile(gatlingBinCapture)
	if err != nil {
		t.Fatal(err)
	}
	// The RUN record: header 0, version, simulation, start (int64),
	// description, scenarios (int32 count, strings), assertions.
	off := 1
	str := func() {
		n := int(binary.BigEndian.Uint32(b[off:]))
		off += 4
		if n > 0 {
			off += n + 1 // the bytes and the coder
		}
	}
	str()
	str()
	off += 8
	str()
	scenarios := int(binary.BigEndian.Uint32(b[off:]))
	off += 4
	for range scenarios {
		str()
	}
	if n := binary.BigEndian.Uint32(b[off:]); n != 0 {
		t.Fatalf("the capture has %d assertions, want 0", n)
	}
	var patched []byte
	patched = append(patched, b[:off]...)
	patched = binary.BigEndian.AppendUint32(patched, 1)
	patched = binary.BigEndian.AppendUint32(patched, 3)
	patched = append(patched, 2, 0, 7)
	patched = append(patched, b[off+4:]...)
	want := &model.Collector{}
	if _, err := ReadFile(gatlingBinCapture, want); err != nil {
		t.Fatal(err)
	}
	got, err := readWith(Detect(patched), "simulation.log", bytes.NewReader(patched))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != len(want.Runs) || got.Runs[0].Requests != want.Runs[0].Requests || got.Runs[0].Errors != want.Runs[0].Errors {
		t.Errorf("%d runs, the first %v requests %v errors; want %d, %v, %v", len(got.Runs), got.Runs[0].Requests, got.Runs[0].Errors,
			len(want.Runs), want.Runs[0].Requests, want.Runs[0].Errors)
	}
}
