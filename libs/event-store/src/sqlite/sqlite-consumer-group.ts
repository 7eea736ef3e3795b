import type { Database } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { ConsumerGroupOptions, RecordedEvent, Subscription } from '../event-store.port';
import { reportSubscriptionDeath } from '../subscription-errors';
import { WakeUpCall } from './wake-up-call';

/** One event handed to a member, with how many times the group has offered it (this time included). */
export interface Offer {
  event: RecordedEvent;
  attempt: number;
}

/**
 * The shared bookkeeping of consumer groups, in the event store's own file, so members in several
 * processes on one machine share work as EventStoreDB's persistent subscriptions do.
 *
 * `consumer_groups.scanned_up_to` is the log position below which every work event has been offered
 * at least once: new work is found by scanning forward from it, never the whole log. An event that is
 * offered and not yet settled has a row in `consumer_group_offers` with a lease; when the lease runs
 * out (the member hung or died) or the handler failed (`retry`), any member may take it again. An
 * acknowledged event's row is deleted; a parked one stays, for an operator to look at.
 *
 * Every claim runs in an IMMEDIATE transaction, so two members never take the same offer.
 *
 * A SQLite file is only ever shared by processes of one machine, so an offer also records its
 * holder's process id: the offers of a process that is gone (killed, crashed) are taken again at once,
 * not after the lease. The token tells this process from an earlier one that had the same id (pid 1
 * in a restarted container).
 */
export class SqliteConsumerGroups {
  /** Prepared once: members poll every interval and settle every event, so these run constantly. */
  private readonly sql: ReturnType<typeof prepareStatements>;

  constructor(
    private readonly db: Database,
    private readonly readEvents: (positions: number[]) => RecordedEvent[],
    private readonly clock: () => number = Date.now,
  ) {
    db.function('consumer_group_holder_alive', { deterministic: false }, (pid, token) => (holderAlive(Number(pid), String(token)) ? 1 : 0));
    this.sql = prepareStatements(db);
  }

  /** Creates the group on first use; a group keeps the prefix it was created with. */
  ensureGroup(group: string, streamPrefix: string): void {
    this.sql.createGroup.run(group, streamPrefix);
    const { stream_prefix: existing } = this.sql.selectGroup.get(group)!;
    if (existing !== streamPrefix) {
      throw new Error(`Consumer group ${group} follows streams starting with "${existing}", not "${streamPrefix}"`);
    }
  }

  /** Takes up to `count` events: first those due again (failed or lease expired), then new work in log order. */
  claim(group: string, count: number, leaseMs: number): Offer[] {
    if (count <= 0) return [];
    const now = this.clock();
    const claimed = this.db
      .transaction((): Array<{ position: number; attempts: number }> => {
        const due = this.sql.selectDue.all(group, now, count);
        for (const offer of due) this.sql.reoffer.run(now + leaseMs, process.pid, PROCESS_TOKEN, group, offer.position);
        const fresh = this.takeNewWork(group, count - due.length);
        for (const position of fresh) this.sql.offer.run(group, position, now + leaseMs, process.pid, PROCESS_TOKEN);
        return [
          ...due.map((o) => ({ position: o.position, attempts: o.attempts + 1 })),
          ...fresh.map((position) => ({ position, attempts: 1 })),
        ];
      })
      .immediate();
    if (claimed.length === 0) return [];

    const events = new Map(this.readEvents(claimed.map((c) => c.position)).map((event) => [event.position, event]));
    const offers: Offer[] = [];
    for (const { position, attempts } of claimed) {
      const event = events.get(position);
      // Its stream was deleted since: there is nothing left to hand out.
      if (!event) this.acknowledge(group, position);
      else offers.push({ event, attempt: attempts });
    }
    return offers;
  }

  acknowledge(group: string, position: number): void {
    this.sql.deleteOffer.run(group, position);
  }

  /**
   * Records a failed attempt: the event is due again at once, or parked after its last attempt.
   * Only the holder of the current attempt may do so: a member whose lease ran out, and whose event
   * another member has taken since, must not disturb that member's attempt. Returns 'parked' when
   * this call parked it.
   */
  fail(group: string, position: number, attempt: number, maxRetries: number): 'retry' | 'parked' | 'superseded' {
    const state = attempt > maxRetries ? 'parked' : 'retry';
    const changed = this.sql.markFailed.run(state, group, position, attempt).changes;
    return changed === 0 ? 'superseded' : state;
  }

  private takeNewWork(group: string, count: number): number[] {
    if (count <= 0) return [];
    const { stream_prefix: prefix, scanned_up_to: scannedUpTo } = this.sql.selectGroup.get(group)!;
    const positions = this.sql.selectNewWork.all(scannedUpTo, prefix.length, prefix, count).map((row) => row.position);
    // A full batch moves the cursor to its last event; a short one means the scan reached the end of
    // the log, so everything up to the newest position has been looked at.
    const newestPosition = this.sql.selectNewestPosition.get()?.last ?? 0;
    const scanned = positions.length === count ? positions[positions.length - 1]! : newestPosition;
    if (scanned > scannedUpTo) this.sql.moveCursor.run(scanned, group);
    return positions;
  }
}

