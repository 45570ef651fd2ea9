package store_test

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// The views compute in SQL what package stats computes in Go. These tests
// load real captures (testdata/views: the harness's records.csv,
// memory_waiting.csv and a calibration pair; a k6 ladder whose points are
// tagged step=<rate>) through the real ingest path, read the base tables
// back, compute every figure with package stats, and require the views to
// give the same numbers.

// openViews opens a new store in a temporary directory and ingests the
// given folders of testdata/views (the k6 ladder under the label
// server=go-gmp1, as a user would give it on the command line).
func openViews(t *testing.T, folders ...string) *sql.DB {
	t.Helper()
	return store.SQLDB(openViewsStore(t, folders...))
}

// openViewsStore is openViews' store.
func openViewsStore(t *testing.T, folders ...string) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "views.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, folder := range folders {
		var labels map[string]string
		path := filepath.Join("testdata", "views", folder)
		if folder == "k6" {
			labels = map[string]string{"server": "go-gmp1"}
			// The ladder capture is kept once, with the stats tests.
			path = filepath.Join(t.TempDir(), "k6")
			b, err := os.ReadFile("../../stats/testdata/k6_ladder_go1_db_points.ndjson.gz")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(path, "k6_ladder_go1_db_points.ndjson.gz"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := ingest.Ingest(ctx, st, []string{path}, ingest.Options{Labels: labels, Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		if n := res.Count(ingest.Failed) + res.Count(ingest.Skipped); n != 0 {
			t.Fatalf("ingest %s: %d files failed or skipped: %+v", folder, n, res.Files)
		}
	}
	return st
}

// near compares a view's number with the Go figure: equal within 1e-12
// relative (SQL and Go may round the last bit differently), NULL = NaN.
func near(got sql.NullFloat64, want float64) bool {
	if !got.Valid {
		return math.IsNaN(want)
	}
	if math.IsNaN(want) {
		return false
	}
	return math.Abs(got.Float64-want) <= 1e-12*math.Max(1, math.Abs(want))
}

func nullF(v sql.NullFloat64) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.Float64
}

func queryRows(t *testing.T, db *sql.DB, q string, scan func(*sql.Rows) error) {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

type runCPU struct {
	server, user, kernel, db sql.NullFloat64
	resp                     sql.NullInt64
}

// cpuPerRequest is a run's CPU per successful response in µs, worked out
// by hand for the test (NaN where a figure or the count is missing).
type cpuPerRequest struct {
	ServerUS, UserUS, KernelUS, DBUS float64
}

func (r runCPU) perRequest() cpuPerRequest {
	server := nullF(r.server)
	if !r.server.Valid && r.user.Valid && r.kernel.Valid {
		server = r.user.Float64 + r.kernel.Float64
	}
	n := int64(0)
	if r.resp.Valid {
		n = r.resp.Int64
	}
	per := func(cpuS float64) float64 {
		if n <= 0 || !(cpuS >= 0) {
			return math.NaN()
		}
		return cpuS * 1e6 / float64(n)
	}
	return cpuPerRequest{ServerUS: per(server), UserUS: per(nullF(r.user)), KernelUS: per(nullF(r.kernel)), DBUS: per(nullF(r.db))}
}

func TestViewCPUPerRequest(t *testing.T) {
	db := openViews(t, "harness")
	want := map[string]cpuPerRequest{}
	queryRows(t, db, `SELECT run_id, cpu_server_s, cpu_server_user_s, cpu_server_kernel_s, cpu_db_s, responses_2xx FROM runs
		WHERE coalesce(cpu_server_s, cpu_server_user_s, cpu_server_kernel_s, cpu_db_s) IS NOT NULL`, func(r *sql.Rows) error {
		var id string
		var c runCPU
		if err := r.Scan(&id, &c.server, &c.user, &c.kernel, &c.db, &c.resp); err != nil {
			return err
		}
		want[id] = c.perRequest()
		return nil
	})
	if len(want) != 48 { // records.csv: 48 rows, each with server CPU
		t.Fatalf("%d runs with CPU, want the 48 of records.csv", len(want))
	}
	seen := 0
	withDB := 0
	queryRows(t, db, `SELECT run_id, cpu_server_us_per_req, cpu_user_us_per_req, cpu_kernel_us_per_req, cpu_db_us_per_req,
		cpu_server_ms_per_req FROM cpu_per_request`, func(r *sql.Rows) error {
		var id string
		var s, u, k, d, sms sql.NullFloat64
		if err := r.Scan(&id, &s, &u, &k, &d, &sms); err != nil {
			return err
		}
		w, ok := want[id]
		if !ok {
			return fmt.Errorf("view has run %s without CPU figures", id)
		}
		seen++
		if d.Valid {
			withDB++
		}
		if !near(s, w.ServerUS) || !near(u, w.UserUS) || !near(k, w.KernelUS) || !near(d, w.DBUS) || !near(sms, w.ServerUS/1000) {
			t.Errorf("%s: view %v %v %v %v, stats %+v", id, s, u, k, d, w)
		}
		return nil
	})
	if seen != len(want) || withDB == 0 {
		t.Errorf("view has %d rows (%d with database CPU), want %d", seen, withDB, len(want))
	}
}

func TestViewRunMedians(t *testing.T) {
	db := openViews(t, "harness")
	type agg struct{ rps, p99, cpu []float64 }
	groups := map[string]*agg{}
	queryRows(t, db, `SELECT concat_ws('|', tool, server, database, test, connections, target_rps), rps, latency_p99_ms,
		cpu_server_s, cpu_server_user_s, cpu_server_kernel_s, cpu_db_s, responses_2xx FROM runs`, func(r *sql.Rows) error {
		var key string
		var rps, p99 sql.NullFloat64
		var c runCPU
		if err := r.Scan(&key, &rps, &p99, &c.server, &c.user, &c.kernel, &c.db, &c.resp); err != nil {
			return err
		}
		g := groups[key]
		if g == nil {
			g = &agg{}
			groups[key] = g
		}
		if rps.Valid {
			g.rps = append(g.rps, rps.Float64)
		}
		if p99.Valid {
			g.p99 = append(g.p99, p99.Float64)
		}
		if v := c.perRequest().ServerUS; !math.IsNaN(v) {
			g.cpu = append(g.cpu, v)
		}
		return nil
	})
	n := 0
	queryRows(t, db, `SELECT concat_ws('|', tool, server, database, test, connections, target_rps), passes,
		rps_median, latency_p99_ms_median, cpu_server_us_per_req_median FROM run_medians`, func(r *sql.Rows) error {
		var key string
		var passes int
		var rps, p99, cpu sql.NullFloat64
		if err := r.Scan(&key, &passes, &rps, &p99, &cpu); err != nil {
			return err
		}
		g := groups[key]
		if g == nil {
			return fmt.Errorf("view group %q not in runs", key)
		}
		n++
		if !near(rps, stats.Median(g.rps)) || !near(p99, stats.Median(g.p99)) || !near(cpu, stats.Median(g.cpu)) {
			t.Errorf("%s: view %v %v %v; stats %v %v %v", key, rps, p99, cpu, stats.Median(g.rps), stats.Median(g.p99), stats.Median(g.cpu))
		}
		return nil
	})
	// concat_ws skips NULLs, so two groups could share a key; the counts
	// would then differ.
	if n != len(groups) || n < 16 {
		t.Errorf("view has %d groups, runs have %d", n, len(groups))
	}
}

// memorySlope is one row of memory_slopes as the tests scan it.
type memorySlope struct {
	server                       string
	pass, passes                 sql.NullInt64
	pooled                       bool
	slope, se, icpt, r2, ts, tsi sql.NullFloat64
	lo, med, hi                  sql.NullFloat64
	points                       int
}

func memorySlopes(t *testing.T, db *sql.DB) map[string]memorySlope {
	t.Helper()
	out := map[string]memorySlope{} // "server|pass" (pass "" where NULL), "server|all" pooled
	queryRows(t, db, `SELECT server, pass, pooled, slope_gib_per_1000, slope_se_gib_per_1000, intercept_gib, r2, theil_sen_gib_per_1000,
		theil_sen_intercept_gib, points, passes, pass_slope_min_gib_per_1000, pass_slope_median_gib_per_1000,
		pass_slope_max_gib_per_1000 FROM memory_slopes`, func(r *sql.Rows) error {
		var m memorySlope
		if err := r.Scan(&m.server, &m.pass, &m.pooled, &m.slope, &m.se, &m.icpt, &m.r2, &m.ts, &m.tsi, &m.points, &m.passes, &m.lo, &m.med, &m.hi); err != nil {
			return err
		}
		k := m.server + "|"
		switch {
		case m.pooled && m.pass.Valid:
			t.Errorf("%s: pooled row with pass %d", k, m.pass.Int64)
		case m.pooled:
			k += "all"
		case m.pass.Valid:
			k += fmt.Sprint(m.pass.Int64)
		}
		if _, dup := out[k]; dup {
			t.Errorf("two rows for %s", k)
		}
		out[k] = m
		return nil
	})
	return out
}

// closeRel is within tol of want (relative above 1), NULL = NaN.
func closeRel(got sql.NullFloat64, want, tol float64) bool {
	if !got.Valid || math.IsNaN(want) {
		return !got.Valid && math.IsNaN(want)
	}
	return math.Abs(got.Float64-want) <= tol*math.Max(1, math.Abs(want))
}

func TestViewMemorySlopes(t *testing.T) {
	// R's fits of testdata/views/harness/memory_waiting.csv (a real
	// capture: rss_mb of two Go servers at 50..400 waiting requests, two
	// passes of four points), for each server and pass (0 = all passes):
	//
	//	m <- lm(rss_mb ~ concurrency, dd); ci <- confint(m)
	//	coef(m)[2], coef(m)[1], summary(m)$r.squared, ci[2,2]
	//
	// The slope's standard error is (ci[2,2] - slope) / qt(0.975, n - 2).
	ref := []struct {
		key                          string
		slope, intercept, r2, ciHigh float64
	}{
		{"go-gmp1|1", 0.036469565217391309, 9.7869565217391283, 0.99571229149896578, 0.043750674931840115},
		{"go-gmp1|2", 0.035199999999999995, 9.7000000000000064, 0.99682113275128736, 0.041247718089611612},
		{"go-gmp1|all", 0.035834782608695666, 9.7434782608695603, 0.99480042796711809, 0.038422776764090137},
		{"go-gmp2|1", 0.03866086956521738, 9.9260869565217451, 0.9961185127550275, 0.046003243377649758},
		{"go-gmp2|2", 0.038208695652173927, 9.9608695652173864, 0.99812732572145824, 0.043243952858371779},
		{"go-gmp2|all", 0.038434782608695671, 9.9434782608695595, 0.99705218289531161, 0.040522436268212413},
	}
	const per1000 = 1000.0 / 1024 // MiB per request -> GiB per 1000 requests
	rows := memorySlopes(t, openViews(t, "harness"))
	if len(rows) != len(ref) {
		t.Errorf("view has %d rows, want %d", len(rows), len(ref))
	}
	for _, r := range ref {
		m, ok := rows[r.key]
		if !ok {
			t.Errorf("no row %s", r.key)
			continue
		}
		n := 4
		if m.pooled {
			n = 8
		}
		q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 2)}.Quantile(0.975)
		se := (r.ciHigh - r.slope) / q
		if !closeRel(m.slope, r.slope*per1000, 1e-9) || !closeRel(m.icpt, r.intercept/1024, 1e-9) || !closeRel(m.r2, r.r2, 1e-9) ||
			!closeRel(m.se, se*per1000, 1e-7) || m.points != n {
			t.Errorf("%s: view slope %v se %v intercept %v r2 %v points %d; R %v %v %v %v %d", r.key, m.slope, m.se, m.icpt, m.r2, m.points,
				r.slope*per1000, se*per1000, r.intercept/1024, r.r2, n)
		}
		if !m.pooled && (m.passes.Valid || m.lo.Valid || m.med.Valid || m.hi.Valid) {
			t.Errorf("%s: spread columns set on a per-pass row", r.key)
		}
	}
	// The spread over the two passes: min, median (their mean) and max of
	// R's per-pass slopes.
	for _, sv := range []struct {
		server string
		a, b   float64
	}{{"go-gmp1", 0.036469565217391309, 0.035199999999999995}, {"go-gmp2", 0.03866086956521738, 0.038208695652173927}} {
		m := rows[sv.server+"|all"]
		lo, hi := min(sv.a, sv.b)*per1000, max(sv.a, sv.b)*per1000
		if m.passes.Int64 != 2 || !closeRel(m.lo, lo, 1e-9) || !closeRel(m.med, (lo+hi)/2, 1e-9) || !closeRel(m.hi, hi, 1e-9) {
			t.Errorf("%s spread: %v %v %v %v", sv.server, m.passes, m.lo, m.med, m.hi)
		}
	}
	// Theil–Sen of go-gmp1 pass 1 (points (50, 11.6), (100, 13.1),
	// (200, 17.6), (400, 24.2)), by hand: pairwise slopes 1.5/50 = 0.03,
	// 6/150 = 0.04, 12.6/350 = 0.036, 4.5/100 = 0.045, 11.1/300 = 0.037,
	// 6.6/200 = 0.033; median (0.036 + 0.037)/2 = 0.0365 MiB per request.
	// Intercept: median of y - 0.0365x = 9.775, 9.45, 10.3, 9.6, that is
	// (9.6 + 9.775)/2 = 9.6875 MiB.
	if m := rows["go-gmp1|1"]; !closeRel(m.ts, 0.0365*per1000, 1e-12) || !closeRel(m.tsi, 9.6875/1024, 1e-12) {
		t.Errorf("Theil-Sen = %v, %v; want %v, %v", m.ts, m.tsi, 0.0365*per1000, 9.6875/1024)
	}
}

