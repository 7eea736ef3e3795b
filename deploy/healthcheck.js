/**
 * The containers' health checks (docker-compose.yml). Node's slim image has neither curl nor wget,
 * so Node itself asks; what it prints on failure lands in `docker inspect`'s health log.
 *
 *   node deploy/healthcheck.js http /health /ready
 *       every path answers 2xx on 127.0.0.1:$PORT (the api: alive, then ready for traffic)
 *   node deploy/healthcheck.js process dist/projections/src/main.js
 *       that entry point runs in this container and is neither a zombie nor stopped (the projector
 *       and the scraper, which have no HTTP server)
 */
const { readdirSync, readFileSync } = require('node:fs');
const http = require('node:http');

const TIMEOUT_MS = 4000;

function fail(why) {
  process.stderr.write(`unhealthy: ${why}\n`);
  process.exit(1);
}

function get(path) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: Number(process.env.PORT || 3000), path, timeout: TIMEOUT_MS }, (response) => {
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

/** The state letter of the first other process whose arguments include `entry` (R, S, D, Z, T…), or undefined. */
function stateOf(entry) {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!argv.includes(entry)) continue;
      // /proc/<pid>/stat is "pid (comm) state …"; comm may hold spaces and parentheses, the last ") " ends it.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(') ') + 2, stat.lastIndexOf(') ') + 3);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

function checkProcess(entry) {
  if (!entry) fail('no entry point to look for');
  const state = stateOf(entry);
  if (state === undefined) fail(`${entry} is not running`);
  if (state === 'Z' || state === 'T' || state === 't') fail(`${entry} is ${state === 'Z' ? 'a zombie' : 'stopped'}`);
  process.stdout.write(`ok: ${entry} (state ${state})\n`);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'http') void checkHttp(args);
else if (mode === 'process') checkProcess(args[0]);
else fail(`unknown mode "${mode}" (http or process)`);
