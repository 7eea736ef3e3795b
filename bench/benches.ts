/**
 * The benches `npm run bench` runs, in this order. Loaded lazily, so naming one bench on the command
 * line does not pay for importing the whole app.
 *
 * Registering a bench is one line here: its name, the figures it records into bench-results.json
 * (support/results.ts, `recordFigure(name, samples)`), and its module. `--only <figure>` runs the
 * bench that owns the figure and tells it, through `context.wants(figure)`, to skip the others.
 *
 * Order matters a little: the cheap, self-contained benches first, so a quick figure is printed even
 * when a later, heavier one fails; the ranking bench last, as it is the longest.
 */
export interface BenchContext {
  /** Whether this run asked for the figure (true for all of them when no `--only` names one). */
  wants(figure: string): boolean;
}

export interface BenchModule {
  run(context: BenchContext): Promise<void>;
}

export interface BenchEntry {
  name: string;
  /** The bench-results.json entries this bench records. */
  figures?: readonly string[];
  load(): Promise<BenchModule>;
}

export const BENCHES: readonly BenchEntry[] = [
  { name: 'serp-parser', load: () => import('./serp-parser.bench') },
  { name: 'serp-pacing', load: () => import('./serp-pacing.bench') },
  { name: 'event-store-append', load: () => import('./event-store-append.bench') },
  { name: 'read-store', load: () => import('./read-store.bench') },
  { name: 'projection-replay', figures: ['replayRecords', 'replayChecks'], load: () => import('./projection-replay.bench') },
  { name: 'check-work', load: () => import('./check-work.bench') },
  { name: 'serp-check', figures: ['serpCheckRoundTrip', 'serpCheckFixtureGoogle'], load: () => import('./serp-check.bench') },
  { name: 'startup', load: () => import('./startup.bench') },
  { name: 'lighthouse', load: () => import('./lighthouse.bench') },
  { name: 'records', figures: ['projectDetail', 'authGetVsHealth'], load: () => import('./records.bench') },
  { name: 'domains', figures: ['competitorsFiltered50'], load: () => import('./domains.bench') },
  { name: 'volumes', figures: ['volumeFetch3500'], load: () => import('./volumes.bench') },
  {
    name: 'tracking',
    figures: ['keywordUpdates30d', 'keywordUpdates365dWeekly', 'positionHistory', 'pages', 'csvFull365d', 'csvSummary365d'],
    load: () => import('./tracking.bench'),
  },
];
