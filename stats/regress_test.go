package stats

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestOLS(t *testing.T) {
	// R: x <- c(50,100,200,400); y <- c(11.6,13.1,17.6,24.2)
	//   m <- lm(y ~ x); coef(m); summary(m)$r.squared; confint(m)[2,]
	//   -> 9.7869565217391283 0.036469565217391309 0.99571229149896578
	//      0.029188455502942502 0.043750674931840115
	//   confint(m, level = 0.90)[2,] -> 0.031528256515398541 0.04141087391938407
	x := []float64{50, 100, 200, 400}
	y := []float64{11.6, 13.1, 17.6, 24.2}
	f := OLS(x, y)
	checkAll(t, "", 1e-10, []want{
		{"Intercept", f.Intercept, 9.7869565217391283},
		{"Slope", f.Slope, 0.036469565217391309},
		{"R2", f.R2, 0.99571229149896578},
		{"SlopeCILow", f.SlopeCILow, 0.029188455502942502},
		{"SlopeCIHigh", f.SlopeCIHigh, 0.043750674931840115},
	})
	if f.N != 4 || len(f.Warnings) != 0 {
		t.Errorf("N = %d, warnings %v", f.N, f.Warnings)
	}
	f = OLSAt(x, y, 0.90)
	if !closeTo(f.SlopeCILow, 0.031528256515398541, 1e-10) || !closeTo(f.SlopeCIHigh, 0.04141087391938407, 1e-10) {
		t.Errorf("90%% interval = [%v, %v]", f.SlopeCILow, f.SlopeCIHigh)
	}
}

func TestOLSEdge(t *testing.T) {
	// Two points: the line through them (by hand: slope 2, intercept 1)
	// and no interval.
	f := OLS([]float64{1, 2}, []float64{3, 5})
	if f.Slope != 2 || f.Intercept != 1 || !math.IsNaN(f.SlopeCILow) || len(f.Warnings) != 1 ||
		f.Warnings[0].Msg != "need >= 3 points for a slope confidence interval" {
		t.Errorf("two points: %+v", f)
	}
	f = OLS([]float64{3, 3, 3}, []float64{1, 2, 3})
	if !math.IsNaN(f.Slope) || f.Warnings[0].Kind != WarnZeroVariance {
		t.Errorf("constant x: %+v", f)
	}
	f = OLS([]float64{1}, []float64{1})
	if !math.IsNaN(f.Slope) || f.Warnings[0].Kind != WarnTooFewSamples {
		t.Errorf("one point: %+v", f)
	}
	// A NaN pair is left out and said so: the rest is the exact line y = 2x.
	f = OLS([]float64{1, 2, math.NaN(), 4}, []float64{2, 4, 6, 8})
	if f.N != 3 || !closeTo(f.Slope, 2, 1e-14) || !strings.Contains(f.Warnings[0].Msg, "1 points with NaN left out") {
		t.Errorf("NaN pair: %+v", f)
	}
	// A perfect line has a zero-width interval (R: confint gives slope, slope).
	if f.SlopeCILow != f.SlopeCIHigh && math.Abs(f.SlopeCIHigh-f.SlopeCILow) > 1e-12 {
		t.Errorf("perfect line interval [%v, %v]", f.SlopeCILow, f.SlopeCIHigh)
	}
}

func TestTheilSen(t *testing.T) {
	// By hand: x = 1,2,3,4; y = 1,3,2,5. Pairwise slopes 2, 1/2, 4/3, -1, 1,
	// 3; sorted -1, 1/2, 1, 4/3, 2, 3; median (1 + 4/3)/2 = 7/6. Intercepts
	// y - 7/6 x: -1/6, 2/3, -3/2, 1/3; median (-1/6 + 1/3)/2 = 1/12.
	s, i := TheilSen([]float64{1, 2, 3, 4}, []float64{1, 3, 2, 5})
	if !closeTo(s, 7.0/6, 1e-14) || !closeTo(i, 1.0/12, 1e-14) {
		t.Errorf("TheilSen = %v, %v; want 7/6, 1/12", s, i)
	}
	// Pairs with equal x are skipped (SciPy theilslopes does too): x = 1,1,2;
	// y = 1,2,4: slopes 3 and 2, median 2.5; intercepts -1.5, -0.5, -1 ->
	// median -1.
	s, i = TheilSen([]float64{1, 1, 2}, []float64{1, 2, 4})
	if s != 2.5 || i != -1 {
		t.Errorf("TheilSen with tied x = %v, %v; want 2.5, -1", s, i)
	}
	// One wild point does not move it: y = 2x + 1 with y(5) = 100.
	s, i = TheilSen([]float64{1, 2, 3, 4, 5}, []float64{3, 5, 7, 9, 100})
	if s != 2 || i != 1 {
		t.Errorf("TheilSen with outlier = %v, %v; want 2, 1", s, i)
	}
	if s, i = TheilSen([]float64{2, 2}, []float64{1, 5}); !math.IsNaN(s) || !math.IsNaN(i) {
		t.Errorf("no distinct x: %v, %v", s, i)
	}
}

