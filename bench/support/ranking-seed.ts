/**
 * A year of daily rankings for one project, written straight into the ClickHouse tables of
 * projections/migrations/004_tracking.sql: the tables the ranking reads query, with the rows the
 * tracking projection would have written for the same checks.
 *
 * Why not through the event log: 1.28 million CheckCompleted events with their result lists would
 * take many minutes to append and project on 2 cores, and the projection's speed has a bench of
 * its own (projection-replay). The reads only see the tables, so the tables are what is seeded.
 *
 * - keyword_updates: the random walks (per-keyword state) are generated here, sent as one array row per
 *   keyword to a staging table and expanded into rows by INSERT ... SELECT ... ARRAY JOIN.
 * - keyword_day_checks, keyword_day_picks, keyword_week_picks and ranking_pages: filled by their materialized views on that INSERT, as the app's are.
 * - checks_by_id: copied from keyword_updates with INSERT ... SELECT (it is the same rows, re-keyed).
 * - check_snapshots (read also as the views serp_results and ai_overview_sources): generated inside
 *   ClickHouse with INSERT ... SELECT, a row per check with 30 results per successful check (plus the
 *   project's own result when it ranks 31-50) and 4 cited sources per check that had an overview, for
 *   the LAST 30 DAYS ONLY: a full year is 3,500 x 365 x 30 = 38M+ results, minutes of inserting and
 *   merging on 2 cores, while the reads that use result lists (position-history: one check and the
 *   previous one; competitors: the default 30-day window) never look further back.
 */
import { performance } from 'node:perf_hooks';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { Random } from './random';

export const SEEDED_DAYS = 365;
export const RESULT_LIST_DAYS = 30;
const RESULTS_PER_CHECK = 30;
const SERP_TOP = 50;
const STAGING_TABLE = 'bench_seed_walks';
const STAGING_BATCH_KEYWORDS = 500;
const DAY_MS = 86_400_000;
/** Distinct landing pages of the project's site (what GET /pages groups by). */
const SITE_PAGES = 450;
const RIVAL_DOMAINS = 300;

export interface RankingSeedInput {
  projectId: string;
  /** The project's domain, as the app normalised it. */
  domain: string;
  /** The project's keyword ids (from the app, so reads that list keywords from the event store match). */
  keywordIds: readonly string[];
  /** The last seeded day (UTC, YYYY-MM-DD); checks run on it and the SEEDED_DAYS - 1 days before. */
  lastDay: string;
  /** Checks are never later than this (today's check may not have "happened" yet). */
  now: Date;
}

export interface RankingSeed {
  keywordUpdates: number;
  failedChecks: number;
  serpResults: number;
  aiOverviewSources: number;
  /** A successful check of the last day whose keyword ranks (position-history reads it). */
  latestRankingCheckId: string;
  timings: { label: string; ms: number; rows: number }[];
}

interface KeywordWalk {
  /** Where the keyword tends to rank (mean reversion target); > SERP_TOP means usually absent. */
  home: number;
  position: number;
  page: number;
  aiOverviews: boolean;
}

