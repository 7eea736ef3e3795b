-- Keyword volumes: market data per (country, language, keyword text), shared by every project and
-- account, written from KeywordVolumesFetched (streams volumes-<geo>-<lang>). Rows are versioned by
-- log position (ReplacingMergeTree keeps the newest); query with FINAL. Failed fetches write nothing.

-- The latest fetch of each keyword: its figures and the 12 months it came with, oldest first, as
-- parallel arrays. A keyword the provider had no data for has null figures and empty arrays.
CREATE TABLE IF NOT EXISTS keyword_volumes
(
    geo_code LowCardinality(String),
    lang_code LowCardinality(String),
    keyword String,
    source LowCardinality(String),
    avg_monthly_searches Nullable(Float64),
    competition Nullable(String),
    competition_index Nullable(Float64),
    cpc_low Nullable(Float64),
    cpc_high Nullable(Float64),
    currency LowCardinality(String),
    history_years Array(UInt16),
    history_months Array(UInt8),
    history_values Array(Float64),
    fetched_at DateTime64(3, 'UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (geo_code, lang_code, keyword);

-- Every month ever fetched for a keyword (a monthly refresh adds one and may restate the others):
-- the whole history that keyword-volumes' single mode shows.
CREATE TABLE IF NOT EXISTS keyword_volume_months
(
    geo_code LowCardinality(String),
    lang_code LowCardinality(String),
    keyword String,
    year UInt16,
    month UInt8,
    value Float64,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (geo_code, lang_code, keyword, year, month);
