/**
 * `npm run bench [-- name ...] [-- --only <bench or figure>[,...]]`: runs every bench of this folder
 * in order, or only the named ones (a bench's name, or a figure's such as `projectDetail`, which runs
 * the bench that owns it and only that figure). Each bench prints its own figures; this prints a
 * header before each, the recorded figures (support/results.ts, also merged into bench-results.json
 * in the working directory) and a table of outcomes and durations at the end. A failing bench does
 * not stop the run (later benches measure unrelated things), but the exit code is 1 so CI notices.
 *
 * Each bench runs in a process of its own (this file again, with `--bench <name>`), one after the
 * other, so that what one bench leaves in its process cannot change the next one's figures. Measured:
 * after the serp-check or Lighthouse bench in the same process, an authenticated `GET /api/projects`
 * cost the server thread 52 µs instead of 34 µs and `/health` 30 instead of 20, because Playwright's
 * client keeps an `AsyncLocalStorage` that, once used, runs a hook on every promise the thread makes
 * (Node 20; Chromium has since moved to a worker thread, libs/serp/src/browser/browser-thread.ts);
 * after the replay bench, 42 and 25 µs (that cause not isolated).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { BenchContext, BENCHES, BenchEntry } from './benches';
import { referenceWorkMs } from './support/machine-speed';
import { adoptFigures, FigureEntry, printFigures, recordedFigures, setReferenceWork, writeResults } from './support/results';

const RESULTS_FILE = resolve('bench-results.json');

interface Outcome {
  name: string;
  seconds: number;
  error?: unknown;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const child = childArguments(args);
  if (child) return runOneBench(child);
  const requested = requestedNames(args);
  const owns = (bench: BenchEntry, name: string) => bench.name === name || (bench.figures ?? []).includes(name);
  const unknown = requested.filter((name) => !BENCHES.some((b) => owns(b, name)));
  if (unknown.length > 0) {
    const known = BENCHES.map((b) => (b.figures?.length ? `${b.name} (${b.figures.join(', ')})` : b.name));
    console.error(`Unknown bench or figure: ${unknown.join(', ')}. Known: ${known.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const chosen = requested.length === 0 ? BENCHES : BENCHES.filter((b) => requested.some((name) => owns(b, name)));
  // Other work on the machine (a test run, a build) slows every figure; say how busy it was.
  console.log(`${cpus().length} cores, load average ${loadAverage()} at start`);
  // Measured once, here, and handed to each bench's process for its figures.
  const reference = referenceWorkMs();
  console.log(`reference work (support/machine-speed.ts): ${reference.toFixed(0)} ms, in bench-results.json with each figure of this run`);
  const outcomes: Outcome[] = [];
  const runStarted = performance.now();
  const scratch = mkdtempSync(join(tmpdir(), 'rank-tracker-bench-run-'));
  try {
    for (const [index, bench] of chosen.entries()) {
      console.log(`\n=== [${index + 1}/${chosen.length}] ${bench.name} ${'='.repeat(Math.max(0, 60 - bench.name.length))}`);
      const started = performance.now();
      const figuresFile = join(scratch, `${bench.name}.json`);
      const exitCode = await runInChild(bench, requested, reference, figuresFile);
      const seconds = (performance.now() - started) / 1000;
      // A bench that fails after recording some figures still reports them.
      adoptFigures(readChildFigures(figuresFile));
      outcomes.push(exitCode === 0 ? { name: bench.name, seconds } : { name: bench.name, seconds, error: `exit code ${exitCode}` });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  printFigures();
  writeResults(RESULTS_FILE);
  printSummary(outcomes, (performance.now() - runStarted) / 1000);
  console.log(`figures merged into ${RESULTS_FILE}`);
  if (outcomes.some((o) => o.error !== undefined)) process.exitCode = 1;
}

interface ChildArguments {
  bench: BenchEntry;
  requested: string[];
  referenceWorkMs: number;
  figuresFile: string;
}

const CHILD_FLAG = '--bench';

/** Runs `bench` in a new Node process (this file with CHILD_FLAG); resolves with its exit code. */
function runInChild(bench: BenchEntry, requested: readonly string[], reference: number, figuresFile: string): Promise<number> {
  const args = [...process.execArgv, __filename, CHILD_FLAG, bench.name, String(reference), figuresFile, ...requested];
  return new Promise((resolveExit) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (error) => {
      console.error(`${bench.name}: could not start its process:`, error);
      resolveExit(1);
    });
    child.on('exit', (code, signal) => resolveExit(code ?? (signal ? 128 : 1)));
  });
}

function childArguments(args: readonly string[]): ChildArguments | undefined {
  if (args[0] !== CHILD_FLAG) return undefined;
  const [, name, reference, figuresFile, ...requested] = args;
  const bench = BENCHES.find((b) => b.name === name);
  if (!bench || reference === undefined || figuresFile === undefined) throw new Error(`bad child arguments: ${args.join(' ')}`);
  return { bench, requested, referenceWorkMs: Number(reference), figuresFile };
}

/** The child's side: one bench, its figures written to `figuresFile` for the parent, a failure as exit code 1. */
async function runOneBench({ bench, requested, referenceWorkMs: reference, figuresFile }: ChildArguments): Promise<void> {
  setReferenceWork(reference);
  // Naming the bench itself (or nothing) asks for all its figures; naming figures asks for those.
  const all = requested.length === 0 || requested.includes(bench.name);
  const context: BenchContext = { wants: (figure) => all || requested.includes(figure) };
  try {
    const module = await bench.load();
    await module.run(context);
  } catch (error) {
    console.error(`${bench.name} FAILED:`, error);
    process.exitCode = 1;
  } finally {
    writeFileSync(figuresFile, JSON.stringify(Object.fromEntries(recordedFigures())));
  }
}

function readChildFigures(path: string): Record<string, FigureEntry> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, FigureEntry>;
  } catch {
    return {};
  }
}

function printSummary(outcomes: readonly Outcome[], totalSeconds: number): void {
  const width = Math.max(5, ...outcomes.map((o) => o.name.length));
  console.log(`\n=== summary ${'='.repeat(58)}`);
  console.log(`${'bench'.padEnd(width)}  result  seconds`);
  for (const o of outcomes) {
    const result = o.error === undefined ? 'ok' : 'FAILED';
    console.log(`${o.name.padEnd(width)}  ${result.padEnd(6)}  ${o.seconds.toFixed(1).padStart(7)}`);
  }
  console.log(`${'total'.padEnd(width)}          ${totalSeconds.toFixed(1).padStart(7)}`);
  console.log(`load average ${loadAverage()} at the end (1, 5, 15 min; above ${cpus().length} means the benches shared the CPU)`);
}

/** Positional names and `--only a,b` (or `--only=a,b`), all together. */
function requestedNames(args: readonly string[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--only') names.push(...(args[++i] ?? '').split(','));
    else if (arg.startsWith('--only=')) names.push(...arg.slice('--only='.length).split(','));
    else if (!arg.startsWith('-')) names.push(arg);
  }
  return names.map((n) => n.trim()).filter((n) => n !== '');
}

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
