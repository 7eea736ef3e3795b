-- Each keyword's pick of each UTC day, folded by the engine: the latest successful check, else the
-- latest failed one, as the daily reads pick it from keyword_day_checks (migration 011). A row per
-- check on INSERT; merges, and FINAL on read, keep one per keyword and day: the max of
-- (succeeded, checked_at, check_id, ...), success first, then the latest, ties by check id (the rest
-- of the tuple only differs between rows of one check, which are identical).
--
-- Why: a read of a year of days picked the day's check from keyword_day_checks with ORDER BY ...
-- LIMIT 1 BY keyword and day, a hash of every keyword-day (1.28 M on the bench's year), which was
-- most of its time: the summary's day figures took 440-500 ms, of which reading the rows was 75 ms.
-- FINAL folds rows that share the sort key while reading them in order, with no such hash: 110-130 ms
-- merged, about 250 ms with a month of rows not merged yet. A reader that wants the day's latest
-- success keeps the picks with pick.1 = 1: a day whose pick failed had no success.
CREATE TABLE IF NOT EXISTS keyword_day_picks
(
    project_id String,
    keyword_id String,
    day Date,
    -- (succeeded, checked_at, check_id, position, page_key, has_ai_overview)
    pick SimpleAggregateFunction(max, Tuple(UInt8, DateTime64(3, 'UTC'), String, UInt16, UInt64, UInt8))
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, keyword_id, day);

CREATE MATERIALIZED VIEW IF NOT EXISTS keyword_day_picks_from_updates TO keyword_day_picks AS
SELECT project_id, keyword_id, toDate(checked_at) AS day,
       tuple(toUInt8(status = 'success'), checked_at, check_id, position, cityHash64(url, title, domain), has_ai_overview) AS pick
FROM keyword_updates;

-- The checks stored before this migration. A rerun (after a later statement failed) adds identical
-- rows, which max folds.
INSERT INTO keyword_day_picks
SELECT project_id, keyword_id, toDate(checked_at) AS day,
       tuple(toUInt8(status = 'success'), checked_at, check_id, position, cityHash64(url, title, domain), has_ai_overview) AS pick
FROM keyword_updates;
