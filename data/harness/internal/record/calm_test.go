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
	l, waited, calm, err := c.waitCalm(context.Background(), loads(3.2, 1.4, 1.0, 0.2), 2, sleep)
	if err != nil || l != 1.0 || waited != 30*time.Second || polls != 2 || !calm {
		t.Errorf("waitCalm = %v, %s, %v, %v after %d polls; want 1, 30s, calm, nil after 2", l, waited, calm, err, polls)
	}
	// Busy throughout: it stops waiting after MaxWait (4 polls of 15 s)
	// and goes on, not calm; a busy machine is no error.
	polls = 0
	l, waited, calm, err = c.waitCalm(context.Background(), loads(2.5), 2, sleep)
	if err != nil || calm || l != 2.5 || waited != time.Minute || polls != 4 {
		t.Errorf("busy machine: %v, %v, calm %v after %s, %d polls", l, err, calm, waited, polls)
	}
	// MaxWait 0 (the default) records the load and never waits.
	c.MaxWait = 0
	polls = 0
	if l, _, calm, err := c.waitCalm(context.Background(), loads(9), 2, sleep); err != nil || l != 9 || calm || polls != 0 {
		t.Errorf("MaxWait 0: %v, %v, %v, %d polls", l, calm, err, polls)
	}
	// A cancelled wait is an error.
	c.MaxWait = time.Minute
	cancelled := func(context.Context, time.Duration) error { return context.Canceled }
	if _, _, _, err := c.waitCalm(context.Background(), loads(9), 2, cancelled); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
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

// The noise pair: two calibrations with nothing between, kept as the
// first row of the README's table whatever they show: a noisy machine is
// measured, not a reason to stop.
func TestNoiseFloor(t *testing.T) {
	stage := t.TempDir()
	load := filepath.Join(stage, "loadavg")
	os.WriteFile(load, []byte("0.10 0.00 0.00 1/1 1\n"), 0o644)
	for _, after := range []int64{1250, 1030} {
		r := &Runner{Plan: Full(), stage: stage, Log: &strings.Builder{}, LoadAvg: load}
		calls := 0
		r.calibrationJob = func(_ context.Context, pair, phase string) ([]calibrationRow, error) {
			if pair != noisePair {
				t.Errorf("calibration of pair %q, want %q", pair, noisePair)
			}
			ms := int64(1000)
			if phase == "after" {
				ms = after
			}
			calls++
			return []calibrationRow{{Processes: 1, MS: 1000}, {Processes: 2, MS: ms}}, nil
		}
		if err := r.noiseFloor(context.Background()); err != nil || calls != 2 {
			t.Fatalf("after %d ms: %v after %d calibrations", after, err, calls)
		}
		st := r.stats
		if len(st) != 1 || st[0].Name != noisePair || st[0].Load1 != 0.1 || st[0].DriftOK != (after == 1030) {
			t.Errorf("after %d ms: stats %+v", after, st)
		}
		if want := map[int64]string{1250: "25.0% (over the limit)", 1030: "3.0%"}[after]; st[0].DriftText() != want {
			t.Errorf("after %d ms: drift %s, want %s", after, st[0].DriftText(), want)
		}
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
	}{{1020, ""}, {1300, "30.0% (over the limit): two calibrations back to back with nothing between differ by more than 5.0% (by processes: 1: 1000, 2: 1000 ms, then 1: 1300, 2: 1300 ms; load average 0.10)"}} {
		r := &Runner{Plan: Full(), Tools: Tools{Sha256sum: "/usr/bin/sha256sum"}, Log: &strings.Builder{}, LoadAvg: load}
		var folder string
		r.calibrationJob = func(_ context.Context, _, phase string) ([]calibrationRow, error) {
			folder = r.work
			ms := int64(1000)
			if phase == "after" {
				ms = c.after
			}
			return []calibrationRow{{Processes: 1, MS: ms}, {Processes: 2, MS: ms}}, nil
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
