/**
 * `event_store.client.persistent_subscriptions.PersistentSubscriptions` for groups on `$all`:
 * `Create`, `Read` (the bidirectional member call) and `Delete`, with the server's answers
 * (`PersistentSubscriptions.*.cs`, `PersistentSubscriptionService.cs`). Groups on a single stream,
 * `Update`, `GetInfo`, `List`, `ReplayParked` and `RestartSubsystem` answer UNIMPLEMENTED, and
 * ServerFeatures does not list them, so the client reports them as unsupported rather than failing
 * in a way no real server would.
 */
import type { sendUnaryData, ServerDuplexStream, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import * as persistent from '@eventstore/db-client/generated/persistent_pb';
import { eventFilterFrom } from './event-filter';
import { RpcErrors } from './grpc-errors';
import { type ConsumerStrategy, type GroupMember, PersistentSubscriptionGroup } from './persistent-subscription-group';
import type { LogRecord, TransactionLog } from './transaction-log';
import { fillRecordedEvent, parseUuid } from './wire';

const ALL = '$all';

export class PersistentSubscriptionsService {
  private readonly groups = new Map<string, PersistentSubscriptionGroup>();
  private readonly ticker: NodeJS.Timeout;

  /** `tickMs`: how often unsettled events are checked against their message timeout (the server: 1 s). */
  constructor(
    private readonly log: TransactionLog,
    tickMs: number,
  ) {
    this.ticker = setInterval(() => {
      for (const group of this.groups.values()) group.tick();
    }, tickMs);
    this.ticker.unref();
  }

  implementation(): UntypedServiceImplementation {
    const notEmulated = (what: string) => (_call: unknown, callback: sendUnaryData<never>) => callback(RpcErrors.notEmulated(what));
    return {
      create: (call: ServerUnaryCall<persistent.CreateReq, persistent.CreateResp>, callback: sendUnaryData<persistent.CreateResp>) =>
        this.create(call, callback),
      read: (call: ServerDuplexStream<persistent.ReadReq, persistent.ReadResp>) => this.read(call),
      delete: (call: ServerUnaryCall<persistent.DeleteReq, persistent.DeleteResp>, callback: sendUnaryData<persistent.DeleteResp>) =>
        this.delete(call, callback),
      update: notEmulated('updating persistent subscriptions'),
      getInfo: notEmulated('persistent subscription info'),
      replayParked: notEmulated('replaying parked events'),
      list: notEmulated('listing persistent subscriptions'),
      restartSubsystem: notEmulated('restarting the persistent subscription subsystem'),
    };
  }

  /** Stops the clock (the members' calls end with the server). */
  close(): void {
    clearInterval(this.ticker);
  }

  private create(call: ServerUnaryCall<persistent.CreateReq, persistent.CreateResp>, callback: sendUnaryData<persistent.CreateResp>): void {
    const options = call.request.getOptions()!;
    const groupName = options.getGroupName();
    if (!options.hasAll()) return callback(RpcErrors.notEmulated('persistent subscriptions to a single stream'));
    if (this.groups.has(groupName)) return callback(RpcErrors.persistentSubscriptionExists(ALL, groupName));
    const settings = options.getSettings()!;
    const strategy = consumerStrategyOf(settings);
    if (strategy === 'Pinned' || strategy === 'PinnedByCorrelation')
      return callback(RpcErrors.notEmulated(`the ${strategy} consumer strategy`));
    if (strategy !== 'RoundRobin' && strategy !== 'DispatchToSingle') {
      return callback(RpcErrors.persistentSubscriptionFailed(ALL, groupName, `Consumer strategy ${strategy} does not exist.`));
    }
    if (settings.getReadBatchSize() >= settings.getHistoryBufferSize()) {
      // `PersistentSubscriptionParams` refuses this combination.
      return callback(
        RpcErrors.persistentSubscriptionFailed(ALL, groupName, 'ReadBatchSize may not be greater than or equal to BufferSize'),
      );
    }
    const all = options.getAll()!;
    const position = all.getPosition();
    const group = new PersistentSubscriptionGroup(this.log, {
      groupName,
      startFrom: all.hasStart()
        ? 'start'
        : all.hasEnd()
          ? 'end'
          : { commit: BigInt(position!.getCommitPosition()), prepare: BigInt(position!.getPreparePosition()) },
      filter: all.hasFilter() ? eventFilterFrom(all.getFilter()!) : undefined,
      messageTimeoutMs: settings.hasMessageTimeoutMs()
        ? settings.getMessageTimeoutMs()
        : Number(BigInt(settings.getMessageTimeoutTicks() || '0') / 10_000n),
      maxRetryCount: settings.getMaxRetryCount(),
      maxSubscriberCount: settings.getMaxSubscriberCount(),
      consumerStrategy: strategy satisfies ConsumerStrategy,
      checkPointAfterMs: settings.hasCheckpointAfterMs()
        ? settings.getCheckpointAfterMs()
        : Number(BigInt(settings.getCheckpointAfterTicks() || '0') / 10_000n),
      minCheckPointCount: settings.getMinCheckpointCount(),
      maxCheckPointCount: settings.getMaxCheckpointCount(),
    });
    this.groups.set(groupName, group);
    this.writeConfig();
    callback(null, new persistent.CreateResp());
  }

  private read(call: ServerDuplexStream<persistent.ReadReq, persistent.ReadResp>): void {
    let member: (GroupMember & { group: PersistentSubscriptionGroup }) | undefined;
    const leave = () => {
      member?.group.removeMember(member);
      member = undefined;
    };
    call.on('cancelled', leave);
    call.on('close', leave);
    call.on('error', leave);
    call.on('data', (request: persistent.ReadReq) => {
      try {
        if (request.hasOptions()) member = this.join(call, request.getOptions()!);
        else if (request.hasAck())
          member?.group.ack(
            request
              .getAck()!
              .getIdsList()
              .map((id) => parseUuid(id)),
          );
        else if (request.hasNack()) {
          const nack = request.getNack()!;
          member?.group.nack(
            nackAction(nack.getAction()),
            nack.getIdsList().map((id) => parseUuid(id)),
            nack.getReason(),
          );
        }
      } catch (error) {
        call.emit('error', error);
      }
    });
  }

  private join(
    call: ServerDuplexStream<persistent.ReadReq, persistent.ReadResp>,
    options: persistent.ReadReq.Options,
  ): GroupMember & { group: PersistentSubscriptionGroup } {
    const groupName = options.getGroupName();
    if (!options.hasAll()) throw RpcErrors.notEmulated('persistent subscriptions to a single stream');
    const group = this.groups.get(groupName);
    if (!group) throw RpcErrors.persistentSubscriptionDoesNotExist(ALL, groupName);
    if (group.settings.maxSubscriberCount > 0 && group.memberCount >= group.settings.maxSubscriberCount) {
      throw RpcErrors.maximumSubscribersReached(ALL, groupName);
    }
    const structuredIds = options.getUuidOption()?.hasStructured() ?? false;
    const member = {
      group,
      bufferSize: options.getBufferSize(),
      deliver: (record: LogRecord, retryCount: number) => call.write(readEvent(record, retryCount, structuredIds)),
      drop: (error: unknown) => call.emit('error', error),
    };
    const confirmation = new persistent.ReadResp.SubscriptionConfirmation().setSubscriptionId(group.subscriptionId);
    call.write(new persistent.ReadResp().setSubscriptionConfirmation(confirmation));
    group.addMember(member);
    return member;
  }

  private delete(call: ServerUnaryCall<persistent.DeleteReq, persistent.DeleteResp>, callback: sendUnaryData<persistent.DeleteResp>): void {
    const options = call.request.getOptions()!;
    const groupName = options.getGroupName();
    if (!options.hasAll()) return callback(RpcErrors.notEmulated('persistent subscriptions to a single stream'));
    const group = this.groups.get(groupName);
    if (!group) return callback(RpcErrors.persistentSubscriptionDoesNotExist(ALL, groupName));
    this.groups.delete(groupName);
    group.delete(() => RpcErrors.persistentSubscriptionDoesNotExist(ALL, groupName));
    this.writeConfig();
    // The server deletes the group's checkpoint and parked streams (a soft delete, when they exist).
    this.log.softDelete(group.checkpointStream, -2);
    this.log.softDelete(group.parkedStream, -2);
    callback(null, new persistent.DeleteResp());
  }

  /** Every change of the groups rewrites `$persistentSubscriptionConfig`, a system event in `$all`. */
  private writeConfig(): void {
    const entries = [...this.groups.values()].map(({ settings }) => ({
      stream: ALL,
      group: settings.groupName,
      filter: settings.filter?.description,
      messageTimeout: settings.messageTimeoutMs,
      maxRetryCount: settings.maxRetryCount,
      consumerStrategy: settings.consumerStrategy,
    }));
    const config = { version: '2', updated: new Date().toISOString(), updatedBy: 'admin', entries };
    this.log.writeSystemEvent('$persistentSubscriptionConfig', '$PersistentConfig', JSON.stringify(config));
  }
}

function readEvent(record: LogRecord, retryCount: number, structuredIds: boolean): persistent.ReadResp {
  const event = fillRecordedEvent(new persistent.ReadResp.ReadEvent.RecordedEvent(), record, structuredIds);
  const readEvent = new persistent.ReadResp.ReadEvent()
    .setEvent(event)
    .setCommitPosition(String(record.position))
    .setRetryCount(retryCount);
  return new persistent.ReadResp().setEvent(readEvent);
}

/** The string field wins over the enum when set, as on the server. */
function consumerStrategyOf(settings: persistent.CreateReq.Settings): string {
  if (settings.getConsumerStrategy()) return settings.getConsumerStrategy();
  switch (settings.getNamedConsumerStrategy()) {
    case persistent.CreateReq.ConsumerStrategy.DISPATCHTOSINGLE:
      return 'DispatchToSingle';
    case persistent.CreateReq.ConsumerStrategy.ROUNDROBIN:
      return 'RoundRobin';
    case persistent.CreateReq.ConsumerStrategy.PINNED:
      return 'Pinned';
    default:
      return String(settings.getNamedConsumerStrategy());
  }
}

function nackAction(action: persistent.ReadReq.Nack.Action): 'retry' | 'park' | 'skip' | 'stop' | 'unknown' {
  switch (action) {
    case persistent.ReadReq.Nack.Action.PARK:
      return 'park';
    case persistent.ReadReq.Nack.Action.RETRY:
      return 'retry';
    case persistent.ReadReq.Nack.Action.SKIP:
      return 'skip';
    case persistent.ReadReq.Nack.Action.STOP:
      return 'stop';
    default:
      return 'unknown';
  }
}
