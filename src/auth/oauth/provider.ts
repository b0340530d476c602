import Provider, { errors, type Configuration } from 'oidc-provider';
import type { IdentityConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { fetchThrough } from '../../client/agents/index.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { userById } from '../accounts/service.ts';
import { databaseAdapter } from './adapter.ts';
import { checkClientUrlHosts, clientUrlValidator, FETCHED_CLIENT_URLS } from './client-urls.ts';
import { escapeHtml } from '../../http/html.ts';
import type { IdentitySecrets } from './signing-keys.ts';

/** The protected resources this server offers tokens for (RFC 8707, RFC 9728). */
export function resourcesOf(base: string): { api: string; mcp: string } {
  return { api: `${base}/api`, mcp: `${base}/mcp` };
}

/** Paths the provider answers, besides the interaction pages we render ourselves. */
export const PROVIDER_ROUTES = {
  authorization: '/authorize',
  token: '/token',
  registration: '/register',
  jwks: '/jwks',
  revocation: '/token/revocation',
  end_session: '/session/end',
  userinfo: '/me',
} as const;

export const SCOPE = 'ap';

/** The claim of our access tokens that names the grant they were issued under. */
export const GRANT_CLAIM = 'gid';

export interface ProviderOptions {
  issuer: string;
  db: Database;
  secrets: IdentitySecrets;
  identity: IdentityConfig;
  proxy: boolean;
  /** The SSRF-safe client: the only way the provider reaches a URL a client registered. */
  fetcher: SafeFetch;
  isAgent?: (resource: string) => boolean;
}

/**
 * Caps on each fetch of a client's document (its key set): the provider gives up after 2.5 s
 * whatever the fetch does, and a key set of a few keys, even RSA with certificate chains, is a few
 * kilobytes.
 */
const CLIENT_DOCUMENT_FETCH = { timeoutMs: 2500, maxBytes: 64 * 1024 };

/**
 * The embedded OAuth 2.1 authorization server (oidc-provider): authorization code with PKCE (S256
 * only, required for every client), dynamic client registration, and JWT access tokens (RFC 9068)
 * for our resources. Its state lives in the database through `databaseAdapter`.
 */
export function buildProvider({
  issuer,
  db,
  secrets,
  identity,
  proxy,
  fetcher,
  isAgent = () => false,
}: ProviderOptions): Provider {
  const resources = resourcesOf(issuer);
  const known = new Set(Object.values(resources));
  const configuration: Configuration = {
    adapter: databaseAdapter(db, (metadata) => checkClientUrlHosts(metadata, fetcher.policy)),
    // Every fetch the provider makes (a private_key_jwt client's jwks_uri; the features that fetch
    // more are off) goes through the fetch policy: public addresses unless the allow list says
    // otherwise, each redirect checked again, time and size capped.
    fetch: fetchThrough(fetcher, CLIENT_DOCUMENT_FETCH),
    // A client may only register URLs the provider would be allowed to fetch (client-urls.ts).
    extraClientMetadata: { properties: [...FETCHED_CLIENT_URLS], validator: clientUrlValidator(fetcher.policy) },
    // The sector identifier document only vouches for redirect hosts under pairwise subject
    // identifiers, and this server issues public ones only: nothing to learn from fetching it.
    sectorIdentifierUriValidate: () => false,
    jwks: { keys: [secrets.signingKey as never] },
    cookies: { keys: secrets.cookieKeys },
    routes: PROVIDER_ROUTES,
    scopes: ['openid', 'offline_access', SCOPE],
    claims: { openid: ['sub'], email: ['email'], profile: ['name'] },
    pkce: { required: () => true },
    // OAuth 2.1 has no implicit or hybrid flow; the provider's default also offers those.
    responseTypes: ['code'],
    // RFC 7591's default method: the provider issues a secret to a client that names none, so the
    // client must be registered as one that uses it. Public clients say `none`.
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    },
    ttl: {
      AccessToken: identity.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 14 * 86400,
      Grant: 14 * 86400,
      RefreshToken: 14 * 86400,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      // On by default, at a path PROVIDER_ROUTES does not mount: the metadata would advertise a 404.
      pushedAuthorizationRequests: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the REST API (which also works at /mcp).
        defaultResource: () => resources.api,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          // The registry's own resources, and each agent's exact URL (`<base><path>/mcp` or `/a2a`).
          if (!known.has(resource) && !isAgent(resource))
            throw new errors.InvalidTarget(`${resource} is not a resource of this server`);
          return {
            scope: SCOPE,
            audience: resource,
            accessTokenTTL: identity.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    // Access tokens carry their grant (`gid`), and the verifier checks the grant still exists: a
    // replayed code, a revoked refresh token or a signed-out session then ends the access tokens
    // too, not only what the provider stores.
    extraTokenClaims: (_ctx, token) =>
      'grantId' in token && token.grantId ? { [GRANT_CLAIM]: token.grantId } : undefined,
    async findAccount(_ctx, id) {
      const user = await userById(db, id);
      if (!user) return undefined;
      return {
        accountId: user.id,
        claims: async () => ({ sub: user.id, email: user.email ?? undefined, name: user.display_name }),
      };
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Sign-in error</title><h1>Sign-in error</h1><p>${escapeHtml(out.error)}: ${escapeHtml(String(out.error_description ?? ''))}</p>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = proxy;
  return provider;
}
