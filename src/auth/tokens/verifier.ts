import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  jwtVerify,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { ApError } from '../../protocol/errors.ts';

/** What a verified access token says about its bearer. */
export interface TokenClaims {
  issuer: string;
  subject: string;
  email?: string;
  name?: string;
  /** The grant the token was issued under, when the issuer says (ours does: `gid`). */
  grantId?: string;
}

export interface TokenVerifier {
  /**
   * The claims of a valid token; null for any invalid one (signature, issuer, audience, time).
   * `audiences`: the resources the token must be meant for, one of them at least (RFC 8707); the
   * verifier's own when not given.
   */
  verify(token: string, audiences?: readonly string[]): Promise<TokenClaims | null>;
}

export interface VerifierOptions {
  issuer: string;
  keys: JWTVerifyGetKey;
  /** The audiences checked when a call names none: the registry's own API. */
  audiences: string[];
  clockSkewSeconds: number;
  /** The JOSE `typ` the issuer stamps on access tokens, when it does (RFC 9068: `at+jwt`). */
  typ?: string;
}

// Asymmetric only: a symmetric algorithm would let anyone holding the public key mint tokens.
const ALGORITHMS = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'];

export function jwtVerifier(options: VerifierOptions): TokenVerifier {
  return {
    async verify(token, audiences) {
      try {
        const { payload } = await jwtVerify(token, options.keys, {
          issuer: options.issuer,
          audience: audiences ? [...audiences] : options.audiences,
          clockTolerance: options.clockSkewSeconds,
          algorithms: ALGORITHMS,
          requiredClaims: ['sub', 'exp'],
          ...(options.typ ? { typ: options.typ } : {}),
        });
        return {
          issuer: options.issuer,
          subject: payload.sub!,
          ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
          ...(typeof payload.name === 'string' ? { name: payload.name } : {}),
          ...(typeof payload.gid === 'string' ? { grantId: payload.gid } : {}),
        };
      } catch (err) {
        if (err instanceof errors.JOSEError) return null;
        throw err;
      }
    },
  };
}

/** The embedded provider's own keys, known locally. */
export function localKeys(keys: JWK[]): JWTVerifyGetKey {
  return createLocalJWKSet({ keys });
}

/**
 * An external issuer's JWKS, fetched (and refreshed on an unknown key id) through the SSRF-safe
 * client. When the keys cannot be had, no token can be checked: that is the issuer's outage (502),
 * not the caller's bad credential (401) nor our bug (500).
 */
export function remoteKeys(url: string, fetcher: SafeFetch): JWTVerifyGetKey {
  // The reason goes to the log (the cause of a 5xx), not to the caller.
  const unavailable = (cause: unknown) =>
    new ApError(
      'upstream_unavailable',
      "The identity provider's signing keys could not be fetched, so no access token can be checked; try again later.",
      { cause },
    );
  return createRemoteJWKSet(new URL(url), {
    [customFetch]: async (input: string, init: RequestInit) => {
      const res = await fetcher
        .fetch(input, { headers: Object.fromEntries(new Headers(init.headers).entries()) })
        .catch((err: unknown) => {
          throw unavailable(err);
        });
      if (res.status !== 200) throw unavailable(new Error(`${url} answered HTTP ${res.status}`));
      return new Response(new Uint8Array(res.body), { status: res.status, headers: res.headers });
    },
  });
}
