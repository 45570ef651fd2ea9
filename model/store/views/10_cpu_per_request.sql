-- cpu_per_request: CPU per successful (2xx) response, per run. Server CPU
-- is cpu_server_s, or user + kernel where only those were recorded. A
-- figure is NULL where its CPU seconds or the 2xx count are missing or the
-- run served no 2xx response. Same definition as stats.PerRequestUS.
CREATE OR REPLACE VIEW cpu_per_request AS
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
    coalesce(cpu_server_s, cpu_server_user_s + cpu_server_kernel_s) * 1e6 / nullif(greatest(responses_2xx, 0), 0) AS cpu_server_us_per_req,
    cpu_server_user_s * 1e6 / nullif(greatest(responses_2xx, 0), 0) AS cpu_user_us_per_req,
    cpu_server_kernel_s * 1e6 / nullif(greatest(responses_2xx, 0), 0) AS cpu_kernel_us_per_req,
    cpu_db_s * 1e6 / nullif(greatest(responses_2xx, 0), 0) AS cpu_db_us_per_req,
    coalesce(cpu_server_s, cpu_server_user_s + cpu_server_kernel_s) * 1e3 / nullif(greatest(responses_2xx, 0), 0) AS cpu_server_ms_per_req,
    cpu_db_s * 1e3 / nullif(greatest(responses_2xx, 0), 0) AS cpu_db_ms_per_req
FROM runs
WHERE coalesce(cpu_server_s, cpu_server_user_s, cpu_server_kernel_s, cpu_db_s) IS NOT NULL;
