/**
 * Peak memory while something runs: process RSS (the whole process, chDB's native memory included,
 * since the app and its ClickHouse engine live in this process) and the V8 heap in use, sampled
 * every `intervalMs`, plus whenever `sample()` is called (e.g. per received chunk), because a busy
 * event loop can delay the timer past the moment of the peak.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface MemoryPeaks {
  baselineRss: number;
  baselineHeapUsed: number;
  peakRss: number;
  peakHeapUsed: number;
  samples: number;
}

export class MemorySampler {
  private readonly peaks: MemoryPeaks;
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs = 10) {
    const { rss, heapUsed } = process.memoryUsage();
    this.peaks = { baselineRss: rss, baselineHeapUsed: heapUsed, peakRss: rss, peakHeapUsed: heapUsed, samples: 1 };
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): void {
    const { rss, heapUsed } = process.memoryUsage();
    this.peaks.samples++;
    if (rss > this.peaks.peakRss) this.peaks.peakRss = rss;
    if (heapUsed > this.peaks.peakHeapUsed) this.peaks.peakHeapUsed = heapUsed;
  }

  stop(): MemoryPeaks {
    clearInterval(this.timer);
    this.sample();
    return { ...this.peaks };
  }
}

let gcFunction: (() => void) | undefined;

/**
 * A full garbage collection before taking a baseline, so that garbage left by earlier work does not
 * hide (or, collected mid-measurement, offset) the growth being measured. `npm run bench` runs node
 * without --expose-gc; turning the flag on at run time and fetching `gc` from a fresh context is the
 * documented way around that.
 */
export function collectGarbage(): void {
  if (!gcFunction) {
    setFlagsFromString('--expose-gc');
    gcFunction = runInNewContext('gc') as () => void;
  }
  gcFunction();
}