// TestViewMemorySlopesSmall checks memory_slopes on series worked by hand.
func TestViewMemorySlopesSmall(t *testing.T) {
	db := openViews(t)
	// s: one pass, x = 1..4 requests, y = 1, 3, 2, 5 MiB. Sxx = 5, Sxy =
	// 5.5, Syy = 8.75: slope 1.1, intercept 2.75 - 1.1 x 2.5 = 0, R² =
	// 5.5²/5/8.75 = 0.691428..., SSE = 8.75 - 5.5²/5 = 2.7, SE =
	// sqrt(2.7/2/5) = sqrt(0.27). Theil–Sen: pairwise slopes 2, 0.5, 4/3,
	// -1, 1, 3, median (1 + 4/3)/2 = 7/6; intercept median of y - 7x/6 =
	// -1/6, 2/3, -3/2, 1/3, that is (-1/6 + 1/3)/2 = 1/12.
	// t: two points (1, 1), (3, 5): slope 2, R² 1, no standard error.
	// u: one concurrency level: no slope.
	if _, err := db.Exec(`INSERT INTO memory_series (server, pass, concurrency, memory_mb, source) VALUES
		('s', 1, 1, 1, 'f'), ('s', 1, 2, 3, 'f'), ('s', 1, 3, 2, 'f'), ('s', 1, 4, 5, 'f'),
		('t', 1, 1, 1, 'f'), ('t', 1, 3, 5, 'f'), ('u', NULL, 2, 1, 'f'), ('u', NULL, 2, 4, 'f'), ('u', NULL, 2, 5, 'f')`); err != nil {
		t.Fatal(err)
	}
	const per1000 = 1000.0 / 1024
	nan := math.NaN()
	rows := memorySlopes(t, db)
	for _, w := range []struct {
		key                          string
		slope, se, icpt, r2, ts, tsi float64
		points                       int
	}{
		{"s|1", 1.1 * per1000, math.Sqrt(0.27) * per1000, 0, 5.5 * 5.5 / 5 / 8.75, 7.0 / 6 * per1000, 1.0 / 12 / 1024, 4},
		{"t|1", 2 * per1000, nan, -1.0 / 1024, 1, 2 * per1000, -1.0 / 1024, 2},
		{"s|all", 1.1 * per1000, math.Sqrt(0.27) * per1000, 0, 5.5 * 5.5 / 5 / 8.75, 7.0 / 6 * per1000, 1.0 / 12 / 1024, 4},
		{"u|", nan, nan, nan, nan, nan, nan, 3},
		{"u|all", nan, nan, nan, nan, nan, nan, 3},
	} {
		m := rows[w.key]
		if !closeRel(m.slope, w.slope, 1e-12) || !closeRel(m.se, w.se, 1e-12) || !closeRel(m.icpt, w.icpt, 1e-12) ||
			!closeRel(m.r2, w.r2, 1e-12) || !closeRel(m.ts, w.ts, 1e-12) || !closeRel(m.tsi, w.tsi, 1e-12) || m.points != w.points {
			t.Errorf("%s: %+v, want %+v", w.key, m, w)
		}
	}
	// u's series has no pass: its per-pass row and its pooled row both
	// have pass NULL, told apart by pooled; its pass has no slope, so no
	// spread.
	if m := rows["u|all"]; m.passes.Valid || m.lo.Valid || m.med.Valid || m.hi.Valid {
		t.Errorf("u spread over no slope: %+v", m)
	}
	if m := rows["s|all"]; m.passes.Int64 != 1 || !closeRel(m.med, 1.1*per1000, 1e-12) {
		t.Errorf("s spread: %+v", m)
	}
	if n := len(rows); n != 6 {
		t.Errorf("%d rows, want 6: %v", n, rows)
	}
}

