-- A checkpoint names the event it stands on: its id, and the position of the event before it (a
-- position a read can start after, on either event store).
--
-- Why: read models written past a restored log's end are refused by comparing positions, but once the
-- restored log has grown past the checkpoint (an operator's CLI writes, a start refused and retried)
-- the positions no longer tell the logs apart: the read models counted the new events as written and
-- never projected them. The event at the checkpoint's position does tell: another id, another log.
-- Checkpoints written before this migration carry an empty id and are not compared.
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS event_id String DEFAULT '';
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS previous_position UInt64 DEFAULT 0;
