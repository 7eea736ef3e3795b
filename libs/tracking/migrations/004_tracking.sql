-- Ranking data, written from CheckCompleted / CheckFailed (stream checks-<projectId>).
-- Keyed by check id: a check is stored once however often its event is replayed.
-- Partitioned by month of the check; ordered for the reads: one project, its keywords, a date range.

-- One row per check: the keyword update of the API (`_id` = check_id).
CREATE TABLE IF NOT EXISTS keyword_updates
(
    project_id String,
    keyword_id String,
    check_id String,
    checked_at DateTime64(3, 'UTC'),
    status LowCardinality(String),            -- success | failed
    position UInt16,                          -- 0: not within the depth (or failed)
    url String,
    title String,
    domain String,
    has_ai_overview UInt8,
    failure_reason String,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(checked_at)
ORDER BY (project_id, keyword_id, checked_at, check_id);

-- Where a check id lives, for position-history?keywordUpdateId=...
CREATE TABLE IF NOT EXISTS checks_by_id
(
    check_id String,
    project_id String,
    keyword_id String,
    checked_at DateTime64(3, 'UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY check_id;

-- The organic results of each successful check, up to its depth.
CREATE TABLE IF NOT EXISTS serp_results
(
    project_id String,
    keyword_id String,
    check_id String,
    checked_at DateTime64(3, 'UTC'),
    position UInt16,
    url String,
    title String,
    domain String,
    version UInt64,
    INDEX idx_domain domain TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(checked_at)
ORDER BY (project_id, keyword_id, checked_at, check_id, position);

-- The AI Overview's cited sources of each successful check.
CREATE TABLE IF NOT EXISTS ai_overview_sources
(
    project_id String,
    keyword_id String,
    check_id String,
    checked_at DateTime64(3, 'UTC'),
    position UInt16,
    url String,
    title String,
    domain String,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(checked_at)
ORDER BY (project_id, keyword_id, checked_at, check_id, position);
