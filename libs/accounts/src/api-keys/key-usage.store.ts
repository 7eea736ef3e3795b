import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ReadStore } from '@rank/read-store/read-store.port';
import { KeyUsageTracker } from './key-usage.tracker';
import { READ_STORE } from '@rank/platform/tokens';

const FLUSH_EVERY_MS = 30_000;

/**
 * Persists `lastUsedAt` to ClickHouse (table `api_key_usage`, migration 001) in the background, so that
 * it survives restarts and is shared by replicas, without a write on the request path.
 */
@Injectable()
export class KeyUsageStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(KeyUsageStore.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly tracker: KeyUsageTracker,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(
      () => void this.flush().catch((e: unknown) => this.logger.warn(`could not save key usage: ${String(e)}`)),
      FLUSH_EVERY_MS,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((e: unknown) => this.logger.warn(`could not save key usage: ${String(e)}`));
  }

  async flush(): Promise<void> {
    const uses = this.tracker.drain();
    if (uses.length === 0) return;
    try {
      await this.readStore.insert(
        'api_key_usage',
        uses.map((u) => ({ account_id: u.accountId, key_id: u.keyId, used_at: u.usedAt.getTime() })),
      );
    } catch (error) {
      for (const u of uses) this.tracker.touch(u.accountId, u.keyId, u.usedAt);
      throw error;
    }
  }

  /**
   * Brings what other processes (and earlier runs) saved about the account's keys into the tracker,
   * which then holds the latest use of each: ask it, key by key.
   */
  async refresh(accountId: string): Promise<void> {
    const rows = await this.readStore.query<{ key_id: string; used_at_ms: string }>(
      'SELECT key_id, toString(toUnixTimestamp64Milli(max(used_at))) AS used_at_ms FROM api_key_usage WHERE account_id = {accountId:String} GROUP BY key_id',
      { accountId },
    );
    for (const row of rows) this.tracker.remember(row.key_id, new Date(Number(row.used_at_ms)));
  }
}