func TestQuadraticTerm(t *testing.T) {
	// R: x <- 1:6; y <- c(1,4,9,16,25,36.5)
	//   m2 <- lm(y ~ x + I(x^2)); coef(m2)[3]; summary(m2)$coefficients[3,4]
	//   -> 1.0446428571428568 1.5374372444064507e-05
	b2, p, ok := QuadraticTerm([]float64{1, 2, 3, 4, 5, 6}, []float64{1, 4, 9, 16, 25, 36.5})
	if !ok || !closeTo(b2, 1.0446428571428568, 1e-10) || !closeTo(p, 1.5374372444064507e-05, 1e-6) {
		t.Errorf("QuadraticTerm = %v, %v, %v", b2, p, ok)
	}
	if _, _, ok := QuadraticTerm([]float64{1, 2, 3}, []float64{1, 4, 9}); ok {
		t.Errorf("three points must not give a quadratic test")
	}
}

// memoryRef holds R's fits of testdata/memory_waiting.csv (a real capture
// of the harness: rss_mb of two Go servers at 50..400 waiting requests,
// two passes). Made with, for each server and pass (pass 0 = all passes):
//
//	m <- lm(rss_mb ~ concurrency, dd); ci <- confint(m)
//	m2 <- lm(rss_mb ~ concurrency + I(concurrency^2), dd)
//	slope, intercept, r.squared, ci[2,1], ci[2,2],
//	summary(m2)$coefficients[3,4], coef(m2)[3]
var memoryRef = []struct {
	server                   string
	pass                     int
	slope, intercept, r2     float64
	ciLow, ciHigh, quadP, b2 float64
}{
	{"go-gmp1", 1, 0.036469565217391309, 9.7869565217391283, 0.99571229149896578, 0.029188455502942502, 0.043750674931840115, 0.53375653265912493, -1.741935483870959e-05},
	{"go-gmp1", 2, 0.035199999999999995, 9.7000000000000064, 0.99682113275128736, 0.029152281910388378, 0.041247718089611612, 0.26544953790842246, -1.9784946236558975e-05},
	{"go-gmp1", 0, 0.035834782608695666, 9.7434782608695603, 0.99480042796711809, 0.033246788453301195, 0.038422776764090137, 0.10697450425864226, -1.8602150537634356e-05},
	{"go-gmp2", 1, 0.03866086956521738, 9.9260869565217451, 0.9961185127550275, 0.031318495752785003, 0.046003243377649758, 0.46497873426826669, -1.9569892473118105e-05},
	{"go-gmp2", 2, 0.038208695652173927, 9.9608695652173864, 0.99812732572145824, 0.033173438445976075, 0.043243952858371779, 0.13131489572127306, -1.7634408602150512e-05},
	{"go-gmp2", 0, 0.038434782608695671, 9.9434782608695595, 0.99705218289531161, 0.036347128949178929, 0.040522436268212413, 0.024647103485260915, -1.8602150537634332e-05},
}

