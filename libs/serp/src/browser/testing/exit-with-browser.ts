import { BrowserThread } from '../browser-thread';
import { chromiumBrowsersOf } from './chromium-processes';

/**
 * Run in a process of its own by browser-thread.spec.ts: launches a browser, prints its Chromium's
 * process id and its launch's temp directory, then exits as run-app does after SHUTDOWN_TIMEOUT_MS or a
 * second signal, with `process.exit(1)` and the browser still open.
 */
async function main(): Promise<void> {
  const thread = await BrowserThread.launch({ extraArgs: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
  const [chromium] = chromiumBrowsersOf();
  process.stdout.write(JSON.stringify({ chromium, tempDir: thread.tempDir }));
  process.exit(1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});
