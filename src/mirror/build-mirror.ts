import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { systemClock, type Clock } from '../clock.ts';
import { registerCors } from '../http/cors.ts';
import { registerErrorRendering } from '../http/errors.ts';
import { registerProbes } from '../http/health.ts';
import { boundJsonBodies, requireJsonWrites } from '../http/json-writes.ts';
import { echoRequestId } from '../http/request-id.ts';
import { registerMetrics } from '../http/metrics.ts';
import { logRequests } from '../http/request-log.ts';
import { serverOptions } from '../http/server-options.ts';
import type { HttpSettings } from '../http/settings.ts';
import { refuseWhileClosing } from '../http/shutdown-gate.ts';
import { parseAllowList } from '../net/allow-list.ts';
import { SafeFetch } from '../net/safe-fetch.ts';
import type { NetSettings } from '../net/settings.ts';
import { ApError } from '../protocol/errors.ts';
import { ErrorBody } from '../protocol/wire/error.ts';
import {
  isoStamps,
  lookupAnswers,
  lookupSchemas,
  lookupsPlugin,
  type LookupsSettings,
} from '../registry/lookups/index.ts';
import { brandResolvePlugin, brandSchemas } from '../registry/brands/index.ts';
import { propertyResolvePlugin, propertySchemas } from '../registry/properties/index.ts';
import { publishersPlugin } from '../registry/publishers/index.ts';
import { register } from '../app/register.ts';
import { freshnessHeaders, frontServer } from './front.ts';
import { mirrorMetrics } from './metrics.ts';
import { RemoteFollower } from './remote-follower.ts';
import type { MirrorSettings } from './settings.ts';
import { Upstream } from './upstream.ts';

export type MirrorConfig = HttpSettings & NetSettings & LookupsSettings & MirrorSettings;

export interface MirrorDeps {
  config: MirrorConfig;
  /** Replaces the fetch client built from the configuration (tests inject a resolver). */
  fetcher?: SafeFetch;
  clock?: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The mirror's follower of its upstream (tests wait on it); absent on the registry. */
    mirror?: RemoteFollower;
  }
}

const Ready = Type.Object(
  {
    status: Type.Literal('ready'),
    upstream: Type.String({ description: 'The registry this mirror follows.' }),
    cursor: Type.Union([Type.String(), Type.Null()], { description: 'The last upstream feed event applied.' }),
    lag_ms: Type.Integer({
      description: 'How far behind the upstream the answers may be: 0 while its stream is open and caught up.',
    }),
    streaming: Type.Boolean({ description: 'Whether the upstream’s feed stream is open and caught up.' }),
    bootstraps: Type.Integer({ description: 'How many times the state was loaded from the upstream’s snapshot.' }),
  },
  { description: 'The mirror has loaded the upstream’s state and serves it.' },
);

/**
 * `ap mirror`'s application: a read-only registry that answers the lookups, both authorization
 * checks, the expansion and the publisher views from an upstream registry's state, followed over
 * its feed (remote-follower.ts), with no database. The same plugins as the registry's serve them,
 * so the answers are the same. Every answer says how fresh it is; writes are refused naming the
 * upstream.
 */
export async function buildMirror(deps: MirrorDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const answers = lookupAnswers(config.lookupCacheEntries);
  /** Checks the front answered from kept answers (the framework's metrics never see them). */
  const counted = { kept: 0 };
  const app: FastifyInstance = Fastify({
    ...serverOptions(config),
    // Built with the app's logger, after the app: the front reads it only once requests come.
    serverFactory: frontServer(answers, (): RemoteFollower => follower, isoStamps(clock), counted),
  });
  requireJsonWrites(app);
  boundJsonBodies(app);
  const upstreamUrl = config.upstreamUrl;
  registerErrorRendering(app, (request) => {
    const path = request.url.split('?')[0]!;
    return request.method === 'GET' || request.method === 'HEAD'
      ? new ApError('not_mirrored', `This mirror does not serve ${path}; ask the registry it follows, ${upstreamUrl}.`)
      : new ApError(
          'read_only_mirror',
          `This is a read-only mirror of ${upstreamUrl}; send ${request.method} ${path} there.`,
        );
  });
  echoRequestId(app);
  refuseWhileClosing(app);
  logRequests(app);
  await registerCors(app);

  // The operator named the upstream: it may be on a private network, as a registry beside its mirrors often is.
  const fetcher =
    deps.fetcher ??
    new SafeFetch({ allow: parseAllowList([config.fetchAllow ?? '', endpointOf(upstreamUrl)].join(',')) });
  const follower: RemoteFollower = new RemoteFollower({
    upstream: new Upstream(upstreamUrl, config.upstreamToken, fetcher),
    clock,
    log: app.log,
  });

  // Every answer says where in the upstream's feed it stands and how far behind it may be.
  app.addHook('onRequest', (_request, reply, done) => {
    const headers = freshnessHeaders(follower);
    for (let i = 0; i < headers.length; i += 2) reply.header(headers[i]!, headers[i + 1]);
    done();
  });

  app.addSchema(ErrorBody);
  mirrorMetrics(registerMetrics(app, undefined), follower, counted);
  const readiness = registerProbes(
    app,
    {
      description:
        'Answers 200 once the mirror has loaded the upstream’s state (then always: it keeps serving its last state while the upstream is away, saying how far behind it may be), else 503.',
      ready: Ready,
    },
    async (readiness) => {
      readiness.assertReady();
      return {
        status: 'ready' as const,
        upstream: upstreamUrl,
        cursor: follower.cursor ?? null,
        lag_ms: follower.lagMs() ?? 0,
        streaming: follower.streaming,
        bootstraps: follower.bootstraps,
      };
    },
  );

  for (const schema of lookupSchemas) app.addSchema(schema);
  await register(app, lookupsPlugin, {
    clock,
    cacheEntries: config.lookupCacheEntries,
    answers,
    index: follower,
    members: follower.members,
    readiness,
  });
  await register(app, publishersPlugin, { index: follower });
  for (const schema of [...brandSchemas, ...propertySchemas]) app.addSchema(schema);
  await register(app, brandResolvePlugin, {
    resolve: async (domains) => follower.liveResolutions().brandsFor(domains),
  });
  await register(app, propertyResolvePlugin, {
    resolve: async (domains) => follower.liveResolutions().propertiesFor(domains),
  });
  app.addHook('onClose', async () => {
    if (!deps.fetcher) await fetcher.close();
  });
  app.decorate('mirror', follower);
  return app;
}

/** The upstream's `host:port`, as the allow list names an endpoint. */
function endpointOf(url: string): string {
  const { protocol, host, port } = new URL(url);
  return port === '' ? `${host}:${protocol === 'https:' ? 443 : 80}` : host;
}
