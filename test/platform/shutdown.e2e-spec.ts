import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repositoryPath } from '@rank/platform/repository-path';
import { typescriptEntrySource } from '@rank/platform/typescript-hook';

const ROOT = repositoryPath();

/** Runs the slow-closing app, sends it the signals once it runs (its handlers are set just after it says so), and resolves with how it ended. */
function stopWith(signals: { signal: NodeJS.Signals; afterMs: number }[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string; exitedAfterMs: number }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-e', typescriptEntrySource(ROOT, 'process.argv[1]'), join(ROOT, 'test/support/slow-closing-app.ts')],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      },
    );
    let output = '';
    let signalledAt = 0;
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (signalledAt === 0 && output.includes('started')) {
        signalledAt = Date.now();
        for (const { signal, afterMs } of signals) setTimeout(() => child.kill(signal), afterMs);
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output, exitedAfterMs: Date.now() - signalledAt }));
  });
}

describe('Stopping a process (SIGTERM, SIGINT)', () => {
  it('exits 0 once the app has closed', async () => {
    const run = await stopWith([{ signal: 'SIGTERM', afterMs: 300 }], { CLOSE_MS: '200', SHUTDOWN_TIMEOUT_MS: '10000' });
    expect({ code: run.code, said: /SIGTERM received, shutting down/.test(run.output) }).toEqual({ code: 0, said: true });
  }, 60_000);

  it('exits 1 when the closing outlasts SHUTDOWN_TIMEOUT_MS, saying so', async () => {
    // Before, a closing that waited for a long check held the exit for minutes.
    const run = await stopWith([{ signal: 'SIGTERM', afterMs: 300 }], { SHUTDOWN_TIMEOUT_MS: '1500' });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/the shutdown took longer than SHUTDOWN_TIMEOUT_MS \(1500 ms\): exiting/);
    expect(run.exitedAfterMs).toBeGreaterThanOrEqual(1_700);
    expect(run.exitedAfterMs).toBeLessThan(10_000);
  }, 60_000);

  it('exits at once on a second signal', async () => {
    // Before, a second Ctrl-C was ignored.
    const run = await stopWith(
      [
        { signal: 'SIGINT', afterMs: 300 },
        { signal: 'SIGINT', afterMs: 600 },
      ],
      { SHUTDOWN_TIMEOUT_MS: '30000' },
    );
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/SIGINT received again: exiting without finishing the shutdown/);
    expect(run.exitedAfterMs).toBeLessThan(10_000);
  }, 60_000);
});
