/**
 * The bench's load client counts an answer when HttpResponseReader says it ended: a wrong end would
 * count a request early (a fast, wrong figure) or stall a connection. jest's roots do not include
 * bench/, hence this file here.
 */
import { HttpResponseReader, type ReadResponse } from '../../bench/support/http-response-reader';

const bytes = (text: string) => Buffer.from(text, 'latin1');

function reader(keepBodyStart?: (status: number) => boolean) {
  const responses: ReadResponse[] = [];
  return { responses, reader: new HttpResponseReader((response) => responses.push(response), keepBodyStart) };
}

/** Feeds `wire` in pieces cut at `cuts` (offsets into it, ascending). */
function feedCut(target: HttpResponseReader, wire: Buffer, cuts: number[]): void {
  let from = 0;
  for (const cut of [...cuts, wire.length]) {
    // A copy per piece, as a socket hands over a fresh buffer each time.
    target.feed(Buffer.from(wire.subarray(from, cut)));
    from = cut;
  }
}

const CONTENT_LENGTH_ANSWER = bytes('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}');

// Two chunks (one with an extension), the last chunk, a trailer field and the empty line.
const CHUNKED_BODY_BYTES = 0x1a + 5;
const CHUNKED_ANSWER = bytes(
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/csv\r\n\r\n' +
    '1a\r\nabcdefghijklmnopqrstuvwxyz\r\n' +
    '5;name=value\r\nhello\r\n' +
    '0\r\n' +
    'X-Checksum: 42\r\n' +
    '\r\n',
);

