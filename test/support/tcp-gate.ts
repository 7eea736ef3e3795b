import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP relay in front of a server, which a test opens and shuts like a network cut: `cut()`
 * drops every connection and stops listening (new connections are refused), `restore()` listens on
 * the same port again. The servers' own doubles cannot come back on a fixed port; this can.
 */
export interface TcpGate {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpGate(targetPort: number): Promise<TcpGate> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const relay = (client: Socket) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server = createServer(relay);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const shut = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  };
  return {
    port,
    cut: shut,
    restore: async () => {
      server = createServer(relay);
      await listen(port);
    },
    close: shut,
  };
}
