-- run_outcomes: what became of each run's requests, the one definition
-- of the counts every other view and wra's tables read. requests_counted
-- is requests, or, where a report prints no total, 2xx + non-2xx +
-- errors; failed is errors + non_2xx (a missing count counting 0: a
-- report that prints none had none it counted); responses_ok, the
-- successful responses, is the 2xx count where the report has it, else
-- requests - non_2xx - errors, never below 0; error_rate is failed /
-- requests_counted. goodput_rps, the successful requests per second, is
-- rps × responses_ok / requests_counted (rps itself where nothing
-- failed, so that a run without failures ranks as before), NULL where
-- it cannot be known; all_failed says that the run got no successful
-- response to any of its requests (a refused connection, a dead
-- server): such a run is listed last, never ranked or marked best.
CREATE OR REPLACE VIEW run_outcomes AS
WITH c AS (
    SELECT run_id, rps, requests, responses_2xx, non_2xx, errors,
           coalesce(requests, responses_2xx + coalesce(non_2xx, 0) + coalesce(errors, 0)) AS requests_counted,
           coalesce(errors, 0) + coalesce(non_2xx, 0) AS failed,
           coalesce(responses_2xx, requests - coalesce(non_2xx, 0) - coalesce(errors, 0)) AS ok_raw
    FROM runs
)
SELECT
    run_id,
    requests_counted,
    failed,
    CASE WHEN ok_raw IS NOT NULL THEN greatest(ok_raw, 0) END AS responses_ok,
    CASE WHEN requests_counted > 0 THEN failed / requests_counted END AS error_rate,
    CASE WHEN failed = 0 THEN rps
         WHEN requests_counted > 0 AND ok_raw IS NOT NULL THEN rps * greatest(ok_raw, 0) / requests_counted END AS goodput_rps,
    coalesce(requests_counted > 0 AND ok_raw <= 0, FALSE) AS all_failed
FROM c;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_outcomes IS 'what became of each run''s requests: the one definition of failed, successful responses, error rate and goodput';
COMMENT ON COLUMN run_outcomes.run_id IS 'as in runs';
COMMENT ON COLUMN run_outcomes.requests_counted IS 'requests, or 2xx + non_2xx + errors where the report prints no total';
COMMENT ON COLUMN run_outcomes.failed IS 'errors + non_2xx, a missing count counting 0';
COMMENT ON COLUMN run_outcomes.responses_ok IS 'successful responses: responses_2xx where the report has it, else requests - non_2xx - errors, never below 0';
COMMENT ON COLUMN run_outcomes.error_rate IS 'failed / requests_counted';
COMMENT ON COLUMN run_outcomes.goodput_rps IS 'successful requests per second: rps × responses_ok / requests_counted, rps where nothing failed';
COMMENT ON COLUMN run_outcomes.all_failed IS 'true where the run got no successful response to any of its requests';
