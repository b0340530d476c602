import type { Queryable } from './database.ts';

/**
 * The NOTIFY channel a kind of change signals on: `prefix` and the schema, so that deployments
 * sharing one PostgreSQL in different schemas do not wake each other. The triggers name it the
 * same way (`prefix || '_' || left(md5(TG_TABLE_SCHEMA), 16)`).
 */
export async function notifyChannel(db: Queryable, prefix: string): Promise<string> {
  const [row] = await db.query<{ channel: string }>(
    `select $1::text || '_' || left(md5(current_schema()), 16) as channel`,
    [prefix],
  );
  return row!.channel;
}
