import { generateKeyPairSync, randomBytes, type JsonWebKey } from 'node:crypto';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/database.ts';
import { seal, unseal } from './seal.ts';

export type SigningAlg = 'ed25519' | 'ecdsa-p256-sha256';

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

/** The key that signs now: the newest unretired one, made (once, whoever races) when there is none. */
export async function currentKey(db: Database, settings: KeySettings): Promise<SigningKey> {
  const found = await newest(db);
  if (found) return open(found, settings);
  return db.transaction(async (tx) => {
    // One instance makes the first key; the others wait here and then find it.
    await tx.query(`select pg_advisory_xact_lock(hashtext('agent_signing_keys'))`);
    const [existing] = await tx.query<KeyRow>(
      `select kid, alg, public_jwk, private_key from agent_signing_keys where retired_at is null order by created_at desc, kid desc limit 1`,
    );
    if (existing) return open(existing, settings);
    return insertNew(tx, settings);
  });
}

/** Retires the current key and makes a new one; the old one stays published for its signatures' lifetime. */
export async function rotate(db: Database, settings: KeySettings): Promise<SigningKey> {
  return db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext('agent_signing_keys'))`);
    await tx.query(`update agent_signing_keys set retired_at = $1 where retired_at is null`, [settings.clock.now()]);
    return insertNew(tx, settings);
  });
}

/** The public keys a verifier may meet: every unretired key and those retired too recently to be unused. */
export async function publishedKeys(db: Database, settings: KeySettings): Promise<JsonWebKey[]> {
  const horizon = new Date(settings.clock.now().getTime() - settings.publishWindowSeconds * 1000);
  const rows = await db.query<{ public_jwk: JsonWebKey }>(
    `select public_jwk from agent_signing_keys where retired_at is null or retired_at > $1 order by created_at desc, kid`,
    [horizon],
  );
  return rows.map((r) => r.public_jwk);
}

async function newest(db: Database): Promise<KeyRow | undefined> {
  const [row] = await db.query<KeyRow>(
    `select kid, alg, public_jwk, private_key from agent_signing_keys where retired_at is null order by created_at desc, kid desc limit 1`,
  );
  return row;
}

async function insertNew(tx: { query: Database['query'] }, settings: KeySettings): Promise<SigningKey> {
  const kid = `ap-webhook-${new Date(settings.clock.now()).toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
  const pair =
    settings.alg === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateJwk = { ...pair.privateKey.export({ format: 'jwk' }), kid };
  const publicJwk = {
    ...pair.publicKey.export({ format: 'jwk' }),
    kid,
    alg: settings.alg === 'ed25519' ? 'EdDSA' : 'ES256',
    use: 'sig',
    key_ops: ['verify'],
    ap_use: 'webhook-signing',
  };
  await tx.query(
    `insert into agent_signing_keys (kid, alg, public_jwk, private_key, created_at) values ($1, $2, $3, $4, $5)`,
    [
      kid,
      settings.alg,
      JSON.stringify(publicJwk),
      seal(JSON.stringify(privateJwk), settings.secret),
      settings.clock.now(),
    ],
  );
  return { kid, alg: settings.alg, privateJwk };
}

function open(row: KeyRow, settings: KeySettings): SigningKey {
  return {
    kid: row.kid,
    alg: row.alg,
    privateJwk: JSON.parse(unseal(row.private_key, settings.secret)) as SigningKey['privateJwk'],
  };
}