export async function seedRankings(store: ReadStore, input: RankingSeedInput): Promise<RankingSeed> {
  const timings: RankingSeed['timings'] = [];
  const timed = async (label: string, rows: () => Promise<number>) => {
    const started = performance.now();
    const count = await rows();
    timings.push({ label, ms: performance.now() - started, rows: count });
    return count;
  };

  const random = new Random(20_250_101);
  const firstDayMs = Date.parse(`${input.lastDay}T00:00:00.000Z`) - (SEEDED_DAYS - 1) * DAY_MS;
  let failedChecks = 0;

  const params = { projectId: input.projectId };
  const keywordUpdates = await timed('keyword_updates (walks generated in Node, expanded by INSERT ... SELECT)', async () => {
    // One staging row per keyword holding its year as parallel arrays: JSON of a few thousand rows of
    // numbers travels ~20x faster than 1.28M JSON objects of strings, and ClickHouse then expands
    // them into rows itself (ARRAY JOIN), deriving ids, URLs and titles with the same rules.
    await store.command(`CREATE TABLE ${STAGING_TABLE}
      (keyword_id String, at_ms Array(Int64), ok Array(UInt8), pos Array(UInt16), pg Array(UInt16), ai Array(UInt8))
      ENGINE = Memory`);
    try {
      let batch: Record<string, unknown>[] = [];
      for (const [index, keywordId] of input.keywordIds.entries()) {
        const walk = newWalk(random);
        const year = {
          keyword_id: keywordId,
          at_ms: [] as number[],
          ok: [] as number[],
          pos: [] as number[],
          pg: [] as number[],
          ai: [] as number[],
        };
        const check = (atMs: number, succeeded: boolean) => {
          year.at_ms.push(atMs);
          year.ok.push(succeeded ? 1 : 0);
          const rounded = Math.round(walk.position);
          year.pos.push(succeeded && rounded <= SERP_TOP ? rounded : 0);
          year.pg.push(walk.page);
          year.ai.push(succeeded && walk.aiOverviews && random.chance(0.85) ? 1 : 0);
        };
        // The scheduler spreads a project's checks over a few hours after its update time.
        const offsetMs = 6 * 3_600_000 + Math.floor((index / input.keywordIds.length) * 3 * 3_600_000);
        // No check of today may lie in the future; the caps keep a keyword's check times distinct.
        const latestMs = input.now.getTime() - 60_000 - index * 3;
        for (let day = 0; day < SEEDED_DAYS; day++) {
          step(walk, random);
          const scheduledMs = Math.min(firstDayMs + day * DAY_MS + offsetMs, latestMs - 2);
          if (random.chance(0.012)) {
            failedChecks++;
            check(scheduledMs, false);
            // Most failures are retried and succeed later that day: two checks, one day (the dedup case).
            if (random.chance(0.4)) check(Math.min(scheduledMs + 2 * 3_600_000, latestMs - 1), true);
            continue;
          }
          check(scheduledMs, true);
          // Now and then an on-demand scrape adds a second successful check on the same day.
          if (random.chance(0.003)) check(Math.min(scheduledMs + 3 * 3_600_000, latestMs), true);
        }
        batch.push(year);
        if (batch.length >= STAGING_BATCH_KEYWORDS) {
          await store.insert(STAGING_TABLE, batch);
          batch = [];
        }
      }
      if (batch.length > 0) await store.insert(STAGING_TABLE, batch);

      await store.command(
        `INSERT INTO keyword_updates
           (project_id, keyword_id, check_id, checked_at, status, position, url, title, domain, has_ai_overview, failure_reason, version)
         SELECT {projectId:String}, keyword_id,
                -- An object-id like the app's: 4 bytes of seconds of the check, then 8 pseudo-random bytes.
                concat(leftPad(lower(hex(toUInt32(intDiv(at_ms, 1000)))), 8, '0'), leftPad(lower(hex(cityHash64(keyword_id, at_ms))), 16, '0')),
                fromUnixTimestamp64Milli(at_ms, 'UTC'),
                if(ok = 1, 'success', 'failed'),
                pos,
                if(pos > 0, concat('https://', {domain:String}, '/c/', toString(pg % 30), '/product-', toString(pg)), ''),
                if(pos > 0, concat('Product ', toString(pg), ': prices, sizes and reviews | Bench Shop'), ''),
                if(pos > 0, {domain:String}, ''),
                ai,
                if(ok = 1, '', 'Google answered with its unusual-traffic page after 3 attempts'),
                1
         FROM ${STAGING_TABLE}
         ARRAY JOIN at_ms, ok, pos, pg, ai`,
        { ...params, domain: input.domain },
      );
    } finally {
      await store.command(`DROP TABLE IF EXISTS ${STAGING_TABLE}`);
    }
    return countRows(store, 'keyword_updates', input.projectId);
  });

  const [latest] = await store.query<{ check_id: string }>(
    `SELECT check_id FROM keyword_updates
     WHERE project_id = {projectId:String} AND toDate(checked_at) = {day:String} AND status = 'success' AND position BETWEEN 5 AND 25
     ORDER BY keyword_id LIMIT 1`,
    { ...params, day: input.lastDay },
  );
  if (!latest) throw new Error('no ranking check on the last day: the seed is broken');
  const latestRankingCheckId = latest.check_id;

  await timed('checks_by_id (INSERT ... SELECT from keyword_updates)', async () => {
    await store.command(
      `INSERT INTO checks_by_id (check_id, project_id, keyword_id, checked_at, version)
       SELECT check_id, project_id, keyword_id, checked_at, version FROM keyword_updates WHERE project_id = {projectId:String}`,
      params,
    );
    return countRows(store, 'checks_by_id', input.projectId);
  });

  const resultsFrom = new Date(Date.parse(`${input.lastDay}T00:00:00.000Z`) - (RESULT_LIST_DAYS - 1) * DAY_MS);
  // SQL for slot n's rival domain, the source cited n-th, and whether the n-th citation is the project's page.
  const rival = (n: string) =>
    `concat('rival-', toString((cityHash64(keyword_id, ${n}) + (cityHash64(check_id, ${n}) % 10 = 0)) % ${RIVAL_DOMAINS}), '.example')`;
  const citedSource = (n: string) => `concat('source-', toString(cityHash64(keyword_id, ${n}) % 80), '.example')`;
  const ourCitation = (n: string) => `(${n} = 2 AND position BETWEEN 1 AND 10)`;
  await timed(`check_snapshots (INSERT ... SELECT, last ${RESULT_LIST_DAYS} days)`, async () => {
    // Slot n is the project's own result when it ranks n; the other slots are rivals whose order is
    // stable per keyword, with about 1 slot in 10 changing from one check to the next, so that
    // position-history has real movement (up, down, new, gone) to compute. The overview cites the
    // project's page second when the page ranks in the top 10. A check is one row of parallel arrays
    // (migration 014), its lists in position order; a failed check's lists are empty.
    await store.command(
      `INSERT INTO check_snapshots (project_id, keyword_id, check_id, checked_at, status, position, failure_reason, source,
                                    positions, urls, titles, domains, ai_positions, ai_urls, ai_titles, ai_domains, version)
       SELECT project_id, keyword_id, check_id, checked_at, status, position, failure_reason, source,
              slots,
              arrayMap(n -> if(n = position, url, concat('https://www.', ${rival('n')}, '/', lower(hex(cityHash64(keyword_id, ${rival('n')}) % 100000)), '/guide')), slots),
              arrayMap(n -> if(n = position, title, concat('Rival result ', toString(n), ' - the complete buying guide and review')), slots),
              arrayMap(n -> if(n = position, domain, ${rival('n')}), slots),
              cited,
              arrayMap(n -> if(${ourCitation('n')}, url, concat('https://', ${citedSource('n')}, '/answers/', toString(cityHash64(keyword_id) % 1000))), cited),
              arrayMap(n -> concat('Cited source ', toString(n)), cited),
              arrayMap(n -> if(${ourCitation('n')}, domain, ${citedSource('n')}), cited),
              version
       FROM (
         SELECT *,
                if(status = 'success',
                   arrayConcat(arrayMap(x -> toUInt16(x), range(1, ${RESULTS_PER_CHECK + 1})),
                               if(position > ${RESULTS_PER_CHECK}, [position], emptyArrayUInt16())),
                   emptyArrayUInt16()) AS slots,
                if(status = 'success' AND has_ai_overview = 1, [toUInt16(1), 2, 3, 4], emptyArrayUInt16()) AS cited
         FROM keyword_updates
         WHERE project_id = {projectId:String} AND checked_at >= {from:DateTime64(3, 'UTC')}
       )`,
      { ...params, from: resultsFrom },
    );
    return countRows(store, 'check_snapshots', input.projectId);
  });
  const serpResults = await countRows(store, 'serp_results', input.projectId);
  const aiOverviewSources = await countRows(store, 'ai_overview_sources', input.projectId);

  // Many insert batches leave many parts per partition; a long-running server would have merged them
  // in the background. Merging now makes the reads measure steady state, not this seeding.
  await timed('OPTIMIZE TABLE ... FINAL (merge the seeded parts)', async () => {
    // keyword_day_checks, keyword_day_picks, keyword_week_picks and ranking_pages filled themselves on the INSERT into
    // keyword_updates (their materialized views, as for the projection's writes).
    for (const table of [
      'keyword_updates',
      'keyword_day_checks',
      'keyword_day_picks',
      'keyword_week_picks',
      'ranking_pages',
      'checks_by_id',
      'check_snapshots',
    ]) {
      await store.command(`OPTIMIZE TABLE ${table} FINAL`);
    }
    return 0;
  });

  return { keywordUpdates, failedChecks, serpResults, aiOverviewSources, latestRankingCheckId, timings };
}

function newWalk(random: Random): KeywordWalk {
  // About 1 keyword in 8 is one the site does not rank for (it wanders in and out of the top 50).
  const home = random.chance(0.12) ? random.int(45, 80) : 1 + Math.floor(45 * random.next() ** 1.6);
  return { home, position: home, page: random.int(0, SITE_PAGES - 1), aiOverviews: random.chance(0.3) };
}

/** One day of a mean-reverting random walk, with an occasional jump (an update, a lost snippet). */
function step(walk: KeywordWalk, random: Random): void {
  walk.position += (random.next() + random.next() - 1) * 2.5 + (walk.home - walk.position) * 0.05;
  if (random.chance(0.015)) walk.position += (random.chance(0.5) ? -1 : 1) * random.int(5, 20);
  walk.position = Math.min(100, Math.max(1, walk.position));
  // The ranking page changes now and then (another page of the site takes over the keyword).
  if (random.chance(0.01)) walk.page = random.int(0, SITE_PAGES - 1);
}

async function countRows(store: ReadStore, table: string, projectId: string): Promise<number> {
  const [row] = await store.query<{ n: string }>(`SELECT count() AS n FROM ${table} WHERE project_id = {projectId:String}`, { projectId });
  return Number(row?.n ?? 0);
}
