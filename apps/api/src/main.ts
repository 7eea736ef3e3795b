import { loadConfig } from '@rank/platform/config/app-config';
import { announce } from '@rank/platform/logging/app-logger';
import { runApp } from '@rank/platform/run-app';
import { createApp } from './bootstrap';

/** `npm start`: the standalone service (every role, ROLES unless set), with the embedded stores under DATA_DIR unless configured otherwise. */
void runApp('Api', async () => {
  const config = loadConfig();
  const started = Date.now();
  const running = await createApp(config);
  announce(config, 'Api', `Rank tracker listening on ${running.url} (data in ${config.dataDir}, started in ${Date.now() - started} ms)`);
  announce(config, 'Api', `API documentation: ${running.url}/api/docs`);
  announce(
    config,
    'Api',
    config.adminToken
      ? `To get a first API key: curl -X POST ${running.url}/admin/accounts -H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json" -d '{"name":"My agency"}'`
      : 'To get a first API key: npm run admin -- create-account --name "My agency"   (or set ADMIN_TOKEN to enable the operator API)',
  );
  return { close: () => running.close(), shutdownTimeoutMs: config.shutdownTimeoutMs };
});
