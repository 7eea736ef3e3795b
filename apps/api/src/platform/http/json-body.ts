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

/** Replaces Fastify's JSON body parser with the same parser behind the depth check. */
export function limitJsonDepth(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      return done(
        Object.assign(new Error(`The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels`), { statusCode: 400 }),
        undefined,
      );
    }
    parse(request, body as string, done);
  });
}
