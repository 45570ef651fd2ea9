package record

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadLoad1(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("0.42 1.10 2.30 1/321 4567\n"), 0o644)
	if v, err := readLoad1(good); err != nil || v != 0.42 {
		t.Errorf("readLoad1 = %v, %v; want 0.42", v, err)
	}
	for _, bad := range []string{"", "0.4 1.1", "x 1 2 1/2 3"} {
		p := filepath.Join(dir, "bad")
		os.WriteFile(p, []byte(bad), 0o644)
		if _, err := readLoad1(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("readLoad1(%q): %v, want an error naming the file", bad, err)
		}
	}
}

// loads returns the values one after another, then the last again.
func loads(xs ...float64) func() (float64, error) {
	i := 0
	return func() (float64, error) {
		v := xs[min(i, len(xs)-1)]
		i++
		return v, nil
	}
}

func TestWaitCalm(t *testing.T) {
	c := CalmPlan{MaxLoadPerCPU: 0.5, MaxWait: time.Minute, Poll: 15 * time.Second}
	polls := 0
	sleep := func(context.Context, time.Duration) error { polls++; return nil }
	// 2 CPUs: limit 1.0; the third reading is the first at or below it.
	l, waited, err := c.waitCalm(context.Background(), loads(3.2, 1.4, 1.0, 0.2), 2, sleep)
	if err != nil || l != 1.0 || waited != 30*time.Second || polls != 2 {
		t.Errorf("waitCalm = %v, %s, %v after %d polls; want 1, 30s, nil after 2", l, waited, err, polls)
	}
	// Busy throughout: it gives up after MaxWait (4 polls of 15 s) and says why.
	polls = 0
	_, waited, err = c.waitCalm(context.Background(), loads(2.5), 2, sleep)
	if err == nil || !strings.Contains(err.Error(), "machine busy") || !strings.Contains(err.Error(), "2.50 above 1.00") || waited != time.Minute || polls != 4 {
		t.Errorf("busy machine: %v after %s, %d polls", err, waited, polls)
	}
	// MaxWait 0 records the load and never waits.
	c.MaxWait = 0
	polls = 0
	if l, _, err := c.waitCalm(context.Background(), loads(9), 2, sleep); err != nil || l != 9 || polls != 0 {
		t.Errorf("MaxWait 0: %v, %v, %d polls", l, err, polls)
	}
}

func TestMedianAndDrift(t *testing.T) {
	rows := []calibrationRow{{Processes: 1, MS: 100}, {Processes: 1, MS: 300}, {Processes: 1, MS: 110},
		{Processes: 2, MS: 200}, {Processes: 2, MS: 210}}
	m := medianMS(rows)
	if m[1] != 110 || m[2] != 205 {
		t.Errorf("medians %v, want 1: 110, 2: 205", m)
	}
	if d := drift(map[int]float64{1: 100, 2: 200}, map[int]float64{1: 104, 2: 190}); math.Abs(d-0.05) > 1e-12 {
		t.Errorf("drift %v, want 0.05 (2 processes: 190/200 - 1)", d)
	}
	if d := drift(map[int]float64{1: 100, 2: 200}, map[int]float64{1: 100}); !math.IsInf(d, 1) {
		t.Errorf("a process count missing after: drift %v, want +Inf", d)
	}
	if d := drift(map[int]float64{1: 0}, map[int]float64{1: 5}); !math.IsInf(d, 1) {
		t.Errorf("zero before: drift %v", d)
	}
}

