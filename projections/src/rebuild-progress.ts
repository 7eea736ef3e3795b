/**
 * The rebuild's progress line: how far through the log, the rate and the time left. On a terminal
 * one line redrawn in place; in a file or a pipe (a container's log, CI) a plain line now and then,
 * since `\r` there only piles up one unreadable line.
 */
export interface ProgressSnapshot {
  /** Log position reached (the runner's checkpoint) and the log's last position when the rebuild began. */
  position: number;
  lastPosition: number;
  events: number;
  elapsedMs: number;
}

/** `[#####.....] 48% 120,000 events, 21,000 events/s, about 5 s left`; positions measure progress, since a log's positions need not be dense. */
export function describeProgress({ position, lastPosition, events, elapsedMs }: ProgressSnapshot, width = 30): string {
  const share = lastPosition <= 0 ? 1 : Math.min(1, position / lastPosition);
  const filled = Math.round(share * width);
  const rate = elapsedMs > 0 ? (events / elapsedMs) * 1000 : 0;
  const leftMs = share > 0 && share < 1 ? (elapsedMs / share) * (1 - share) : 0;
  const eta = share >= 1 ? 'done' : share === 0 ? 'time left unknown' : `about ${formatDuration(leftMs)} left`;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${events.toLocaleString('en-US')} events, ${Math.round(rate).toLocaleString('en-US')} events/s, ${eta}`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** How often a line is drawn: a terminal redraws often; a log gets a line every few seconds. */
export const progressIntervalMs = (terminal: boolean) => (terminal ? 200 : 5_000);
