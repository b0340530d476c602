import { ConfigError, integer, list, optional, perWindow, secret, settings, type Loaded } from '../settings.ts';

export const authSettings = settings(
  {
    /** Accepted at start as an admin key of the operator's organization (first-run setup, automation). */
    adminKey: {
      env: 'AP_ADMIN_KEY',
      default: '',
      meaning: 'accepted at start as an API key of the admin organization (first-run setup, automation)',
      parse: adminKey,
    },
    /** An external issuer's URL; unset runs the embedded identity provider. */
    externalIssuer: {
      env: 'AP_OAUTH_ISSUER',
      default: '',
      meaning: 'trust this external OAuth issuer instead of the embedded one (needs AP_OAUTH_JWKS_URL)',
      parse: optional,
    },
    /** The external issuer's JWKS; required with `externalIssuer`. */
    externalJwksUrl: {
      env: 'AP_OAUTH_JWKS_URL',
      default: '',
      meaning: "the external issuer's JWKS URL",
      parse: optional,
    },
    /** Audiences accepted in external tokens; defaults to this server's resource identifiers. */
    externalAudiences: {
      env: 'AP_OAUTH_AUDIENCE',
      default: '',
      meaning: "comma-separated audiences accepted in external tokens (default: this server's /api and /mcp resources)",
      parse: list,
    },
    /** Lifetime of access tokens the embedded provider issues. */
    accessTokenTtlSeconds: {
      env: 'AP_ACCESS_TOKEN_TTL',
      default: '3600',
      meaning: 'lifetime in seconds of access tokens the embedded identity provider issues',
      parse: integer(60, 86400),
    },
    /** Clock skew tolerated when checking `exp` and `nbf`. */
    clockSkewSeconds: {
      env: 'AP_TOKEN_CLOCK_SKEW',
      default: '30',
      meaning: 'seconds of clock skew tolerated when checking token exp and nbf',
      parse: integer(0, 300),
    },
  },
  ({ adminKey, ...identity }) => ({ adminKey, identity: checkIssuer(identity) }),
);

export type AuthSettings = Loaded<typeof authSettings>;

/** Who issues user tokens: this service (the default), or an external issuer it trusts. */
export type IdentityConfig = AuthSettings['identity'];

/** Rate limits of the sign-in (spec section 8), per window. */
export const authLimits = settings({
  signInsPerMinutePerIp: {
    env: 'RATE_LIMIT_SIGN_INS_PER_MINUTE',
    default: '10',
    meaning: 'password sign-in attempts per minute per IP',
    parse: perWindow,
  },
});

export type AuthLimits = Loaded<typeof authLimits>;

function adminKey(value: string, name: string): string | undefined {
  const key = secret(value, name);
  // Three dot-separated parts read as a JWT, which is never looked up as a key.
  if (key !== undefined && /^[^.]+\.[^.]+\.[^.]+$/.test(key))
    throw new ConfigError(`${name} must not have the shape of a JWT (three dot-separated parts)`);
  return key;
}

/** An external issuer comes with its JWKS, both URLs. */
function checkIssuer<T extends { externalIssuer: string | undefined; externalJwksUrl: string | undefined }>(
  identity: T,
): T {
  const { externalIssuer, externalJwksUrl } = identity;
  if (externalIssuer && !externalJwksUrl)
    throw new ConfigError('AP_OAUTH_ISSUER needs AP_OAUTH_JWKS_URL, where its signing keys are published');
  if (externalJwksUrl && !externalIssuer)
    throw new ConfigError('AP_OAUTH_JWKS_URL needs AP_OAUTH_ISSUER, the issuer it belongs to');
  for (const [name, value] of [
    ['AP_OAUTH_ISSUER', externalIssuer],
    ['AP_OAUTH_JWKS_URL', externalJwksUrl],
  ] as const) {
    if (value && !URL.canParse(value)) throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
  return identity;
}
