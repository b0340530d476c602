import { generateKeyPairSync, randomBytes, type JsonWebKey } from 'node:crypto';
import type { Clock } from '../../../clock.ts';
import type { Database, Queryable } from '../../../db/database.ts';
import { governanceTokenLifetimeSeconds } from './lifetime.ts';
import { seal, unseal } from './seal.ts';

export type SigningAlg = 'ed25519' | 'ecdsa-p256-sha256';

/**
 * What a key signs, as its JWK's `ap_use` says: webhooks (RFC 9421, the operator's algorithm) or
 * governance approvals (compact JWS, always EdDSA). Each purpose has its own current key, rotated
 * on its own, so a verifier of one never accepts a signature made for the other.
 */
export type KeyPurpose = 'webhook-signing' | 'governance-signing';

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  /** The private JWK (with `kid`), for the signer. */
  privateJwk: JsonWebKey & { kid: string };
}

export interface KeySettings {
  alg: SigningAlg;
  /** AP_SIGNING_KEY_SECRET: seals private keys at rest. */
  secret: string | undefined;
  clock: Clock;
  /** How long after retirement a key stays published: the longest a signature it made stays valid. */
  publishWindowSeconds: number;
}

interface KeyRow {
  kid: string;
  alg: SigningAlg;
  public_jwk: JsonWebKey;
  private_key: string;
}

/** The key that signs `purpose` now: the newest unretired one, made (once, whoever races) when there is none. */
export async function currentKey(
  db: Database,
  settings: KeySettings,
  purpose: KeyPurpose = 'webhook-signing',
): Promise<SigningKey> {
  return (await newestKey(db, settings, purpose)) ?? db.transaction((tx) => currentKeyIn(tx, settings, purpose));
}

/** `currentKey` inside a transaction the caller holds (a task's): made there when there is none yet. */
export async function currentKeyIn(
  tx: Queryable,
  settings: KeySettings,
  purpose: KeyPurpose = 'webhook-signing',
): Promise<SigningKey> {
  const found = await newestKey(tx, settings, purpose);
  if (found) return found;
  // One instance makes the first key; the others wait here and then find it.
  await lockKeys(tx);
  return (await newestKey(tx, settings, purpose)) ?? insertNew(tx, settings, purpose);
}

/** The newest unretired key of `purpose`, opened; undefined when there is none. */
async function newestKey(db: Queryable, settings: KeySettings, purpose: KeyPurpose): Promise<SigningKey | undefined> {
  const [row] = await db.query<KeyRow>(
    `select kid, alg, public_jwk, private_key from agent_signing_keys where retired_at is null and purpose = $1 order by created_at desc, kid desc limit 1`,
    [purpose],
  );
  return row && open(row, settings);
}

/** Serializes the transactions that make keys (a first one, a rotation) until they end. */
async function lockKeys(tx: Queryable): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext('agent_signing_keys'))`);
}

/** Retires the current key of `purpose` and makes a new one; the old one stays published for its signatures' lifetime. */
export async function rotate(
  db: Database,
  settings: KeySettings,
  purpose: KeyPurpose = 'webhook-signing',
): Promise<SigningKey> {
  return db.transaction(async (tx) => {
    await lockKeys(tx);
    await tx.query(`update agent_signing_keys set retired_at = $1 where retired_at is null and purpose = $2`, [
      settings.clock.now(),
      purpose,
    ]);
    return insertNew(tx, settings, purpose);
  });
}

/**
 * The public keys a verifier may meet: every unretired key and those retired too recently to be
 * unused (a webhook signature's lifetime, or a governance approval's, by the key's purpose).
 */
export async function publishedKeys(db: Queryable, settings: KeySettings): Promise<JsonWebKey[]> {
  const before = (seconds: number) => new Date(settings.clock.now().getTime() - seconds * 1000);
  const rows = await db.query<{ public_jwk: JsonWebKey }>(
    `select public_jwk from agent_signing_keys
      where retired_at is null
         or (purpose = 'webhook-signing' and retired_at > $1)
         or (purpose = 'governance-signing' and retired_at > $2)
      order by created_at desc, kid`,
    [before(settings.publishWindowSeconds), before(governanceTokenLifetimeSeconds)],
  );
  return rows.map((r) => r.public_jwk);
}

async function insertNew(tx: Queryable, settings: KeySettings, purpose: KeyPurpose): Promise<SigningKey> {
  const alg: SigningAlg = purpose === 'governance-signing' ? 'ed25519' : settings.alg;
  const label = purpose === 'governance-signing' ? 'governance' : 'webhook';
  const kid = `ap-${label}-${new Date(settings.clock.now()).toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
  const pair = alg === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateJwk = { ...pair.privateKey.export({ format: 'jwk' }), kid };
  const publicJwk = {
    ...pair.publicKey.export({ format: 'jwk' }),
    kid,
    alg: alg === 'ed25519' ? 'EdDSA' : 'ES256',
    use: 'sig',
    key_ops: ['verify'],
    ap_use: purpose,
  };
  await tx.query(
    `insert into agent_signing_keys (kid, alg, public_jwk, private_key, created_at, purpose) values ($1, $2, $3, $4, $5, $6)`,
    [
      kid,
      alg,
      JSON.stringify(publicJwk),
      seal(JSON.stringify(privateJwk), settings.secret),
      settings.clock.now(),
      purpose,
    ],
  );
  return { kid, alg, privateJwk };
}

function open(row: KeyRow, settings: KeySettings): SigningKey {
  return {
    kid: row.kid,
    alg: row.alg,
    privateJwk: JSON.parse(unseal(row.private_key, settings.secret)) as SigningKey['privateJwk'],
  };
}
