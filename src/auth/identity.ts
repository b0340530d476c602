import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { AppContext } from '../context.ts';
import { baseUrl } from '../http/base-url.ts';
import type { RegistryResource } from '../http/route-config.ts';
import { bootstrapAdminKey } from './api-keys/service.ts';
import { credentialAuthenticator, type Authenticator } from './authenticator.ts';
import { signInLimit } from './limits.ts';
import { AgentResources } from './agent-resources.ts';
import { NotifiedCache } from '../db/notified-cache.ts';
import { addResourceMetadataSchema, registerResourceMetadata } from './oauth/metadata.ts';
import { buildProvider, resourcesOf } from './oauth/provider.ts';
import { registerAuthorizationServer } from './oauth/routes.ts';
import { identitySecrets, publicJwk } from './oauth/signing-keys.ts';
import { sweepExpired } from './oauth/sql.ts';
import { jwtVerifier, localKeys, remoteKeys, type TokenVerifier } from './tokens/verifier.ts';

export interface Identity {
  authenticator: Authenticator;
  /** The agents served here as protected resources of their own (each declares itself before its routes). */
  agents: AgentResources;
  /** Where a 401's challenge points OAuth clients (RFC 9728): the metadata of the resource the route belongs to. */
  resourceMetadataUrl(resource: RegistryResource): string;
  /** Adds the identity routes; call after the guard is attached. */
  registerRoutes(): Promise<void>;
}

/**
 * Who may call: organization API keys and OAuth access tokens, from the embedded authorization
 * server or from an external issuer the configuration names. The embedded issuer is this
 * server's base URL, known once it listens, so the provider and verifier are built on first use.
 */
export function createIdentity(app: FastifyInstance, { config, db, fetcher, clock }: AppContext): Identity {
  const base = () => baseUrl(app, config);
  const external = config.identity.externalIssuer;
  const issuer = () => external ?? base();
  const audiences = () =>
    config.identity.externalAudiences.length && external
      ? config.identity.externalAudiences
      : Object.values(resourcesOf(base()));

  const tokens = once(async (): Promise<{ verifier: TokenVerifier; local: boolean }> => {
    const skew = config.identity.clockSkewSeconds;
    if (external) {
      return {
        verifier: jwtVerifier({
          issuer: external,
          keys: remoteKeys(config.identity.externalJwksUrl!, fetcher),
          audiences: audiences(),
          clockSkewSeconds: skew,
        }),
        local: false,
      };
    }
    const secrets = await identitySecrets(db);
    const keys = localKeys([publicJwk(secrets.signingKey)]);
    return {
      verifier: jwtVerifier({ issuer: base(), keys, audiences: audiences(), clockSkewSeconds: skew, typ: 'at+jwt' }),
      local: true,
    };
  });
  const cache = new NotifiedCache(db, clock, { channel: 'ap_auth', ttlMs: 300_000, maxEntries: 10_000 });
  addResourceMetadataSchema(app);
  const agents = new AgentResources(app, base, issuer, db, cache);
  const provider = once(async (): Promise<Provider> =>
    buildProvider({
      issuer: base(),
      db,
      secrets: await identitySecrets(db),
      identity: config.identity,
      proxy: config.trustProxy !== false,
      fetcher,
      isAgent: (resource) => agents.has(resource),
    }),
  );
  app.addHook('onReady', async () => {
    // Without it every credential is read from the database: slower, never wrong.
    await cache
      .start()
      .catch((err: unknown) => app.log.warn({ err }, 'credential cache off: cannot listen for credential changes'));
  });
  app.addHook('preClose', async () => cache.stop());

  return {
    authenticator: credentialAuthenticator(db, tokens, cache, () => clock.now().getTime()),
    agents,
    resourceMetadataUrl: (resource) => `${base()}/.well-known/oauth-protected-resource/${resource}`,
    async registerRoutes() {
      registerResourceMetadata(app, base, issuer);
      if (!external) {
        await registerAuthorizationServer(app, db, provider, signInLimit(config));
        const sweep = setInterval(() => void sweepExpired(db).catch(() => {}), 3600_000);
        sweep.unref();
        app.addHook('onClose', async () => clearInterval(sweep));
      }
      if (config.adminKey) {
        const adminKey = config.adminKey;
        app.addHook('onReady', async () => bootstrapAdminKey(db, adminKey));
      }
    },
  };
}

/** Runs `make` once, on first call; a failure is not kept, so the next call tries again. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= make().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
