import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { formField } from '../form-fields.ts';
import { KEYS_PATH, loginLocation, type SectionPath } from '../navigation.ts';
import { sendHtml } from '../../http/html.ts';
import { csrfMatches, currentSession, type Session } from '../sessions.ts';
import { messageView } from '../views.ts';

/**
 * The session a form post acts for, once it is known to come from our own page: the cookie alone
 * would also arrive with a post another site makes the browser send. Undefined when the refusal
 * (sign in first, or 403) has been sent instead. Signing in leads back to `page`, the form's own.
 */
export async function formSession(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  page: SectionPath = KEYS_PATH,
): Promise<Session | undefined> {
  const session = await currentSession(db, request);
  if (!session) {
    reply.redirect(loginLocation(page), 303);
    return undefined;
  }
  if (!csrfMatches(session, formField(request.body, 'csrf'))) {
    sendHtml(
      reply,
      messageView(
        'Refused',
        'This form is out of date or did not come from this dashboard. Reload the page and try again.',
        { session, back: page },
      ),
      403,
    );
    return undefined;
  }
  return session;
}
