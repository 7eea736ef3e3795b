import type { FastifyInstance } from 'fastify';

/** The deepest JSON body accepted: far beyond any real request, far below what would blow the stack. */
export const MAX_JSON_DEPTH = 32;

/**
 * The nesting depth of a JSON text, counted without parsing (brackets inside strings do not count),
 * stopping as soon as it passes `limit`: a body 6,000 levels deep is refused before anything
 * recursive (the parser, the validation's walk) touches it.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** JSON travels as UTF-8 (RFC 8259); a byte sequence that is not UTF-8 is refused, never replaced. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const refusal = (statusCode: number, message: string) => Object.assign(new Error(message), { statusCode });

/**
 * Replaces Fastify's JSON body parser with the same parser behind three checks, each answered with
 * what is wrong: a compressed body (415; Fastify said its size did not match Content-Length), bytes
 * that are not UTF-8 (400; the same wrong message), and the depth. A `__proto__` key, or
 * `constructor` holding `prototype`, is still refused, now saying so instead of "not valid JSON".
 *
 * Fastify's `text/plain` parser goes: it handed a route the body as one string, so JSON sent as
 * text (what `fetch` does with a string body) was answered "name must be a string" for a name it
 * carried. Every body is JSON, so any other type is a 415 saying to send `application/json`.
 */
export function parseJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('text/plain');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    const coding = request.headers['content-encoding'];
    if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
      return done(refusal(415, `Content-Encoding ${JSON.stringify(coding)} is not accepted: send the body uncompressed`), undefined);
    }
    let body: string;
    try {
      body = UTF8.decode(raw as Buffer);
    } catch {
      return done(refusal(400, 'The request body is not UTF-8 text: send JSON as UTF-8'), undefined);
    }
    if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
      return done(refusal(400, `The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels`), undefined);
    }
    parse(request, body, (error, value) => {
      if (error && body.length > 0 && isJson(body)) {
        return done(
          refusal(400, 'The request body may not hold a "__proto__" key, nor a "constructor" key holding "prototype"'),
          undefined,
        );
      }
      done(error, value);
    });
  });
}

/** Whether the text is JSON at all: asked only of a body the guarded parser refused. */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
