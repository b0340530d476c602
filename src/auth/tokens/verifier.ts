import { createLocalJWKSet, createRemoteJWKSet, customFetch, errors, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import type { SafeFetch } from '../../net/safe-fetch.ts';

/** What a verified access token says about its bearer. */
export interface TokenClaims {
  issuer: string;
  subject: string;
  email?: string;
  name?: string;
}

export interface TokenVerifier {
  /** The claims of a valid token; null for any invalid one (signature, issuer, audience, time). */
  verify(token: string): Promise<TokenClaims | null>;
}

export interface VerifierOptions {
  issuer: string;
  keys: JWTVerifyGetKey;
  audiences: string[];
  clockSkewSeconds: number;
  /** The JOSE `typ` the issuer stamps on access tokens, when it does (RFC 9068: `at+jwt`). */
  typ?: string;
}

// Asymmetric only: a symmetric algorithm would let anyone holding the public key mint tokens.
const ALGORITHMS = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'];

export function jwtVerifier(options: VerifierOptions): TokenVerifier {
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, options.keys, {
          issuer: options.issuer,
          audience: options.audiences,
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

/** An external issuer's JWKS, fetched (and refreshed on an unknown key id) through the SSRF-safe client. */
export function remoteKeys(url: string, fetcher: SafeFetch): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(url), {
    [customFetch]: async (input: string, init: RequestInit) => {
      const res = await fetcher.fetch(input, { headers: Object.fromEntries(new Headers(init.headers).entries()) });
      return new Response(new Uint8Array(res.body), { status: res.status, headers: res.headers });
    },
  });
}
