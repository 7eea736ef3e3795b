import { createApp } from './bootstrap';
import { ConfigError, loadConfig } from '@rank/platform/config/app-config';

/** `npm start`: the standalone service, with the embedded stores under DATA_DIR unless configured otherwise. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const started = Date.now();
  const running = await createApp(config);
  console.log(`Rank tracker listening on ${running.url} (data in ${config.dataDir}, started in ${Date.now() - started} ms)`);
  console.log(`API documentation: ${running.url}/api/docs`);
  console.log(
    config.adminToken
      ? `To get a first API key: curl -X POST ${running.url}/admin/accounts -H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json" -d '{"name":"My agency"}'`
      : 'To get a first API key: npm run admin -- create-account --name "My agency"   (or set ADMIN_TOKEN to enable the operator API)',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
