-- A check's organic results as one row of parallel arrays instead of a row per result. A replay of
-- checks wrote some 50 rows per check into serp_results, which ClickHouse parsed, sorted and wrote
-- with the check's key repeated on every row: 85 % of the engine's time in a replay. Here a check is
-- one row (its key once, four arrays), so a replay sorts a fiftieth of the rows and parses the key
-- once. The readers keep reading `serp_results`, now a view that unfolds the arrays with ARRAY JOIN:
-- their filters on project, keyword, time and check reach serp_checks' sort key through it.
--
-- positions[i], urls[i], titles[i], domains[i] are the i-th result, in the order the check listed
-- them (position order). A check stored twice (a replay) is an identical row, folded by version.
CREATE TABLE IF NOT EXISTS serp_checks
(
    project_id String,
    keyword_id String,
    check_id String,
    checked_at DateTime64(3, 'UTC'),
    positions Array(UInt16),
    urls Array(String),
    titles Array(String),
    domains Array(String),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(checked_at)
ORDER BY (project_id, keyword_id, checked_at, check_id);

-- A rerun after a failure between the DROP TABLE and the CREATE VIEW at the end finds neither the
-- table nor the view of serp_results: this makes the view, over the rows the first run wrote, for the
-- INSERT below to read. Where serp_results is still the table (a first run, any other rerun), IF NOT
-- EXISTS leaves it as it is.
CREATE VIEW IF NOT EXISTS serp_results AS
SELECT project_id, keyword_id, check_id, checked_at, position, url, title, domain, version
FROM serp_checks
ARRAY JOIN positions AS position, urls AS url, titles AS title, domains AS domain;

-- The results stored before this migration, a check (and version) a row, its results in position
-- order; a row stored twice and not yet merged away is taken once (groupUniqArray). On a server with
-- a long history this rewrites every stored result once: allow for the time and the disk. A rerun after a
-- later statement failed reads serp_results as the view and writes identical rows, which the engine
-- folds and the reads see through.
INSERT INTO serp_checks (project_id, keyword_id, check_id, checked_at, positions, urls, titles, domains, version)
SELECT project_id, keyword_id, check_id, checked_at,
       arrayMap(r -> r.1, results), arrayMap(r -> r.2, results), arrayMap(r -> r.3, results), arrayMap(r -> r.4, results),
       version
FROM (
    SELECT project_id, keyword_id, checked_at, check_id, version,
           arraySort(groupUniqArray(tuple(position, url, title, domain))) AS results
    FROM serp_results
    GROUP BY project_id, keyword_id, checked_at, check_id, version
)
-- Grouped in the table's own order, a check at a time, so that memory stays flat over years of results.
SETTINGS optimize_aggregation_in_order = 1;

-- DROP TABLE removes the table, or on a rerun the view made below (made again next).
DROP TABLE IF EXISTS serp_results;

CREATE VIEW IF NOT EXISTS serp_results AS
SELECT project_id, keyword_id, check_id, checked_at, position, url, title, domain, version
FROM serp_checks
ARRAY JOIN positions AS position, urls AS url, titles AS title, domains AS domain;
