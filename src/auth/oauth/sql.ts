import type { Queryable } from '../../db/database.ts';

/** The SQL of the OAuth server's records (oidc-provider's models) and the shared identity secrets. */

export interface OAuthRecord {
  payload: Record<string, unknown>;
  consumed_at: Date | null;
}

export async function upsertRecord(
  db: Queryable,
  model: string,
  id: string,
  payload: Record<string, unknown>,
  expiresInSeconds: number | undefined,
): Promise<void> {
  await db.query(
    `insert into oauth_records (model, id, payload, grant_id, user_code, uid, expires_at)
     values ($1, $2, $3, $4, $5, $6, case when $7::int is null then null else now() + make_interval(secs => $7::int) end)
     on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
       user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
    [
      model,
      id,
      JSON.stringify(payload),
      payload.grantId ?? null,
      payload.userCode ?? null,
      payload.uid ?? null,
      expiresInSeconds ?? null,
    ],
  );
}

const LIVE = `(expires_at is null or expires_at > now())`;

export async function findRecord(
  db: Queryable,
  model: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
): Promise<OAuthRecord | undefined> {
  const [row] = await db.query<OAuthRecord>(
    `select payload, consumed_at from oauth_records where model = $1 and ${column} = $2 and ${LIVE}`,
    [model, value],
  );
  return row;
}

/** Marks a record used; false when it already was (a concurrent replay got there first). */
export async function consumeRecord(db: Queryable, model: string, id: string): Promise<boolean> {
  const rows = await db.query(
    `update oauth_records set consumed_at = now() where model = $1 and id = $2 and consumed_at is null returning id`,
    [model, id],
  );
  return rows.length === 1;
}

/**
 * Whether a grant still stands (revoking it, or its expiry, ends every token issued under it):
 * undefined when it does not, else when it expires (null: never).
 */
export async function grantExpiry(db: Queryable, grantId: string): Promise<Date | null | undefined> {
  const [row] = await db.query<{ expires_at: Date | null }>(
    `select expires_at from oauth_records where model = 'Grant' and id = $1 and ${LIVE}`,
    [grantId],
  );
  return row ? row.expires_at : undefined;
}

export async function destroyRecord(db: Queryable, model: string, id: string): Promise<void> {
  await db.query(`delete from oauth_records where model = $1 and id = $2`, [model, id]);
}

export async function destroyGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query(`delete from oauth_records where grant_id = $1`, [grantId]);
}

export async function sweepExpired(db: Queryable): Promise<void> {
  await db.query(`delete from oauth_records where expires_at < now() - interval '1 hour'`);
}

/** The secret called `name`, made by `make` the first time; every instance gets the first one stored. */
export async function sharedSecret<T>(db: Queryable, name: string, make: () => Promise<T>): Promise<T> {
  const made = await make();
  await db.query(`insert into identity_secrets (name, value) values ($1, $2) on conflict (name) do nothing`, [
    name,
    JSON.stringify(made),
  ]);
  const [row] = await db.query<{ value: T }>(`select value from identity_secrets where name = $1`, [name]);
  return row!.value;
}
