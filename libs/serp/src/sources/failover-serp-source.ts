import type { SerpFetchOutcome, SerpRequest } from '../fetcher/serp-fetcher';
import type { SerpSource } from './serp-source';

/**
 * Tries the configured sources in order until one answers (`SERP_SOURCES=browser,dataforseo`).
 * Every failure moves on to the next source, not only blocks and timeouts: a consent page or a page
 * the parser cannot read from one source is no answer either, and another source may still have one.
 * The answer names its source; a check fails only when every source failed, and then its reason
 * lists each source's reason in order.
 */
export class FailoverSerpSource {
  constructor(private readonly sources: readonly SerpSource[]) {
    if (sources.length === 0) throw new Error('FailoverSerpSource needs at least one source');
  }

  get names(): string[] {
    return this.sources.map((source) => source.name);
  }

  async fetchSerp(request: SerpRequest): Promise<SerpFetchOutcome> {
    const failures: Extract<SerpFetchOutcome, { kind: 'failed' }>[] = [];
    const reasons: string[] = [];
    for (const source of this.sources) {
      const outcome = await source.fetchSerp(request);
      if (outcome.kind === 'success') return { ...outcome, source: source.name };
      failures.push({ ...outcome, source: source.name });
      reasons.push(`${source.name}: ${outcome.reason}`);
    }
    // The first source's cause and egress are what a block on the usual path looks like in metrics.
    const first = failures[0];
    if (failures.length === 1) return first;
    const backs = failures.map((failure) => failure.backAt).filter((back): back is number => back !== undefined);
    return {
      kind: 'failed',
      reason: `every source failed (${reasons.join(' | ')})`,
      pagesRead: failures.reduce((sum, failure) => sum + failure.pagesRead, 0),
      cause: first.cause,
      egress: first.egress,
      // A retry is worth it once the first source that rests is back.
      ...(backs.length > 0 ? { backAt: Math.min(...backs) } : {}),
      source: first.source,
      sourceFailures: failures.map((failure) => ({
        source: failure.source!,
        cause: failure.cause,
        egress: failure.egress,
        reason: failure.reason,
      })),
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.sources.map((source) => source.close()));
  }
}
