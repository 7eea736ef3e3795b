import { readFileSync } from 'node:fs';

/**
 * CPU time (ms) the calling thread has run so far, from Linux's /proc/thread-self/schedstat (its first
 * field, nanoseconds on a CPU); undefined elsewhere. Per thread, unlike process.cpuUsage(), so the app's
 * thread and the load client's thread in the same process are told apart; and unlike the event loop's
 * busy time, it does not count the time the thread waited for a core the other processes held.
 */
export function threadCpuMs(): number | undefined {
  try {
    const runNs = Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]);
    return Number.isFinite(runNs) ? runNs / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
