import type { Queryable } from '../../db/database.ts';

/** The NOTIFY channel credential changes signal on: one per schema, as the triggers of migrations 0016 and 0017 name it. */
export async function credentialsChannel(db: Queryable): Promise<string> {
  const [row] = await db.query<{ channel: string }>(`select 'ap_auth_' || left(md5(current_schema()), 16) as channel`);
  return row!.channel;
}
