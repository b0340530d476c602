import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { LOGIN_PATH } from '../navigation.ts';
import { endSession } from '../sessions.ts';
import { formSession } from './form-session.ts';
import { hidden } from './hidden.ts';

export function signOutRoute(app: FastifyInstance, db: Queryable): void {
  app.post('/dashboard/logout', hidden, async (request, reply) => {
    // With a CSRF check, so another site cannot sign a user out behind their back.
    if (!(await formSession(db, request, reply))) return reply;
    await endSession(db, request, reply);
    return reply.redirect(LOGIN_PATH, 303);
  });
}
