import net from 'node:net';

export interface TcpProxy {
  /** Where it listens: `127.0.0.1:<port>`. */
  host: string;
  port: number;
  /** Where new connections go from now on; one can be given before the target listens. */
  pointAt(host: string, port: number): void;
  /** Stops it, open connections included: what it stood for goes down at once. */
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback: an agent "somewhere else" that a test can name before it exists (the
 * server under test is given its fetch client, allowed to reach the proxy, before it listens) and
 * take down at once, open sockets included.
 */
export async function tcpProxy(target?: string): Promise<TcpProxy> {
  let to: { host: string; port: number } | undefined = target
    ? { host: target.slice(0, target.lastIndexOf(':')), port: Number(target.slice(target.lastIndexOf(':') + 1)) }
    : undefined;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!to) return void client.destroy();
    const upstream = net.connect(to.port, to.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    port,
    pointAt: (host, targetPort) => void (to = { host, port: targetPort }),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
