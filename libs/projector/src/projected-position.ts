import type { ReadStore } from '@rank/read-store/read-store.port';

/** The checkpoint name of the runner that builds every read model (ProjectionRunner's default). */
export const READ_MODELS_CHECKPOINT = 'read-models';

/**
 * The log position up to which a runner has written its read models, as stored in
 * `projection_checkpoints`: what any process (an api replica beside a separate projector) can read to
 * learn whether the read models moved since it last looked. 0 before the first checkpoint.
 */
export async function projectedPosition(readStore: ReadStore, name = READ_MODELS_CHECKPOINT): Promise<number> {
  const [row] = await readStore.query<{ position: string }>(
    'SELECT toString(max(position)) AS position FROM projection_checkpoints WHERE name = {name:String}',
    { name },
  );
  return Number(row?.position ?? 0);
}

/** A runner's stored checkpoint: its position, the id of the event there, and the position of the event before. */
export interface ProjectedCheckpoint {
  position: number;
  /** Empty for a checkpoint written before checkpoints named their event. */
  eventId: string;
  previousPosition: number;
}

export async function projectedCheckpoint(readStore: ReadStore, name = READ_MODELS_CHECKPOINT): Promise<ProjectedCheckpoint> {
  // Aliases apart from the column names: an alias `position` would stand for max(position) inside argMax.
  const [row] = await readStore.query<{ at: string; event: string; before: string }>(
    'SELECT toString(max(position)) AS at, argMax(event_id, position) AS event, ' +
      'toString(argMax(previous_position, position)) AS before FROM projection_checkpoints WHERE name = {name:String}',
    { name },
  );
  return { position: Number(row?.at ?? 0), eventId: row?.event ?? '', previousPosition: Number(row?.before ?? 0) };
}
