import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The URL clients reach this server at: `PUBLIC_URL` when set (behind a proxy it must be), else
 * the address the server listens on. Known only once it listens, so ask at request time.
 */
export function baseUrl(app: FastifyInstance, config: Config): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}
