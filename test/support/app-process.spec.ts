import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { startAppProcess } from './app-process';
import { waitFor } from '@rank/platform/testing/wait-for';

/** The pids of the live processes whose environment holds `marker` (Linux's /proc). */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(marker)) pids.push(Number(name));
    } catch {
      // Gone between the listing and the read, or not ours to read.
    }
  }
  return pids;
}

describe('startAppProcess', () => {
  it('kills a child that did not say it was ready in time, so no pipe keeps the test process alive', async () => {
    const marker = `APP_PROCESS_SPEC_${randomBytes(6).toString('hex')}`;
    // The api cannot compile and start in 300 ms; the child is running (and marked) when the start fails.
    const start = startAppProcess({ [marker]: '1' }, 300);
    await expect(start).rejects.toThrow('the app did not start in 300 ms');
    // Fails with the pids still running after 5 s.
    expect(
      await waitFor(
        async () => processesWith(marker),
        (pids) => pids.length === 0,
        5_000,
      ),
    ).toEqual([]);
  });
});
