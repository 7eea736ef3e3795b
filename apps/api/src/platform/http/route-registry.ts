/**
 * The routes the app serves, as (method, pattern) pairs collected from Fastify's onRoute hook, so
 * that a request for a known path with another method answers 405 (with Allow), not 404.
 */
export class RouteRegistry {
  private readonly routes: { method: string; pattern: RegExp }[] = [];

  add(method: string | string[], url: string): void {
    const methods = Array.isArray(method) ? method : [method];
    const pattern = new RegExp(
      '^' +
        url
          .split('/')
          .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/') +
        '/?$',
    );
    for (const m of methods) if (m !== 'HEAD' && m !== 'OPTIONS') this.routes.push({ method: m, pattern });
  }

  methodsFor(path: string): string[] {
    return [...new Set(this.routes.filter((r) => r.pattern.test(path)).map((r) => r.method))].sort();
  }
}
