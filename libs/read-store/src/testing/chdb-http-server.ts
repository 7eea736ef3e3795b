import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Readable } from 'node:stream';
import { Session } from 'chdb';
import { acquireChdbEngine } from '../chdb-engine';
import { ErrorCode, httpError, httpErrorFromEngine, type HttpError } from './clickhouse-http-errors';
import { declaredParamTypes, decodeHttpParam } from './http-query-params';

/**
 * A small HTTP server over chDB that answers the part of ClickHouse's HTTP interface that
 * @clickhouse/client uses, so the client's real HTTP path (URL parameters, bodies, status codes,
 * error parsing) is exercised in tests without a ClickHouse server.
 *
 * Supported: `GET /ping`; `GET|POST /` with the query in `query=` and/or the body (for INSERT the
 * body is the data after the statement); `database`; `param_<name>` values; `default_format` (else
 * TabSeparated) or a FORMAT clause; any other URL parameter as a setting for that request only;
 * gzip/deflate/br request bodies; optional user/password (Basic auth, X-ClickHouse-User/Key
 * headers or user/password parameters). Errors come back as a server sends them: the status for
 * the code, `X-ClickHouse-Exception-Code`, and the `Code: N. DB::Exception: ...` body.
 *
 * Not supported (rejected with NOT_IMPLEMENTED, never ignored silently): sessions (`session_id`),
 * multipart parameters. GET requests are not made read-only as on a server. Responses are never
 * compressed (the client only decompresses when the response says it is compressed).
 */
export interface ChdbHttpServerOptions {
  /** chDB data directory; must be the process's one chDB path (see chdb-engine.ts). */
  chdbPath: string;
  /** When set, requests must authenticate as this user with `password`. */
  user?: string;
  password?: string;
}

export interface ChdbHttpServer {
  /** http://127.0.0.1:<ephemeral port> */
  readonly url: string;
  close(): Promise<void>;
}

/** URL parameters that are part of the protocol, not settings. */
const PROTOCOL_PARAMETERS = new Set([
  'query',
  'database',
  'default_format',
  'query_id',
  'user',
  'password',
  'quota_key',
  'role',
  'session_id',
  'session_timeout',
  'session_check',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'enable_http_compression',
  'http_zlib_compression_level',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'http_response_buffer_size',
  'http_native_compression_disable_checksumming_on_decompress',
  'client_protocol_version',
  'stacktrace',
]);
const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface ParsedRequest {
  sql: string;
  database: string;
  format: string;
  queryId: string;
  settings: [string, string][];
  params: Record<string, unknown>;
}

export async function startChdbHttpServer(options: ChdbHttpServerOptions): Promise<ChdbHttpServer> {
  const engine = acquireChdbEngine(options.chdbPath);
  // A session open for the server's life keeps the engine running. chDB stops the engine when its last
  // session closes and starts it again (loading every table of every database) with the next one, so
  // without it each request paid a restart: 4 s a request late in a full test run, with 459 tables in
  // the engine, and the distributed e2e's projector never got through its migrations in time.
  let keeper: Session;
  let version: string;
  try {
    keeper = new Session(engine.path);
  } catch (error) {
    await engine.release();
    throw error;
  }
  try {
    version = (await keeper.queryAsync('SELECT version()', { format: 'TabSeparated' })).text().trim();
  } catch (error) {
    keeper.close();
    await engine.release();
    throw error;
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      sendError(response, httpErrorFromEngine(error, version));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/ping' || (url.pathname === '/' && request.method === 'GET' && !url.searchParams.has('query'))) {
      request.resume();
      response.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' }).end('Ok.\n');
      return;
    }
    if (url.pathname !== '/') {
      request.resume();
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=UTF-8' }).end(`There is no handle ${url.pathname}\n`);
      return;
    }
    const body = await readBody(request);
    const authFailure = checkCredentials(request, url, options, version);
    if (authFailure !== undefined) return sendError(response, authFailure);

    let parsed: ParsedRequest;
    try {
      parsed = parseRequest(request, url, body, version);
    } catch (error) {
      return sendError(
        response,
        isHttpError(error) ? error : httpError(ErrorCode.BAD_QUERY_PARAMETER, 'BAD_QUERY_PARAMETER', (error as Error).message, version),
      );
    }

    const started = process.hrtime.bigint();
    let result;
    try {
      result = await withSession(engine.path, (session) => execute(session, parsed));
    } catch (error) {
      return sendError(response, httpErrorFromEngine(error, version), parsed.queryId);
    }
    const isInsert = /^\s*INSERT\b/i.test(parsed.sql);
    const bytes = result.bytes();
    const summary = {
      read_rows: String(isInsert ? 0 : result.rowsRead),
      read_bytes: String(isInsert ? 0 : result.bytesRead),
      written_rows: String(isInsert ? result.rowsRead : 0),
      written_bytes: String(isInsert ? result.bytesRead : 0),
      total_rows_to_read: '0',
      result_rows: '0',
      result_bytes: String(bytes.byteLength),
      elapsed_ns: String(process.hrtime.bigint() - started),
    };
    response.writeHead(200, {
      'Content-Type': /^JSON/i.test(parsed.format) ? 'application/json; charset=UTF-8' : 'text/plain; charset=UTF-8',
      'X-ClickHouse-Query-Id': parsed.queryId,
      'X-ClickHouse-Format': parsed.format,
      'X-ClickHouse-Timezone': 'UTC',
      'X-ClickHouse-Server-Display-Name': 'chdb-http-server',
      'X-ClickHouse-Summary': JSON.stringify(summary),
    });
    response.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets of clients that were not closed would hold close() open.
        server.closeIdleConnections();
      }).finally(() => {
        keeper.close();
        return engine.release();
      });
      return closing;
    },
  };
}

