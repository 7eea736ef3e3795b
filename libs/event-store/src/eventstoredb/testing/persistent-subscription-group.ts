/**
 * One persistent subscription group to `$all` ("competing consumers"), following the server's
 * `PersistentSubscription` class (KurrentDB 24.x) rule for rule:
 *
 * - Members connect with a buffer size: the most events they may hold unacknowledged. Each event
 *   goes to one member, picked by the consumer strategy (round robin: the server's queue of members,
 *   rotated on every attempt; dispatch-to-single: the first member with room).
 * - Events waiting for a retry go out before new ones.
 * - An event unsettled when its message timeout passes (checked on the server's clock tick, every
 *   second by default) is retried: retry count + 1, to any member. A nack with `retry` does the same.
 *   Either way, an event whose retry count already reached `maxRetryCount` is parked instead.
 * - When a member goes away, the events it held are retried (count + 1, without the park check,
 *   as `RemoveClientByCorrelationId` does), so they go to the other members.
 * - Ack, `skip` and `stop` settle an event (`stop` does nothing more: the server never implemented
 *   it). Settling is by event id, whoever sends it, and only for an event that is outstanding: an ack
 *   for an event already waiting in the retry buffer does not stop the retry.
 * - New events come from the log through the filter, so events written after the group was created
 *   flow in as they are written.
 * - Parked events are written to `$persistentsubscription-$all::<group>-parked` as `$>` links, and
 *   progress to `...-checkpoint` as `$SubscriptionCheckpoint` events (by the server's
 *   `TryMarkCheckpoint` rule): system events that `$all` readers see, but no group ever does.
 *
 * Not emulated: the server's read-ahead buffers (`readBatchSize`, `historyBufferSize`,
 * `liveBufferSize`), which change memory use and timing but not what is delivered; loading a saved
 * checkpoint (the double never restarts); replaying parked events; the pinned strategies.
 */
import { allowedByDefaultAllFilter, type EventFilter } from './event-filter';
import type { LogRecord, TfPosition, TransactionLog } from './transaction-log';

export type ConsumerStrategy = 'RoundRobin' | 'DispatchToSingle';

export interface GroupSettings {
  groupName: string;
  startFrom: 'start' | 'end' | TfPosition;
  filter?: EventFilter;
  messageTimeoutMs: number;
  maxRetryCount: number;
  /** 0 means no limit. */
  maxSubscriberCount: number;
  consumerStrategy: ConsumerStrategy;
  checkPointAfterMs: number;
  minCheckPointCount: number;
  maxCheckPointCount: number;
}

/** A connected member, as the group sees it; the gRPC layer sends what `deliver` is given. */
export interface GroupMember {
  readonly bufferSize: number;
  deliver(record: LogRecord, retryCount: number): void;
  /** Ends the member's call with an error (the group was deleted). */
  drop(error: unknown): void;
}

interface Message {
  record: LogRecord;
  retryCount: number;
  /** Assigned when first pushed; checkpoints follow it. */
  sequence: number;
  /** The position of the last event pushed before this one: where a checkpoint may go if this one is unsettled. */
  previousPosition: number | undefined;
}

interface Outstanding extends Message {
  expiresAt: number;
}

export class PersistentSubscriptionGroup {
  readonly subscriptionId: string;
  private readonly members: GroupMember[] = [];
  /** Per member, the events it holds unsettled (the server's per-client unconfirmed list). */
  private readonly inFlight = new Map<GroupMember, Map<string, Message>>();
  private readonly outstanding = new Map<string, Outstanding>();
  private readonly retryBuffer: Message[] = [];
  private cursor: number;
  private nextSequence = 0;
  private lastKnownSequence = -1;
  private lastKnownPosition: number | undefined;
  private lastCheckpointedSequence = -1;
  private lastCheckpointTime = 0;
  private checkpointWritten = false;
  private pumpScheduled = false;
  private deleted = false;
  private readonly stopListening: () => void;

