/**
 * The event types of the background processes' checkpoints (the work dispatcher, the domain-data
 * worker, the volume fetcher, the suggestions runner), each in a stream of its own in the log.
 */
export const CHECKPOINT_EVENT_TYPES = [
  'DispatcherCheckpointed',
  'FetchWorkerCheckpointed',
  'VolumeFetcherCheckpointed',
  'SuggestionsCheckpointed',
] as const;

const CHECKPOINTS: ReadonlySet<string> = new Set(CHECKPOINT_EVENT_TYPES);

/**
 * Whether an event is a checkpoint, its own process's or another's: it moves nothing a process must
 * save a checkpoint for. Each process used to skip only its own, so on an idle service each saved a
 * checkpoint for the others' and they answered each other, about one event a second each, for good.
 */
export function isCheckpoint(event: { type: string }): boolean {
  return CHECKPOINTS.has(event.type);
}
