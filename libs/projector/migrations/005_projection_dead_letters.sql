-- Events a projection could not write (a row ClickHouse refuses to parse, say): recorded here once,
-- with the reason, so the projection moves on instead of stalling every read model behind them.
CREATE TABLE IF NOT EXISTS projection_dead_letters
(
    runner String,
    event_id String,
    stream String,
    type String,
    position UInt64,
    error String,
    dead_lettered_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY (runner, event_id);
