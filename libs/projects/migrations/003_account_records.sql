-- The account's own records, for analysts who join rankings with projects and keywords in SQL.
-- Rows are versioned by event log position: a replay or a repeated event writes the same row again,
-- and ReplacingMergeTree keeps one. Removed things are tombstones (is_deleted = 1); query with FINAL.
-- A deleted project's rows are deleted outright, so nothing of it is left.
CREATE TABLE IF NOT EXISTS projects
(
    project_id String,
    account_id String,
    name String,
    domain String,
    aliases Array(String),
    competitors Array(String),
    shared UInt8,
    update_frequency LowCardinality(String),
    custom_update_days Array(UInt8),
    update_time UInt8,
    update_timezone String,
    serp_top UInt8,
    created_at DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (account_id, project_id);

-- Which folder a project is in, apart from the project row: deleting a folder unassigns many projects.
CREATE TABLE IF NOT EXISTS project_folders
(
    project_id String,
    account_id String,
    folder_id Nullable(String),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (account_id, project_id);

CREATE TABLE IF NOT EXISTS folders
(
    folder_id String,
    account_id String,
    name String,
    position UInt32,
    version UInt64,
    is_deleted UInt8
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (account_id, folder_id);

CREATE TABLE IF NOT EXISTS keywords
(
    project_id String,
    keyword_id String,
    value String,
    geo_code LowCardinality(String),
    lang_code LowCardinality(String),
    added_at DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (project_id, keyword_id);

CREATE TABLE IF NOT EXISTS notes
(
    project_id String,
    note_id String,
    date Date,
    text String,
    color LowCardinality(String),
    version UInt64,
    is_deleted UInt8
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (project_id, note_id);
