-- A check's whole result page as one row: how it ended (status, position, failure reason, source),
-- its organic results and its AI Overview's cited sources as parallel arrays. It replaces
-- serp_checks (organic results, a row per successful check with results) and ai_overview_sources
-- (a row per cited source). position-history read those two and keyword_updates in one statement
-- of three reads, 37-45 ms on the bench's seeded year; from this table it is one read of two rows,
-- 17-24 ms (the same checks, the same answers).
--
-- Every check has a row, a failed one or one without results too (with empty arrays), so that the
-- pick of "this check and the latest success before it" reads this table alone. positions[i], urls[i],
-- titles[i], domains[i] are the i-th organic result in the order the check listed them (position
-- order); the ai_ arrays likewise for the cited sources. A check stored twice (a replay) is an
-- identical row, folded by version.
CREATE TABLE IF NOT EXISTS check_snapshots
(
    project_id String,
    keyword_id String,
    check_id String,
    checked_at DateTime64(3, 'UTC'),
    status LowCardinality(String),            -- success | failed
    position UInt16,                          -- the project's best position, 0: not within the depth (or failed)
    failure_reason String,
    source LowCardinality(String),            -- the SERP source that answered; '' for a failed check
    positions Array(UInt16),
    urls Array(String),
    titles Array(String),
    domains Array(String),
    ai_positions Array(UInt16),
    ai_urls Array(String),
    ai_titles Array(String),
    ai_domains Array(String),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(checked_at)
ORDER BY (project_id, keyword_id, checked_at, check_id);

-- A rerun after a failure between the DROP TABLE and the CREATE VIEW of ai_overview_sources below finds
-- neither: this makes the view, over the rows the first run wrote, for the INSERT below to read. Where
-- ai_overview_sources is still the table (a first run, any other rerun), IF NOT EXISTS leaves it as it is.
CREATE VIEW IF NOT EXISTS ai_overview_sources AS
SELECT project_id, keyword_id, check_id, checked_at, position, url, title, domain, version
FROM check_snapshots
ARRAY JOIN ai_positions AS position, ai_urls AS url, ai_titles AS title, ai_domains AS domain;

-- The checks stored before this migration: each check's newest keyword_updates row, with its newest
-- serp_checks row (none for a failure or an empty page: empty arrays) and its cited sources, each
-- position's newest, in position order. Every source is folded by version, so the row is the one the
-- projection writes for the newest event of the check, with that event's version.
-- Memory: serp_checks, the bulk, is read with FINAL, which folds versions while streaming in the
-- table's order; the keyword updates (a few hundred bytes a check) and the cited sources are held in
-- hash tables. On the bench's seeded year (1.28 million checks, 105,000 result lists of 333 MiB of
-- text) this ran in 3.6-4.1 s within 2 GB, where folding serp_checks with GROUP BY instead did not
-- fit in 2 GB. Like 012, it writes every stored result once more before the old table goes: allow
-- for the time, the disk and about 2 GB of memory per million checks on a server with a long history.
-- A rerun after a later statement failed reads ai_overview_sources as the view made below (rows of
-- this table), so it writes identical rows, which the engine folds.
INSERT INTO check_snapshots (project_id, keyword_id, check_id, checked_at, status, position, failure_reason, source,
                             positions, urls, titles, domains, ai_positions, ai_urls, ai_titles, ai_domains, version)
SELECT k.project_id, k.keyword_id, k.check_id, k.checked_at,
       k.outcome.1, k.outcome.2, k.outcome.3, k.outcome.4,
       s.results.1, s.results.2, s.results.3, s.results.4,
       arrayMap(c -> c.1, a.cited), arrayMap(c -> c.2, a.cited), arrayMap(c -> c.3, a.cited), arrayMap(c -> c.4, a.cited),
       k.newest_version
FROM (
    SELECT project_id, check_id, tuple(positions, urls, titles, domains) AS results
    FROM serp_checks FINAL
) AS s
RIGHT JOIN (
    SELECT project_id, keyword_id, check_id, checked_at,
           tuple(status, position, failure_reason, source) AS outcome, version AS newest_version
    FROM keyword_updates FINAL
) AS k ON s.project_id = k.project_id AND s.check_id = k.check_id
LEFT JOIN (
    SELECT project_id, check_id, arraySort(groupArray(tuple(position, newest.1, newest.2, newest.3))) AS cited
    FROM (
        SELECT project_id, check_id, position, argMax(tuple(url, title, domain), version) AS newest
        FROM ai_overview_sources
        GROUP BY project_id, keyword_id, checked_at, check_id, position
    )
    GROUP BY project_id, check_id
) AS a ON a.project_id = k.project_id AND a.check_id = k.check_id
SETTINGS join_use_nulls = 0;

-- The readers of organic results (competitor positions, the report's standings) keep reading
-- `serp_results`, now a view of this table's arrays; a check with no results has no rows in it.
DROP VIEW IF EXISTS serp_results;

CREATE VIEW IF NOT EXISTS serp_results AS
SELECT project_id, keyword_id, check_id, checked_at, position, url, title, domain, version
FROM check_snapshots
ARRAY JOIN positions AS position, urls AS url, titles AS title, domains AS domain;

-- DROP TABLE removes the table, or on a rerun the view made below (made again next).
DROP TABLE IF EXISTS ai_overview_sources;

CREATE VIEW IF NOT EXISTS ai_overview_sources AS
SELECT project_id, keyword_id, check_id, checked_at, position, url, title, domain, version
FROM check_snapshots
ARRAY JOIN ai_positions AS position, ai_urls AS url, ai_titles AS title, ai_domains AS domain;

-- serp_checks is dropped by migration 018, not here: see there.
