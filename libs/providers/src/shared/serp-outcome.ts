import type { SerpFailureCause, SerpFetchOutcome } from '@rank/serp/fetcher';
import type { AiOverviewSource, OrganicResult } from '@rank/serp/parser';
import { domainOfUrl } from '@rank/domain/domain-name';
import { UpstreamError } from './upstream-error';

/** How a SERP API's failure reads on a check: its cause for metrics, and a reason naming the provider. */
export function serpApiFailure(error: unknown, egress: string): Extract<SerpFetchOutcome, { kind: 'failed' }> {
  if (!(error instanceof UpstreamError)) throw error;
  return { kind: 'failed', reason: error.message, pagesRead: 0, cause: causeOf(error), egress };
}

function causeOf(error: UpstreamError): SerpFailureCause {
  switch (error.kind) {
    case 'timeout':
      return 'timeout';
    case 'unreachable':
      return 'load_error';
    case 'malformed':
    case 'page':
      return 'malformed_answer';
    case 'http':
      return error.status !== undefined && error.status >= 500 ? 'http_error' : 'upstream_refused';
  }
}

/** An API's result as our parser would have given it: positions 1..n in order, one entry per URL, domains normalised. */
export function organicFrom(items: { url: string; title: string; snippet: string }[], depth: number): OrganicResult[] {
  const seen = new Set<string>();
  const organic: OrganicResult[] = [];
  for (const item of items) {
    const domain = domainOfUrl(item.url);
    if (!domain || seen.has(item.url) || organic.length >= depth) continue;
    seen.add(item.url);
    organic.push({ position: organic.length + 1, url: item.url, title: item.title, domain, snippet: item.snippet });
  }
  return organic;
}

/** AI Overview sources in order of first citation, the `#:~:text=` fragment dropped, each URL once (as our parser does). */
export function aiOverviewFrom(references: { url: string; title: string }[]): AiOverviewSource[] {
  const sources: AiOverviewSource[] = [];
  for (const reference of references) {
    const url = reference.url.replace(/#:~:text=.*$/, '');
    const domain = domainOfUrl(url);
    if (!domain || sources.some((source) => source.url === url)) continue;
    sources.push({ position: sources.length + 1, url, title: reference.title, domain });
  }
  return sources;
}
