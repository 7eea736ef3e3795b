import type { FastifyReply } from 'fastify';

/**
 * Aborted when the client goes away before its answer is sent (its connection closed): the reads a
 * handler gives it are then not started. The access log says 499 for such a request at once, and
 * the work it asked for stops there instead of running on for nobody.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  const response = reply.raw;
  if (response.destroyed && !response.writableFinished) gone.abort();
  else response.once('close', () => response.writableFinished || gone.abort());
  return gone.signal;
}
