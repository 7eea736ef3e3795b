/**
 * The last check day as it was read before issue 15 (every check_progress row of the project),
 * kept verbatim as the reference the identity tests compare the windowed reader and the project
 * detail's cached answer against.
 */
export const PREVIOUS_LAST_CHECK_DAY_QUERY = `SELECT toString(day) AS date, toString(countIf(state = 'completed')) AS checked, toString(countIf(state = 'failed')) AS failed,
              toString(countIf(state IN ('queued', 'retry_waiting'))) AS pending
       FROM (
         SELECT check_id, min(day) AS day, argMax(state, version) AS state
         FROM check_progress
         WHERE project_id = {projectId:String}
         GROUP BY check_id
       )
       GROUP BY day
       ORDER BY day DESC
       LIMIT 1`;
