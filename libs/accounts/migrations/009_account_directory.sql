-- The operator's directory of accounts, for listing them paged and filtered by status or plan.
-- Account events change one thing at a time (a plan, a status), so each event writes the facts it
-- knows, one row per (account, fact), versioned by log position; a listing pivots them back. The
-- balance is not here: it moves with every scrape, and the listing reads it from the account's own
-- stream for the accounts of the page.
CREATE TABLE IF NOT EXISTS account_facts
(
    account_id String,
    fact LowCardinality(String),
    value String,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (account_id, fact);
