import { ANY, NO_STREAM, STREAM_EXISTS, type RecordedEvent as DbRecordedEvent } from '@eventstore/db-client';
import {
  isSystemEvent,
  metadataTarget,
  toDbExpectedRevision,
  toDbPosition,
  toRecordedEvent,
  fromDbCurrentRevision,
} from './eventstoredb-mapping';

describe('EventStoreDB mapping', () => {
  it('maps every expected revision to the client’s form', () => {
    expect(toDbExpectedRevision('any')).toBe(ANY);
    expect(toDbExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toDbExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toDbExpectedRevision(41)).toBe(41n);
  });

  it('maps the server’s current revision back', () => {
    expect(fromDbCurrentRevision(NO_STREAM)).toBe('no_stream');
    expect(fromDbCurrentRevision(12n)).toBe(12);
  });

  it('turns a position number into a commit/prepare pair', () => {
    expect(toDbPosition(1234)).toEqual({ commit: 1234n, prepare: 1234n });
  });

  it('recognises system events by type or stream, and metadata events with their stream', () => {
    expect(isSystemEvent({ streamId: 'project-1', type: 'ProjectCreated' })).toBe(false);
    expect(isSystemEvent({ streamId: 'project-1', type: '$>' })).toBe(true);
    expect(isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: 'Stats' })).toBe(true);
    expect(metadataTarget({ streamId: '$$project-1', type: '$metadata' })).toBe('project-1');
    expect(metadataTarget({ streamId: 'project-1', type: 'ProjectCreated' })).toBeUndefined();
  });

  it('turns a recorded event into the port’s record, decoding JSON sent as bytes', () => {
    const created = new Date('2024-05-01T10:00:00.000Z');
    const event = {
      streamId: 'project-1',
      id: '0b6f4c52-2f7a-4f43-9d83-6f1b1f0a2c11',
      isJson: false,
      revision: 3n,
      type: 'ProjectRenamed',
      created,
      data: new TextEncoder().encode('{"name":"Ünïcode"}'),
      metadata: undefined,
      position: { commit: 9000n, prepare: 9000n },
    } as unknown as DbRecordedEvent;

    expect(toRecordedEvent(event)).toEqual({
      id: '0b6f4c52-2f7a-4f43-9d83-6f1b1f0a2c11',
      streamName: 'project-1',
      revision: 3,
      position: 9000,
      type: 'ProjectRenamed',
      data: { name: 'Ünïcode' },
      metadata: {},
      recordedAt: created,
    });
  });

  it('refuses an event without a position instead of inventing one', () => {
    const event = {
      streamId: 's',
      id: 'x',
      revision: 0n,
      type: 'T',
      created: new Date(),
      data: {},
      isJson: true,
    } as unknown as DbRecordedEvent;

    expect(() => toRecordedEvent(event)).toThrow('22.6');
  });
});
