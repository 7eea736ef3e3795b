/**
 * An error that stops an app's start and whose message tells the operator all they need (what is
 * wrong and what to do): `runApp` prints it alone, without a stack trace.
 */
export class StartRefusal extends Error {}

/**
 * Why a server could not listen, as a refusal naming the variable to change (a taken port, a HOST
 * that is not this machine's); any other error as it is.
 */
export function listenRefusal(error: unknown, portVariable: 'PORT' | 'OPS_PORT', port: number, host: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE')
    return new StartRefusal(
      `${portVariable} ${port} on HOST ${host} is in use by another process: stop it, or set another ${portVariable}`,
    );
  if (code === 'EACCES')
    return new StartRefusal(`${portVariable} ${port} needs privileges this process does not have (EACCES): use a port above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new StartRefusal(`HOST ${host} is not an address of this machine (${code}): use 127.0.0.1, 0.0.0.0 or one of its own addresses`);
  return error;
}
