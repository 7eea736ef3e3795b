import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/*
 * Killing a Chromium that stopped answering. Playwright tells no process id for a browser it
 * launched, and a hung Chromium ignores its close, so it would outlive its thread and the service.
 * Each launch gets a switch of its own, which Chromium ignores and Linux's /proc shows in the
 * process's command line. Where there is no /proc, nothing is found and nothing is killed.
 */

/** A switch naming one launch, for its Chromium's command line. */
export const launchMarker = (): string => `--rank-tracker-launch=${randomUUID()}`;

/**
 * Kills the running Chromium this process launched with `marker` among its switches, with its
 * process group (renderers and all), if there is one.
 */
export function killMarkedChromium(marker: string): void {
  const pid = markedChromium(marker);
  if (pid === undefined) return;
  try {
    // Playwright starts Chromium as the leader of a process group of its own.
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone between the look and the kill: nothing is left to stop.
  }
}

/** Whether the Chromium this process launched with `marker` still runs (a killed one left as a zombie does not). */
export function markedChromiumRuns(marker: string): boolean {
  return markedChromium(marker) !== undefined;
}

function markedChromium(marker: string): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const found = entries.find((entry) => /^\d+$/.test(entry) && isMarkedChild(Number(entry), marker));
  return found === undefined ? undefined : Number(found);
}

function isMarkedChild(pid: number, marker: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has already exited; a process that is not this one's child is not ours.
    if (state === 'Z' || Number(parent) !== process.pid) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
  } catch {
    return false;
  }
}
