/**
 * `ap mirror`: a read-only registry beside an ad server, answering the lookups and authorization
 * checks from an upstream registry's state, followed over its change feed (spec section 5, rule 8).
 * Its own composition root: no database, only the lookups' and publishers' plugins over a
 * follower of the upstream.
 */
import type { FastifyInstance } from 'fastify';
import { httpSettings } from '../http/settings.ts';
import { netSettings } from '../net/settings.ts';
import { lookupsSettings } from '../registry/lookups/index.ts';
import type { Env } from '../settings.ts';
import { buildMirror, type MirrorConfig, type MirrorDeps } from './build-mirror.ts';
import { mirrorSettings } from './settings.ts';

export { buildMirror, type MirrorConfig, type MirrorDeps } from './build-mirror.ts';
export type { RemoteFollower } from './remote-follower.ts';

export interface MirrorFlags {
  from?: string;
  token?: string;
  port?: string;
  host?: string;
}

/** The environment variables `ap mirror` reads beside the HTTP server's and the fetch client's. */
export const mirrorEnvVars = mirrorSettings.table;

export function loadMirrorConfig(flags: MirrorFlags = {}, env: Env = process.env): MirrorConfig {
  return {
    ...httpSettings.load(env, { port: flags.port, host: flags.host }),
    ...netSettings.load(env),
    ...lookupsSettings.load(env),
    ...mirrorSettings.load(env, { upstreamUrl: flags.from, upstreamToken: flags.token }),
  };
}

export interface RunningMirror {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Builds the mirror and listens; it bootstraps from the upstream in the background (see /readyz). */
export async function startMirror(config: MirrorConfig, deps: Omit<MirrorDeps, 'config'> = {}): Promise<RunningMirror> {
  const app = await buildMirror({ config, ...deps });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { app, url: `http://${host}:${port}`, close: () => app.close() };
}
