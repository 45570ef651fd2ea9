-- run_groups: the design of the experiment, the one definition of which
-- runs belong together, that every table, comparison, finding and cost
-- row of wra groups by. One row per run, counted once: a harness record
-- paired with a tool report of the same run (run_pairs) is the report's
-- row, record_id naming the record; one run kept in two formats (a k6
-- point stream and its summary: the same tool, factors, replicate and
-- block) is the row of the format first by name. Each label of a run
-- plays one of three roles:
--
--   factor     what is compared or held fixed: server, database, test,
--              tool, connections, target_rps, mode, and every label the
--              manifest or --label set (label_keys), as variant. Runs
--              that differ in one are never one figure.
--   replicate  round, and the labels the manifest names in replicates
--              (replicate_keys): what a median and a spread summarise.
--   block      the labels the manifest names in blocks (block_keys), or
--              trial: runs recorded side by side in time, within which
--              two groups are compared.
--
-- A label the manifest sets and does not name in no_split, blocks or
-- replicates is a factor; a label the record itself carries (a CSV
-- column, a k6 tag) is neither. mode is ladder for a k6 run whose
-- requests are tagged with a step or whose summary keeps per-step
-- submetrics, waiting for a run with a wait_ms label, fixed-rate for a
-- run with a target_rps, full-speed otherwise. group_id names the group:
-- the JSON object of its factors.
CREATE OR REPLACE VIEW run_groups AS
WITH stepped AS (
    SELECT DISTINCT run_id FROM sample_steps
    UNION
    SELECT run_id FROM runs
    WHERE tool = 'k6' AND labels IS NOT NULL
      AND len(list_filter(json_keys(labels), lambda k: k LIKE 'submetric.http_req_duration{step:%}.p95_ms')) > 0
),
labelled AS (
    SELECT *, label_map(labels) AS label_map FROM runs
),
r AS (
    SELECT r.*, f.format, p.record_id,
           list_filter(list_sort(string_split(r.label_map['label_keys'], ',')), lambda k: k <> 'tool' AND k <> '') AS manifest_keys,
           list_filter(string_split(r.label_map['report_keys'], ','), lambda k: k <> '') AS report_keys,
           concat_ws(' ', CAST(r.round AS VARCHAR), label_pairs(r.label_map, string_split(r.label_map['replicate_keys'], ',')),
                     CASE WHEN r.label_map['round_by'] IS NOT NULL THEN r.source END) AS replicate,
           run_block(r.label_map) AS block,
           CASE WHEN r.run_id IN (SELECT run_id FROM stepped) THEN 'ladder'
                WHEN r.label_map['wait_ms'] IS NOT NULL THEN 'waiting'
                WHEN r.target_rps IS NOT NULL THEN 'fixed-rate'
                ELSE 'full-speed' END AS mode
    FROM labelled r
    JOIN ingested_files f USING (source)
    LEFT JOIN run_pairs p ON p.report_id = r.run_id
    WHERE r.run_id NOT IN (SELECT record_id FROM run_pairs)
      AND r.run_id NOT IN (SELECT run_id FROM run_parts)
),
m AS (
    SELECT r.*, coalesce(label_pairs(r.label_map, r.manifest_keys), '') AS manifest_variant,
           coalesce(r.server, run_file_name(r.source)) AS design_server
    FROM r
),
-- the report factors of each run (report_keys, and the threads its tool
-- ran), with the factors they are compared within: a report factor is a
-- factor of the design where two runs that agree on every other factor
-- but the server differ in it
cand AS (
    SELECT run_id, k, label_map[k] AS v,
           mode, tool, database, test, connections, target_rps, manifest_variant
    FROM (SELECT *, unnest(report_keys) AS k FROM m)
    UNION ALL
    SELECT run_id, 'threads', CAST(threads AS VARCHAR), mode, tool, database, test, connections, target_rps, manifest_variant
    FROM m WHERE threads IS NOT NULL
),
active AS (
    SELECT DISTINCT k FROM (
        SELECT k FROM cand
        GROUP BY k, mode, tool, database, test, connections, target_rps, manifest_variant
        HAVING count(DISTINCT coalesce(v, '')) > 1)
),
factors AS (
    SELECT run_id, list_sort(list(k)) AS keys, list(k || '=' || coalesce(v, '') ORDER BY k) AS pairs,
           to_json(map_from_entries(list({k: k, v: coalesce(v, '')} ORDER BY k)))::VARCHAR AS obj
    FROM (SELECT run_id, k, v FROM cand WHERE k IN (SELECT k FROM active)
          UNION ALL
          SELECT run_id, k, label_map[k] FROM (SELECT run_id, label_map, unnest(manifest_keys) AS k FROM m))
    GROUP BY run_id
),
v AS (
    SELECT m.* EXCLUDE (label_map), coalesce(f.keys, []) AS factor_keys, coalesce(f.obj, '{}') AS factors,
           coalesce(array_to_string(list_sort(f.pairs), ', '), '') AS variant
    FROM m LEFT JOIN factors f USING (run_id)
),
once AS (
    SELECT * FROM v
    QUALIFY format = min(format) OVER (PARTITION BY tool, server, database, test, connections, target_rps, mode, manifest_variant, replicate, block)
)
SELECT
    o.run_id,
    o.record_id,
    o.source,
    o.source_line,
    o.format,
    o.tool,
    o.design_server AS server,
    o.database,
    o.test,
    o.connections,
    o.target_rps,
    o.mode,
    o.variant,
    to_json({mode: o.mode, tool: o.tool, server: o.design_server, database: o.database, test: o.test,
             connections: o.connections, target_rps: o.target_rps, variant: o.variant})::VARCHAR AS group_id,
    nullif(o.replicate, '') AS replicate,
    o.block,
    coalesce(o.started_at, rec.started_at) AS started_at,
    (SELECT max(c.drift_pct) FROM run_calibration c WHERE c.run_id = o.run_id OR c.run_id = o.record_id) AS drift_pct,
    o.factor_keys,
    o.factors,
    o.server IS NULL AS server_from_file
