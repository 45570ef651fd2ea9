package main

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report/costs"
	"github.com/wra-bench/wra/stats"
)

// stackKey names one priced stack: a server with its database and test.
type stackKey struct{ server, database, test string }

// cpuRun is one run with CPU figures: CPU seconds per 2xx response of
// the stack and the database (NaN where not measured), its target rate
// (NaN for a run at full speed) and its median latency.
type cpuRun struct {
	stackS, dbS float64
	targetRPS   float64
	p50MS       float64
}

// storeStacks reads the stacks to price from the store, the way the cost
// table of wra analyze does, so that both print the same figures:
//
//   - per (server, database, test), the runs with CPU figures (the view
//     cpu_per_request) at the highest target rate (fixed-rate passes), or,
//     where a stack has no fixed-rate pass, all its runs at full speed
//     (with a note);
//   - CPU per request: median of those runs, stack (user + kernel) and
//     database, per 2xx response;
//   - latency for Little's law: the median p50 of those runs, unless
//     --latency is given;
//   - memory: base and slope fitted (OLS) to all passes of the server's
//     memory series pooled (the view memory_slopes), else its highest
//     working set, fixed.
func storeStacks(ctx context.Context, st *store.Store, o *costOptions) ([]cost.Stack, map[string]time.Duration, []string, error) {
	db := st.DB()
	groups, noCPU, err := cpuRuns(ctx, db, o)
	if err != nil {
		return nil, nil, nil, err
	}
	if o.server != "" && len(groups) == 0 {
		return nil, nil, nil, &cost.NoCPUDataError{Server: o.server}
	}
	if len(groups) == 0 {
		msg := "the store has no run with CPU seconds and 2xx responses"
		if o.database != "" || o.test != "" {
			msg += " for the --database and --test given"
		}
		return nil, nil, nil, fmt.Errorf("%s: nothing to price (ingest harness records with cpu_server_s, or give --cpu-ms)", msg)
	}
	mem, memNotes, err := memoryFits(ctx, db)
	if err != nil {
		return nil, nil, nil, err
	}
	keys := slices.SortedFunc(maps.Keys(groups), func(a, b stackKey) int {
		return cmp.Or(strings.Compare(a.server, b.server), strings.Compare(a.database, b.database), strings.Compare(a.test, b.test))
	})
	var stacks []cost.Stack
	latency := map[string]time.Duration{}
	var notes, fullSpeed []string
	few := map[int][]string{}
	for _, k := range keys {
		rs, fixed := pickRuns(groups[k])
		var cpu, dbCPU, p50 []float64
		for _, r := range rs {
			cpu = append(cpu, r.stackS)
			if !math.IsNaN(r.dbS) {
				dbCPU = append(dbCPU, r.dbS)
			}
			if !math.IsNaN(r.p50MS) {
				p50 = append(p50, r.p50MS)
			}
		}
		s := cost.Stack{Server: k.server, Database: k.database, Test: k.test, CPUPerRequestS: stats.Median(cpu)}
		if len(dbCPU) > 0 {
			s.DBCPUPerRequestS = stats.Median(dbCPU)
		}
		name := costs.StackName(s)
		if !fixed {
			fullSpeed = append(fullSpeed, name)
		}
		if len(cpu) < 3 {
			few[len(cpu)] = append(few[len(cpu)], name)
		}
		if len(p50) > 0 && !o.changed("latency") {
			latency[name] = time.Duration(math.Round(stats.Median(p50) * float64(time.Millisecond)))
		}
		m, ok := mem[k.server]
		s.Memory = m.mem
		if !ok {
			notes = append(notes, fmt.Sprintf("%s: no memory figures; memory priced at 0 GiB.", name))
		}
		stacks = append(stacks, s)
	}
	if len(fullSpeed) > 0 {
		notes = append(notes, fmt.Sprintf("No fixed-rate passes, CPU per request from runs at full speed: %s.", strings.Join(fullSpeed, ", ")))
	}
	for _, n := range slices.Sorted(maps.Keys(few)) {
		notes = append(notes, fmt.Sprintf("CPU per request from %d pass(es), fewer than 3: %s.", n, strings.Join(few[n], ", ")))
	}
	if len(noCPU) > 0 {
		notes = append(notes, fmt.Sprintf("Left out, no CPU per request measured: %s.", strings.Join(noCPU, ", ")))
	}
	for _, server := range slices.Sorted(maps.Keys(mem)) {
		if mem[server].from != "" {
			notes = append(notes, server+": "+mem[server].from)
		}
	}
	notes = append(notes, memNotes...)
	lat := "the median p50 latency of those runs"
	if o.changed("latency") {
		lat = "--latency"
	}
	notes = append(notes, fmt.Sprintf("From the store: CPU seconds of the server (user + kernel) and of the database per 2xx response, median of each stack's runs at its highest target rate; requests in flight = rps × (--wait + %s); memory = base + slope per 1000 in flight, fitted to the server's memory series (all passes pooled), else its highest working set.", lat))
	return stacks, latency, notes, nil
}

// pickRuns returns the runs at the highest target rate, or all the runs at
// full speed when none has a target rate; fixed says which.
func pickRuns(rs []cpuRun) ([]cpuRun, bool) {
	top := math.Inf(-1)
	for _, r := range rs {
		if !math.IsNaN(r.targetRPS) {
			top = math.Max(top, r.targetRPS)
		}
	}
	if math.IsInf(top, -1) {
		return rs, false
	}
	var out []cpuRun
	for _, r := range rs {
		if r.targetRPS == top {
			out = append(out, r)
		}
	}
	return out, true
}

