import type { FastifyInstance } from 'fastify';
import { signIn } from '../../auth/index.ts';
import type { Queryable } from '../../db/database.ts';
import type { RateLimitRule } from '../../http/rate-limit/rules.ts';
import { formField } from '../form-fields.ts';
import { LOGIN_PATH, localNext } from '../navigation.ts';
import { sendHtml } from '../../http/html.ts';
import { currentSession, startSession } from '../sessions.ts';
import { loginView } from '../views.ts';
import { hidden } from './hidden.ts';

/** Email-and-password sign-in for local users. Exempt from CSRF: there is no session to misuse yet. */
export function signInRoutes(app: FastifyInstance, db: Queryable, limit: RateLimitRule): void {
  app.get(LOGIN_PATH, hidden, async (request, reply) => {
    const next = localNext(formField(request.query, 'next'));
    if (await currentSession(db, request)) return reply.redirect(next, 303);
    return sendHtml(reply, loginView({ next }));
  });

  app.post(LOGIN_PATH, { ...hidden, config: { rateLimit: [limit] } }, async (request, reply) => {
    const email = formField(request.body, 'email');
    const next = localNext(formField(request.body, 'next'));
    const user = await signIn(db, email, formField(request.body, 'password'));
    if (!user) return sendHtml(reply, loginView({ next, email, error: 'Wrong email or password.' }), 401);
    await startSession(db, request, reply, user.id);
    return reply.redirect(next, 303);
  });
}