func TestViewCalibrationDrift(t *testing.T) {
	db := openViews(t, "harness")
	before, after := map[int64][]float64{}, map[int64][]float64{}
	lastBefore, firstAfter := map[int64]time.Time{}, map[int64]time.Time{}
	var sources []string
	queryRows(t, db, `SELECT source, phase, processes, ms, utc FROM calibration`, func(r *sql.Rows) error {
		var src, phase string
		var p int64
		var ms float64
		var utc time.Time
		if err := r.Scan(&src, &phase, &p, &ms, &utc); err != nil {
			return err
		}
		if !slices.Contains(sources, src) {
			sources = append(sources, src)
		}
		if phase == "before" {
			before[p] = append(before[p], ms)
			if utc.After(lastBefore[p]) {
				lastBefore[p] = utc
			}
		} else {
			after[p] = append(after[p], ms)
			if f, ok := firstAfter[p]; !ok || utc.Before(f) {
				firstAfter[p] = utc
			}
		}
		return nil
	})
	// The pair is named by the before file with its phase word as '*'.
	sort.Strings(sources)
	if len(sources) != 2 {
		t.Fatalf("calibration sources %v", sources)
	}
	pair := strings.Replace(sources[1], "before", "*", 1)
	n := 0
	queryRows(t, db, `SELECT source, processes, before_ms, after_ms, ratio, flagged, before_last_utc, after_first_utc FROM calibration_drift`, func(r *sql.Rows) error {
		var src string
		var p int64
		var b, a, ratio sql.NullFloat64
		var flagged bool
		var last, first time.Time
		if err := r.Scan(&src, &p, &b, &a, &ratio, &flagged, &last, &first); err != nil {
			return err
		}
		n++
		// By hand: the medians, their ratio, flagged beyond 5%.
		mb, ma := stats.Median(before[p]), stats.Median(after[p])
		wantFlag := math.Abs(ma/mb-1) > stats.DefaultDriftTolerance
		if src != pair || !near(b, mb) || !near(a, ma) || !near(ratio, ma/mb) || flagged != wantFlag {
			t.Errorf("processes %d: view %s %v %v %v %v; want %s %v %v %v %v", p, src, b, a, ratio, flagged, pair, mb, ma, ma/mb, wantFlag)
		}
		if !last.Equal(lastBefore[p]) || !first.Equal(firstAfter[p]) {
			t.Errorf("processes %d: last before %v, first after %v; want %v, %v", p, last, first, lastBefore[p], firstAfter[p])
		}
		return nil
	})
	if n != 3 {
		t.Errorf("view has %d rows, want 3 process counts", n)
	}
}

