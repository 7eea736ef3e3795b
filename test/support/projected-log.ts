import type { EventStore } from '@rank/event-store/event-store.port';
import type { ProjectionRunner } from '@rank/projector/projection-runner';
import { waitFor } from '@rank/platform/testing/wait-for';

/**
 * Waits until the projections have taken the whole log: the runner caught up and no event after its
 * checkpoint. New projects start background work (suggestions, domain data) that appends events of
 * its own a moment later, so one `waitUntilCaughtUp` can end just before such an event arrives.
 * Gives the first event past the checkpoint if the log never settles (the test then fails on it).
 */
export async function waitUntilLogProjected(runner: ProjectionRunner, store: EventStore, timeoutMs = 60_000): Promise<unknown> {
  let beyond: unknown;
  try {
    await waitFor(
      async () => {
        await runner.waitUntilCaughtUp(timeoutMs);
        [beyond] = await store.readAll({ afterPosition: runner.position, maxCount: 1 });
        return beyond;
      },
      (event) => event === undefined,
      timeoutMs,
      200,
    );
  } catch {
    return beyond;
  }
  return undefined;
}
