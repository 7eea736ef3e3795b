import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../support/test-app';

describe('Restart', () => {
  it('keeps accounts, keys, revocations and lastUsedAt across a restart on the same data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rank-tracker-restart-'));
    const database = `restart_${process.pid}_${Date.now()}`;
    const first = await startTestApp({ dataDir, database });
    const { apiKey } = await first.createAccount({ name: 'Persistent' });
    const reader = await first.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'reader' } });
    expect((await first.request('GET', '/api/user/api-keys', { key: reader.body.key })).status).toBe(200);
    const revoked = await first.request('POST', '/api/user/api-keys', { key: apiKey, body: { name: 'gone' } });
    await first.request('DELETE', '/api/user/api-keys', { key: apiKey, body: { id: revoked.body.apiKey._id } });
    const before = await first.request('GET', '/api/user/api-keys', { key: apiKey });
    const readerBefore = before.body.apiKeys.find((k: { name: string }) => k.name === 'reader');
    expect(readerBefore.lastUsedAt).not.toBeNull();
    await first.close({ keepData: true });

    const second = await startTestApp({ dataDir, database });
    try {
      // The reader key is not used after the restart: its lastUsedAt can only come from what was saved.
      const after = await second.request('GET', '/api/user/api-keys', { key: apiKey });
      expect(after.body.apiKeys.map((k: { name: string }) => k.name)).toEqual(['default', 'reader']);
      expect(after.body.apiKeys.find((k: { name: string }) => k.name === 'reader').lastUsedAt).toBe(readerBefore.lastUsedAt);
      expect((await second.request('GET', '/api/user/api-keys', { key: revoked.body.key })).status).toBe(401);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
