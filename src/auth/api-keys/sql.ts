import type { Queryable } from '../../db/database.ts';
import type { Role } from '../accounts/sql.ts';

/** The SQL of organization API keys. */

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  organization_slug: string;
  name: string;
  prefix: string;
  role: Role;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** What authenticating a key needs: the row, its hash and the organization's flags. */
export interface KeyCredentialRow extends ApiKeyRow {
  /** A Buffer from node-postgres, a Uint8Array from PGlite. */
  key_hash: Uint8Array;
  api_tier: boolean;
  is_admin: boolean;
}

const KEY = `k.id, k.organization_id, o.slug as organization_slug, k.name, k.prefix, k.role, k.created_by,
  k.created_at, k.last_used_at, k.revoked_at`;

export interface NewKey {
  id: string;
  organization_id: string;
  name: string;
  prefix: string;
  key_hash: Buffer;
  role: Role;
  created_by: string | null;
}

export async function insertKey(db: Queryable, key: NewKey): Promise<ApiKeyRow> {
  const [row] = await db.query<ApiKeyRow>(
    `with k as (
       insert into api_keys (id, organization_id, name, prefix, key_hash, role, created_by)
       values ($1, $2, $3, $4, $5, $6, $7) returning *)
     select ${KEY} from k join organizations o on o.id = k.organization_id`,
    [key.id, key.organization_id, key.name, key.prefix, key.key_hash, key.role, key.created_by],
  );
  return row!;
}

export async function keyByPrefix(db: Queryable, prefix: string): Promise<KeyCredentialRow | undefined> {
  const [row] = await db.query<KeyCredentialRow>(
    `select ${KEY}, k.key_hash, o.api_tier, o.is_admin
       from api_keys k join organizations o on o.id = k.organization_id where k.prefix = $1`,
    [prefix],
  );
  return row;
}

export async function keyById(db: Queryable, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.query<ApiKeyRow>(
    `select ${KEY} from api_keys k join organizations o on o.id = k.organization_id where k.id = $1`,
    [id],
  );
  return row;
}

export async function listKeys(db: Queryable, organizationId?: string): Promise<ApiKeyRow[]> {
  return db.query<ApiKeyRow>(
    `select ${KEY} from api_keys k join organizations o on o.id = k.organization_id
      where $1::uuid is null or k.organization_id = $1 order by o.slug, k.created_at, k.id`,
    [organizationId ?? null],
  );
}

/** Revokes a live key; undefined when there is none with that id (or it was already revoked). */
export async function revokeKey(db: Queryable, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.query<ApiKeyRow>(
    `with k as (update api_keys set revoked_at = now() where id = $1 and revoked_at is null returning *)
     select ${KEY} from k join organizations o on o.id = k.organization_id`,
    [id],
  );
  return row;
}

/** At most one write a minute per key, so a busy key does not turn every read into a write. */
export async function touchKey(db: Queryable, id: string): Promise<void> {
  await db.query(
    `update api_keys set last_used_at = now() where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [id],
  );
}

/** The bootstrap key: (re)instated for its prefix, every other bootstrap key of the organization revoked. */
export async function reinstateBootstrapKey(db: Queryable, key: NewKey): Promise<void> {
  await db.query(
    `update api_keys set revoked_at = now() where organization_id = $1 and name = $2 and prefix <> $3 and revoked_at is null`,
    [key.organization_id, key.name, key.prefix],
  );
  await db.query(
    `insert into api_keys (id, organization_id, name, prefix, key_hash, role) values ($1, $2, $3, $4, $5, $6)
     on conflict (prefix) do update set key_hash = excluded.key_hash, revoked_at = null, role = excluded.role`,
    [key.id, key.organization_id, key.name, key.prefix, key.key_hash, key.role],
  );
}
