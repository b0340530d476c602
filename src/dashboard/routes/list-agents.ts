import type { FastifyInstance } from 'fastify';
import { membershipsOf } from '../../auth/index.ts';
import type { EnrollmentContext } from '../../registry/agents/index.ts';
import { formField } from '../form-fields.ts';
import { AGENTS_PATH, loginLocation } from '../navigation.ts';
import { sendHtml } from '../respond.ts';
import { currentSession } from '../sessions.ts';
import { messageView } from '../views.ts';
import { renderAgents } from './agent-pages.ts';
import { hidden } from './hidden.ts';

/** The agents one of the user's organizations enrolled (`?org=slug`, else their first), and the enroll form. */
export function listAgentsRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  const { db } = enrollment;
  app.get(AGENTS_PATH, hidden, async (request, reply) => {
    const session = await currentSession(db, request);
    if (!session) return reply.redirect(loginLocation(request.url), 303);
    const memberships = await membershipsOf(db, session.userId);
    if (!memberships.length) {
      return sendHtml(
        reply,
        messageView('Agents', 'You belong to no organization yet. Ask an organization admin to add you.', {
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
        messageView('Not found', `You are not a member of an organization "${slug}".`, { session, back: AGENTS_PATH }),
        404,
      );
    return sendHtml(reply, await renderAgents(enrollment, { session, memberships, current }));
  });
}
