package store_test

import (
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
	return store.SQLDB(st)
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

func TestViewMemorySlopes(t *testing.T) {
	db := openViews(t, "harness")
	series := map[string][]stats.MemoryPoint{} // "server|pass", pass "" = all
	queryRows(t, db, `SELECT server, pass, concurrency, memory_mb FROM memory_series`, func(r *sql.Rows) error {
		var server string
		var pass int64
		var p stats.MemoryPoint
		if err := r.Scan(&server, &pass, &p.Concurrency, &p.MemoryMB); err != nil {
			return err
		}
		k := fmt.Sprintf("%s|%d", server, pass)
		series[k] = append(series[k], p)
		series[server+"|"] = append(series[server+"|"], p)
		return nil
	})
	n := 0
	// The spread of the per-pass slopes, by package stats.
	passSlopes := map[string][]float64{}
	for k, pts := range series {
		server, pass, _ := strings.Cut(k, "|")
		if pass != "" {
			passSlopes[server] = append(passSlopes[server], stats.MemorySlope(pts).SlopeGiBPer1000)
		}
	}
	queryRows(t, db, `SELECT server, pass, slope_gib_per_1000, intercept_gib, r2, theil_sen_gib_per_1000,
		theil_sen_intercept_gib, points, passes, pass_slope_min_gib_per_1000, pass_slope_median_gib_per_1000,
		pass_slope_max_gib_per_1000 FROM memory_slopes`, func(r *sql.Rows) error {
		var server string
		var pass, passes sql.NullInt64
		var slope, icpt, r2, ts, tsi, lo, med, hi sql.NullFloat64
		var points int
		if err := r.Scan(&server, &pass, &slope, &icpt, &r2, &ts, &tsi, &points, &passes, &lo, &med, &hi); err != nil {
			return err
		}
		if pass.Valid {
			if passes.Valid || lo.Valid || med.Valid || hi.Valid {
				t.Errorf("%s pass %d: spread columns set on a per-pass row", server, pass.Int64)
			}
		} else {
			sum := stats.Summarize(passSlopes[server])
			if passes.Int64 != int64(sum.N) || sum.N != 2 || !near(lo, sum.Min) || !near(med, sum.Median) || !near(hi, sum.Max) {
				t.Errorf("%s spread: view %v %v %v %v; stats %d %v %v %v", server, passes, lo, med, hi, sum.N, sum.Min, sum.Median, sum.Max)
			}
		}
		k := server + "|"
		if pass.Valid {
			k += fmt.Sprint(pass.Int64)
		}
		pts, ok := series[k]
		if !ok {
			return fmt.Errorf("view row %q has no series", k)
		}
		n++
		m := stats.MemorySlope(pts)
		var x, y []float64
		for _, p := range pts {
			x = append(x, p.Concurrency)
			y = append(y, p.MemoryMB)
		}
		_, tsIcpt := stats.TheilSen(x, y)
		if !near(slope, m.SlopeGiBPer1000) || !near(icpt, m.InterceptGiB) || !near(r2, m.R2) ||
			!near(ts, m.TheilSenGiBPer1000) || !near(tsi, tsIcpt/1024) || points != m.Points {
			t.Errorf("%s: view %v %v %v %v %v %d; stats %+v", k, slope, icpt, r2, ts, tsi, points, m)
		}
		return nil
	})
	if n != len(series) || n != 6 { // 2 servers x (2 passes + all)
		t.Errorf("view has %d rows, want %d", n, len(series))
	}
}

func TestViewCalibrationDrift(t *testing.T) {
	db := openViews(t, "harness")
	before, after := map[int64][]float64{}, map[int64][]float64{}
	var sources []string
	queryRows(t, db, `SELECT source, phase, processes, ms FROM calibration`, func(r *sql.Rows) error {
		var src, phase string
		var p int64
		var ms float64
		if err := r.Scan(&src, &phase, &p, &ms); err != nil {
			return err
		}
		if !slices.Contains(sources, src) {
			sources = append(sources, src)
		}
		if phase == "before" {
			before[p] = append(before[p], ms)
		} else {
			after[p] = append(after[p], ms)
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
	queryRows(t, db, `SELECT source, processes, before_ms, after_ms, ratio, flagged FROM calibration_drift`, func(r *sql.Rows) error {
		var src string
		var p int64
		var b, a, ratio sql.NullFloat64
		var flagged bool
		if err := r.Scan(&src, &p, &b, &a, &ratio, &flagged); err != nil {
			return err
		}
		n++
		d := stats.Drift(before[p], after[p], stats.DefaultDriftTolerance)
		if src != pair || !near(b, d.BeforeMS) || !near(a, d.AfterMS) || !near(ratio, d.Ratio) || flagged != d.Flagged {
			t.Errorf("processes %d: view %s %v %v %v %v; stats %s %+v", p, src, b, a, ratio, flagged, pair, d)
		}
		return nil
	})
	if n != 3 {
		t.Errorf("view has %d rows, want 3 process counts", n)
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
		first, last := math.Inf(1), math.Inf(-1)
		var failed int64
		for i, r := range g {
			d[i] = r.durationMS
			first, last = math.Min(first, r.timeS), math.Max(last, r.timeS)
			if r.failed {
				failed++
			}
		}
		slices.Sort(d)
		st := stats.LadderStep{Step: name, TargetRPS: target, Requests: int64(len(g)), Failed: failed,
			P95MS: stats.Quantile(d, 0.95), ErrorRate: float64(failed) / float64(len(g)),
			AchievedRPS: float64(len(g)-1) / (last - first)}
		st.Held = st.P95MS < rule.P95MS && st.ErrorRate < rule.MaxErrorRate
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
		results[run] = stats.LadderOf(tagSteps(t, rs, stats.DefaultLadderRule))
	}
	n := 0
	queryRows(t, db, `SELECT server, run, step, target_rps, achieved_rps, p95_ms, error_rate, held, requests, failed
		FROM ladder_steps ORDER BY run, target_rps`, func(r *sql.Rows) error {
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
	queryRows(t, db, `SELECT run, highest_held_rps, still_holding, step_rps, p95_threshold_ms, max_error_rate, steps FROM ladders`, func(r *sql.Rows) error {
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
