package stats

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"
)

func readCalibration(t *testing.T, path string) map[int][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]float64{}
	for _, r := range rows[1:] { // utc,processes,ms
		p, _ := strconv.Atoi(r[1])
		ms, _ := strconv.ParseFloat(r[2], 64)
		out[p] = append(out[p], ms)
	}
	return out
}

func TestDriftRealCalibration(t *testing.T) {
	// The real calibration pair of the capture set (calib.sh, 3 timings per
	// process count). By hand from the files:
	//   1 process: before 653 476 420 -> 476; after 471 410 394 -> 410;
	//              410/476 = 0.8613 -> flagged
	//   2:         before 1315 935 846 -> 935; after 1198 1593 831 -> 1198;
	//              1.2813 -> flagged
	//   4:         before 2424 1861 1886 -> 1886; after 2296 1447 1686 -> 1686;
	//              0.8940 -> flagged
	// (the machine was shared with other builds, as the capture notes say).
	before := readCalibration(t, "testdata/calibration_before.csv")
	after := readCalibration(t, "testdata/calibration_after.csv")
	want := map[int][2]float64{1: {476, 410}, 2: {935, 1198}, 4: {1886, 1686}}
	for p, w := range want {
		d := Drift(before[p], after[p], 0)
		if d.BeforeMS != w[0] || d.AfterMS != w[1] || !closeTo(d.Ratio, w[1]/w[0], 1e-15) || !d.Flagged ||
			d.Tolerance != 0.05 || len(d.Warnings) != 0 {
			t.Errorf("%d processes: %+v", p, d)
		}
	}
	// A tolerance of 30% keeps all three (largest drift 28.1%).
	for p := range want {
		if d := Drift(before[p], after[p], 0.3); d.Flagged {
			t.Errorf("%d processes flagged at 30%%: ratio %v", p, d.Ratio)
		}
	}
}

func TestDriftEdge(t *testing.T) {
	// Exactly at the tolerance is not beyond it: 105/100 - 1 = 0.05 is not
	// > 0.05 (1.05 is a little above 105/100 in binary, so use 0.25 steps).
	if d := Drift([]float64{100}, []float64{125}, 0.25); d.Flagged || len(d.Warnings) != 1 {
		t.Errorf("at tolerance: %+v", d)
	}
	if d := Drift([]float64{100}, []float64{125.5}, 0.25); !d.Flagged {
		t.Errorf("beyond tolerance: %+v", d)
	}
	d := Drift(nil, []float64{1}, 0.05)
	if !d.Flagged || !math.IsNaN(d.Ratio) || d.Warnings[0].Kind != WarnInvalidInput {
		t.Errorf("empty before: %+v", d)
	}
	if d := Drift([]float64{0}, []float64{1}, 0.05); !d.Flagged || !math.IsNaN(d.Ratio) {
		t.Errorf("zero before: %+v", d)
	}
}
