/**
 * Which routes the running app serves, from its own OpenAPI document. The ranking reads are being
 * written while these benches are: a route that is not there yet is reported, not failed.
 */
export async function availablePaths(baseUrl: string): Promise<Set<string>> {
  const response = await fetch(new URL('/api/openapi.json', baseUrl));
  if (response.status !== 200) throw new Error(`GET /api/openapi.json: HTTP ${response.status}`);
  const document = (await response.json()) as { paths?: Record<string, Record<string, unknown>> };
  const paths = new Set<string>();
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    if ('get' in methods) paths.add(path);
  }
  return paths;
}
