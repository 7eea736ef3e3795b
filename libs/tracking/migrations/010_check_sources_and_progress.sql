-- The SERP source that answered each check (browser, fetch-api, dataforseo, serpapi). Checks stored
-- before sources existed were all loaded by the browser; failed checks have no answering source ('').
ALTER TABLE keyword_updates ADD COLUMN IF NOT EXISTS source LowCardinality(String) DEFAULT 'browser';

-- Where each check stands, from its work order's stream and its result: queued (or requeued for a
-- retry), waiting for a retry later the same day, completed or failed. One row per event (a replayed
-- event replaces its own row); readers fold a check's rows, its state the latest (argMax by version),
-- the rest from the queue's rows (a result's row leaves them empty).
-- Read for a project's last check day ({checked, failed, pending}) and by the retry timer, which
-- requeues the retries whose time has come.
CREATE TABLE IF NOT EXISTS check_progress
(
    project_id String,
    check_id String,
    batch_id String,
    keyword_id String,
    account_id String,
    credits_per_check UInt32,
    requested_at DateTime64(3, 'UTC'),
    -- The UTC day the check was asked for: a project's "last check day".
    day Date,
    state LowCardinality(String),             -- queued | retry_waiting | completed | failed
    -- The try under way or waiting: 1 the first.
    attempt UInt8,
    -- For retry_waiting: when the next try may start.
    retry_at DateTime64(3, 'UTC'),
    -- For retry_waiting: why the last try failed.
    reason String,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, check_id, version);
