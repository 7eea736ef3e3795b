/**
 * The figures `npm run bench` writes to bench-results.json beside its printed table.
 *
 * A bench measures a figure N times (after its own warm-up) and hands the per-run samples to
 * `recordFigure(name, samples)`; this keeps the median, min and max of each. The rule is at
 * least MIN_RUNS runs per figure: fewer is reported, not refused, so a bench run on a busy machine
 * still prints something, but the entry says how many runs it had.
 *
 * The file is merged, not overwritten: `npm run bench -- --only projectDetail` replaces that entry
 * and keeps the others, each with the time it was measured, so the file always holds every figure.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { median } from './stats';
import { MemorySampler } from './memory-sampler';

export const MIN_RUNS = 5;

export interface FigureSamples {
  /** Time of the measured operation per run (ms): a request end to end, a replay, an export. */
  apiMs: readonly number[];
  /** The same answer from the plain ClickHouse query, per run (ms), where one exists. */
  rawMs?: readonly number[];
  /**
   * Per-run ratios, when the ratio is not apiMs over rawMs (authGetVsHealth: the authenticated req/s
   * over /health's, measured in the same run). Without it the ratio is median(apiMs) / median(rawMs).
   */
  ratio?: readonly number[];
  /** Throughput per run: events/s for a replay, requests/s for a load. */
  ops?: readonly number[];
  opsUnit?: string;
  /** Highest process RSS (MiB) seen while the figure was measured; the app and chDB share this process. */
  peakRssMb?: number;
  /** One line on what was measured, for the reader of the file. */
  note?: string;
}

interface Spread {
  apiMs?: number;
  rawMs?: number;
  ratio?: number;
  ops?: number;
}

export interface FigureEntry extends Spread {
  opsUnit?: string;
  peakRssMb?: number;
  runs: number;
  min: Spread;
  max: Spread;
  note?: string;
  measuredAt: string;
  /** Load average (1 min) when recorded: above the core count, the figure shared the CPU. */
  load1m: number;
  /** The run's reference work (machine-speed.ts), to set figures of different machines side by side. */
  referenceWorkMs?: number;
}

const recorded = new Map<string, FigureEntry>();
let runReferenceWorkMs: number | undefined;

/** The reference work measured at the start of this run: each figure recorded after it carries it. */
export function setReferenceWork(ms: number): void {
  runReferenceWorkMs = round(ms);
}

export function recordFigure(name: string, samples: FigureSamples): FigureEntry {
  const runs = samples.apiMs.length;
  if (runs === 0) throw new Error(`figure ${name}: no runs`);
  const ratios = samples.ratio;
  const entry: FigureEntry = {
    apiMs: round(median(samples.apiMs)),
    runs,
    min: { apiMs: round(Math.min(...samples.apiMs)) },
    max: { apiMs: round(Math.max(...samples.apiMs)) },
    measuredAt: new Date().toISOString(),
    load1m: round(loadavg()[0]!),
  };
  if (runReferenceWorkMs !== undefined) entry.referenceWorkMs = runReferenceWorkMs;
  if (samples.rawMs?.length) {
    entry.rawMs = round(median(samples.rawMs));
    entry.min.rawMs = round(Math.min(...samples.rawMs));
    entry.max.rawMs = round(Math.max(...samples.rawMs));
  }
  if (ratios?.length) {
    entry.ratio = round(median(ratios), 3);
    entry.min.ratio = round(Math.min(...ratios), 3);
    entry.max.ratio = round(Math.max(...ratios), 3);
  } else if (entry.rawMs !== undefined && entry.rawMs > 0) {
    entry.ratio = round(entry.apiMs! / entry.rawMs, 3);
  }
  if (samples.ops?.length) {
    entry.ops = Math.round(median(samples.ops));
    entry.min.ops = Math.round(Math.min(...samples.ops));
    entry.max.ops = Math.round(Math.max(...samples.ops));
    entry.opsUnit = samples.opsUnit;
  }
  if (samples.peakRssMb !== undefined) entry.peakRssMb = round(samples.peakRssMb, 0);
  if (samples.note) entry.note = samples.note;
  recorded.set(name, entry);
  if (runs < MIN_RUNS) console.log(`  (figure ${name}: ${runs} runs, fewer than the ${MIN_RUNS} the figures need)`);
  return entry;
}

/** Runs `work` `runs` times after `warmups` unmeasured runs; the time of each measured run (ms). */
export async function timeRuns(runs: number, warmups: number, work: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

/** `work`'s result and the highest process RSS (MiB) seen while it ran. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakRssMb: number }> {
  const sampler = new MemorySampler(20);
  try {
    const value = await work();
    return { value, peakRssMb: sampler.stop().peakRss / 1024 / 1024 };
  } finally {
    sampler.stop();
  }
}

/** Figures a bench recorded in its own process (run.ts), taken into this run's table and file as they are. */
export function adoptFigures(entries: Record<string, FigureEntry>): void {
  for (const [name, entry] of Object.entries(entries)) recorded.set(name, entry);
}

export function recordedFigures(): ReadonlyMap<string, FigureEntry> {
  return recorded;
}

export interface ResultsFile {
  machine: { cores: number; cpu: string };
  figures: Record<string, FigureEntry>;
}

/** Merges this run's figures into `path` (keeping the entries this run did not measure) and returns the whole file. */
export function writeResults(path: string): ResultsFile {
  let previous: Record<string, FigureEntry> = {};
  if (existsSync(path)) {
    try {
      previous = (JSON.parse(readFileSync(path, 'utf8')) as ResultsFile).figures ?? {};
    } catch {
      console.log(`${path} was not valid JSON; writing it afresh`);
    }
  }
  const figures = { ...previous, ...Object.fromEntries(recorded) };
  const sorted = Object.fromEntries(
    Object.keys(figures)
      .sort()
      .map((name) => [name, figures[name]!]),
  );
  const file: ResultsFile = { machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown' }, figures: sorted };
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  return file;
}

/** The figures of this run as a table (the file may hold more, from earlier runs). */
export function printFigures(): void {
  if (recorded.size === 0) return;
  const rows = [...recorded].map(([name, e]) => [
    name,
    `${fmt(e.apiMs)} (${fmt(e.min.apiMs)}-${fmt(e.max.apiMs)})`,
    e.rawMs === undefined ? '' : `${fmt(e.rawMs)} (${fmt(e.min.rawMs)}-${fmt(e.max.rawMs)})`,
    e.ratio === undefined
      ? ''
      : e.min.ratio === undefined
        ? e.ratio.toFixed(2)
        : `${e.ratio.toFixed(2)} (${e.min.ratio.toFixed(2)}-${e.max.ratio!.toFixed(2)})`,
    e.ops === undefined
      ? ''
      : `${e.ops.toLocaleString('en-US')} ${e.opsUnit ?? ''} (${e.min.ops!.toLocaleString('en-US')}-${e.max.ops!.toLocaleString('en-US')})`,
    e.peakRssMb === undefined ? '' : `${e.peakRssMb}`,
    `${e.runs}`,
  ]);
  const header = ['figure', 'api ms (min-max)', 'raw ms (min-max)', 'ratio', 'ops (min-max)', 'peak RSS MiB', 'runs'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(`\n=== figures (median of the runs; written to bench-results.json) ${'='.repeat(8)}`);
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const fmt = (value: number | undefined) => (value === undefined ? '' : value < 10 ? value.toFixed(2) : value.toFixed(1));
