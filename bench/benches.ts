/**
 * The benches `npm run bench` runs, in this order. Loaded lazily, so naming one bench on the command
 * line does not pay for importing the whole app.
 *
 * Order matters a little: the cheap, self-contained benches first, so a quick figure is printed even
 * when a later, heavier one fails; the ranking bench last, as it is the longest.
 */
export interface BenchModule {
  run(): Promise<void>;
}

export interface BenchEntry {
  name: string;
  load(): Promise<BenchModule>;
}

export const BENCHES: readonly BenchEntry[] = [
  { name: 'serp-parser', load: () => import('./serp-parser.bench') },
  { name: 'event-store-append', load: () => import('./event-store-append.bench') },
  { name: 'read-store', load: () => import('./read-store.bench') },
  { name: 'projection-replay', load: () => import('./projection-replay.bench') },
  { name: 'check-work', load: () => import('./check-work.bench') },
  { name: 'startup', load: () => import('./startup.bench') },
  { name: 'lighthouse', load: () => import('./lighthouse.bench') },
  { name: 'records', load: () => import('./records.bench') },
  { name: 'tracking', load: () => import('./tracking.bench') },
];
