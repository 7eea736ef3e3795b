-- The ranking reads' narrow tables: every check by keyword and UTC day without its strings, each
-- week's latest success, and the pages they point at. All three are filled by materialized views on keyword_updates, so every writer (the projection,
-- a replay, the bench's seed) fills them on INSERT without knowing they exist. Project deletion and
-- rebuilds reach them through the tracking projection's table list.

-- Every check of a keyword, narrow: its UTC day and what a pick needs, without the page's strings
-- (page_key = cityHash64(url, title, domain), the key of ranking_pages). Sorted so that a keyword's
-- days lie together and, within a day, the check the daily keyword-updates picks (the latest success,
-- else the latest failure: max of (succeeded, checked_at, check_id)) comes last: the reads take it
-- with ORDER BY ... DESC LIMIT 1 BY, reading the table in its own order, with no aggregate state to
-- decode (an argMax state over tuples costs more to merge than the scan it saves). Weekly and monthly,
-- the pages read and the summary export take the latest successful check of their periods the same
-- way. A check stored twice (a replay) is an identical row: ReplacingMergeTree folds it, and LIMIT 1
-- BY never sees past the first of two.
CREATE TABLE IF NOT EXISTS keyword_day_checks
(
    project_id String,
    keyword_id String,
    day Date,
    succeeded UInt8,
    checked_at DateTime64(3, 'UTC'),
    check_id String,
    position UInt16,
    page_key UInt64,
    has_ai_overview UInt8
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, keyword_id, day, succeeded, checked_at, check_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS keyword_day_checks_from_updates TO keyword_day_checks AS
SELECT project_id, keyword_id, toDate(checked_at) AS day, toUInt8(status = 'success') AS succeeded, checked_at, check_id, position,
       cityHash64(url, title, domain) AS page_key, has_ai_overview
FROM keyword_updates;

-- Each keyword's latest successful check of each ISO week (Monday start, UTC), for the weekly reads
-- of a long window: a row per check on INSERT, folded by merges to one per keyword and week by max of
-- (checked_at, check_id, ...), the week's latest success with ties by check id (the rest of the tuple
-- only differs between rows of one check, which are identical). Reads still take the max of the rows
-- not merged yet (ORDER BY pick DESC LIMIT 1 BY), so the answer never depends on merges.
CREATE TABLE IF NOT EXISTS keyword_week_picks
(
    project_id String,
    keyword_id String,
    week Date,
    -- (checked_at, check_id, position, page_key, has_ai_overview)
    pick SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), String, UInt16, UInt64, UInt8))
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(week)
ORDER BY (project_id, keyword_id, week);

CREATE MATERIALIZED VIEW IF NOT EXISTS keyword_week_picks_from_updates TO keyword_week_picks AS
SELECT project_id, keyword_id, toMonday(checked_at) AS week,
       tuple(checked_at, check_id, position, cityHash64(url, title, domain), has_ai_overview) AS pick
FROM keyword_updates
WHERE status = 'success';

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
-- rows, which the engines fold and the reads see through.
INSERT INTO keyword_day_checks
SELECT project_id, keyword_id, toDate(checked_at) AS day, toUInt8(status = 'success') AS succeeded, checked_at, check_id, position,
       cityHash64(url, title, domain) AS page_key, has_ai_overview
FROM keyword_updates;

INSERT INTO keyword_week_picks
SELECT project_id, keyword_id, toMonday(checked_at) AS week,
       tuple(checked_at, check_id, position, cityHash64(url, title, domain), has_ai_overview) AS pick
FROM keyword_updates
WHERE status = 'success';

INSERT INTO ranking_pages
SELECT DISTINCT project_id, cityHash64(url, title, domain) AS page_key, url, title, domain
FROM keyword_updates
WHERE status = 'success';