  constructor(
    private readonly log: TransactionLog,
    readonly settings: GroupSettings,
    private readonly clock: () => number = Date.now,
  ) {
    this.subscriptionId = `$all::${settings.groupName}`;
    const start = settings.startFrom;
    this.cursor = start === 'start' ? 0 : start === 'end' ? log.records.length : log.indexAtOrAfter(start);
    // Log writes may come from inside this group (parking, checkpoints): push on the next turn instead.
    this.stopListening = log.onWritten(() => this.schedulePump());
  }

  get memberCount(): number {
    return this.members.length;
  }

  get parkedStream(): string {
    return `$persistentsubscription-${this.subscriptionId}-parked`;
  }

  get checkpointStream(): string {
    return `$persistentsubscription-${this.subscriptionId}-checkpoint`;
  }

  addMember(member: GroupMember): void {
    this.members.push(member);
    this.inFlight.set(member, new Map());
    this.pump();
  }

  /** The member's call ended: what it held goes back to the group. */
  removeMember(member: GroupMember): void {
    const held = this.inFlight.get(member);
    if (!held) return;
    this.members.splice(this.members.indexOf(member), 1);
    this.inFlight.delete(member);
    for (const message of [...held.values()].sort((a, b) => a.record.eventNumber - b.record.eventNumber)) this.retry(message);
    this.pump();
  }

  ack(eventIds: string[]): void {
    this.settle(eventIds);
    this.tryMarkCheckpoint(false);
    this.pump();
  }

  nack(action: 'retry' | 'park' | 'skip' | 'stop' | 'unknown', eventIds: string[], reason: string): void {
    for (const eventId of eventIds) {
      const message = this.outstanding.get(eventId);
      if (action === 'retry' || action === 'unknown') {
        if (message && !this.parkIfOutOfRetries(message)) this.retry(message);
      } else if (action === 'park') {
        if (message) this.park(message, `Client explicitly NAK'ed message.\n${reason}`);
      } else if (action === 'skip') {
        this.outstanding.delete(eventId);
      }
    }
    this.settle(eventIds);
    this.tryMarkCheckpoint(false);
    this.pump();
  }

  /** The server's clock tick: time out what members did not settle, then push and checkpoint. */
  tick(): void {
    if (this.deleted) return;
    const now = this.clock();
    for (const message of [...this.outstanding.values()]) {
      if (message.expiresAt < now && !this.parkIfOutOfRetries(message)) this.retry(message);
    }
    this.pump();
    this.tryMarkCheckpoint(true);
  }

  delete(dropWith: (member: GroupMember) => unknown): void {
    this.deleted = true;
    this.stopListening();
    for (const member of [...this.members]) member.drop(dropWith(member));
    this.members.length = 0;
    this.inFlight.clear();
  }

