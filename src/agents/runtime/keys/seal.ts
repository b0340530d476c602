import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Private keys at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the operator's secret.
 * Without a secret they are stored as they are, which suits development only.
 */
export function seal(plain: string, secret: string | undefined): string {
  if (!secret) return plain;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(secret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'sealed',
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join(':');
}

export function unseal(stored: string, secret: string | undefined): string {
  if (!stored.startsWith('sealed:')) return stored;
  if (!secret)
    throw new Error('signing keys are sealed; set AP_SIGNING_KEY_SECRET to the secret they were sealed with');
  const [, version, iv, tag, body] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('a sealed signing key is malformed');
  const decipher = createDecipheriv('aes-256-gcm', keyFrom(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('a signing key does not open with AP_SIGNING_KEY_SECRET; it was sealed with another secret');
  }
}

function keyFrom(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'ap-agent-signing-keys', 'aes-256-gcm v1', 32));
}
