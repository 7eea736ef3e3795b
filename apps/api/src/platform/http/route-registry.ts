import type { FastifyInstance } from 'fastify';
import { decodedPath } from './url-encoding';

/**
 * The routes the app serves, as (method, pattern) pairs collected from Fastify's onRoute hook, so
 * that a request for a known path with another method answers 405 (with Allow), not 404.
 */
export class RouteRegistry {
  /** Routes with parameters or a wildcard, matched by pattern. */
  private readonly patterns: { method: string; pattern: RegExp }[] = [];
  /** Routes of a fixed path (without its trailing slash), looked up whole: the methods of each. */
  private readonly literals = new Map<string, Set<string>>();

  add(method: string | string[], url: string): void {
    const methods = (Array.isArray(method) ? method : [method]).filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
    const parts = url.split('/');
    if (!parts.some((part) => part.startsWith(':') || part === '*')) {
      const path = withoutTrailingSlash(url);
      const known = this.literals.get(path) ?? new Set<string>();
      for (const m of methods) known.add(m);
      this.literals.set(path, known);
      return;
    }
    const pattern = new RegExp(
      '^' +
        parts
          .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/') +
        '/?$',
    );
    for (const m of methods) this.patterns.push({ method: m, pattern });
  }

  /**
   * The methods served at a path. A path that is a route of its own (`/api/projects/keywords`) has
   * only its own methods: the parameter route beside it (`/api/projects/:id`) is another resource.
   */
  methodsFor(path: string): string[] {
    const own = this.literalMethodsFor(path);
    if (own.length > 0) return own;
    return [...new Set(this.patterns.filter((r) => r.pattern.test(path)).map((r) => r.method))].sort();
  }

  /** The methods of the literal route at `path`, if there is one: empty otherwise. One map lookup (it runs on parameter routes' requests). */
  literalMethodsFor(path: string): string[] {
    return [...(this.literals.get(withoutTrailingSlash(path)) ?? [])].sort();
  }
}

const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The answer to a method a known path does not serve. */
export function methodNotAllowed(method: string, path: string, allowed: string[]) {
  return {
    status: 405,
    body: { success: false, message: `Method ${method} is not supported on ${path}; use ${allowed.join(', ')}` },
    headers: { allow: allowed.join(', ') },
  };
}

/**
 * A method a literal route does not serve must not fall through to the parameter route beside it:
 * `GET /api/projects/keyword-ideas` reached `GET /api/projects/:id` and answered 400 "id must be a
 * 24-character hex id", where the path is known and the method is not (405, as the spec says).
 */
export function refuseMethodsOfLiteralPaths(fastify: FastifyInstance, routes: RouteRegistry): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.routeOptions.url?.includes(':')) return done();
    const path = decodedPath(request.url);
    const allowed = routes.literalMethodsFor(path);
    if (allowed.length === 0) return done();
    const refusal = methodNotAllowed(request.method, path, allowed);
    void reply.code(refusal.status).headers(refusal.headers).send(refusal.body);
  });
}
