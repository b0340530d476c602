import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../../db/database.ts';
import { sharedSecret } from './sql.ts';

export interface IdentitySecrets {
  /** The private key every instance signs access tokens with. */
  signingKey: JWK;
  cookieKeys: string[];
}

/** Made at first start and shared through the database, so every instance signs and reads alike. */
export async function identitySecrets(db: Database): Promise<IdentitySecrets> {
  const signingKey = await sharedSecret(db, 'oauth_signing_key', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'ES256', use: 'sig' };
  });
  const cookieKeys = await sharedSecret(db, 'oauth_cookie_keys', async () => [randomBytes(32).toString('base64url')]);
  return { signingKey, cookieKeys };
}

/** The public half of a private JWK. */
export function publicJwk({ d: _d, ...rest }: JWK): JWK {
  return rest;
}
