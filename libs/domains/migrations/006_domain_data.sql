-- Fetched data of external domains (the domain-<domain> streams), one row per fetch target holding
-- its latest successful fetch. Rows are versioned by log position (ReplacingMergeTree keeps the
-- newest); query with FINAL. Failed fetches write nothing here: a failure is never served as data.

-- Traffic: the months as parallel arrays (oldest first), and the figures read per domain.
CREATE TABLE IF NOT EXISTS domain_traffic
(
    domain String,
    fetched_at DateTime64(3, 'UTC'),
    months Array(String),
    visits Array(Nullable(Float64)),
    total_visits Float64,
    bounce_rate Nullable(Float64),
    avg_visit_duration Nullable(Float64),
    has_data UInt8,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY domain;

-- Page speed: level 'domain' is the domain's home-page snapshot, 'page' one ranking URL.
CREATE TABLE IF NOT EXISTS page_speed
(
    domain String,
    level LowCardinality(String),
    url String,
    source LowCardinality(String),
    measured_at DateTime64(3, 'UTC'),
    performance_score Nullable(Float64),
    accessibility_score Nullable(Float64),
    best_practices_score Nullable(Float64),
    seo_score Nullable(Float64),
    largest_contentful_paint Nullable(Float64),
    first_contentful_paint Nullable(Float64),
    total_blocking_time Nullable(Float64),
    cumulative_layout_shift Nullable(Float64),
    has_field_data UInt8,
    field_lcp_p75 Nullable(Float64),
    field_cls_p75 Nullable(Float64),
    field_inp_p75 Nullable(Float64),
    crux_score Nullable(Float64),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (domain, level, url);

-- CrUX history: target 'origin' (url is the origin) or 'url'; the periods as parallel arrays, oldest first.
CREATE TABLE IF NOT EXISTS crux_history
(
    domain String,
    target LowCardinality(String),
    url String,
    fetched_at DateTime64(3, 'UTC'),
    dates Array(String),
    lcp_p75 Array(Nullable(Float64)),
    cls_p75 Array(Nullable(Float64)),
    inp_p75 Array(Nullable(Float64)),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (domain, target, url);
