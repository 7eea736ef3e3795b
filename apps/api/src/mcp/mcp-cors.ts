import type { FastifyInstance } from 'fastify';
import { routedPath } from '../platform/http/url-encoding';
import { isAllowedOrigin } from './allowed-origin';

export const MCP_PATH = '/api/mcp';

/** What a page may send to /api/mcp: the key, JSON, and MCP's own headers. */
const ALLOWED_REQUEST_HEADERS = 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id';

/**
 * The CORS headers of an answer to a page whose origin may call /api/mcp (see allowed-origin.ts):
 * without them the browser keeps the answer from the page. None for a client without an Origin.
 */
export function corsHeadersOf(origin: string | undefined, allowedOrigins: readonly string[]): Record<string, string> {
  if (origin === undefined || !isAllowedOrigin(origin, allowedOrigins)) return {};
  return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'x-request-id' };
}

/**
 * Answers a browser's preflight of /api/mcp before any route or key check (a preflight carries no
 * key): 204 with what the page may send for an allowed origin, 403 for any other. A page sends its
 * key in `Authorization` and JSON, so every call of it is preflighted. An OPTIONS request that is no
 * preflight goes on to the 405 of a method the endpoint does not serve.
 */
export function answerMcpPreflight(fastify: FastifyInstance, allowedOrigins: readonly string[]): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    if (!preflight || routedPath(request).replace(/\/+$/, '') !== MCP_PATH) return done();
    const cors = corsHeadersOf(request.headers.origin, allowedOrigins);
    if (Object.keys(cors).length === 0) {
      void reply.code(403).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: Origin not allowed' } });
      return;
    }
    void reply
      .code(204)
      .headers({
        ...cors,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
        'access-control-max-age': '600',
      })
      .send();
  });
}
