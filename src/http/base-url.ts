import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

// Per listening server: asking the socket its address is a system call, and agents ask on every answer.
const listeningAt = new WeakMap<object, string>();

/**
 * The URL clients reach this server at: `PUBLIC_URL` when set (behind a proxy it must be), else
 * the address the server listens on. Known only once it listens, so ask at request time.
 */
export function baseUrl(app: FastifyInstance, config: Config): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const known = listeningAt.get(app.server);
  if (known) return known;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = ['0.0.0.0', '::', ''].includes(config.host)
    ? 'localhost'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  const url = `http://${host}:${port}`;
  if (typeof address === 'object' && address) listeningAt.set(app.server, url);
  return url;
}

/** The address and port the server listens on; undefined before it does. */
export function listeningAddress(app: FastifyInstance): { address: string; port: number } | undefined {
  const address = app.server.address();
  return typeof address === 'object' && address ? { address: address.address, port: address.port } : undefined;
}
