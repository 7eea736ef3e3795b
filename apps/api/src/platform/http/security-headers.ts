import type { FastifyInstance } from 'fastify';
import { routedPath } from './url-encoding';

/** Swagger UI's page loads its own scripts and styles (some inline) and data: images. */
const DOCS_POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'none'";
/** Everything else is JSON or CSV: nothing in it may load or run anything. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Headers on every answer: no MIME sniffing, no framing, no referrer, a content security policy, and
 * no caching of anything behind /api or /admin (answers with an account's data must not sit in a
 * shared cache or a browser's history).
 */
export function addSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    const path = routedPath(request);
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('x-frame-options', 'DENY');
    void reply.header('referrer-policy', 'no-referrer');
    const docs = path === '/api/docs' || path.startsWith('/api/docs/');
    void reply.header('content-security-policy', docs ? DOCS_POLICY : API_POLICY);
    if (!docs && (path.startsWith('/api/') || path.startsWith('/admin/'))) void reply.header('cache-control', 'no-store');
    return payload;
  });
}
