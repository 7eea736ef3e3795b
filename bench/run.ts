/**
 * `npm run bench [-- name ...]`: runs every bench of this folder in order, or only the named ones,
 * in this one process. Each bench prints its own figures; this prints a header before each and a
 * table of outcomes and durations at the end. A failing bench does not stop the run (later benches
 * measure unrelated things), but the exit code is 1 so CI notices.
 *
 * One process on purpose: chDB runs one engine per process, and the benches that start the app
 * release it before returning, so the next one may open its own data directory.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { BENCHES } from './benches';

interface Outcome {
  name: string;
  seconds: number;
  error?: unknown;
}

async function main(): Promise<void> {
  const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const unknown = requested.filter((name) => !BENCHES.some((b) => b.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown bench: ${unknown.join(', ')}. Known: ${BENCHES.map((b) => b.name).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const chosen = requested.length === 0 ? BENCHES : BENCHES.filter((b) => requested.includes(b.name));

  // Other work on the machine (a test run, a build) slows every figure; say how busy it was.
  console.log(`${cpus().length} cores, load average ${loadAverage()} at start`);
  const outcomes: Outcome[] = [];
  const runStarted = performance.now();
  for (const [index, bench] of chosen.entries()) {
    console.log(`\n=== [${index + 1}/${chosen.length}] ${bench.name} ${'='.repeat(Math.max(0, 60 - bench.name.length))}`);
    const started = performance.now();
    try {
      const module = await bench.load();
      await module.run();
      outcomes.push({ name: bench.name, seconds: (performance.now() - started) / 1000 });
    } catch (error) {
      console.error(`${bench.name} FAILED:`, error);
      outcomes.push({ name: bench.name, seconds: (performance.now() - started) / 1000, error });
    }
  }
  printSummary(outcomes, (performance.now() - runStarted) / 1000);
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

const loadAverage = () => loadavg().map((l) => l.toFixed(1)).join(', ');

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
