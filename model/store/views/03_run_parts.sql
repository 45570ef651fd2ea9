-- run_parts: the runs that are parts of another: a report of several
-- requests (Locust, JMeter, Gatling) gives a row per request name and an
-- aggregate row of them all (Locust "Aggregated", JMeter "Total",
-- Gatling "All Requests"/"Global Information", label aggregated =
-- true). The aggregate is the run; each named row is a part of it, kept
-- and queryable here, never a pass of it and never summed with it, and
-- left out of run_groups. A part belongs to the aggregate of its file:
-- where the file holds several reports (several aggregates), to the
-- first aggregate at or after its line, else the last one before it. A
-- file of named rows without an aggregate has no parts: each row is a
-- run, its request name a factor.
CREATE OR REPLACE VIEW run_parts AS
WITH labelled AS (
    SELECT run_id, source, coalesce(source_line, 0) AS line, label_map(labels) AS label_map FROM runs
), agg AS (
    SELECT run_id, source, line FROM labelled WHERE label_map['aggregated'] = 'true'
), part AS (
    SELECT run_id, source, line, label_map['request_name'] AS request_name, label_map['request_type'] AS request_type
    FROM labelled
    WHERE label_map['request_name'] IS NOT NULL AND coalesce(label_map['aggregated'], '') <> 'true'
      AND source IN (SELECT source FROM agg)
)
SELECT p.run_id,
       coalesce((SELECT a.run_id FROM agg a WHERE a.source = p.source AND a.line >= p.line ORDER BY a.line, a.run_id LIMIT 1),
                (SELECT a.run_id FROM agg a WHERE a.source = p.source ORDER BY a.line DESC, a.run_id LIMIT 1)) AS aggregate_id,
       p.request_name,
       p.request_type
FROM part p;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_parts IS 'the runs that are parts of an aggregate run: the per-request rows of a report of several requests';
COMMENT ON COLUMN run_parts.run_id IS 'the part, as in runs';
COMMENT ON COLUMN run_parts.aggregate_id IS 'the aggregate run it is a part of, runs.run_id';
COMMENT ON COLUMN run_parts.request_name IS 'the request name of the part (label request_name)';
COMMENT ON COLUMN run_parts.request_type IS 'the request type or method of the part (label request_type), where the report gives one';
