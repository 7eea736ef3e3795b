/**
 * A wire-level test double of EventStoreDB (KurrentDB) 23.x/24.x: a gRPC server on 127.0.0.1 that
 * answers the real `@eventstore/db-client` with the client's own generated service definitions, so
 * the EventStoreDB adapter can run its whole contract suite where no server can run.
 *
 * What it emulates, and how faithfully, is written down next to each part: the transaction log and
 * the server's write rules (`transaction-log.ts`), reads, appends and subscriptions
 * (`streams-service.ts`, `log-subscription.ts`), `$all` filters (`event-filter.ts`), persistent
 * subscriptions to `$all` (`persistent-subscriptions-service.ts`, `persistent-subscription-group.ts`)
 * and feature discovery (`server-features-service.ts`). What it does not do: TLS, authentication and
 * ACLs, clustering and gossip (connect with a single-node `esdb://` string), projections, users and
 * operations, scavenging (deleted events stay in `$all`, as before a scavenge), `$maxAge`, link
 * resolution, durability (all in memory, gone at `stop()`).
 *
 * Like a fresh node, it starts with a few system events in `$all` (user accounts, settings, scavenge
 * metadata), and it can write periodic `$statsCollected` events, so that code reading `$all` meets
 * the system events a real server has.
 */
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { PersistentSubscriptionsService as PersistentSubscriptionsDefinition } from '@eventstore/db-client/generated/persistent_grpc_pb';
import { ServerFeaturesService as ServerFeaturesDefinition } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { StreamsService as StreamsDefinition } from '@eventstore/db-client/generated/streams_grpc_pb';
import { PersistentSubscriptionsService } from './persistent-subscriptions-service';
import { serverFeaturesImplementation } from './server-features-service';
import { RoundTrips, StreamsService } from './streams-service';
import { TransactionLog } from './transaction-log';

export interface EventStoreDbDoubleOptions {
  /** How often persistent subscriptions check message timeouts and checkpoint; the server's clock ticks every 1000 ms. */
  persistentSubscriptionTickMs?: number;
  /** Write a `$statsCollected` event this often, as the server does (every 30 s by default). Off when undefined. */
  statsPeriodMs?: number;
  /** List BatchAppend in ServerFeatures, as servers since 21.10 do (the client then appends over it). Default true. */
  batchAppend?: boolean;
  /** How many recent event ids the idempotency check remembers. */
  recentEventIds?: number;
}

export class EventStoreDbDouble {
  readonly log: TransactionLog;
  /** Stream reads and appends answered since start: what an adapter's operation costs in round trips. */
  readonly roundTrips: RoundTrips = { reads: 0, appends: 0 };
  private server: Server | undefined;
  private statsTimer: NodeJS.Timeout | undefined;
  private persistentSubscriptions: PersistentSubscriptionsService | undefined;

  constructor(private readonly options: EventStoreDbDoubleOptions = {}) {
    this.log = new TransactionLog({ recentEventIds: options.recentEventIds });
    writeFreshNodeSystemEvents(this.log);
  }

  /**
   * Listens on 127.0.0.1 (insecure, like a node started with `--insecure`): on a free port, or on
   * `port`, as a node that comes back after `stop()` (its log kept; its persistent subscriptions not).
   */
  async start(port = 0): Promise<{ connectionString: string; port: number }> {
    if (this.server) throw new Error('The EventStoreDB double is already started');
    const server = new Server();
    const streams = new StreamsService(this.log, this.roundTrips);
    this.persistentSubscriptions = new PersistentSubscriptionsService(this.log, this.options.persistentSubscriptionTickMs ?? 1_000);
    server.addService(StreamsDefinition, streams.implementation());
    server.addService(PersistentSubscriptionsDefinition, this.persistentSubscriptions.implementation());
    server.addService(ServerFeaturesDefinition, serverFeaturesImplementation({ batchAppend: this.options.batchAppend ?? true }));
    const bound = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error, at) => (error ? reject(error) : resolve(at))),
    );
    this.server = server;
    if (this.options.statsPeriodMs !== undefined) {
      this.statsTimer = setInterval(() => writeStats(this.log, bound), this.options.statsPeriodMs);
      this.statsTimer.unref();
    }
    return { connectionString: `esdb://127.0.0.1:${bound}?tls=false`, port: bound };
  }

  /** Drops every connection at once, as a node that goes away does, and frees the port. */
  async stop(): Promise<void> {
    clearInterval(this.statsTimer);
    this.persistentSubscriptions?.close();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.forceShutdown();
  }
}

/** What `$all` holds on a fresh node before anyone writes: the default users, settings and scavenge metadata. */
function writeFreshNodeSystemEvents(log: TransactionLog): void {
  log.writeSystemEvent('$$$scavenges', '$metadata', '{"$maxAge":2592000}');
  for (const login of ['admin', 'ops']) {
    const fullName = login === 'admin' ? 'Event Store Administrator' : 'Event Store Operations';
    log.writeSystemEvent(
      `$user-${login}`,
      '$User',
      JSON.stringify({ loginName: login, fullName, groups: [`$${login}s`], disabled: false }),
    );
    log.writeSystemEvent('$users', '$UserCreated', login, { isJson: false });
  }
  log.writeSystemEvent(
    '$settings',
    '$settings',
    JSON.stringify({
      $userStreamAcl: { $r: '$all', $w: '$all', $d: '$all', $mr: '$all', $mw: '$all' },
      $systemStreamAcl: { $r: '$admins' },
    }),
  );
}

function writeStats(log: TransactionLog, port: number): void {
  log.writeSystemEvent(`$stats-127.0.0.1:${port}`, '$statsCollected', JSON.stringify({ 'proc-startTime': new Date().toISOString() }));
}
