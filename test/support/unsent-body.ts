import { connect } from 'node:net';

/**
 * Sends a request that announces a body of `announcedBytes` but sends only its first byte, and
 * answers what the server said. A server that reads the body before refusing would say 408 once its
 * request timeout ran out; one that checks first answers at once.
 */
export function answerToUnsentBody(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  announcedBytes: number,
): Promise<string> {
  const url = new URL(baseUrl);
  const head = [
    `${method} ${path} HTTP/1.1`,
    'Host: x',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${announcedBytes}`,
  ];
  return new Promise<string>((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`${head.join('\r\n')}\r\n\r\n{`);
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
        // The JSON error body ends the answer.
        if (received.includes('}')) socket.destroy();
      });
      socket.on('close', () => resolve(received));
    });
  });
}
