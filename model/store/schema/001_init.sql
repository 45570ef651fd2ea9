-- wra store schema, version 1. Units are in the column names: _ms
-- milliseconds, _s seconds, _mb mebibytes (2^20 bytes), _usd US dollars.

CREATE TABLE ingested_files (
    source        VARCHAR PRIMARY KEY, -- path below the ingested folder, starting with its name
    source_sha256 VARCHAR NOT NULL,    -- SHA-256 of the file's bytes as on disk
    format        VARCHAR NOT NULL,    -- reader that loaded it (wrk2, records-csv, k6-ndjson, ...)
    rows          BIGINT  NOT NULL,    -- rows stored from it, over all tables
    ingested_at   TIMESTAMP NOT NULL
);

CREATE TABLE runs (
    run_id              VARCHAR PRIMARY KEY, -- source:index
    source              VARCHAR NOT NULL,
    source_sha256       VARCHAR NOT NULL,
    source_line         INTEGER,
    tool                VARCHAR NOT NULL,
    tool_version        VARCHAR,
    server              VARCHAR,
    database            VARCHAR,
    test                VARCHAR,
    round               BIGINT,
    connections         BIGINT,
    threads             BIGINT,
    target_rps          DOUBLE,
    duration_s          DOUBLE,
    requests            BIGINT,
    responses_2xx       BIGINT,
    non_2xx             BIGINT,
    errors              BIGINT,
    rps                 DOUBLE,
    latency_mean_ms     DOUBLE,
    latency_stdev_ms    DOUBLE,
    latency_max_ms      DOUBLE,
    latency_p50_ms      DOUBLE,
    latency_p90_ms      DOUBLE,
    latency_p95_ms      DOUBLE,
    latency_p99_ms      DOUBLE,
    latency_p999_ms     DOUBLE,
    latency_corrected   BOOLEAN NOT NULL,
    bytes_read          BIGINT,
    cpu_server_s        DOUBLE,
    cpu_server_user_s   DOUBLE,
    cpu_server_kernel_s DOUBLE,
    cpu_db_s            DOUBLE,
    working_set_mb      DOUBLE,
    private_mb          DOUBLE,
    startup_s           DOUBLE,
    started_at          TIMESTAMP,
    labels              JSON
);

CREATE TABLE latency_percentiles (
    run_id     VARCHAR NOT NULL,
    percentile DOUBLE  NOT NULL, -- 0 to 100
    latency_ms DOUBLE  NOT NULL,
    count      BIGINT,           -- requests at or below, where the tool prints it
    corrected  BOOLEAN NOT NULL  -- corrected for coordinated omission
);

CREATE TABLE samples (
    run_id VARCHAR   NOT NULL,
    ts     TIMESTAMP NOT NULL,
    metric VARCHAR   NOT NULL,
    value  DOUBLE    NOT NULL,
    status INTEGER,
    tags   JSON
);

CREATE TABLE memory_series (
    server      VARCHAR,
    pass        BIGINT,
    concurrency BIGINT NOT NULL,
    wait_ms     DOUBLE,
    memory_mb   DOUBLE NOT NULL,
    requests    BIGINT,
    cpu_s       DOUBLE,
    source      VARCHAR NOT NULL,
    source_line INTEGER
);

CREATE TABLE calibration (
    source      VARCHAR NOT NULL,
    phase       VARCHAR NOT NULL, -- before or after
    utc         TIMESTAMP,
    processes   BIGINT NOT NULL,
    ms          DOUBLE NOT NULL,
    source_line INTEGER
);

CREATE TABLE prices (
    provider      VARCHAR PRIMARY KEY,
    region        VARCHAR,
    arch          VARCHAR,
    vcpu_hour_usd DOUBLE NOT NULL,
    gib_hour_usd  DOUBLE NOT NULL,
    as_of         DATE,
    source_url    VARCHAR
);
