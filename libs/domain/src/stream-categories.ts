/**
 * Every stream the service writes, by category: the one place a stream's name is spelled. A name is
 * its category, a dash, then the ids the stream is kept per (joined by dashes), so a stream's
 * category and ids can be read back from its name. Stored streams keep these names for ever: a
 * category may be added, never renamed.
 *
 * Events are routed by their type (see `parseEvent`), not by the category of their stream; the
 * category says where a decider keeps its state and which ids a stream's name carries.
 */
export const STREAM_CATEGORIES = {
  /** An account: plan, status, API keys, scrape balance and on-demand work orders. */
  account: (accountId: string) => nameOf('account', accountId),
  /** An account's folders and its projects' settings. */
  workspace: (accountId: string) => nameOf('workspace', accountId),
  /** A project's owner, keywords and notes. */
  project: (projectId: string) => nameOf('project', projectId),
  /** A project's scheduled slots: requested (a work order) or skipped. */
  schedule: (projectId: string) => nameOf('schedule', projectId),
  /** An account's monthly SERP-check tokens, one stream per UTC month (`YYYY-MM`). */
  tokens: (accountId: string, month: string) => nameOf('tokens', accountId, month),
  /** A work order's checks waiting for a scraper (`CheckQueued`, one per keyword). */
  'check-work': (orderId: string) => nameOf('check-work', orderId),
  /** One keyword's check results. */
  checks: (projectId: string, keywordId: string) => nameOf('checks', projectId, keywordId),
  /** How far the work dispatcher has followed the log: one stream of its own. */
  'check-dispatcher-checkpoint': () => 'check-dispatcher-checkpoint',
  /** One external domain's fetched data (traffic, page speed, CrUX history) and failed fetches; the domain normalised. */
  domain: (domain: string) => nameOf('domain', domain),
  /** An account's new-domain allowance: the domains it counted, across every API replica. */
  'new-domains': (accountId: string) => nameOf('new-domains', accountId),
  /** One page-speed measurement asked of the scrapers (a local Lighthouse run needs their Chromium): `PageSpeedMeasurementRequested`. */
  'pagespeed-work': (requestId: string) => nameOf('pagespeed-work', requestId),
  /** How far the domain-data fetch worker has followed the log: one stream of its own (not `domain-…`, which a domain could spell). */
  'fetch-worker-checkpoint': () => 'fetch-worker-checkpoint',
  /** Keyword volumes of one market (`volumes-<geo>-<lang>`): market data shared by every account. */
  volumes: (geoCode: string, langCode: string) => nameOf('volumes', geoCode, langCode),
  /** How far the volume fetcher has followed the log: one stream of its own. */
  'volume-fetcher-checkpoint': () => 'volume-fetcher-checkpoint',
  /** One live serp-check: the api's request, then a scraper's answer (the api waits for it). */
  'live-check': (requestId: string) => nameOf('live-check', requestId),
  /** A project's keyword-suggestion runs: requested, finished (with the phrases per locale) or failed. */
  suggestions: (projectId: string) => nameOf('suggestions', projectId),
  /** How far the suggestions pipeline has followed the log: one stream of its own. */
  'suggestions-checkpoint': () => 'suggestions-checkpoint',
} as const;

export type StreamCategory = keyof typeof STREAM_CATEGORIES;

function nameOf(category: StreamCategory, ...ids: string[]): string {
  return [category, ...ids].join('-');
}

/** The start every stream name of a category shares (`check-work-`): a consumer group's stream prefix. */
export const streamPrefixOf = (category: StreamCategory) => `${category}-`;

/** Longest first, so that `check-work-…` is not taken for a category `check`. */
const CATEGORIES_LONGEST_FIRST = (Object.keys(STREAM_CATEGORIES) as StreamCategory[]).sort((a, b) => b.length - a.length);

/** A stream name read back: its category and what follows `<category>-` (empty for a category of one stream, which takes no id). */
export interface ParsedStreamName {
  category: StreamCategory;
  id: string;
}

/** The category and id of a stream name; undefined for a stream no category names (`$…`, another service's). */
export function parseStreamName(streamName: string): ParsedStreamName | undefined {
  for (const category of CATEGORIES_LONGEST_FIRST) {
    if (streamName === category && STREAM_CATEGORIES[category].length === 0) return { category, id: '' };
    if (streamName.startsWith(streamPrefixOf(category))) return { category, id: streamName.slice(category.length + 1) };
  }
  return undefined;
}

export const streamCategoryOf = (streamName: string): StreamCategory | undefined => parseStreamName(streamName)?.category;

/** The id a stream of the given category is kept per (`workspace-<accountId>` gives the account id); undefined for another category. */
export function streamIdIn(category: StreamCategory, streamName: string): string | undefined {
  const parsed = parseStreamName(streamName);
  return parsed?.category === category ? parsed.id : undefined;
}
