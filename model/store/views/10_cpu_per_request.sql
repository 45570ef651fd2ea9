-- cpu_per_request: CPU per successful response, per run: the one
-- definition of CPU per request that wra analyze, wra cost and wra compare
-- read. Server CPU is cpu_server_s, or user + kernel where only those were
-- recorded. The divisor, responses_ok, is run_outcomes': the 2xx responses
-- where the record has them, else requests - non_2xx - errors (a missing
-- non_2xx or errors counts as 0: a harness that writes only requests had
-- none it counted); divisor_from says which ('responses_2xx' or
-- 'requests'). A
-- figure is NULL where its CPU seconds or the divisor are missing (a
-- records value that cannot be right, such as a CPU counter that fell, is
-- stored as NULL with its text in the run's raw.<column> label: see
-- broken_values), or the run served no successful response; cpu_stack_s is the stack's CPU
-- seconds. The _us figures are CPU seconds /
-- responses_ok * 1e6 (that order, the one Go reads), _ms likewise * 1e3.
-- cpu_total_us_per_req, the total CPU per request, is the server's and
-- the database's (a database not measured counting 0): the one
-- definition that run_medians, run_figures, the cost and every table of
-- wra analyze read.
-- broken_values(labels): the raw.<column> labels of a run, each the text
-- of a value its records row had that cannot be right (stored as NULL).
-- labels is a label_map or the JSON labels.
CREATE OR REPLACE MACRO broken_values(labels) AS
    coalesce(list_sort(list_filter(map_keys(label_map(labels)), k -> starts_with(k, 'raw.'))), []);

COMMENT ON MACRO broken_values IS 'the raw.<column> labels of a run: values stored as NULL because they cannot be right';

CREATE OR REPLACE VIEW cpu_per_request AS
WITH r AS (
    -- a negative counter (written into the store by hand: no reader
    -- stores one) counts as missing
    SELECT * REPLACE (CASE WHEN cpu_server_user_s >= 0 THEN cpu_server_user_s END AS cpu_server_user_s,
                      CASE WHEN cpu_server_kernel_s >= 0 THEN cpu_server_kernel_s END AS cpu_server_kernel_s,
                      CASE WHEN cpu_db_s >= 0 THEN cpu_db_s END AS cpu_db_s),
           CASE WHEN cpu_server_s IS NOT NULL THEN CASE WHEN cpu_server_s >= 0 THEN cpu_server_s END
                WHEN cpu_server_user_s >= 0 AND cpu_server_kernel_s >= 0 THEN cpu_server_user_s + cpu_server_kernel_s END AS cpu_stack_s,
           o.responses_ok, o.failed,
           CASE WHEN responses_2xx IS NOT NULL THEN 'responses_2xx' WHEN requests IS NOT NULL THEN 'requests' END AS divisor_from
    FROM runs JOIN run_outcomes o USING (run_id)
    WHERE coalesce(cpu_server_s, cpu_server_user_s, cpu_server_kernel_s, cpu_db_s) IS NOT NULL
), d AS (
    SELECT *, nullif(responses_ok, 0) AS ok FROM r
)
SELECT
    run_id,
    source,
    server,
    database,
    test,
    connections,
    target_rps,
    round,
    requests,
    responses_2xx,
    cpu_stack_s / ok * 1e6 AS cpu_server_us_per_req,
    cpu_server_user_s / ok * 1e6 AS cpu_user_us_per_req,
    cpu_server_kernel_s / ok * 1e6 AS cpu_kernel_us_per_req,
    cpu_db_s / ok * 1e6 AS cpu_db_us_per_req,
    cpu_stack_s / ok * 1e6 + coalesce(cpu_db_s / ok * 1e6, 0) AS cpu_total_us_per_req,
    cpu_stack_s / ok * 1e3 AS cpu_server_ms_per_req,
    cpu_db_s / ok * 1e3 AS cpu_db_ms_per_req,
    cpu_stack_s,
    ok AS responses_ok,
    divisor_from,
    failed,
    latency_p50_ms,
    latency_p99_ms,
    source_line,
    tool
FROM d;

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW cpu_per_request IS 'CPU per successful response, one row per run with CPU figures';
COMMENT ON COLUMN cpu_per_request.run_id IS 'from runs';
COMMENT ON COLUMN cpu_per_request.source IS 'from runs';
COMMENT ON COLUMN cpu_per_request.server IS 'from runs';
COMMENT ON COLUMN cpu_per_request.database IS 'from runs';
COMMENT ON COLUMN cpu_per_request.test IS 'from runs';
COMMENT ON COLUMN cpu_per_request.connections IS 'from runs';
COMMENT ON COLUMN cpu_per_request.target_rps IS 'from runs';
COMMENT ON COLUMN cpu_per_request.round IS 'from runs';
COMMENT ON COLUMN cpu_per_request.tool IS 'from runs';
COMMENT ON COLUMN cpu_per_request.source_line IS 'from runs';
COMMENT ON COLUMN cpu_per_request.requests IS 'as in runs';
COMMENT ON COLUMN cpu_per_request.responses_2xx IS 'as in runs';
COMMENT ON COLUMN cpu_per_request.responses_ok IS 'successful responses, the divisor of every figure below: responses_2xx where the record has it, else requests - non_2xx - errors (a missing non_2xx or errors counts as 0); NULL when that is not positive';
COMMENT ON COLUMN cpu_per_request.divisor_from IS 'responses_2xx or requests: which of the two the divisor came from (the CPU table footnotes a stack priced from requests)';
COMMENT ON COLUMN cpu_per_request.cpu_stack_s IS 'server CPU seconds: cpu_server_s, or user + kernel where only those were recorded';
COMMENT ON COLUMN cpu_per_request.cpu_server_us_per_req IS 'cpu_stack_s / responses_ok x 10^6';
COMMENT ON COLUMN cpu_per_request.cpu_user_us_per_req IS 'the same for user and kernel CPU';
COMMENT ON COLUMN cpu_per_request.cpu_kernel_us_per_req IS 'the same for user and kernel CPU';
COMMENT ON COLUMN cpu_per_request.cpu_db_us_per_req IS 'database server CPU per successful response';
COMMENT ON COLUMN cpu_per_request.cpu_total_us_per_req IS 'server + database CPU per successful response, a database not measured counting 0';
COMMENT ON COLUMN cpu_per_request.cpu_server_ms_per_req IS 'the same in milliseconds';
COMMENT ON COLUMN cpu_per_request.cpu_db_ms_per_req IS 'the same in milliseconds';
COMMENT ON COLUMN cpu_per_request.failed IS 'as in run_outcomes';
COMMENT ON COLUMN cpu_per_request.latency_p50_ms IS 'from runs';
COMMENT ON COLUMN cpu_per_request.latency_p99_ms IS 'from runs';
