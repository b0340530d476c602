import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** A server on a loopback address that records every request it sees. */
export interface LocalServer {
  host: string;
  port: number;
  /** Base URL by address, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

export interface LocalServerOptions {
  host?: string;
  tls?: { key: Buffer; cert: Buffer };
}

export async function startLocalServer(
  handler: RequestListener,
  options: LocalServerOptions = {},
): Promise<LocalServer> {
  const host = options.host ?? '127.0.0.1';
  const requests: IncomingMessage[] = [];
  const listener: RequestListener = (req, res) => {
    requests.push(req);
    handler(req, res);
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const scheme = options.tls ? 'https' : 'http';
  return {
    host,
    port,
    url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every outgoing TCP connection attempt in this process, as `address port`, while recording. */
export interface ConnectionLog {
  attempts: string[];
  stop(): void;
}

export function recordConnectionAttempts(): ConnectionLog {
  const attempts: string[] = [];
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    socket.on('connectionAttempt', (address: string, port: number) => attempts.push(`${address} ${port}`));
  };
  subscribe('net.client.socket', onSocket);
  return { attempts, stop: () => unsubscribe('net.client.socket', onSocket) };
}
