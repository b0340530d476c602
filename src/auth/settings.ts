import { ConfigError, integer, list, nonEmpty, reader, secret, type Env, type Setting } from '../settings.ts';

export interface AuthSettings {
  /** Accepted at start as an admin key of the operator's organization (first-run setup, automation). */
  adminKey: string | undefined;
  identity: IdentityConfig;
}

/** Who issues user tokens: this service (the default), or an external issuer it trusts. */
export interface IdentityConfig {
  /** An external issuer's URL; unset runs the embedded identity provider. */
  externalIssuer: string | undefined;
  /** The external issuer's JWKS; required with `externalIssuer`. */
  externalJwksUrl: string | undefined;
  /** Audiences accepted in external tokens; defaults to this server's resource identifiers. */
  externalAudiences: string[];
  /** Lifetime of access tokens the embedded provider issues. */
  accessTokenTtlSeconds: number;
  /** Clock skew tolerated when checking `exp` and `nbf`. */
  clockSkewSeconds: number;
}

/** Rate limits of the sign-in (spec section 8), per window. */
export interface AuthLimits {
  signInsPerMinutePerIp: number;
}

export const authSettings = {
  AP_ADMIN_KEY: {
    default: '',
    meaning: 'accepted at start as an API key of the admin organization (first-run setup, automation)',
  },
  AP_OAUTH_ISSUER: {
    default: '',
    meaning: 'trust this external OAuth issuer instead of the embedded one (needs AP_OAUTH_JWKS_URL)',
  },
  AP_OAUTH_JWKS_URL: { default: '', meaning: "the external issuer's JWKS URL" },
  AP_OAUTH_AUDIENCE: {
    default: '',
    meaning: "comma-separated audiences accepted in external tokens (default: this server's /api and /mcp resources)",
  },
  AP_ACCESS_TOKEN_TTL: {
    default: '3600',
    meaning: 'lifetime in seconds of access tokens the embedded identity provider issues',
  },
  AP_TOKEN_CLOCK_SKEW: { default: '30', meaning: 'seconds of clock skew tolerated when checking token exp and nbf' },
  RATE_LIMIT_SIGN_INS_PER_MINUTE: { default: '10', meaning: 'password sign-in attempts per minute per IP' },
} as const satisfies Record<string, Setting>;

export function loadAuthSettings(env: Env): AuthSettings {
  const get = reader(authSettings, env);
  return { adminKey: adminKey(nonEmpty(get('AP_ADMIN_KEY'))), identity: identity(get) };
}

export function loadAuthLimits(env: Env): AuthLimits {
  const get = reader(authSettings, env);
  return {
    signInsPerMinutePerIp: integer('RATE_LIMIT_SIGN_INS_PER_MINUTE', get('RATE_LIMIT_SIGN_INS_PER_MINUTE'), 1, 1e6),
  };
}

function adminKey(value: string | undefined): string | undefined {
  secret('AP_ADMIN_KEY', value);
  // Three dot-separated parts read as a JWT, which is never looked up as a key.
  if (value !== undefined && /^[^.]+\.[^.]+\.[^.]+$/.test(value))
    throw new ConfigError('AP_ADMIN_KEY must not have the shape of a JWT (three dot-separated parts)');
  return value;
}

function identity(get: (name: keyof typeof authSettings) => string): IdentityConfig {
  const externalIssuer = nonEmpty(get('AP_OAUTH_ISSUER'));
  const externalJwksUrl = nonEmpty(get('AP_OAUTH_JWKS_URL'));
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
  return {
    externalIssuer,
    externalJwksUrl,
    externalAudiences: list(get('AP_OAUTH_AUDIENCE')),
    accessTokenTtlSeconds: integer('AP_ACCESS_TOKEN_TTL', get('AP_ACCESS_TOKEN_TTL'), 60, 86400),
    clockSkewSeconds: integer('AP_TOKEN_CLOCK_SKEW', get('AP_TOKEN_CLOCK_SKEW'), 0, 300),
  };
}
