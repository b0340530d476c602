/**
 * The two signature algorithms of the profile, over `node:crypto`. Kept apart from the signer and
 * verifier so the pairing of an RFC 9421 algorithm name with a JWK key type, and the ECDSA wire
 * encoding (raw r||s, IEEE P1363, 64 bytes, not DER), are written down once.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import type { SignatureAlgorithm } from './profile.ts';

/** A JWK as webhook signing publishes it: `ap_use` says which profile the key is for. */
export type WebhookJwk = JWK & { ap_use?: string };

/** The JOSE `alg` values a JWK may declare for each profile algorithm. */
const JOSE_ALGS: Readonly<Record<SignatureAlgorithm, readonly string[]>> = {
  ed25519: ['EdDSA', 'Ed25519'],
  'ecdsa-p256-sha256': ['ES256'],
};

/** The profile algorithm a JWK's key type implies, or `undefined` for any other key. */
export function algorithmOfJwk(jwk: WebhookJwk): SignatureAlgorithm | undefined {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'ed25519';
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ecdsa-p256-sha256';
  return undefined;
}

/** Whether `jwk` can check (or make) `alg` signatures: right key type, no contradicting JOSE `alg`. */
export function jwkFitsAlgorithm(jwk: WebhookJwk, alg: SignatureAlgorithm): boolean {
  return algorithmOfJwk(jwk) === alg && (jwk.alg === undefined || JOSE_ALGS[alg].includes(jwk.alg));
}

/** The public key of a JWK (a private JWK's `d` is dropped first). Throws on key material Node refuses. */
export function publicKeyFromJwk(jwk: WebhookJwk): KeyObject {
  const { d: _d, ...publicJwk } = jwk;
  return createPublicKey({ key: publicJwk, format: 'jwk' });
}

/** The private key of a JWK that has `d`. Throws on key material Node refuses. */
export function privateKeyFromJwk(jwk: WebhookJwk): KeyObject {
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

export function signBytes(alg: SignatureAlgorithm, key: KeyObject, data: Uint8Array): Uint8Array {
  return alg === 'ed25519' ? sign(null, data, key) : sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
}

export function verifyBytes(alg: SignatureAlgorithm, key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  // Both algorithms have 64-byte signatures; checking first keeps odd input away from OpenSSL.
  if (signature.length !== 64) return false;
  try {
    return alg === 'ed25519'
      ? verify(null, data, key, signature)
      : verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}
