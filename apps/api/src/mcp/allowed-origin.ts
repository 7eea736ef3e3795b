/**
 * MCP's Streamable HTTP transport: "Servers MUST validate the Origin header on all incoming
 * connections to prevent DNS rebinding attacks. If the Origin header is present and invalid, servers
 * MUST respond with HTTP 403 Forbidden." A client that is not a browser sends no Origin and passes.
 * A page on a loopback origin passes (a local inspector); any other page only when the operator lists
 * its origin. The Host header is no help here: a rebinding page names its own host there too.
 */
export function isAllowedOrigin(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return isLoopbackHost(url.hostname) || allowed.includes(url.origin);
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
