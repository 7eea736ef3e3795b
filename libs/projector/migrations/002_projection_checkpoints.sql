-- How far each projection has read the event log. Readers take max(position).
CREATE TABLE IF NOT EXISTS projection_checkpoints
(
    name String,
    position UInt64,
    updated_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(position)
ORDER BY name;