  /** Hands out what is waiting (retries first, then the log) while some member has room. */
  pump(): void {
    while (!this.deleted) {
      const next = this.retryBuffer[0] ?? this.peekLog();
      if (!next) return;
      const member = this.pickMember();
      if (!member) return;
      if (next === this.retryBuffer[0]) this.retryBuffer.shift();
      else this.cursor++;
      this.push(next, member);
    }
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private push(message: Message, member: GroupMember): void {
    if (message.sequence < 0) {
      message.sequence = this.nextSequence++;
      message.previousPosition = this.lastKnownPosition;
    }
    if (message.sequence > this.lastKnownSequence) {
      this.lastKnownSequence = message.sequence;
      this.lastKnownPosition = message.record.position;
    }
    this.inFlight.get(member)!.set(message.record.eventId, message);
    // Like `OutstandingMessageCache.StartMessage`, a second event with an id already outstanding
    // (the same id in another stream) is sent but not tracked.
    if (!this.outstanding.has(message.record.eventId)) {
      this.outstanding.set(message.record.eventId, { ...message, expiresAt: this.clock() + this.settings.messageTimeoutMs });
    }
    member.deliver(message.record, message.retryCount);
  }

  /**
   * The next event of the log that passes the filter. Records the group's filter skips still advance
   * the sequence (the server's `HandleSkippedEvents`), so checkpoints move over them; the groups' own
   * checkpoint and parked records never reach a group at all (`DefaultAllFilter`).
   */
  private peekLog(): Message | undefined {
    while (this.cursor < this.log.records.length) {
      const record = this.log.records[this.cursor]!;
      if (allowedByDefaultAllFilter(record)) {
        if (!this.settings.filter || this.settings.filter.matches(record)) {
          return { record, retryCount: 0, sequence: -1, previousPosition: undefined };
        }
        this.lastKnownPosition = record.position;
        this.lastKnownSequence = this.nextSequence++;
      }
      this.cursor++;
    }
    return undefined;
  }

  private pickMember(): GroupMember | undefined {
    const hasRoom = (member: GroupMember) => this.inFlight.get(member)!.size < member.bufferSize;
    if (this.settings.consumerStrategy === 'DispatchToSingle') return this.members.find(hasRoom);
    for (let attempt = 0; attempt < this.members.length; attempt++) {
      const member = this.members.shift()!;
      this.members.push(member);
      if (hasRoom(member)) return member;
    }
    return undefined;
  }

  private parkIfOutOfRetries(message: Outstanding): boolean {
    if (message.retryCount < this.settings.maxRetryCount) return false;
    this.park(message, `Reached retry count of ${this.settings.maxRetryCount}`);
    return true;
  }

  private retry(message: Message): void {
    const eventId = message.record.eventId;
    this.outstanding.delete(eventId);
    for (const held of this.inFlight.values()) held.delete(eventId);
    const retried: Message = { ...message, retryCount: message.retryCount + 1 };
    const at = this.retryBuffer.findIndex((waiting) => waiting.sequence > retried.sequence);
    this.retryBuffer.splice(at < 0 ? this.retryBuffer.length : at, 0, retried);
  }

  private park(message: Message, reason: string): void {
    const { record } = message;
    const metadata = JSON.stringify({ added: new Date(this.clock()).toISOString(), reason, subscriptionEventNumber: record.eventNumber });
    this.log.writeSystemEvent(this.parkedStream, '$>', `${record.eventNumber}@${record.streamName}`, { metadata, isJson: false });
    this.settle([record.eventId]);
  }

  private settle(eventIds: string[]): void {
    for (const eventId of eventIds) {
      this.outstanding.delete(eventId);
      for (const held of this.inFlight.values()) held.delete(eventId);
    }
  }

  /** The server's `TryMarkCheckpoint`: the checkpoint never passes an unsettled event. */
  private tryMarkCheckpoint(isTimeCheck: boolean): void {
    let lowest: Message | undefined;
    for (const message of [...this.outstanding.values(), ...this.retryBuffer]) {
      if (!lowest || message.sequence < lowest.sequence) lowest = message;
    }
    let [sequence, position] = [this.lastKnownSequence, this.lastKnownPosition];
    if (lowest) {
      if (lowest.previousPosition === undefined) return;
      [sequence, position] = [lowest.sequence - 1, lowest.previousPosition];
    }
    if (sequence < 0 || position === undefined) return;
    const difference = sequence - this.lastCheckpointedSequence;
    const now = this.clock();
    if (now - this.lastCheckpointTime < this.settings.checkPointAfterMs && difference < this.settings.maxCheckPointCount) return;
    if ((difference >= this.settings.minCheckPointCount && isTimeCheck) || difference >= this.settings.maxCheckPointCount) {
      this.lastCheckpointTime = now;
      this.lastCheckpointedSequence = sequence;
      this.writeCheckpoint(position);
    }
  }

  private writeCheckpoint(position: number): void {
    if (!this.checkpointWritten) {
      this.checkpointWritten = true;
      // As `PersistentSubscriptionCheckpointWriter`: keep two checkpoints, readable by admins only.
      const acl = { $r: '$admins', $w: '$admins', $d: '$admins', $mr: '$all', $mw: '$admins' };
      this.log.writeSystemEvent(`$$${this.checkpointStream}`, '$metadata', JSON.stringify({ $maxCount: 2, $acl: acl }));
    }
    this.log.writeSystemEvent(this.checkpointStream, '$SubscriptionCheckpoint', JSON.stringify(`C:${position}/P:${position}`));
  }
}