function prepareStatements(db: Database) {
  return {
    createGroup: db.prepare<[string, string]>(
      'INSERT OR IGNORE INTO consumer_groups (group_name, stream_prefix, scanned_up_to) VALUES (?, ?, 0)',
    ),
    selectGroup: db.prepare<[string], { stream_prefix: string; scanned_up_to: number }>(
      'SELECT stream_prefix, scanned_up_to FROM consumer_groups WHERE group_name = ?',
    ),
    moveCursor: db.prepare<[number, string]>('UPDATE consumer_groups SET scanned_up_to = ? WHERE group_name = ?'),
    selectDue: db.prepare<[string, number, number], { position: number; attempts: number }>(
      `SELECT position, attempts FROM consumer_group_offers
       WHERE group_name = ? AND (state = 'retry' OR (state = 'offered' AND (lease_until <= ? OR NOT consumer_group_holder_alive(owner_pid, owner_token))))
       ORDER BY position LIMIT ?`,
    ),
    reoffer: db.prepare<[number, number, string, string, number]>(
      `UPDATE consumer_group_offers SET attempts = attempts + 1, state = 'offered', lease_until = ?, owner_pid = ?, owner_token = ? WHERE group_name = ? AND position = ?`,
    ),
    offer: db.prepare<[string, number, number, number, string]>(
      `INSERT INTO consumer_group_offers (group_name, position, attempts, state, lease_until, owner_pid, owner_token) VALUES (?, ?, 1, 'offered', ?, ?, ?)`,
    ),
    deleteOffer: db.prepare<[string, number]>('DELETE FROM consumer_group_offers WHERE group_name = ? AND position = ?'),
    markFailed: db.prepare<[string, string, number, number]>(
      `UPDATE consumer_group_offers SET state = ?, lease_until = 0 WHERE group_name = ? AND position = ? AND attempts = ? AND state = 'offered'`,
    ),
    selectNewWork: db.prepare<[number, number, string, number], { position: number }>(
      'SELECT position FROM events WHERE position > ? AND substr(stream_name, 1, ?) = ? ORDER BY position LIMIT ?',
    ),
    selectNewestPosition: db.prepare<[], { last: number | null }>('SELECT max(position) AS last FROM events'),
  };
}

/** Tells this process from an earlier process that had the same id. */
const PROCESS_TOKEN = randomUUID();

function holderAlive(pid: number, token: string): boolean {
  if (pid === process.pid) return token === PROCESS_TOKEN;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface GroupMemberSettings {
  groups: SqliteConsumerGroups;
  /** How long to wait for an in-process wake-up before looking again (catches other processes' appends). */
  pollIntervalMs: number;
  onEnded: (member: SqliteGroupMember) => void;
}

/**
 * One member of a consumer group: claims events while it has free handler slots, runs the handlers,
 * and settles each event when its handler settles. It polls, and is woken early by appends in this
 * process and by handlers finishing.
 */
export class SqliteGroupMember implements Subscription {
  private stopRequested = false;
  private readonly running = new Set<Promise<void>>();
  private readonly wakeUp = new WakeUpCall();
  private readonly finished: Promise<void>;

  constructor(
    private readonly options: ConsumerGroupOptions,
    private readonly settings: GroupMemberSettings,
  ) {
    settings.groups.ensureGroup(options.group, options.streamPrefix);
    this.finished = this.follow();
  }

  wake(): void {
    this.wakeUp.wake();
  }

  async stop(): Promise<void> {
    this.stopRequested = true;
    this.wakeUp.wake();
    await this.finished;
  }

  private async follow(): Promise<void> {
    // Yield first, so no handler runs before joinConsumerGroup has returned to its caller.
    await new Promise((resolve) => setImmediate(resolve));
    const { group, maxInFlight, messageTimeoutMs } = this.options;
    try {
      while (!this.stopRequested) {
        this.wakeUp.startRound();
        const offers = this.settings.groups.claim(group, maxInFlight - this.running.size, messageTimeoutMs);
        for (const offer of offers) this.handle(offer);
        await this.wakeUp.pause(this.settings.pollIntervalMs);
      }
    } catch (error) {
      this.stopRequested = true;
      reportSubscriptionDeath(this.options, error);
    } finally {
      await Promise.allSettled([...this.running]);
      this.settings.onEnded(this);
    }
  }

  private handle({ event, attempt }: Offer): void {
    const { group, maxRetries } = this.options;
    const groups = this.settings.groups;
    const run = (async () => {
      try {
        await this.options.onEvent(event, attempt);
        groups.acknowledge(group, event.position);
      } catch (error) {
        if (groups.fail(group, event.position, attempt, maxRetries) === 'parked') this.options.onParked?.(event, error);
      }
    })()
      .catch((error: unknown) => reportSubscriptionDeath(this.options, error))
      .finally(() => {
        this.running.delete(run);
        this.wake();
      });
    this.running.add(run);
  }
}
