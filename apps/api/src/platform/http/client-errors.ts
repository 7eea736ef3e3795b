import type { Socket } from 'node:net';

/** The errors Node's HTTP parser raises before a request reaches a route, and what the client is told. */
const CLIENT_ERRORS: Record<string, { status: number; text: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, text: 'Request Timeout', message: 'The request did not arrive whole within the time limit' },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    text: 'Request Header Fields Too Large',
    message: 'The request line and headers are too large; shorten the URL or its query',
  },
};
const MALFORMED = { status: 400, text: 'Bad Request', message: 'Malformed HTTP request' };

/**
 * Answers a request that failed below the router (a header block too large, a body too slow, bytes
 * that are not HTTP) in the service's error shape, and closes the connection saying so. Fastify's own
 * handler closes it without `Connection: close`, so a keep-alive client may send its next request on
 * the dying socket and see it fail with no answer at all.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, text, message } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ success: false, message });
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  } else {
    socket.destroy();
  }
}
