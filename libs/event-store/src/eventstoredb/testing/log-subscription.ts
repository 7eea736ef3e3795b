/**
 * A catch-up subscription (Streams `Read` with the `subscription` option): it walks the log from its
 * start, then keeps going as records are written. One cursor serves both phases, so there is no
 * hand-over gap where an event could be lost or sent twice, which is what the server's catch-up /
 * live switch works hard to achieve.
 *
 * Messages follow the server (23.10+): a `confirmation` first, then the events; `caught_up` once when
 * the cursor first reaches the end of the log; for filtered `$all` subscriptions a `checkpoint` every
 * `checkpointInterval` records read, matching or not, so a client can save progress over stretches
 * the filter skips. Writes respect the call's flow control (await 'drain'), so a slow client holds the
 * cursor instead of making the double buffer the log.
 */
import { randomUUID } from 'node:crypto';
import type { ServerWritableStream } from '@grpc/grpc-js';
import * as streams from '@eventstore/db-client/generated/streams_pb';
import type { LogRecord, TransactionLog } from './transaction-log';

export interface LogSubscriptionOptions {
  /** Index in the log of the first record to consider. */
  startIndex: number;
  select: (record: LogRecord) => boolean;
  toMessage: (record: LogRecord) => streams.ReadResp;
  /** Records read between two checkpoint messages; undefined for unfiltered subscriptions (no checkpoints). */
  checkpointInterval?: number;
}

export class LogSubscription {
  private index: number;
  private readSinceCheckpoint = 0;
  private caughtUp = false;
  private pumping = false;
  private closed = false;
  private stopListening: () => void = () => undefined;

  constructor(
    private readonly log: TransactionLog,
    private readonly call: ServerWritableStream<streams.ReadReq, streams.ReadResp>,
    private readonly options: LogSubscriptionOptions,
  ) {
    this.index = options.startIndex;
  }

  /** Confirms the subscription, then follows the log until the call ends. */
  start(): void {
    this.stopListening = this.log.onWritten(() => void this.pump());
    // The client cancelled, or the server is going down: stop following the log.
    for (const event of ['cancelled', 'error', 'close'] as const) this.call.on(event, () => this.close());
    const confirmation = new streams.ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID());
    void this.send(new streams.ReadResp().setConfirmation(confirmation)).then(() => this.pump());
  }

  private async pump(): Promise<void> {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      while (!this.closed) {
        if (this.index >= this.log.records.length) {
          if (this.caughtUp) break;
          this.caughtUp = true;
          await this.send(new streams.ReadResp().setCaughtUp(new streams.ReadResp.CaughtUp()));
          continue;
        }
        const record = this.log.records[this.index++]!;
        if (this.options.select(record)) await this.send(this.options.toMessage(record));
        if (this.options.checkpointInterval !== undefined && ++this.readSinceCheckpoint >= this.options.checkpointInterval) {
          this.readSinceCheckpoint = 0;
          const position = String(record.position);
          await this.send(
            new streams.ReadResp().setCheckpoint(
              new streams.ReadResp.Checkpoint().setCommitPosition(position).setPreparePosition(position),
            ),
          );
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private async send(message: streams.ReadResp): Promise<void> {
    if (!this.closed) await writeWithFlowControl(this.call, message);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopListening();
  }
}

/** Writes a message; when the call's buffer is full, waits for it to drain (or for the call to end). */
export async function writeWithFlowControl<T>(call: ServerWritableStream<unknown, T>, message: T): Promise<void> {
  if (call.write(message)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('close', done);
      resolve();
    };
    call.once('drain', done);
    call.once('close', done);
  });
}
