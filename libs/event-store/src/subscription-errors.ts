/** Tells the subscriber (a subscription or a consumer-group member) its subscription died; never throws, since nobody would catch it. */
export function reportSubscriptionDeath(options: { onError?: (error: unknown) => void }, error: unknown): void {
  if (!options.onError) {
    // A projection or scraper that stops silently is worse than a noisy log line.
    console.error('Event store subscription stopped by an error', error);
    return;
  }
  try {
    options.onError(error);
  } catch (secondError) {
    console.error('Event store subscription onError callback threw', secondError);
  }
}
