/**
 * Volume fetching for a 3,500-keyword project (the keyword limit) against the DataForSEO fake on
 * 127.0.0.1: from the POST that adds the keywords to every keyword's volume being readable in
 * keyword-volumes, all in the background (the volume fetcher in the projector role). Each run starts
 * a fresh service and uses another market. Records volumeFetch3500 (time per run) and prints the number of upstream calls
 * (search_volume tasks of up to 1,000 keywords: 4 expected).
 */
import { performance } from 'node:perf_hooks';
import {
  FAKE_DATAFORSEO_KEYWORDS_LOGIN,
  FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
  startDataForSeoKeywordsFake,
} from '@rank/providers/dataforseo/testing/fake-dataforseo-keywords';
import { DATAFORSEO_SEARCH_VOLUME_PATH } from '@rank/providers/dataforseo/keyword-data.client';
import type { BenchContext } from './benches';
import { startBenchApp } from './support/bench-app';
import { keywordTexts } from './support/keyword-texts';
import { MIN_RUNS, recordFigure } from './support/results';
import { median, ms } from './support/stats';

const KEYWORDS = 3_500;
const MARKETS = [
  ['US', 'en'],
  ['GB', 'en'],
  ['DE', 'de'],
  ['FR', 'fr'],
  ['CA', 'en'],
  ['AU', 'en'],
  ['ES', 'es'],
] as const;

export async function run(_context: BenchContext): Promise<void> {
  const fake = await startDataForSeoKeywordsFake();
  const texts = keywordTexts(KEYWORDS);
  const times: number[] = [];
  const calls: number[] = [];
  try {
    // A fresh service per run: the background calls are paced (6 a minute), so a run right after
    // another would measure the pacing, not the fetching.
    for (let run = 0; run < MIN_RUNS; run++) {
      const app = await startBenchApp(undefined, {
        DATAFORSEO_LOGIN: FAKE_DATAFORSEO_KEYWORDS_LOGIN,
        DATAFORSEO_PASSWORD: FAKE_DATAFORSEO_KEYWORDS_PASSWORD,
        DATAFORSEO_BASE_URL: fake.url,
      });
      try {
        const { apiKey } = await app.openAccount();
        const [geoCode, langCode] = MARKETS[run % MARKETS.length]!;
        const project = await app.json('POST', '/api/projects', {
          key: apiKey,
          body: { name: `Volumes ${run}`, domain: `volumes-${run}.example` },
        });
        const projectId = project.project._id as string;
        const before = fake.requests.filter((r) => r.path === DATAFORSEO_SEARCH_VOLUME_PATH).length;
        const started = performance.now();
        await app.json('POST', '/api/projects/keywords', { key: apiKey, body: { projectId, keywords: texts, geoCode, langCode } });
        for (;;) {
          const volumes = await app.json('GET', `/api/projects/keyword-volumes?projectId=${projectId}`, { key: apiKey });
          if (Object.keys(volumes.data).length === KEYWORDS) break;
          if (performance.now() - started > 300_000)
            throw new Error(`only ${Object.keys(volumes.data).length} of ${KEYWORDS} volumes after 5 minutes`);
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        times.push(performance.now() - started);
        calls.push(fake.requests.filter((r) => r.path === DATAFORSEO_SEARCH_VOLUME_PATH).length - before);
      } finally {
        await app.close();
      }
    }
    console.log(
      `Volumes of a ${KEYWORDS}-keyword project, from adding the keywords to all readable in keyword-volumes (DataForSEO fake), ${MIN_RUNS} runs:`,
    );
    console.log(
      `    ${times.map((t) => ms(t)).join(', ')} (median ${ms(median(times))}); upstream search_volume calls per run: ${calls.join(', ')}`,
    );
    recordFigure('volumeFetch3500', {
      apiMs: times,
      ops: calls,
      opsUnit: 'upstream calls',
      note: `${KEYWORDS} keywords added in one request to a fresh service, until keyword-volumes lists them all; ops is the number of search_volume calls (up to 1,000 keywords each) per run`,
    });
  } finally {
    await fake.close();
  }
}
