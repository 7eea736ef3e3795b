import type { FastifyInstance } from 'fastify';
import { routedPath } from './url-encoding';

/** Swagger UI's page loads its own scripts and styles (some inline) and data: images. */
const DOCS_POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'none'";
/** Everything else is JSON or CSV: nothing in it may load or run anything. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers every answer carries, by its routed path: no MIME sniffing, no framing, no referrer, a
 * content security policy, and no caching of anything behind /api or /admin (answers with an
 * account's data must not sit in a shared cache or a browser's history).
 */
export function securityHeadersOf(path: string): Record<string, string> {
  const docs = path === '/api/docs' || path.startsWith('/api/docs/');
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': docs ? DOCS_POLICY : API_POLICY,
    ...(!docs && (path.startsWith('/api/') || path.startsWith('/admin/')) ? { 'cache-control': 'no-store' } : {}),
  };
}

/** Adds `securityHeadersOf` to every answer Fastify sends (an answer a route writes itself adds them itself). */
export function addSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    void reply.headers(securityHeadersOf(routedPath(request)));
    return payload;
  });
}
