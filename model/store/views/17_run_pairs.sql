-- run_pairs: a harness record and a tool report of the same run, one
-- row per pair. They are the same run when they agree on server,
-- database, test, round, target_rps and connections (NULL matching NULL), the record's
-- tool is 'records' and the report's is not, and neither has another
-- partner under that key (a key with two records or two reports pairs
-- nothing: which goes with which cannot be told). The pair is one run:
-- its requests, rate, latencies and spectrum are the report's, its CPU,
-- memory and start-up the record's (run_figures, and the rounds and
-- ranking tables, count it once). Where they disagree the report's
-- counts win; rps_diff_pct says by how much the record's rate differs.
CREATE OR REPLACE VIEW run_pairs AS
WITH keyed AS (
    SELECT run_id, tool = 'records' AS is_record, rps,
           count(*) FILTER (WHERE tool = 'records') OVER w AS records,
           count(*) FILTER (WHERE tool <> 'records') OVER w AS reports
    FROM runs
    WINDOW w AS (PARTITION BY server, database, test, round, target_rps, connections)
),
k AS (
    SELECT r.run_id, r.server, r.database, r.test, r.round, r.target_rps, r.connections, k.is_record, k.rps
    FROM runs r JOIN keyed k USING (run_id)
    WHERE k.records = 1 AND k.reports = 1
)
SELECT
    rec.run_id AS record_id,
    rep.run_id AS report_id,
    100 * (rec.rps - rep.rps) / nullif(rep.rps, 0) AS rps_diff_pct
FROM k rec
JOIN k rep
  ON rec.is_record AND NOT rep.is_record
 AND rec.server IS NOT DISTINCT FROM rep.server
 AND rec.database IS NOT DISTINCT FROM rep.database
 AND rec.test IS NOT DISTINCT FROM rep.test
 AND rec.round IS NOT DISTINCT FROM rep.round
 AND rec.target_rps IS NOT DISTINCT FROM rep.target_rps
 AND rec.connections IS NOT DISTINCT FROM rep.connections;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_pairs IS 'a harness record and a tool report of the same run';
COMMENT ON COLUMN run_pairs.record_id IS 'the harness record, runs.run_id';
COMMENT ON COLUMN run_pairs.report_id IS 'the tool''s report, runs.run_id';
COMMENT ON COLUMN run_pairs.rps_diff_pct IS 'the record''s rate against the report''s, percent';