// cpuRuns reads the runs with CPU figures from the view cpu_per_request
// (server CPU = cpu_server_s, or user + kernel, per 2xx response), grouped
// by stack, and lists the servers that have runs but none with CPU figures.
func cpuRuns(ctx context.Context, db *sql.DB, o *costOptions) (map[stackKey][]cpuRun, []string, error) {
	const filter = `($1 = '' OR server = $1) AND ($2 = '' OR database = $2) AND ($3 = '' OR test = $3)`
	rows, err := db.QueryContext(ctx, `
		SELECT coalesce(c.server, ''), coalesce(c.database, ''), coalesce(c.test, ''),
		       c.cpu_server_ms_per_req, c.cpu_db_ms_per_req, c.target_rps, r.latency_p50_ms
		  FROM cpu_per_request c JOIN runs r USING (run_id)
		 WHERE c.cpu_server_ms_per_req IS NOT NULL
		   AND ($1 = '' OR c.server = $1) AND ($2 = '' OR c.database = $2) AND ($3 = '' OR c.test = $3)
		 ORDER BY run_id`, o.server, o.database, o.test)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	out := map[stackKey][]cpuRun{}
	for rows.Next() {
		var k stackKey
		var cpuMS, dbMS, target, p50 sql.NullFloat64
		if err := rows.Scan(&k.server, &k.database, &k.test, &cpuMS, &dbMS, &target, &p50); err != nil {
			return nil, nil, err
		}
		out[k] = append(out[k], cpuRun{
			stackS:    cpuMS.Float64 / 1000,
			dbS:       floatOrNaN(dbMS) / 1000,
			targetRPS: floatOrNaN(target),
			p50MS:     floatOrNaN(p50),
		})
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	with := map[string]bool{}
	for k := range out {
		with[k.server] = true
	}
	all, err := db.QueryContext(ctx, `SELECT DISTINCT coalesce(server, '') FROM runs WHERE `+filter+` ORDER BY 1`, o.server, o.database, o.test)
	if err != nil {
		return nil, nil, err
	}
	defer all.Close()
	var noCPU []string
	for all.Next() {
		var s string
		if err := all.Scan(&s); err != nil {
			return nil, nil, err
		}
		if !with[s] {
			if s == "" {
				s = "(runs without a server label)"
			}
			noCPU = append(noCPU, s)
		}
	}
	return out, noCPU, all.Err()
}

func floatOrNaN(v sql.NullFloat64) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.Float64
}

// serverMemory is a server's memory for the model and, when it is not
// the fitted series, where it comes from.
type serverMemory struct {
	mem  cost.Memory
	from string
}

// memoryFits returns per server the memory fitted to its memory series,
// all passes pooled (stats.MemorySlope, as wra analyze and the view
// memory_slopes fit it; computed here in Go so that the figures are the
// same bytes on every run, which a parallel SQL aggregate does not
// promise), else its highest working set. Notes say where a series bends
// or cannot be used.
func memoryFits(ctx context.Context, db *sql.DB) (map[string]serverMemory, []string, error) {
	rows, err := db.QueryContext(ctx, `SELECT coalesce(server, ''), concurrency, memory_mb FROM memory_series
	                                    WHERE memory_mb IS NOT NULL AND concurrency IS NOT NULL
	                                    ORDER BY 1, pass, concurrency, source, source_line`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	series := map[string][]stats.MemoryPoint{}
	for rows.Next() {
		var server string
		var conc, mb float64
		if err := rows.Scan(&server, &conc, &mb); err != nil {
			return nil, nil, err
		}
		series[server] = append(series[server], stats.MemoryPoint{Concurrency: conc, MemoryMB: mb})
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	out := map[string]serverMemory{}
	var notes []string
	for _, server := range slices.Sorted(maps.Keys(series)) {
		f := stats.MemorySlope(series[server])
		slope, base := f.SlopeGiBPer1000, f.InterceptGiB
		switch {
		case math.IsNaN(slope) || math.IsNaN(base):
			notes = append(notes, fmt.Sprintf("%s: memory series too short to fit.", server))
			continue
		case slope < 0 || base < 0:
			notes = append(notes, fmt.Sprintf("%s: fitted memory base %s GiB, slope %s GiB per 1000: a negative figure, so the series is not used.", server, fmtG(base), fmtG(slope)))
			continue
		}
		if f.Bends {
			notes = append(notes, fmt.Sprintf("%s: %s; the straight line is used as it is.", server, warningsText(f.Warnings)))
		}
		out[server] = serverMemory{mem: cost.LinearMemory(base, slope)}
	}
	peak, err := db.QueryContext(ctx, `SELECT coalesce(server, ''), max(working_set_mb) FROM runs WHERE working_set_mb IS NOT NULL GROUP BY 1 ORDER BY 1`)
	if err != nil {
		return nil, nil, err
	}
	defer peak.Close()
	for peak.Next() {
		var server string
		var mb float64
		if err := peak.Scan(&server, &mb); err != nil {
			return nil, nil, err
		}
		if _, ok := out[server]; !ok && mb >= 0 {
			out[server] = serverMemory{mem: cost.FixedMemory(mb / 1024), from: "no memory series; memory is its highest working set, fixed."}
		}
	}
	return out, notes, peak.Err()
}

func warningsText(ws []stats.Warning) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Msg
	}
	return strings.Join(parts, "; ")
}

func fmtG(v float64) string { return fmt.Sprintf("%.3g", v) }

// openCostStore opens the store for wra cost, which needs an existing one.
func openCostStore(ctx context.Context, g *globals) (*store.Store, error) {
	if _, err := os.Stat(g.db); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no store at %s: run wra ingest first, or give the stack's numbers with --cpu-ms", g.db)
		}
		return nil, err
	}
	return g.openStore(ctx, false)
}
