import type { Queryable } from '../db/database.ts';

/** The SQL of the dashboard: its sign-in sessions. */

export interface SessionRow {
  user_id: string;
  csrf_token: string;
  display_name: string;
  email: string | null;
}

// Hashes travel as hex and are decoded in SQL, so both engines bind the same text parameter.

export async function insertSession(
  db: Queryable,
  session: { tokenHash: string; userId: string; csrfToken: string; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `insert into dashboard_sessions (token_hash, user_id, csrf_token, expires_at)
     values (decode($1, 'hex'), $2, $3, now() + make_interval(secs => $4))`,
    [session.tokenHash, session.userId, session.csrfToken, session.ttlSeconds],
  );
}

/** The live session with this token hash and its user; undefined when unknown or expired. */
export async function sessionByTokenHash(db: Queryable, tokenHash: string): Promise<SessionRow | undefined> {
  const [row] = await db.query<SessionRow>(
    `select s.user_id, s.csrf_token, u.display_name, u.email
       from dashboard_sessions s join users u on u.id = s.user_id
      where s.token_hash = decode($1, 'hex') and s.expires_at > now()`,
    [tokenHash],
  );
  return row;
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query(`delete from dashboard_sessions where token_hash = decode($1, 'hex')`, [tokenHash]);
}

export async function deleteExpiredSessions(db: Queryable): Promise<void> {
  await db.query(`delete from dashboard_sessions where expires_at <= now()`);
}