FROM once o
LEFT JOIN runs rec ON rec.run_id = o.record_id;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_groups IS 'the design of the experiment: each run, counted once, with its group (factors), replicate and block';
COMMENT ON COLUMN run_groups.run_id IS 'the run, runs.run_id (a tool report where a harness record pairs with it)';
COMMENT ON COLUMN run_groups.record_id IS 'the harness record paired with the run, see run_pairs';
COMMENT ON COLUMN run_groups.source IS 'as in runs';
COMMENT ON COLUMN run_groups.source_line IS 'as in runs';
COMMENT ON COLUMN run_groups.format IS 'the reader of the run''s file';
COMMENT ON COLUMN run_groups.tool IS 'factor, as in runs';
COMMENT ON COLUMN run_groups.server IS 'factor: as in runs, or, where the run has none, its file''s name (run_file_name)';
COMMENT ON COLUMN run_groups.database IS 'factor, as in runs';
COMMENT ON COLUMN run_groups.test IS 'factor, as in runs';
COMMENT ON COLUMN run_groups.connections IS 'factor, as in runs';
COMMENT ON COLUMN run_groups.target_rps IS 'factor, as in runs';
COMMENT ON COLUMN run_groups.mode IS 'factor: ladder, waiting, fixed-rate or full-speed';
COMMENT ON COLUMN run_groups.variant IS 'factor: the labels of label_keys but tool, and the report factors that tell runs apart (report_keys, threads), as key=value, sorted, comma-separated; empty when none';
COMMENT ON COLUMN run_groups.factor_keys IS 'the keys of variant, sorted';
COMMENT ON COLUMN run_groups.factors IS 'the labels of variant as a JSON object of key to value';
COMMENT ON COLUMN run_groups.server_from_file IS 'true where the run has no server label and server is its file''s name (run_file_name)';
COMMENT ON COLUMN run_groups.group_id IS 'the group: a JSON object of the factors';
COMMENT ON COLUMN run_groups.replicate IS 'the replicate: round, the replicate_keys labels as key=value, and the source where the round was numbered within its file (round_by)';
COMMENT ON COLUMN run_groups.block IS 'the block: the block_keys labels as key=value, or trial=N; NULL when none';
COMMENT ON COLUMN run_groups.started_at IS 'when the run started, the record''s time where the report has none';
COMMENT ON COLUMN run_groups.drift_pct IS 'the largest calibration drift covering the run or its record, from run_calibration, percent';