describe('HttpResponseReader', () => {
  it('ends a Content-Length answer after exactly that many body bytes', () => {
    const { reader: r, responses } = reader();
    r.feed(CONTENT_LENGTH_ANSWER.subarray(0, CONTENT_LENGTH_ANSWER.length - 1));
    expect(responses).toEqual([]);
    expect(r.idle).toBe(false);
    r.feed(CONTENT_LENGTH_ANSWER.subarray(CONTENT_LENGTH_ANSWER.length - 1));
    expect(responses).toEqual([{ status: 200, bodyBytes: 11 }]);
    expect(r.idle).toBe(true);
  });

  it('reads a Content-Length answer fed one byte at a time, the head included', () => {
    const { reader: r, responses } = reader();
    feedCut(
      r,
      CONTENT_LENGTH_ANSWER,
      Array.from({ length: CONTENT_LENGTH_ANSWER.length - 1 }, (_, i) => i + 1),
    );
    expect(responses).toEqual([{ status: 200, bodyBytes: 11 }]);
  });

  it('ends an answer with Content-Length: 0 at its head', () => {
    const { reader: r, responses } = reader();
    r.feed(bytes('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
    expect(responses).toEqual([{ status: 200, bodyBytes: 0 }]);
    expect(r.idle).toBe(true);
  });

  it('ends a chunked answer only after the trailer’s empty line, however the bytes are cut', () => {
    // Every cut into two and three pieces: each lands somewhere in the head, a size line, a chunk, a
    // CRLF after a chunk (between its CR and LF too), the last chunk or the trailer.
    const cutsList: number[][] = [];
    for (let a = 1; a < CHUNKED_ANSWER.length; a++) {
      cutsList.push([a]);
      for (let b = a + 1; b < CHUNKED_ANSWER.length; b++) cutsList.push([a, b]);
    }
    for (const cuts of cutsList) {
      const { reader: r, responses } = reader();
      feedCut(
        r,
        CHUNKED_ANSWER.subarray(0, CHUNKED_ANSWER.length - 1),
        cuts.filter((cut) => cut < CHUNKED_ANSWER.length - 1),
      );
      if (responses.length !== 0) throw new Error(`answer ended early when cut at ${cuts.join(', ')}`);
      r.feed(CHUNKED_ANSWER.subarray(CHUNKED_ANSWER.length - 1));
      expect(responses).toEqual([{ status: 200, bodyBytes: CHUNKED_BODY_BYTES }]);
    }
  });

  it('reads a chunked answer fed one byte at a time, and one with a chunk size in capitals', () => {
    const { reader: r, responses } = reader();
    feedCut(
      r,
      CHUNKED_ANSWER,
      Array.from({ length: CHUNKED_ANSWER.length - 1 }, (_, i) => i + 1),
    );
    expect(responses).toEqual([{ status: 200, bodyBytes: CHUNKED_BODY_BYTES }]);

    r.feed(bytes('HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\n\r\n1A\r\n' + 'x'.repeat(26) + '\r\n0\r\n\r\n'));
    expect(responses[1]).toEqual({ status: 200, bodyBytes: 26 });
  });

  it('counts chunk bytes that look like framing as body', () => {
    const { reader: r, responses } = reader();
    const body = '0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n';
    r.feed(bytes(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`));
    expect(responses).toEqual([{ status: 200, bodyBytes: body.length }]);
  });

  it('ends a 204 at its head, even when it names a length, and reads the answer after it', () => {
    const { reader: r, responses } = reader();
    r.feed(bytes('HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'));
    expect(responses).toEqual([
      { status: 204, bodyBytes: 0 },
      { status: 200, bodyBytes: 2 },
    ]);
  });

  it('skips a 1xx interim head and reports only the final answer', () => {
    const { reader: r, responses } = reader();
    r.feed(bytes('HTTP/1.1 100 Continue\r\n\r\n'));
    expect(responses).toEqual([]);
    r.feed(bytes('HTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nabc'));
    expect(responses).toEqual([{ status: 201, bodyBytes: 3 }]);
  });

  it('reports two answers that arrive in one chunk, in order', () => {
    const { reader: r, responses } = reader();
    const chunkedError = 'HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nnope\r\n0\r\n\r\n';
    r.feed(Buffer.concat([CONTENT_LENGTH_ANSWER, bytes(chunkedError)]));
    expect(responses).toEqual([
      { status: 200, bodyBytes: 11 },
      { status: 404, bodyBytes: 4 },
    ]);
    expect(r.idle).toBe(true);
  });

  it('keeps the first 300 body bytes only of the answers keepBodyStart names', () => {
    const { reader: r, responses } = reader((status) => status !== 200);
    const long = 'e'.repeat(400);
    r.feed(bytes(`HTTP/1.1 500 Internal Server Error\r\nContent-Length: ${long.length}\r\n\r\n${long.slice(0, 250)}`));
    r.feed(bytes(long.slice(250)));
    r.feed(CONTENT_LENGTH_ANSWER);
    expect(responses).toHaveLength(2);
    expect(responses[0]!.bodyBytes).toBe(400);
    expect(responses[0]!.bodyStart?.toString('latin1')).toBe('e'.repeat(300));
    expect(responses[1]).toEqual({ status: 200, bodyBytes: 11 });
  });

  it('throws on a status line that is not HTTP/1.x', () => {
    expect(() => reader().reader.feed(bytes('HTTP/2 200\r\nContent-Length: 0\r\n\r\n'))).toThrow(/status line/);
    expect(() => reader().reader.feed(bytes('<html>hello</html>\r\n\r\n'))).toThrow(/status line/);
    expect(() => reader().reader.feed(bytes('HTTP/1.1 2xx OK\r\n\r\n'))).toThrow(/status line/);
  });

  it('throws on framing it cannot follow: a bad chunk size, chunk data without its CRLF, no length at all', () => {
    expect(() => reader().reader.feed(bytes('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'))).toThrow(/chunk size/);
    expect(() => reader().reader.feed(bytes('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n'))).toThrow(/CRLF/);
    expect(() => reader().reader.feed(bytes('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nrest'))).toThrow(
      /neither Content-Length nor chunked/,
    );
  });

  it('throws instead of buffering a head without end', () => {
    const { reader: r } = reader();
    r.feed(bytes('HTTP/1.1 200 OK\r\n'));
    expect(() => r.feed(Buffer.alloc(70 * 1024, 'a'))).toThrow(/no end of line/);
  });
});
