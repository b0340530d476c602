import { hash, randomBytes } from 'node:crypto';

/**
 * Keys look like `ap_<prefix>_<secret>`: the prefix (12 hex characters) finds the stored row and
 * is safe to show in lists; the secret (32 random bytes) is never stored, only the SHA-256 of the
 * whole key. A fast hash is right here: the key is random, not a password to brute-force.
 */
const FORMAT = /^ap_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

export interface MintedKey {
  key: string;
  prefix: string;
  hash: Buffer;
}

export function mintKey(): MintedKey {
  const prefix = randomBytes(6).toString('hex');
  const key = `ap_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, hash: hashKey(key) };
}

// The one-shot digest: every authenticated request hashes its key, and a Hash object per call cost more than the digest.
export function hashKey(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

/**
 * The lookup prefix of a credential. A key of another shape (an operator's `AP_ADMIN_KEY`) is
 * found by a prefix derived from its hash instead, so every key is looked up the same way.
 */
export function lookupPrefix(credential: string): string {
  return FORMAT.exec(credential)?.[1] ?? `h${hashKey(credential).toString('hex').slice(0, 15)}`;
}
