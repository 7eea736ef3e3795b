import type { Browser, BrowserContext } from 'playwright-core';
import type { Egress } from './egress-pool';
import type { ContextCookie } from './page-loader';

interface PoolEntry {
  context: Promise<BrowserContext>;
  /** Page loads currently using the context; only idle contexts are closed. */
  leases: number;
}

/**
 * One browser context per egress, opened on first use and kept, so cookies (consent, session)
 * survive between checks the way they would for a person. A proxy is a context option in
 * Playwright, so a context cannot be shared between proxies. Every context starts with
 * `initialCookies` (Google's consent cookie), so even its first page is not a consent page.
 *
 * At most `maxContexts` are kept: opening one more closes the least recently used idle one. While
 * all are busy the pool may briefly hold more; the page-load concurrency limit bounds that.
 */
export class BrowserContextPool {
  // A Map keeps insertion order; an entry is re-inserted on every use, so the first is the stalest.
  private readonly entries = new Map<string, PoolEntry>();

  constructor(
    private readonly browser: Browser,
    private readonly maxContexts: number,
    private readonly initialCookies: readonly ContextCookie[] = [],
  ) {}

  /** Number of contexts open or opening. */
  get size(): number {
    return this.entries.size;
  }

  async withContext<T>(egress: Egress, use: (context: BrowserContext) => Promise<T>): Promise<T> {
    const entry = this.lease(egress);
    try {
      return await use(await entry.context);
    } finally {
      entry.leases--;
    }
  }

  async close(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => closeQuietly(entry.context)));
  }

  private lease(egress: Egress): PoolEntry {
    let entry = this.entries.get(egress.id);
    if (entry) {
      this.entries.delete(egress.id);
    } else {
      this.closeIdleUntilRoomFor(1);
      entry = this.open(egress);
    }
    this.entries.set(egress.id, entry);
    entry.leases++;
    return entry;
  }

  private open(egress: Egress): PoolEntry {
    // `forget` runs later (after a crash or a failed open), when `entry` exists.
    const forget = () => {
      if (this.entries.get(egress.id) === entry) this.entries.delete(egress.id);
    };
    const entry: PoolEntry = { context: this.newContext(egress, forget), leases: 0 };
    // A failed open is not cached: the next load tries again.
    entry.context.catch(forget);
    return entry;
  }

  private async newContext(egress: Egress, onClose: () => void): Promise<BrowserContext> {
    const context = await this.browser.newContext({
      // Service workers would fetch outside the page's request routing.
      serviceWorkers: 'block',
      ...(egress.proxy ? { proxy: { server: egress.proxy.server, username: egress.proxy.username, password: egress.proxy.password } } : {}),
    });
    // A context that dies (browser crash, external close) is opened afresh next time.
    context.on('close', onClose);
    if (this.initialCookies.length > 0) {
      try {
        await context.addCookies([...this.initialCookies]);
      } catch (error) {
        // A context without its cookies is not handed out: the open fails and the next load retries.
        await context.close().catch(() => undefined);
        throw error;
      }
    }
    return context;
  }

  private closeIdleUntilRoomFor(newContexts: number): void {
    for (const [id, entry] of this.entries) {
      if (this.entries.size + newContexts <= this.maxContexts) return;
      if (entry.leases > 0) continue;
      this.entries.delete(id);
      void closeQuietly(entry.context);
    }
  }
}

async function closeQuietly(context: Promise<BrowserContext>): Promise<void> {
  try {
    await (await context).close();
  } catch {
    // Already closed, or never opened: nothing to release.
  }
}
