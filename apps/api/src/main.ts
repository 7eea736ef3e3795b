import { loadConfig } from '@rank/platform/config/app-config';
import { runApp } from '@rank/platform/run-app';
import { createApp } from './bootstrap';

/** `npm start`: the standalone service (every role, ROLES unless set), with the embedded stores under DATA_DIR unless configured otherwise. */
void runApp('Api', async () => {
  const config = loadConfig();
  const started = Date.now();
  const running = await createApp(config);
  console.log(`Rank tracker listening on ${running.url} (data in ${config.dataDir}, started in ${Date.now() - started} ms)`);
  console.log(`API documentation: ${running.url}/api/docs`);
  console.log(
    config.adminToken
      ? `To get a first API key: curl -X POST ${running.url}/admin/accounts -H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json" -d '{"name":"My agency"}'`
      : 'To get a first API key: npm run admin -- create-account --name "My agency"   (or set ADMIN_TOKEN to enable the operator API)',
  );
  return running;
});
