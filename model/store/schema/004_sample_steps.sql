-- The figures of each step of a k6 ladder over its request samples
-- (sample_steps_of in views/13_ladder_steps.sql), one row per (run,
-- step), stored with the samples in the file's transaction, so that
-- ladder_steps reads a row per step instead of every request sample of
-- the store. A store of an older wra has them filled from its samples,
-- run by run, when it is migrated.
CREATE TABLE sample_steps (
    run_id    VARCHAR   NOT NULL,
    step      VARCHAR   NOT NULL,
    requests  BIGINT    NOT NULL,
    failed    BIGINT    NOT NULL,
    p95_ms    DOUBLE    NOT NULL,
    last_ts   TIMESTAMP NOT NULL,
    median_us DOUBLE    NOT NULL
);