func readMemoryCSV(t *testing.T) map[string]map[int][]MemoryPoint {
	t.Helper()
	f, err := os.Open("testdata/memory_waiting.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[int][]MemoryPoint{}
	for _, r := range rows[1:] { // server,pass,concurrency,wait_ms,rss_mb,...
		pass, _ := strconv.Atoi(r[1])
		c, _ := strconv.ParseFloat(r[2], 64)
		mb, _ := strconv.ParseFloat(r[4], 64)
		if out[r[0]] == nil {
			out[r[0]] = map[int][]MemoryPoint{}
		}
		p := MemoryPoint{Concurrency: c, MemoryMB: mb}
		out[r[0]][pass] = append(out[r[0]][pass], p)
		out[r[0]][0] = append(out[r[0]][0], p)
	}
	return out
}

func TestMemorySlopeRealCapture(t *testing.T) {
	series := readMemoryCSV(t)
	const per1000 = 1000.0 / 1024 // MiB per request -> GiB per 1000 requests
	for _, ref := range memoryRef {
		m := MemorySlope(series[ref.server][ref.pass])
		checkAll(t, fmt.Sprintf("%s pass %d ", ref.server, ref.pass), 1e-9, []want{
			{"slope", m.SlopeGiBPer1000, ref.slope * per1000},
			{"intercept", m.InterceptGiB, ref.intercept / 1024},
			{"r2", m.R2, ref.r2},
			{"ciLow", m.SlopeCILowGiBPer1000, ref.ciLow * per1000},
			{"ciHigh", m.SlopeCIHighGiBPer1000, ref.ciHigh * per1000},
		})
		var x, y []float64
		for _, p := range series[ref.server][ref.pass] {
			x = append(x, p.Concurrency)
			y = append(y, p.MemoryMB)
		}
		b2, p, _ := QuadraticTerm(x, y)
		if !closeTo(b2, ref.b2, 1e-7) || !closeTo(p, ref.quadP, 1e-7) {
			t.Errorf("%s pass %d quadratic = %v (p %v), want %v (p %v)", ref.server, ref.pass, b2, p, ref.b2, ref.quadP)
		}
		// The rule worked by hand from R's numbers: every R² > 0.99; only
		// go-gmp2 over both passes has a significant quadratic term (p =
		// 0.0246), and it changes the slope by 2 * 1.86e-5 * 350 = 0.0130
		// MiB per request, 34% of 0.0384: that series bends (flattens).
		wantBend := ref.server == "go-gmp2" && ref.pass == 0
		if m.Bends != wantBend {
			t.Errorf("%s pass %d Bends = %v, want %v (%v)", ref.server, ref.pass, m.Bends, wantBend, m.Warnings)
		}
		if wantBend && (len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0].Msg, "memory growth flattens with concurrency")) {
			t.Errorf("bend warning: %v", m.Warnings)
		}
		if m.Points != len(series[ref.server][ref.pass]) {
			t.Errorf("points = %d", m.Points)
		}
	}
	// Theil–Sen of go-gmp1 pass 1, by hand: pairwise slopes 1.5/50 = 0.03,
	// 6/150 = 0.04, 12.6/350 = 0.036, 4.5/100 = 0.045, 11.1/300 = 0.037,
	// 6.6/200 = 0.033; median (0.036 + 0.037)/2 = 0.0365 MiB per request.
	m := MemorySlope(series["go-gmp1"][1])
	if !closeTo(m.TheilSenGiBPer1000, 0.0365*per1000, 1e-12) {
		t.Errorf("Theil-Sen = %v, want %v", m.TheilSenGiBPer1000, 0.0365*per1000)
	}
}

func TestMemorySlopeBends(t *testing.T) {
	// y = x² with a kink, by hand and R (see TestQuadraticTerm): linear R²
	// 0.955 passes BendMinR2, but the quadratic term (p = 1.5e-5) moves the
	// slope by 2 * 1.045 * 5 = 10.4, far more than 20% of 7.07: bends.
	var pts []MemoryPoint
	for i, y := range []float64{1, 4, 9, 16, 25, 36.5} {
		pts = append(pts, MemoryPoint{Concurrency: float64(i + 1), MemoryMB: y})
	}
	m := MemorySlope(pts)
	if !m.Bends || len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0].Msg, "memory growth steepens") {
		t.Errorf("quadratic series: bends %v, %v", m.Bends, m.Warnings)
	}
	// A flat-then-jump series: R² below 0.9 (by hand: x = 1..4, y = 1,1,1,5
	// gives slope 1.2, R² = 0.6).
	m = MemorySlope([]MemoryPoint{{1, 1}, {2, 1}, {3, 1}, {4, 5}})
	if !m.Bends || !closeTo(m.R2, 0.6, 1e-12) || m.Warnings[0].Msg != "memory does not grow linearly with concurrency (R² = 0.600 < 0.9)" {
		t.Errorf("jump series: %+v", m)
	}
	// A straight line does not bend, even with float noise in the
	// quadratic term.
	m = MemorySlope([]MemoryPoint{{50, 10}, {100, 15}, {200, 25}, {400, 45}, {800, 85}})
	if m.Bends || len(m.Warnings) != 0 || !closeTo(m.SlopeGiBPer1000, 0.1*per1000(), 1e-12) {
		t.Errorf("straight line: %+v", m)
	}
}

func per1000() float64 { return 1000.0 / 1024 }
