import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

export type WireEncoding = 'identity' | 'gzip' | 'br';

export interface WireSize {
  encoding: WireEncoding;
  /** Body bytes as sent, before any decoding. */
  bytes: number;
  /** Request start to the last byte. */
  ms: number;
}

/**
 * One GET asking for one content encoding, counting the body as it arrives over the socket (node:http
 * does not decode, unlike fetch). Fails when the answer is not 200, or not in the encoding asked for
 * (a server that ignored Accept-Encoding would otherwise print a ratio of 1 as a figure).
 */
export function wireSize(url: string, headers: Record<string, string>, encoding: WireEncoding): Promise<WireSize> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { headers: { ...headers, 'accept-encoding': encoding }, timeout: 300_000 }, (res) => {
      const sent = res.headers['content-encoding'] ?? 'identity';
      if (res.statusCode !== 200 || sent !== encoding) {
        res.resume();
        reject(new Error(`HTTP ${res.statusCode}, content-encoding ${sent}, asked for ${encoding}`));
        return;
      }
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ encoding, bytes, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out after 300 s')));
    req.on('error', reject);
    req.end();
  });
}
