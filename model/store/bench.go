package store

import (
	"context"

	"github.com/wra-bench/wra/model"
)

// BenchGroups reads the groups of the experiment's design with their
// figures (run_medians), their caveats under rule (group_caveats) and
// their runs (run_groups, each counted once, with the per-run columns
// run_medians summarises), for the benchmark dashboards' formats of wra
// export. Groups are ordered by test, tool, server, database,
// connections, target rate (full speed first), mode and group id; runs
// by run id.
func (s *Store) BenchGroups(ctx context.Context, rule model.DesignRule) ([]model.BenchGroup, error) {
	groups, err := scanAll[model.BenchGroup](ctx, s, "run_medians", `
SELECT `+groupFigures+`, m.mode, m.tool, coalesce(m.server, '') AS server, coalesce(m.database, '') AS database,
       coalesce(m.test, '') AS test, coalesce(m.connections, -1) AS connections, m.target_rps,
       (SELECT any_value(g.factors) FROM run_groups g WHERE g.group_id = m.group_id) AS factors
FROM run_medians m
ORDER BY test, tool, server, database, connections, target_rps NULLS FIRST, mode, group_id`, nil)
	if err != nil {
		return nil, err
	}
	// the per-run columns of run_medians' runs, joined as it joins them
	runs, err := scanAll[model.BenchRun](ctx, s, "run_groups", `
SELECT g.run_id, g.group_id, g.source, coalesce(g.source_line, 0) AS line,
       r.rps, r.latency_p50_ms, r.latency_p95_ms, r.latency_p99_ms,
       c.cpu_server_us_per_req, c.cpu_db_us_per_req, c.cpu_total_us_per_req,
       coalesce(r.working_set_mb, rec.working_set_mb) AS working_set_mb, coalesce(r.errors, -1) AS errors
FROM run_groups g
JOIN runs r ON r.run_id = g.run_id
LEFT JOIN runs rec ON rec.run_id = g.record_id
LEFT JOIN cpu_per_request c ON c.run_id = coalesce(g.record_id, g.run_id)
ORDER BY g.run_id`, nil)
	if err != nil {
		return nil, err
	}
	caveats, err := s.Caveats(ctx, rule)
	if err != nil {
		return nil, err
	}
	at := make(map[string]int, len(groups))
	for i := range groups {
		at[groups[i].GroupID] = i
		groups[i].Caveats = caveats[groups[i].GroupID]
	}
	for _, r := range runs {
		if i, ok := at[r.GroupID]; ok {
			groups[i].Runs = append(groups[i].Runs, r)
		}
	}
	return groups, nil
}
