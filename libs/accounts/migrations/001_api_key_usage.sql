-- Last use of each API key, written in the background (at most every 30 s per process).
-- ReplacingMergeTree keeps the latest row per key; readers take max(used_at) so unmerged parts do not matter.
CREATE TABLE IF NOT EXISTS api_key_usage
(
    account_id String,
    key_id String,
    used_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(used_at)
ORDER BY (account_id, key_id);
