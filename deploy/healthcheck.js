/**
 * The apps' container health checks (docker-compose.yml). Node's slim image has neither curl nor
 * wget, so Node itself asks; what it prints on failure lands in `docker inspect`'s health log.
 *
 *   node deploy/healthcheck.js http /health /ready
 *       every path answers 2xx on 127.0.0.1: the api's $PORT, or the projector's and scraper's
 *       $OPS_PORT (their /health, /ready and /metrics)
 */
const http = require('node:http');

const TIMEOUT_MS = 4000;
const PORT = Number(process.env.OPS_PORT || process.env.PORT || 3000);

function fail(why) {
  process.stderr.write(`unhealthy: ${why}\n`);
  process.exit(1);
}

function get(path) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: PORT, path, timeout: TIMEOUT_MS }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    request.on('error', reject);
  });
}

async function checkHttp(paths) {
  if (paths.length === 0) fail('no path to check');
  for (const path of paths) {
    let answer;
    try {
      answer = await get(path);
    } catch (error) {
      fail(`GET ${path}: ${error.message}`);
    }
    if (answer.status < 200 || answer.status > 299) fail(`GET ${path}: ${answer.status} ${answer.body.slice(0, 2000)}`);
  }
  process.stdout.write(`ok: ${paths.join(', ')}\n`);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'http') void checkHttp(args);
else fail(`unknown mode "${mode}" (http)`);
