import Provider, { errors, type Configuration } from 'oidc-provider';
import type { IdentityConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { userById } from '../accounts/service.ts';
import { databaseAdapter } from './adapter.ts';
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

/**
 * The embedded OAuth 2.1 authorization server (oidc-provider): authorization code with PKCE (S256
 * only, required for every client), dynamic client registration, and JWT access tokens (RFC 9068)
 * for our resources. Its state lives in the database through `databaseAdapter`.
 */
export function buildProvider(
  issuer: string,
  db: Database,
  secrets: IdentitySecrets,
  identity: IdentityConfig,
  proxy: boolean,
  isAgent: (resource: string) => boolean = () => false,
): Provider {
  const resources = resourcesOf(issuer);
  const known = new Set(Object.values(resources));
  const configuration: Configuration = {
    adapter: databaseAdapter(db),
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
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic', id_token_signed_response_alg: 'ES256' },
    ttl: { AccessToken: identity.accessTokenTtlSeconds, AuthorizationCode: 60, Interaction: 600, Session: 14 * 86400, Grant: 14 * 86400, RefreshToken: 14 * 86400 },
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
          if (!known.has(resource) && !isAgent(resource)) throw new errors.InvalidTarget(`${resource} is not a resource of this server`);
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
    extraTokenClaims: (_ctx, token) => ('grantId' in token && token.grantId ? { [GRANT_CLAIM]: token.grantId } : undefined),
    async findAccount(_ctx, id) {
      const user = await userById(db, id);
      if (!user) return undefined;
      return { accountId: user.id, claims: async () => ({ sub: user.id, email: user.email ?? undefined, name: user.display_name }) };
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
