import type { FastifyInstance, FastifyRequest } from 'fastify';
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
 * Lets pages of allowed origins call /api/mcp (see allowed-origin.ts), and only them. A request to it
 * from any other page's origin is refused with 403 before anything else looks at it (the method, the
 * key, the body): MCP says a server MUST answer 403 to an invalid Origin, and a 401 or a 400 first
 * would answer a rebinding page with something else. A preflight (it carries no key) from an allowed
 * origin gets 204 with what the page may send. A page sends its key in `Authorization` and JSON, so
 * every call of it is preflighted. An OPTIONS request that is no preflight goes on to the 405 of a method the
 * endpoint does not serve. Every answer to an allowed page carries the CORS headers (onSend), a 401
 * for a bad key, a 429 or a 400 included, so that the page can read why it was refused.
 */
export function allowMcpOrigins(fastify: FastifyInstance, allowedOrigins: readonly string[]): void {
  const isMcp = (request: FastifyRequest) => routedPath(request).replace(/\/+$/, '') === MCP_PATH;
  fastify.addHook('onRequest', (request, reply, done) => {
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    // Every request passes here: one without an Origin (any client but a browser's page) that is no
    // preflight passes at once, without working out its path.
    if ((request.headers.origin === undefined && !preflight) || !isMcp(request)) return done();
    const cors = corsHeadersOf(request.headers.origin, allowedOrigins);
    // A preflight without an Origin is no browser's: refused as one from a foreign origin.
    if (!isAllowedOrigin(request.headers.origin, allowedOrigins) || (preflight && Object.keys(cors).length === 0)) {
      void reply.code(403).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: Origin not allowed' } });
      return;
    }
    if (!preflight) return done();
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
  // A callback hook, not an async one: it runs on every answer, and a promise each would cost them all.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.headers.origin !== undefined && isMcp(request)) void reply.headers(corsHeadersOf(request.headers.origin, allowedOrigins));
    done(null, payload);
  });
}
