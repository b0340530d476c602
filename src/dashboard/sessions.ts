import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import * as sql from './sql.ts';

export const SESSION_COOKIE = 'ap_session';
const SESSION_SECONDS = 12 * 3600;

export interface Session {
  userId: string;
  displayName: string;
  csrfToken: string;
}

// Only the hash is stored, so a leaked sessions table does not hand out signed-in cookies.
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Signs the user in: a fresh session row and its cookie. The request's old session, if any, ends. */
export async function startSession(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  // Sign-in is rare and already slow (scrypt), so it is where dead sessions are swept.
  await sql.deleteExpiredSessions(db);
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await sql.deleteSession(db, hashOf(previous));
  const token = randomBytes(32).toString('base64url');
  await sql.insertSession(db, {
    tokenHash: hashOf(token),
    userId,
    csrfToken: randomBytes(32).toString('base64url'),
    ttlSeconds: SESSION_SECONDS,
  });
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/dashboard',
    // Behind a TLS-terminating proxy this holds only with TRUST_PROXY, which is what it is for.
    secure: request.protocol === 'https',
    maxAge: SESSION_SECONDS,
  });
}

export async function currentSession(db: Queryable, request: FastifyRequest): Promise<Session | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return undefined;
  const row = await sql.sessionByTokenHash(db, hashOf(token));
  return row && { userId: row.user_id, displayName: row.display_name, csrfToken: row.csrf_token };
}

export async function endSession(db: Queryable, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await sql.deleteSession(db, hashOf(token));
  reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
}

/** Whether a form carried this session's CSRF token; compared in constant time. */
export function csrfMatches(session: Session, submitted: string): boolean {
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(submitted);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
