import type { FastifyInstance } from 'fastify';
import { membershipsOf, listKeys } from '../../auth/index.ts';
import type { Queryable } from '../../db/database.ts';
import { formField } from '../form-fields.ts';
import { KEYS_PATH, loginLocation } from '../navigation.ts';
import { sendHtml } from '../respond.ts';
import { currentSession } from '../sessions.ts';
import { keysView, messageView } from '../views.ts';
import { hidden } from './hidden.ts';

/** The keys of one of the user's organizations (`?org=slug`, else their first), and the create form. */
export function listKeysRoute(app: FastifyInstance, db: Queryable): void {
  app.get(KEYS_PATH, hidden, async (request, reply) => {
    const session = await currentSession(db, request);
    if (!session) return reply.redirect(loginLocation(request.url), 303);
    const memberships = await membershipsOf(db, session.userId);
    if (!memberships.length) {
      return sendHtml(
        reply,
        messageView('API keys', 'You belong to no organization yet. Ask an organization admin to add you.', {
          session,
          back: false,
        }),
      );
    }
    const slug = formField(request.query, 'org');
    const current = slug ? memberships.find((m) => m.slug === slug) : memberships[0];
    // The same answer whether the organization exists or not, so the page reveals no other organization.
    if (!current)
      return sendHtml(
        reply,
        messageView('Not found', `You are not a member of an organization "${slug}".`, { session }),
        404,
      );
    const keys = await listKeys(db, current.organization_id);
    return sendHtml(reply, keysView({ session, memberships, current, keys }));
  });
}
