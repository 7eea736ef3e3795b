-- The ranking reads pre-reduced: each keyword's pick of each UTC day, and the pages the picks point at.
-- Both tables are filled by materialized views on keyword_updates, so every writer (the projection,
-- a replay, the bench's seed) fills them on INSERT without knowing they exist. Project deletion and
-- rebuilds reach them through the tracking projection's table list.

-- One row per keyword and UTC day once merged: the day's latest successful check, else its latest
-- failed one (argMax over (succeeded, checked_at, check_id), the rule of the daily keyword-updates).
-- Weekly and monthly reads take the days whose pick succeeded and reduce them again; the pages read
-- and the summary export read the same successful day picks. A check stored twice (a replay) is an
-- identical argument and value, so merging its states changes nothing, and running this file twice
-- (the backfill below) neither.
-- pick = (checked_at, check_id, succeeded, position, page_key, has_ai_overview); page_key is
-- cityHash64(url, title, domain), the key of ranking_pages.
CREATE TABLE IF NOT EXISTS keyword_days
(
    project_id String,
    keyword_id String,
    day Date,
    pick AggregateFunction(argMax, Tuple(DateTime64(3, 'UTC'), String, UInt8, UInt16, UInt64, UInt8), Tuple(UInt8, DateTime64(3, 'UTC'), String))
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, keyword_id, day);

CREATE MATERIALIZED VIEW IF NOT EXISTS keyword_days_from_updates TO keyword_days AS
SELECT project_id,
       keyword_id,
       toDate(checked_at) AS day,
       argMaxState(tuple(checked_at, check_id, toUInt8(status = 'success'), position, cityHash64(url, title, domain), has_ai_overview),
                   tuple(toUInt8(status = 'success'), checked_at, check_id)) AS pick
FROM keyword_updates
GROUP BY project_id, keyword_id, day;

-- The ranking page (URL, title, domain) of each page_key of a project's successful checks: a keyword
-- ranks with a few pages all year, so the picks carry the 64-bit key and the strings live here once.
CREATE TABLE IF NOT EXISTS ranking_pages
(
    project_id String,
    page_key UInt64,
    url String,
    title String,
    domain String
)
ENGINE = ReplacingMergeTree
ORDER BY (project_id, page_key);

CREATE MATERIALIZED VIEW IF NOT EXISTS ranking_pages_from_updates TO ranking_pages AS
SELECT DISTINCT project_id, cityHash64(url, title, domain) AS page_key, url, title, domain
FROM keyword_updates
WHERE status = 'success';

-- The checks stored before this migration. A rerun (after a later statement failed) adds identical
-- states and rows, which the engines fold.
INSERT INTO keyword_days
SELECT project_id,
       keyword_id,
       toDate(checked_at) AS day,
       argMaxState(tuple(checked_at, check_id, toUInt8(status = 'success'), position, cityHash64(url, title, domain), has_ai_overview),
                   tuple(toUInt8(status = 'success'), checked_at, check_id)) AS pick
FROM keyword_updates
GROUP BY project_id, keyword_id, day;

INSERT INTO ranking_pages
SELECT DISTINCT project_id, cityHash64(url, title, domain) AS page_key, url, title, domain
FROM keyword_updates
WHERE status = 'success';
