package stats

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

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
//	m <- lm(rss_mb ~ concurrency, dd)
//	m2 <- lm(rss_mb ~ concurrency + I(concurrency^2), dd)
//	coef(m)[2], summary(m)$r.squared, summary(m2)$coefficients[3,4], coef(m2)[3]
//
// The slope and R² are what the view memory_slopes gives CheckMemoryFit
// (its own test checks them against the same R fits).
var memoryRef = []struct {
	server    string
	pass      int
	slope, r2 float64
	quadP, b2 float64
}{
	{"go-gmp1", 1, 0.036469565217391309, 0.99571229149896578, 0.53375653265912493, -1.741935483870959e-05},
	{"go-gmp1", 2, 0.035199999999999995, 0.99682113275128736, 0.26544953790842246, -1.9784946236558975e-05},
	{"go-gmp1", 0, 0.035834782608695666, 0.99480042796711809, 0.10697450425864226, -1.8602150537634356e-05},
	{"go-gmp2", 1, 0.03866086956521738, 0.9961185127550275, 0.46497873426826669, -1.9569892473118105e-05},
	{"go-gmp2", 2, 0.038208695652173927, 0.99812732572145824, 0.13131489572127306, -1.7634408602150512e-05},
	{"go-gmp2", 0, 0.038434782608695671, 0.99705218289531161, 0.024647103485260915, -1.8602150537634332e-05},
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

// fitOf is a MemoryFit as memory_slopes would give it: slope in MiB per
// request, converted.
func fitOf(slopeMiBPerRequest, r2 float64, n int) MemoryFit {
	return MemoryFit{SlopeGiBPer1000: slopeMiBPerRequest * per1000(), R2: r2, Points: n}
}

func TestCheckMemoryFitRealCapture(t *testing.T) {
	series := readMemoryCSV(t)
	for _, ref := range memoryRef {
		pts := series[ref.server][ref.pass]
		var x, y []float64
		for _, p := range pts {
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
		m := CheckMemoryFit(fitOf(ref.slope, ref.r2, len(pts)), pts)
		wantBend := ref.server == "go-gmp2" && ref.pass == 0
		if m.Bends != wantBend {
			t.Errorf("%s pass %d Bends = %v, want %v (%v)", ref.server, ref.pass, m.Bends, wantBend, m.Warnings)
		}
		if wantBend && (len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0].Msg, "memory growth flattens with concurrency")) {
			t.Errorf("bend warning: %v", m.Warnings)
		}
		if m.SlopeGiBPer1000 != ref.slope*per1000() || m.Points != len(pts) {
			t.Errorf("%s pass %d: figures changed: %+v", ref.server, ref.pass, m)
		}
	}
}

func TestCheckMemoryFitBends(t *testing.T) {
	// y = x² with a kink, by hand and R (see TestQuadraticTerm): linear
	// slope 7.0714, R² 0.955 passes BendMinR2, but the quadratic term (p =
	// 1.5e-5) moves the slope by 2 * 1.045 * 5 = 10.4, far more than 20% of
	// 7.07: bends.
	var pts []MemoryPoint
	for i, y := range []float64{1, 4, 9, 16, 25, 36.5} {
		pts = append(pts, MemoryPoint{Concurrency: float64(i + 1), MemoryMB: y})
	}
	m := CheckMemoryFit(fitOf(7.0714285714285714, 0.955, 6), pts)
	if !m.Bends || len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0].Msg, "memory growth steepens") {
		t.Errorf("quadratic series: bends %v, %v", m.Bends, m.Warnings)
	}
	// A flat-then-jump series: R² below 0.9 (by hand: x = 1..4, y = 1,1,1,5
	// gives slope 1.2, R² = 0.6).
	m = CheckMemoryFit(fitOf(1.2, 0.6, 4), []MemoryPoint{{1, 1}, {2, 1}, {3, 1}, {4, 5}})
	if !m.Bends || m.Warnings[0].Msg != "memory does not grow linearly with concurrency (R² = 0.600 < 0.9)" {
		t.Errorf("jump series: %+v", m)
	}
	// A straight line does not bend, even with float noise in the
	// quadratic term (slope 0.1 MiB per request, R² 1).
	m = CheckMemoryFit(fitOf(0.1, 1, 5), []MemoryPoint{{50, 10}, {100, 15}, {200, 25}, {400, 45}, {800, 85}})
	if m.Bends || len(m.Warnings) != 0 {
		t.Errorf("straight line: %+v", m)
	}
	// What the figures cannot carry: under two points, one concurrency
	// level (the view's slope is NULL), two points (no standard error).
	for _, c := range []struct {
		fit  MemoryFit
		pts  []MemoryPoint
		kind WarningKind
	}{
		{fitOf(math.NaN(), math.NaN(), 1), []MemoryPoint{{1, 1}}, WarnTooFewSamples},
		{fitOf(math.NaN(), math.NaN(), 3), []MemoryPoint{{2, 1}, {2, 3}, {2, 4}}, WarnZeroVariance},
		{fitOf(2, 1, 2), []MemoryPoint{{1, 1}, {2, 3}}, WarnTooFewSamples},
	} {
		m := CheckMemoryFit(c.fit, c.pts)
		if m.Bends || len(m.Warnings) != 1 || m.Warnings[0].Kind != c.kind {
			t.Errorf("%v: %+v", c.pts, m)
		}
	}
}

func per1000() float64 { return 1000.0 / 1024 }