// TestCalibrationDriftEdges: the macro's flag at and beyond its
// tolerance, and a pair it cannot vouch for (no timing before, a median
// of 0 before) flagged with no ratio.
func TestCalibrationDriftEdges(t *testing.T) {
	db := openViews(t)
	for _, q := range []string{
		// 125/100 - 1 = 0.25 exactly (0.25 steps are exact in binary).
		`INSERT INTO calibration (source, phase, processes, ms) VALUES ('at/calib_before.csv', 'before', 1, 100), ('at/calib_after.csv', 'after', 1, 125)`,
		`INSERT INTO calibration (source, phase, processes, ms) VALUES ('beyond/calib_before.csv', 'before', 1, 100), ('beyond/calib_after.csv', 'after', 1, 125.5)`,
		`INSERT INTO calibration (source, phase, processes, ms) VALUES ('lone/calib_after.csv', 'after', 1, 1)`,
		`INSERT INTO calibration (source, phase, processes, ms) VALUES ('zero/calib_before.csv', 'before', 1, 0), ('zero/calib_after.csv', 'after', 1, 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]struct {
		flagged  bool
		hasRatio bool
	}{"at/calib_*.csv": {false, true}, "beyond/calib_*.csv": {true, true}, "lone/calib_*.csv": {true, false}, "zero/calib_*.csv": {true, false}}
	n := 0
	queryRows(t, db, `SELECT source, ratio, flagged FROM calibration_drift(tolerance := 0.25)`, func(r *sql.Rows) error {
		var src string
		var ratio sql.NullFloat64
		var flagged bool
		if err := r.Scan(&src, &ratio, &flagged); err != nil {
			return err
		}
		n++
		if w, ok := want[src]; !ok || flagged != w.flagged || ratio.Valid != w.hasRatio {
			t.Errorf("%s: ratio %v, flagged %v; want %+v", src, ratio, flagged, w)
		}
		return nil
	})
	if n != len(want) {
		t.Errorf("%d rows, want %d", n, len(want))
	}
}

// request is one k6 request sample as the test reads it.
type request struct {
	timeS, durationMS float64
	failed            bool
	step              string
}

// tagSteps works the steps of a ladder out from its tagged requests, by
// hand: per step tag (a rate), the p95 (type 7, as k6 computes it), the
// requests, the failed ones, the achieved rate (requests - 1) / (last -
// first request time), and held: p95 and error rate under the rule.
func tagSteps(t *testing.T, reqs []request, rule stats.LadderRule) []stats.LadderStep {
	t.Helper()
	by := map[string][]request{}
	for _, r := range reqs {
		if r.step == "" {
			t.Fatalf("a request without a step tag: %+v", r)
		}
		by[r.step] = append(by[r.step], r)
	}
	var steps []stats.LadderStep
	for name, g := range by {
		target, err := strconv.ParseFloat(name, 64)
		if err != nil {
			t.Fatalf("step tag %q", name)
		}
		d := make([]float64, len(g))
		ts := make([]float64, len(g))
		var failed int64
		for i, r := range g {
			d[i], ts[i] = r.durationMS, r.timeS
			if r.failed {
				failed++
			}
		}
		slices.Sort(d)
		slices.Sort(ts)
		// The achieved rate without a stages label: the later half of
		// the step's requests over the time from their median to the
		// last.
		st := stats.LadderStep{Step: name, TargetRPS: target, Requests: int64(len(g)), Failed: failed,
			P95MS: stats.Quantile(d, 0.95), ErrorRate: float64(failed) / float64(len(g)),
			AchievedRPS: float64(len(g)) / 2 / (ts[len(ts)-1] - stats.Quantile(ts, 0.5))}
		st.Held = st.P95MS < rule.P95MS && st.ErrorRate < rule.MaxErrorRate &&
			(rule.MinAchievedRatio <= 0 || st.AchievedRPS >= rule.MinAchievedRatio*st.TargetRPS)
		steps = append(steps, st)
	}
	return steps
}

func TestViewLadders(t *testing.T) {
	db := openViews(t, "k6")
	// Requests of each run as the view's rule reads them.
	reqs := map[string][]request{}
	queryRows(t, db, `SELECT run_id, ts, value, status, json_extract_string(tags, '$.step'),
		json_extract_string(tags, '$.expected_response') FROM samples WHERE metric = 'http_req_duration'`, func(r *sql.Rows) error {
		var run string
		var ts time.Time
		var v float64
		var status sql.NullInt64
		var step, expected sql.NullString
		if err := r.Scan(&run, &ts, &v, &status, &step, &expected); err != nil {
			return err
		}
		failed := expected.String != "true"
		if !expected.Valid {
			failed = !status.Valid || status.Int64 == 0 || status.Int64 >= 400
		}
		reqs[run] = append(reqs[run], request{
			timeS: float64(ts.UnixMicro()) / 1e6, durationMS: v, failed: failed, step: step.String,
		})
		return nil
	})
	if len(reqs) != 1 {
		t.Fatalf("%d runs with request samples, want the one k6 ladder", len(reqs))
	}
	results := map[string]stats.LadderResult{}
	for run, rs := range reqs {
		// The rule of p95 and errors alone: k6's thresholds know no
		// achieved rate (TestViewLadderAchieved checks that part).
		results[run] = ladderOf(tagSteps(t, rs, p95AndErrors))
	}
	n := 0
	queryRows(t, db, `SELECT server, run, step, target_rps, achieved_rps, p95_ms, error_rate, held, requests, failed
		FROM ladder_steps(min_achieved_ratio := 0) ORDER BY run, target_rps`, func(r *sql.Rows) error {
		var server, run, step string
		var target, achieved, p95, errRate sql.NullFloat64
		var held bool
		var requests, failed int64
		if err := r.Scan(&server, &run, &step, &target, &achieved, &p95, &errRate, &held, &requests, &failed); err != nil {
			return err
		}
		res := results[run]
		i := slices.IndexFunc(res.Steps, func(s stats.LadderStep) bool { return s.Step == step })
		if server != "go-gmp1" || i < 0 {
			return fmt.Errorf("view step %s %s %s not found by stats", server, run, step)
		}
		n++
		s := res.Steps[i]
		// Achieved rate: the view divides whole microseconds, Go their
		// float64 seconds (about 2e-7 s apart at this epoch).
		achievedOK := achieved.Valid && math.Abs(achieved.Float64-s.AchievedRPS) <= 1e-6*s.AchievedRPS
		if !near(target, s.TargetRPS) || !achievedOK || !near(p95, s.P95MS) || !near(errRate, s.ErrorRate) ||
			held != s.Held || requests != s.Requests || failed != s.Failed {
			t.Errorf("step %s: view %v %v %v %v %v %d %d; stats %+v", step, target, achieved, p95, errRate, held, requests, failed, s)
		}
		return nil
	})
	if n != 4 {
		t.Errorf("view has %d steps, want 4 (1500, 3000, 6000, 12000)", n)
	}
	n = 0
	queryRows(t, db, `SELECT run, highest_held_rps, still_holding, step_rps, p95_threshold_ms, max_error_rate, steps FROM ladders(min_achieved_ratio := 0)`, func(r *sql.Rows) error {
		var run string
		var highest, stepRPS, p95, maxErr float64
		var still bool
		var steps int
		if err := r.Scan(&run, &highest, &still, &stepRPS, &p95, &maxErr, &steps); err != nil {
			return err
		}
		n++
		res := results[run]
		if highest != res.HighestHeldRPS || still != res.StillHolding || stepRPS != res.StepRPS ||
			p95 != stats.DefaultLadderRule.P95MS || maxErr != stats.DefaultLadderRule.MaxErrorRate || steps != len(res.Steps) {
			t.Errorf("%s: view %v %v %v %v %v %d; stats %s %+v", run, highest, still, stepRPS, p95, maxErr, steps, res, res)
		}
		// k6 itself failed only the 12000 step's p(95)<50 threshold.
		if highest != 6000 || still {
			t.Errorf("%s: highest held %v (still holding %v), k6's thresholds say 6000", run, highest, still)
		}
		return nil
	})
	if n != 1 {
		t.Errorf("ladders has %d rows, want 1", n)
	}
}

// ladderOf is the test's own reading of the ladder rule over steps whose
// held is set: the highest step held before the first that failed, "+"
// when all held, and the gap to the next step.
func ladderOf(steps []stats.LadderStep) stats.LadderResult {
	res := stats.LadderResult{StepRPS: math.NaN(), Steps: slices.Clone(steps)}
	slices.SortStableFunc(res.Steps, func(a, b stats.LadderStep) int { return cmp.Compare(a.TargetRPS, b.TargetRPS) })
	n := len(res.Steps)
	switch first := slices.IndexFunc(res.Steps, func(s stats.LadderStep) bool { return !s.Held }); {
	case n == 0:
	case first < 0:
		res.StillHolding, res.HighestHeldRPS = true, res.Steps[n-1].TargetRPS
		if n >= 2 {
			res.StepRPS = res.Steps[n-1].TargetRPS - res.Steps[n-2].TargetRPS
		}
	case first == 0:
		res.StepRPS = res.Steps[0].TargetRPS
	default:
		res.HighestHeldRPS = res.Steps[first-1].TargetRPS
		res.StepRPS = res.Steps[first].TargetRPS - res.HighestHeldRPS
	}
	return res
}

// p95AndErrors is the rule of p95 and errors alone, as k6's thresholds
// and some authors judge a step (min_achieved_ratio 0).
var p95AndErrors = stats.LadderRule{P95MS: 50, MaxErrorRate: 0.01}

// ingestK6Steps ingests testdata/views/k6steps into st, with the k6
// point stream of its go/db run.
func ingestK6Steps(t *testing.T, st *store.Store) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "k6steps")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "views", "k6steps"))); err != nil {
		t.Fatal(err)
	}
	points, err := os.ReadFile("../../stats/testdata/k6_ladder_go1_db_points.ndjson.gz")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go", "db", "k6_ladder_go1_db_points.ndjson.gz"), points, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Ingest(context.Background(), st, []string{dir}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Count(ingest.Loaded); n != 6 || res.Count(ingest.Failed) != 0 {
		t.Fatalf("loaded %d files, failed %d; want 6 and 0: %+v", n, res.Count(ingest.Failed), res.Files)
	}
}

// TestViewLadderPerStep reads real k6 ladders kept per step
// (testdata/views/k6steps, see its README): every figure of a summary's
// step is the step's own, a step short of its rate is not held, and a
// point stream takes the place of its own run's summary only.
func TestViewLadderPerStep(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "views.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ingestK6Steps(t, st)
	db := store.SQLDB(st)

	type ladder struct {
		kind     string
		highest  float64
		achieved sql.NullFloat64
		holding  bool
	}
	read := func(q string) map[string]ladder {
		got := map[string]ladder{}
		queryRows(t, db, q, func(r *sql.Rows) error {
			var server, test string
			var l ladder
			if err := r.Scan(&server, &test, &l.kind, &l.highest, &l.achieved, &l.holding); err != nil {
				return err
			}
			if _, dup := got[server+"/"+test]; dup {
				return fmt.Errorf("two ladders of %s/%s", server, test)
			}
			got[server+"/"+test] = l
			return nil
		})
		return got
	}
	got := read(`SELECT server, test, kind, highest_held_rps, highest_held_achieved_rps, still_holding FROM ladders`)
	achieved := func(x float64) sql.NullFloat64 { return sql.NullFloat64{Float64: x, Valid: true} }
	want := map[string]ladder{
		// Failures in the last two steps only (4.2% and 19.2%; 10.2% of
		// the run): the steps below them held. The whole run's rate
		// would fail every step.
		"late/wait": {"summary", 40, achieved(40), false},
		// The same run read from its text: no stages label, so no
		// achieved rate; the rest of the rule applies.
		"late-text/wait": {"summary", 40, sql.NullFloat64{}, false},
		// 364 of the 390 requests its stages asked for at 40 (93%): not
		// held, although p95 and errors are within the rule.
		"short/wait": {"summary", 20, achieved(198.0 / 200 * 20), false},
		// The point stream is the run; its own summary is not a second
		// ladder. At 6000 k6 achieved 91% of the rate.
		"go/db": {"samples", 3000, achieved(0), false},
		// The summary of another test of the same server is kept.
		"go/wait10": {"summary", 3200, sql.NullFloat64{}, true},
	}
	if len(got) != len(want) {
		t.Errorf("%d ladders, want %d: %+v", len(got), len(want), got)
	}
	for k, w := range want {
		g, ok := got[k]
		if k == "go/db" && ok {
			w.achieved = g.achieved // from the stream: checked by TestViewLadders' oracle
		}
		if !ok || g.kind != w.kind || g.highest != w.highest || g.holding != w.holding || g.achieved.Valid != w.achieved.Valid ||
			math.Abs(g.achieved.Float64-w.achieved.Float64) > 1e-9 {
			t.Errorf("%s: %+v, want %+v", k, g, w)
		}
	}
	// With the achieved rate left out, the short ladder holds every step.
	loose := read(`SELECT server, test, kind, highest_held_rps, highest_held_achieved_rps, still_holding FROM ladders(min_achieved_ratio := 0)`)
	if l := loose["short/wait"]; l.highest != 60 || !l.holding {
		t.Errorf("short/wait without the achieved rule: %+v, want 60+", l)
	}
	if l := loose["go/db"]; l.highest != 6000 {
		t.Errorf("go/db without the achieved rule: %+v, want 6000 as k6's thresholds say", l)
	}

	// Each step's figures are the step's own, as k6 printed them.
	type step struct {
		requests, failed int64
		errRate          float64
		from             string
		achieved         sql.NullFloat64
	}
	steps := map[string]step{}
	queryRows(t, db, `SELECT server || ' ' || step, requests, failed, error_rate, coalesce(failures_from, ''), achieved_rps
		FROM ladder_steps WHERE kind = 'summary' AND server IN ('late', 'short', 'late-text')`, func(r *sql.Rows) error {
		var k string
		var s step
		if err := r.Scan(&k, &s.requests, &s.failed, &s.errRate, &s.from, &s.achieved); err != nil {
			return err
		}
		steps[k] = s
		return nil
	})
	for k, w := range map[string]step{
		"late 80":      {778, 33, 33.0 / 778, "step", achieved(778.0 / (60 + 720) * 80)},
		"late 120":     {1182, 227, 227.0 / 1182, "step", achieved(1182.0 / (100 + 1080) * 120)},
		"late-text 80": {778, 33, 33.0 / 778, "step", sql.NullFloat64{}},
		"short 60":     {505, 0, 0, "step", achieved(505.0 / 590 * 60)},
		"short 40":     {364, 0, 0, "step", achieved(364.0 / 390 * 40)},
	} {
		g := steps[k]
		if g.requests != w.requests || g.failed != w.failed || math.Abs(g.errRate-w.errRate) > 1e-12 || g.from != w.from ||
			g.achieved.Valid != w.achieved.Valid || math.Abs(g.achieved.Float64-w.achieved.Float64) > 1e-9 {
			t.Errorf("step %s: %+v, want %+v", k, g, w)
		}
	}
	// A summary that kept no failures per step, of a run without any:
	// every step's failures are known from the whole run.
	var unknown, fromRun int
	queryRows(t, db, `SELECT count(*) FILTER (WHERE failures_from IS NULL), count(*) FILTER (WHERE failures_from = 'run')
		FROM ladder_steps WHERE server = 'go' AND test = 'wait10'`, func(r *sql.Rows) error { return r.Scan(&unknown, &fromRun) })
	if unknown != 0 || fromRun != 5 {
		t.Errorf("go/wait10: %d steps with unknown failures, %d from the run; want 0 and 5", unknown, fromRun)
	}
}

// run_figures gives the percentiles a tool prints beyond the columns of
// runs, read here from the reports' text: wrk2's Recorded spectrum (not
// the Uncorrected one that -U adds, which runs' own figures are not
// of; its 10th, 75th, 80th), and ab's 66th, 75th, 80th and 98th. A
// percentile the report does not print is NULL: wrk2's spectrum has no
// 25th, 66th or 98th.
func TestViewLatencyPercentiles(t *testing.T) {
	db := openViews(t, "percentiles")
	dir := filepath.Join("testdata", "views", "percentiles")
	// printed is each report's percentile (0–100) → latency in ms.
	printed := map[string]map[float64]float64{}
	wrk2, err := os.ReadFile(filepath.Join(dir, "wrk2_U_go2_wait5_R1000.txt"))
	if err != nil {
		t.Fatal(err)
	}
	recorded, _, _ := strings.Cut(string(wrk2), "Uncorrected Latency")
	printed["wrk2"] = map[float64]float64{}
	for _, line := range strings.Split(recorded, "\n") {
		var v, p, n, inv float64
		if c, _ := fmt.Sscanf(strings.TrimSpace(line), "%g %g %g %g", &v, &p, &n, &inv); c == 4 {
			pct := math.Round(p*1e6) / 1e4 // 0.750000 is the 75th
			if old, ok := printed["wrk2"][pct]; !ok || v < old {
				printed["wrk2"][pct] = v
			}
		}
	}
	ab, err := os.ReadFile(filepath.Join(dir, "ab_keepalive_go2_ping_n10000_c20.txt"))
	if err != nil {
		t.Fatal(err)
	}
	printed["ab"] = map[float64]float64{}
	for _, line := range strings.Split(string(ab), "\n") {
		var p, ms float64
		if c, _ := fmt.Sscanf(strings.TrimSpace(line), "%g%% %g", &p, &ms); c == 2 {
			printed["ab"][p] = ms
		}
	}
	if printed["wrk2"][75] == 0 || len(printed["ab"]) != 9 {
		t.Fatalf("read %v from the reports", printed)
	}
	seen := 0
	queryRows(t, db, `SELECT tool, latency_p10_ms, latency_p25_ms, latency_p66_ms, latency_p75_ms, latency_p80_ms, latency_p98_ms FROM run_figures`, func(r *sql.Rows) error {
		var tool string
		var p10, p25, p66, p75, p80, p98 sql.NullFloat64
		if err := r.Scan(&tool, &p10, &p25, &p66, &p75, &p80, &p98); err != nil {
			return err
		}
		seen++
		want := printed[tool]
		at := func(p float64) float64 {
			if v, ok := want[p]; ok {
				return v
			}
			return math.NaN()
		}
		for _, c := range []struct {
			pct float64
			got sql.NullFloat64
		}{{10, p10}, {25, p25}, {66, p66}, {75, p75}, {80, p80}, {98, p98}} {
			if !near(c.got, at(c.pct)) {
				t.Errorf("%s: latency_p%v_ms %v, the report prints %v", tool, c.pct, c.got, at(c.pct))
			}
		}
		return nil
	})
	if seen != 2 {
		t.Errorf("%d runs in run_figures, want 2", seen)
	}
}