// A series whose calibration drifts is recorded again with its earlier
// files and rows gone; after Retries more attempts the last one is kept.
func TestRecordSeriesRetries(t *testing.T) {
	stage := t.TempDir()
	load := filepath.Join(stage, "loadavg")
	os.WriteFile(load, []byte("0.00 0.00 0.00 1/1 1\n"), 0o644)
	r := &Runner{Plan: Full(), stage: stage, Log: &strings.Builder{}, LoadAvg: load}
	r.records = []recordRow{{Server: "earlier series"}}
	// before 1000 ms each time; after: 1100 (10%), 1080 (8%), 1020 (2%).
	afters := []int64{1100, 1080, 1020}
	calls := 0
	r.calibrationJob = func(_ context.Context, _, phase string) ([]calibrationRow, error) {
		ms := int64(1000)
		if phase == "after" {
			ms = afters[calls]
			calls++
		}
		return []calibrationRow{{Processes: 1, MS: ms}, {Processes: 2, MS: ms}}, nil
	}
	attempts := 0
	run := func(context.Context) error {
		attempts++
		p, err := r.path("wrk2/x/attempt" + itoa(attempts) + ".txt")
		if err != nil {
			return err
		}
		r.records = append(r.records, recordRow{Server: "x", Round: attempts})
		return os.WriteFile(p, nil, 0o644)
	}
	fixed := series{Name: "fixed-rate-p1", Kind: kindFixed, Pass: 1, Files: []string{"wrk2/x/attempt1.txt", "wrk2/x/attempt2.txt", "wrk2/x/attempt3.txt"}}
	if err := os.MkdirAll(filepath.Join(stage, "wrk2", "y"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(stage, "wrk2", "y", "another-series.txt")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.recordSeries(context.Background(), fixed, run); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another series' file removed: %v", err)
	}
	if attempts != 3 {
		t.Errorf("%d attempts, want 3 (10%% and 8%% drift are over 5%%)", attempts)
	}
	files, _ := filepath.Glob(filepath.Join(stage, "wrk2", "x", "*"))
	if len(files) != 1 || filepath.Base(files[0]) != "attempt3.txt" {
		t.Errorf("files left %v, want only the last attempt's", files)
	}
	if len(r.records) != 2 || r.records[0].Server != "earlier series" || r.records[1].Round != 3 {
		t.Errorf("records %+v, want the earlier series' row and the last attempt's", r.records)
	}
	if len(r.stats) != 1 || r.stats[0].Attempts != 3 || !r.stats[0].DriftOK || math.Abs(r.stats[0].Drift-0.02) > 1e-12 {
		t.Errorf("stats %+v", r.stats)
	}
	if got := r.stats[0].BeforeText() + " / " + r.stats[0].AfterText() + " / " + r.stats[0].DriftText(); got != "1: 1000, 2: 1000 / 1: 1020, 2: 1020 / 2.0%" {
		t.Errorf("README texts %q", got)
	}

	// Always drifting: 1 + Retries attempts, the last kept and marked.
	r.stats, calls, attempts = nil, 0, 0
	afters = []int64{1200, 1200, 1200}
	if err := r.recordSeries(context.Background(), fixed, run); err != nil {
		t.Fatal(err)
	}
	if attempts != 1+r.Plan.Calm.Retries || r.stats[0].DriftOK || !strings.HasSuffix(r.stats[0].DriftText(), "(over the limit)") {
		t.Errorf("always drifting: %d attempts, stats %+v", attempts, r.stats)
	}
}

// The noise pair: two calibrations with nothing between. A machine whose
// noise stays above MaxDrift in 1 + Retries tries ends the recording with
// an error that names the noise; a quiet one keeps the pair as the first
// row of the README's table; a plan that never records again (Short)
// keeps it whatever it is.
func TestNoiseFloor(t *testing.T) {
	stage := t.TempDir()
	load := filepath.Join(stage, "loadavg")
	os.WriteFile(load, []byte("0.10 0.00 0.00 1/1 1\n"), 0o644)
	newRunner := func(p Plan, afters ...int64) (*Runner, *int) {
		r := &Runner{Plan: p, stage: stage, Log: &strings.Builder{}, LoadAvg: load}
		calls := 0
		r.calibrationJob = func(_ context.Context, series, phase string) ([]calibrationRow, error) {
			if series != noiseSeries {
				t.Errorf("calibration of series %q, want %q", series, noiseSeries)
			}
			ms := int64(1000)
			if phase == "after" {
				ms = afters[min(calls, len(afters)-1)]
				calls++
			}
			return []calibrationRow{{Processes: 1, MS: 1000}, {Processes: 2, MS: ms}}, nil
		}
		return r, &calls
	}
	r, calls := newRunner(Full(), 1250)
	err := r.noiseFloor(context.Background())
	if err == nil || *calls != 1+r.Plan.Calm.Retries || len(r.stats) != 0 {
		t.Fatalf("noisy machine: err %v after %d tries, stats %+v; want an error after %d", err, *calls, r.stats, 1+r.Plan.Calm.Retries)
	}
	for _, want := range []string{"too noisy", "25.0%", "1: 1000, 2: 1000 ms, then 1: 1000, 2: 1250 ms", "load average 0.10", "5.0%", "3 tries", "-max-drift"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	r, calls = newRunner(Full(), 1250, 1030)
	if err := r.noiseFloor(context.Background()); err != nil || *calls != 2 {
		t.Fatalf("quiet on the second try: %v after %d tries", err, *calls)
	}
	if len(r.stats) != 1 || r.stats[0].Name != noiseSeries || r.stats[0].Attempts != 2 || r.stats[0].DriftText() != "3.0%" {
		t.Errorf("stats %+v", r.stats)
	}
	r, calls = newRunner(Short(), 1250)
	if err := r.noiseFloor(context.Background()); err != nil || *calls != 1 || len(r.stats) != 1 || r.stats[0].DriftOK {
		t.Errorf("short plan: %v after %d tries, stats %+v; want the noisy pair kept and marked", err, *calls, r.stats)
	}
}

// CheckNoise is the noise pair alone: nil on a quiet machine, the noise
// named on a noisy one, and its folder gone either way.
func TestCheckNoise(t *testing.T) {
	load := filepath.Join(t.TempDir(), "loadavg")
	os.WriteFile(load, []byte("0.10 0.00 0.00 1/1 1\n"), 0o644)
	for _, c := range []struct {
		after int64
		want  string
	}{{1020, ""}, {1300, "too noisy"}} {
		r := &Runner{Plan: Full(), Tools: Tools{Sha256sum: "/usr/bin/sha256sum"}, Log: &strings.Builder{}, LoadAvg: load}
		var folder string
		r.calibrationJob = func(_ context.Context, _, phase string) ([]calibrationRow, error) {
			folder = r.work
			ms := int64(1000)
			if phase == "after" {
				ms = c.after
			}
			return []calibrationRow{{Processes: 1, MS: ms}}, nil
		}
		err := r.CheckNoise(context.Background())
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("after %d ms: %v, want %q", c.after, err, c.want)
		}
		if _, serr := os.Stat(folder); folder == "" || !os.IsNotExist(serr) {
			t.Errorf("after %d ms: folder %q left behind (%v)", c.after, folder, serr)
		}
	}
}
