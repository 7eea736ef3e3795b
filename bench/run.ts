/**
 * `npm run bench [-- name ...] [-- --only <bench or figure>[,...]]`: runs every bench of this folder
 * in order, or only the named ones (a bench's name, or a figure's such as `projectDetail`, which runs
 * the bench that owns it and only that figure), in this one process. Each bench prints its own
 * figures; this prints a header before each, the recorded figures (support/results.ts, also merged
 * into bench-results.json in the working directory) and a table of outcomes and durations at the end. A failing bench does not stop the run (later benches
 * measure unrelated things), but the exit code is 1 so CI notices.
 *
 * One process on purpose: chDB runs one engine per process, and the benches that start the app
 * release it before returning, so the next one may open its own data directory.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { BenchContext, BENCHES, BenchEntry } from './benches';
import { referenceWorkMs } from './support/machine-speed';
import { printFigures, setReferenceWork, writeResults } from './support/results';

const RESULTS_FILE = resolve('bench-results.json');

interface Outcome {
  name: string;
  seconds: number;
  error?: unknown;
}

async function main(): Promise<void> {
  const requested = requestedNames(process.argv.slice(2));
  const owns = (bench: BenchEntry, name: string) => bench.name === name || (bench.figures ?? []).includes(name);
  const unknown = requested.filter((name) => !BENCHES.some((b) => owns(b, name)));
  if (unknown.length > 0) {
    const known = BENCHES.map((b) => (b.figures?.length ? `${b.name} (${b.figures.join(', ')})` : b.name));
    console.error(`Unknown bench or figure: ${unknown.join(', ')}. Known: ${known.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const chosen = requested.length === 0 ? BENCHES : BENCHES.filter((b) => requested.some((name) => owns(b, name)));
  const contextOf = (bench: BenchEntry): BenchContext => {
    // Naming the bench itself (or nothing) asks for all its figures; naming figures asks for those.
    const all = requested.length === 0 || requested.includes(bench.name);
    return { wants: (figure) => all || requested.includes(figure) };
  };

  // Other work on the machine (a test run, a build) slows every figure; say how busy it was.
  console.log(`${cpus().length} cores, load average ${loadAverage()} at start`);
  const reference = referenceWorkMs();
  setReferenceWork(reference);
  console.log(`reference work (support/machine-speed.ts): ${reference.toFixed(0)} ms, in bench-results.json with each figure of this run`);
  const outcomes: Outcome[] = [];
  const runStarted = performance.now();
  for (const [index, bench] of chosen.entries()) {
    console.log(`\n=== [${index + 1}/${chosen.length}] ${bench.name} ${'='.repeat(Math.max(0, 60 - bench.name.length))}`);
    const started = performance.now();
    try {
      const module = await bench.load();
      await module.run(contextOf(bench));
      outcomes.push({ name: bench.name, seconds: (performance.now() - started) / 1000 });
    } catch (error) {
      console.error(`${bench.name} FAILED:`, error);
      outcomes.push({ name: bench.name, seconds: (performance.now() - started) / 1000, error });
    }
  }
  printFigures();
  writeResults(RESULTS_FILE);
  printSummary(outcomes, (performance.now() - runStarted) / 1000);
  console.log(`figures merged into ${RESULTS_FILE}`);
  if (outcomes.some((o) => o.error !== undefined)) process.exitCode = 1;
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
