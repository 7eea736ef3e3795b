/**
 * Where each HTTP/1.1 response ends on a keep-alive connection with one request in flight at a time
 * (RFC 9112 §6.3): after `Content-Length` bytes, or after the last chunk and the trailer of a
 * `Transfer-Encoding: chunked` body; 204 and 304 have no body, 1xx heads are interim and skipped.
 *
 * The load client counts and times answers; it does not need the headers as objects or the body
 * decoded, so this reads the head once as text, looks up the two framing fields, and then only counts
 * body bytes. What node:http's client does beyond that per response (header objects, a readable
 * stream, events) cost the bench more CPU than the routes it measured.
 */
export interface ReadResponse {
  status: number;
  bodyBytes: number;
  /** The body's first bytes (up to BODY_START_BYTES), kept only when `keepBodyStart(status)` says so: for error reports. */
  bodyStart?: Buffer;
}

const BODY_START_BYTES = 300;
/** A head longer than this is not an answer this client can read: fail rather than buffer without end. */
const MAX_HEAD_BYTES = 64 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');
const CONTENT_LENGTH = /\r\ncontent-length[ \t]*:[ \t]*(\d+)[ \t]*\r\n/i;
const CHUNKED = /\r\ntransfer-encoding[ \t]*:[^\r]*\bchunked[ \t]*\r\n/i;
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})/;

type State = 'head' | 'body' | 'chunkSize' | 'chunkEnd' | 'trailer';

export class HttpResponseReader {
  private state: State = 'head';
  /** Bytes of an incomplete head or line, carried to the next chunk. */
  private carried: Buffer | undefined;
  private chunked = false;
  /** Body (or current chunk) bytes still to come. */
  private remaining = 0;
  private status = 0;
  private bodyBytes = 0;
  private bodyStart: Buffer[] | undefined;
  private bodyStartBytes = 0;

  constructor(
    private readonly onResponse: (response: ReadResponse) => void,
    private readonly keepBodyStart: (status: number) => boolean = () => false,
  ) {}

  /** True between responses: a connection closed now lost no answer. */
  get idle(): boolean {
    return this.state === 'head' && this.carried === undefined;
  }

  /** Reads the next bytes of the connection; calls onResponse for each answer they complete. Throws on bytes that are not HTTP/1.1 framing. */
  feed(chunk: Buffer): void {
    const data = this.carried ? Buffer.concat([this.carried, chunk]) : chunk;
    this.carried = undefined;
    let at = 0;
    while (at < data.length) {
      switch (this.state) {
        case 'head': {
          const end = data.indexOf(HEAD_END, at);
          if (end < 0) return this.carry(data, at);
          this.startResponse(data.toString('latin1', at, end + 2));
          at = end + 4;
          break;
        }
        case 'body': {
          const taken = Math.min(this.remaining, data.length - at);
          this.countBody(data, at, taken);
          at += taken;
          this.remaining -= taken;
          if (this.remaining === 0) {
            if (this.chunked) this.state = 'chunkEnd';
            else this.finishResponse();
          }
          break;
        }
        case 'chunkSize': {
          const end = data.indexOf(LINE_END, at);
          if (end < 0) return this.carry(data, at);
          const sizeText = data.toString('latin1', at, end).split(';', 1)[0]!.trim();
          if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText)) throw new Error(`bad chunk size line: ${JSON.stringify(sizeText.slice(0, 40))}`);
          this.remaining = parseInt(sizeText, 16);
          this.state = this.remaining === 0 ? 'trailer' : 'body';
          at = end + 2;
          break;
        }
        case 'chunkEnd': {
          if (data.length - at < 2) return this.carry(data, at);
          if (data[at] !== 13 || data[at + 1] !== 10) throw new Error('chunk data not followed by CRLF');
          this.state = 'chunkSize';
          at += 2;
          break;
        }
        case 'trailer': {
          const end = data.indexOf(LINE_END, at);
          if (end < 0) return this.carry(data, at);
          // Trailer fields are skipped; the empty line ends the response.
          if (end === at) this.finishResponse();
          at = end + 2;
          break;
        }
      }
    }
  }

  private startResponse(head: string): void {
    const status = STATUS_LINE.exec(head);
    if (!status) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(head.slice(0, 40))}`);
    this.status = Number(status[1]);
    this.bodyBytes = 0;
    this.bodyStartBytes = 0;
    this.bodyStart = this.keepBodyStart(this.status) ? [] : undefined;
    // An interim answer (100 Continue): the real one follows.
    if (this.status < 200) return;
    if (this.status === 204 || this.status === 304) return this.finishResponse();
    this.chunked = CHUNKED.test(head);
    if (this.chunked) {
      this.state = 'chunkSize';
      return;
    }
    const length = CONTENT_LENGTH.exec(head);
    // Without either, the body would run until the server closes: no keep-alive answer looks like that.
    if (!length) throw new Error(`HTTP ${this.status} answer with neither Content-Length nor chunked encoding`);
    this.remaining = Number(length[1]);
    if (this.remaining === 0) this.finishResponse();
    else this.state = 'body';
  }

  private countBody(data: Buffer, at: number, length: number): void {
    this.bodyBytes += length;
    if (this.bodyStart && this.bodyStartBytes < BODY_START_BYTES) {
      const kept = data.subarray(at, at + Math.min(length, BODY_START_BYTES - this.bodyStartBytes));
      this.bodyStart.push(Buffer.from(kept));
      this.bodyStartBytes += kept.length;
    }
  }

  private finishResponse(): void {
    this.state = 'head';
    const response: ReadResponse = { status: this.status, bodyBytes: this.bodyBytes };
    if (this.bodyStart) response.bodyStart = Buffer.concat(this.bodyStart);
    this.bodyStart = undefined;
    this.onResponse(response);
  }

  private carry(data: Buffer, at: number): void {
    if (data.length - at > MAX_HEAD_BYTES) throw new Error(`no end of line within ${MAX_HEAD_BYTES} bytes`);
    // A copy: the socket's buffer is not ours to keep.
    this.carried = Buffer.from(data.subarray(at));
  }
}
