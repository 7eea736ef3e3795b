import { readdirSync, readFileSync } from 'node:fs';
import { waitFor } from '@rank/platform/testing/wait-for';

/*
 * Chromium's processes as Linux's /proc shows them, for tests that crash a browser the way the
 * machine would (a kill, out of memory) and check that none is left running.
 */

interface ProcessStat {
  pid: number;
  name: string;
  state: string;
  parent: number;
}

function stat(pid: number): ProcessStat | undefined {
  try {
    // "pid (name) state ppid …"; the name may hold spaces and parentheses, so the last ')' ends it.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const [state, parent] = text.slice(close + 2).split(' ');
    return { pid, name: text.slice(text.indexOf('(') + 1, close), state: state!, parent: Number(parent) };
  } catch {
    return undefined;
  }
}

/** Whether the process runs: a zombie (killed, not yet reaped) does not. */
export function isRunning(pid: number): boolean {
  const found = stat(pid);
  return found !== undefined && found.state !== 'Z' && found.state !== 'X';
}

/** Waits (up to `timeoutMs`) for the process to stop running; answers whether it still runs. */
export function stillRunningAfterWait(pid: number, timeoutMs = 10_000): Promise<boolean> {
  return waitFor(
    async () => isRunning(pid),
    (running) => !running,
    timeoutMs,
  );
}

/** The running Chromium browsers this process started (its direct children named chrom…). */
export function chromiumBrowsersOf(parent = process.pid): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => stat(Number(entry)))
    .filter((found): found is ProcessStat => found !== undefined && found.parent === parent && /chrom/i.test(found.name))
    .filter((found) => isRunning(found.pid))
    .map((found) => found.pid);
}

/** Crashes a browser as the machine would: SIGKILL to Chromium's process group, renderers and all. */
export function crashChromium(pid: number): void {
  process.kill(-pid, 'SIGKILL');
}

/** Hangs a browser as a deadlock would: it stays, answering nothing (SIGSTOP to its process group). */
export function hangChromium(pid: number): void {
  process.kill(-pid, 'SIGSTOP');
}
