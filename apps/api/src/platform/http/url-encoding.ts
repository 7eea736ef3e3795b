import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findIllFormedText } from '@rank/domain/well-formed-text';

/**
 * How long a path parameter may be before the router stops matching it: up to what Node's parser
 * lets through (16 KiB of request line and headers, else 431), so that every parameter reaches its
 * route and its validation names it (`id must be a 24-character hex id`). The router's default of 100
 * answered longer ones itself, in Fastify's error shape. No route takes a pattern-matched parameter,
 * so the length costs one linear scan.
 */
export const MAX_PATH_PARAMETER_LENGTH = 16 * 1024;

/**
 * The path a request is routed by, for decisions by prefix (`/api/`, `/admin/`): its route's pattern,
 * or, when no route matched, its path decoded as the router decodes it. The raw `request.url` would
 * let `/%61pi/projects`, which the router serves as `/api/projects`, past such a test.
 */
export function routedPath(request: FastifyRequest): string {
  return request.routeOptions.url ?? decodedPath(request.url);
}

/** A URL's path, percent-decoded as the router decodes it (as sent when it does not decode). */
export function decodedPath(url: string): string {
  const path = url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The longest part of a client's URL an error message quotes. */
const QUOTED_PATH_CHARACTERS = 100;

/**
 * Answers what the router refuses before any route runs, in the service's error shape: a path whose
 * percent-encoding is not UTF-8 text (`%ED%A0%80`, a lone surrogate, or a stray `%`) cannot be
 * decoded into parameters. Fastify's own answer carried its internal code and no `success`.
 */
export function answerFrameworkError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split('?')[0] ?? '/';
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      void reply.code(400).send({
        success: false,
        message: `the path must be percent-encoded UTF-8 text (got ${quoted(undecodablePartOf(path))})`,
      });
      return;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      void reply.code(414).send({
        success: false,
        message: `A part of the path is longer than ${MAX_PATH_PARAMETER_LENGTH} characters: ${quoted(path)}`,
      });
      return;
    default:
      void reply.code(500).send({ success: false, message: 'Internal server error' });
  }
}

/** The first path segment that does not decode, or the whole path. */
function undecodablePartOf(path: string): string {
  for (const segment of path.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return path;
}

function quoted(text: string): string {
  return JSON.stringify(clip(text));
}

function clip(text: string): string {
  return text.length > QUOTED_PATH_CHARACTERS ? `${text.slice(0, QUOTED_PATH_CHARACTERS)}…` : text;
}

/**
 * A query parameter whose percent-encoding is not UTF-8 text (`search=%FF`, `%ED%A0%80`, a stray
 * `%zz`) is refused with a 400 naming it: the query parser keeps such a value as its raw characters,
 * so the route would look for the literal "%FF", which the client never meant. A value that decodes
 * to text the well-formed-input pipe refuses (a control character, a bidirectional override) is
 * refused here too, whether or not its route reads the parameter: the pipe sees only those it does.
 * A callback hook, not an async one (no promise per request), that looks further only when the query
 * holds a `%` (nothing else can carry such characters).
 */
export function refuseIllFormedQuery(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const at = request.url.indexOf('?');
    const problem = at < 0 ? null : illFormedQueryParameter(request.url.slice(at + 1));
    // Answered here, the request goes no further (done is not called).
    if (problem) void reply.code(400).send({ success: false, message: problem });
    else done();
  });
}

/** What is wrong with the first query parameter that does not decode to well-formed text, or null. */
function illFormedQueryParameter(query: string): string | null {
  if (!query.includes('%')) return null;
  for (const part of query.split('&')) {
    const equals = part.indexOf('=');
    const rawName = equals < 0 ? part : part.slice(0, equals);
    const name = decoded(rawName);
    if (name === null) return `a query parameter's name must be percent-encoded UTF-8 text (got ${quoted(rawName)})`;
    const rawValue = equals < 0 ? '' : part.slice(equals + 1);
    const value = decoded(rawValue);
    if (value === null) return `${clip(name)} must be percent-encoded UTF-8 text (got ${quoted(rawValue)})`;
    const problem = findIllFormedText(name, "a query parameter's name") ?? findIllFormedText(value, clip(name));
    if (problem) return problem;
  }
  return null;
}

/** A query component decoded as the query parser does (`+` is a space), or null when it cannot be. */
function decoded(component: string): string | null {
  try {
    return decodeURIComponent(component.replaceAll('+', ' '));
  } catch {
    return null;
  }
}
