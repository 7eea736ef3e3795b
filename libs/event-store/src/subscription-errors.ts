import type { SubscribeToAllOptions } from './event-store.port';

/** Tells the subscriber its subscription died; never throws, since nobody would catch it. */
export function reportSubscriptionDeath(options: SubscribeToAllOptions, error: unknown): void {
  if (!options.onError) {
    // A projection that stops silently is worse than a noisy log line.
    console.error('Event store subscription stopped by an error', error);
    return;
  }
  try {
    options.onError(error);
  } catch (secondError) {
    console.error('Event store subscription onError callback threw', secondError);
  }
}
