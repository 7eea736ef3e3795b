/**
 * Reading `keyword_day_checks` (migration 011): every check of a keyword, narrow, sorted by project,
 * keyword, day, succeeded, checked_at, check_id. Sorting a selection of its rows by this order, which
 * is the table's own read backwards, puts first in each keyword's day the check the daily reads pick
 * (the latest success, else the latest failure; ties by check id), and first in any longer period
 * the latest of those; `LIMIT 1 BY keyword_id, <period>` then keeps exactly the picks. A replayed
 * check is an identical row after the first, so it is never picked twice.
 */
export const PICKS_FIRST = 'ORDER BY keyword_id DESC, day DESC, succeeded DESC, checked_at DESC, check_id DESC';
