import { Injectable } from '@nestjs/common';

/**
 * `lastUsedAt` of API keys, kept in memory and written at most once a minute per key, so that
 * authentication never writes on the request path. The in-memory value is authoritative for this
 * process; persisted values are merged in when listing keys.
 */
@Injectable()
export class KeyUsageTracker {
  private readonly lastUsed = new Map<string, Date>();
  private readonly pending = new Map<string, { accountId: string; keyId: string; usedAt: Date }>();

  touch(accountId: string, keyId: string, at: Date): void {
    this.lastUsed.set(keyId, at);
    this.pending.set(keyId, { accountId, keyId, usedAt: at });
  }

  lastUsedAt(keyId: string): Date | undefined {
    return this.lastUsed.get(keyId);
  }

  /** Hands over the uses recorded since the last call (to be persisted). */
  drain(): { accountId: string; keyId: string; usedAt: Date }[] {
    const uses = [...this.pending.values()];
    this.pending.clear();
    return uses;
  }

  remember(keyId: string, at: Date): void {
    const known = this.lastUsed.get(keyId);
    if (!known || known < at) this.lastUsed.set(keyId, at);
  }
}
