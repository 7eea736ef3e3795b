-- The checks stored before check_progress existed (010 created it empty): a row for each one's
-- result, as the projection writes it (its state, the day it ended, the event's version), so that
-- an upgraded service shows a project's last check day from them as a service with a fresh read
-- store does. Before, it showed null until the next check, and a rebuild was the only cure.
-- A check that has rows already (stored since 010) is left alone, so a rerun writes nothing; a later
-- replay writes the same rows (the same key and version) with their batch, which replace these.
INSERT INTO check_progress (project_id, check_id, batch_id, keyword_id, account_id, credits_per_check, requested_at, day, state, attempt, retry_at, reason, version)
SELECT project_id, check_id, '', keyword_id, '', 0, toDateTime64(0, 3, 'UTC'), toDate(checked_at),
       if(status = 'success', 'completed', 'failed'), 0, toDateTime64(0, 3, 'UTC'), '', version
FROM keyword_updates FINAL
WHERE check_id NOT IN (SELECT check_id FROM check_progress);