/** A fresh chDB connection per request: SET and USE stay with that request, as on a server. */
async function withSession<T>(path: string, work: (session: Session) => Promise<T>): Promise<T> {
  const session = new Session(path);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}

async function execute(session: Session, request: ParsedRequest) {
  if (request.settings.length > 0) {
    // Names were checked against SETTING_NAME; values are bound, never spliced in.
    const assignments = request.settings.map(([name], index) => `${name} = {setting_${index}:String}`);
    const values = Object.fromEntries(request.settings.map(([, value], index) => [`setting_${index}`, value]));
    await session.queryBindAsync(`SET ${assignments.join(', ')}`, values);
  }
  if (request.database !== 'default') {
    await session.queryBindAsync('USE {database:Identifier}', { database: request.database });
  }
  return Object.keys(request.params).length > 0
    ? session.queryBindAsync(request.sql, request.params, { format: request.format })
    : session.queryAsync(request.sql, { format: request.format });
}

function parseRequest(request: IncomingMessage, url: URL, body: string, version: string): ParsedRequest {
  const contentType = String(request.headers['content-type'] ?? '');
  if (contentType.startsWith('multipart/form-data')) {
    throw httpError(ErrorCode.NOT_IMPLEMENTED, 'NOT_IMPLEMENTED', 'The chDB test server does not accept multipart parameters', version);
  }
  if (url.searchParams.has('session_id')) {
    throw httpError(ErrorCode.NOT_IMPLEMENTED, 'NOT_IMPLEMENTED', 'The chDB test server has no sessions (session_id)', version);
  }
  const sql = [url.searchParams.get('query') ?? '', body].filter((part) => part.trim() !== '').join('\n');
  if (sql === '') throw httpError(ErrorCode.SYNTAX_ERROR, 'SYNTAX_ERROR', 'Empty query', version);

  const types = declaredParamTypes(sql);
  const settings: [string, string][] = [];
  const params: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) {
    if (name.startsWith('param_')) {
      const param = name.slice('param_'.length);
      params[param] = decodeHttpParam(value, types.get(param));
    } else if (!PROTOCOL_PARAMETERS.has(name)) {
      if (!SETTING_NAME.test(name)) {
        throw httpError(ErrorCode.UNKNOWN_SETTING, 'UNKNOWN_SETTING', `Unknown setting '${name}'`, version);
      }
      settings.push([name, value]);
    }
  }
  return {
    sql,
    database: url.searchParams.get('database') ?? header(request, 'x-clickhouse-database') ?? 'default',
    format: url.searchParams.get('default_format') ?? header(request, 'x-clickhouse-format') ?? 'TabSeparated',
    queryId: url.searchParams.get('query_id') ?? randomUUID(),
    settings,
    params,
  };
}

function checkCredentials(request: IncomingMessage, url: URL, options: ChdbHttpServerOptions, version: string): HttpError | undefined {
  if (options.user === undefined) return undefined;
  let user = url.searchParams.get('user') ?? header(request, 'x-clickhouse-user');
  let password = url.searchParams.get('password') ?? header(request, 'x-clickhouse-key');
  const authorization = header(request, 'authorization');
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    user = decoded.slice(0, colon);
    password = decoded.slice(colon + 1);
  }
  if (user === options.user && (password ?? '') === (options.password ?? '')) return undefined;
  return httpError(
    ErrorCode.AUTHENTICATION_FAILED,
    'AUTHENTICATION_FAILED',
    `${user ?? 'default'}: Authentication failed: password is incorrect, or there is no user with such name`,
    version,
  );
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const encoding = header(request, 'content-encoding');
  let source: Readable = request;
  if (encoding === 'gzip') source = request.pipe(createGunzip());
  else if (encoding === 'deflate') source = request.pipe(createInflate());
  else if (encoding === 'br') source = request.pipe(createBrotliDecompress());
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function isHttpError(value: unknown): value is HttpError {
  return typeof value === 'object' && value !== null && 'status' in value && 'code' in value && 'body' in value;
}

function sendError(response: ServerResponse, error: HttpError, queryId?: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(error.status, {
    'Content-Type': 'text/plain; charset=UTF-8',
    'X-ClickHouse-Exception-Code': String(error.code),
    ...(queryId === undefined ? {} : { 'X-ClickHouse-Query-Id': queryId }),
  });
  response.end(error.body);
}
