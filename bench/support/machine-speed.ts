import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/**
 * How fast this machine runs a fixed piece of JavaScript work (ms, the fastest of 7 after a warm-up:
 * other work on the machine only ever slows a run, so the fastest is the machine's own speed), so
 * that figures from different machines can be set side by side: the build machines of this project
 * have differed by a factor of 2-2.5 in CPU time for the same replay. The work is what the service
 * spends its CPU on: JSON parsed and written, strings hashed, numbers sorted, on data made here the
 * same way every time. A figure divided by the reference work of its run compares across machines;
 * within one run, ratios need no such help.
 */
export function referenceWorkMs(): number {
  const records = Array.from({ length: 20_000 }, (_, i) => ({
    id: i.toString(16).padStart(24, '0'),
    url: `https://www.rival-${i % 300}.example/guide/${(i * 7919) % 10_000}`,
    title: `Result ${i % 50}: the complete buying guide and review`,
    position: (i % 50) + 1,
  }));
  const numbers = Array.from({ length: 200_000 }, (_, i) => (i * 2_654_435_761) % 1_000_003);
  const text = 'x'.repeat(1 << 20);
  const once = (): number => {
    const started = performance.now();
    const parsed = JSON.parse(JSON.stringify(records)) as unknown[];
    const sorted = numbers.slice().sort((a, b) => a - b);
    let digest = '';
    for (let i = 0; i < 8; i++) digest = createHash('sha256').update(text).update(digest).digest('hex');
    // The results are used, so no step can be optimised away.
    if (parsed.length !== records.length || sorted[0] !== 0 || digest.length !== 64) throw new Error('reference work went wrong');
    return performance.now() - started;
  };
  once();
  return Math.min(...Array.from({ length: 7 }, once));
}
