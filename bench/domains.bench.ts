/**
 * GET /api/projects/competitors-filtered with 50 competitors whose traffic is cached (the spec's
 * maximum), over real HTTP against the real app: the answer reads 51 domains' traffic and the kept
 * ones' page speed from ClickHouse and filters them to 6. The traffic is recorded straight into the
 * domain streams (as a provider's answer would be), so no provider is involved. The domain-read
 * limit is 60 a minute per account, so each run uses a fresh account for its 40 requests.
 * Records competitorsFiltered50 (median latency per run) beside the plain ClickHouse read of the
 * same 51 rows. Takes a few seconds.
 */
import { performance } from 'node:perf_hooks';
import { DomainDataRepository } from '@rank/domains/domain-data.repository';
import { DomainDataReader } from '@rank/domains/reads/domain-data.reader';
import type { BenchContext } from './benches';
import { startBenchApp } from './support/bench-app';
import { MIN_RUNS, recordFigure } from './support/results';
import { median, ms } from './support/stats';

const COMPETITORS = 50;
const REQUESTS_PER_RUN = 40;

const months = (visits: number) =>
  Array.from({ length: 12 }, (_, i) => ({
    month: `2025-${String(i + 1).padStart(2, '0')}`,
    visits,
    bounceRate: 0.4,
    avgVisitDuration: 100,
  }));

export async function run(_context: BenchContext): Promise<void> {
  const app = await startBenchApp();
  try {
    const repository = app.running.app.get(DomainDataRepository, { strict: false });
    const competitors = Array.from({ length: COMPETITORS }, (_, i) => `competitor-${i}.example`);
    const now = new Date();
    await repository.record({ type: 'RecordTraffic', domain: 'main.example', months: months(5_000) }, now);
    for (const [i, domain] of competitors.entries())
      await repository.record({ type: 'RecordTraffic', domain, months: months(200 * (i + 1)) }, now);
    await app.projectionsCaughtUp();

    const path = `/api/projects/competitors-filtered?domain=main.example&competitors=${competitors.join(',')}`;
    const runs: number[] = [];
    for (let run = 0; run < MIN_RUNS; run++) {
      const { apiKey } = await app.openAccount();
      const first = await app.json('GET', path, { key: apiKey });
      if (first.filtered.length !== 6 || Object.keys(first.data).length !== 6)
        throw new Error(`unexpected answer: ${JSON.stringify(first).slice(0, 300)}`);
      const latencies: number[] = [];
      for (let i = 1; i < REQUESTS_PER_RUN; i++) {
        const started = performance.now();
        await app.json('GET', path, { key: apiKey });
        latencies.push(performance.now() - started);
      }
      runs.push(median(latencies));
    }

    const reader = app.running.app.get(DomainDataReader, { strict: false });
    const raw: number[] = [];
    for (let run = 0; run < MIN_RUNS; run++) {
      const started = performance.now();
      await reader.traffic(['main.example', ...competitors]);
      raw.push(performance.now() - started);
    }
    console.log(
      `GET /api/projects/competitors-filtered, ${COMPETITORS} cached competitors, ${MIN_RUNS} runs of ${REQUESTS_PER_RUN - 1} sequential requests:`,
    );
    console.log(
      `    median per run: ${runs.map((r) => ms(r)).join(', ')}; the ClickHouse read of the 51 traffic rows alone: ${ms(median(raw))}`,
    );
    recordFigure('competitorsFiltered50', {
      apiMs: runs,
      rawMs: raw,
      note: `GET /api/projects/competitors-filtered with ${COMPETITORS} cached competitors, one request at a time; rawMs is the traffic read alone`,
    });
  } finally {
    await app.close();
  }
}
