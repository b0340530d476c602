import type { FastifyReply, FastifyRequest } from 'fastify';
import { membershipsOf, type MembershipRow } from '../../auth/index.ts';
import type { Queryable } from '../../db/database.ts';
import { formField } from '../form-fields.ts';
import { loginLocation, type SectionPath } from '../navigation.ts';
import { sendHtml } from '../../http/html.ts';
import { currentSession, type Session } from '../sessions.ts';
import { messageView } from '../views.ts';

/** Who is looking at a page of one of their organizations, and which one. */
export interface OrganizationPage {
  session: Session;
  memberships: MembershipRow[];
  current: MembershipRow;
}

/**
 * A dashboard section shown for one of the user's organizations (`?org=slug`, else their first):
 * renders it with `render`, or answers instead: sign in first, no organization yet, or not a
 * member of the one asked for (the same answer whether it exists or not, so the page reveals no
 * other organization).
 */
export async function organizationPage(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  section: { title: string; path: SectionPath },
  render: (page: OrganizationPage) => Promise<string> | string,
): Promise<FastifyReply> {
  const session = await currentSession(db, request);
  if (!session) return reply.redirect(loginLocation(request.url), 303);
  const memberships = await membershipsOf(db, session.userId);
  if (!memberships.length) {
    const none = 'You belong to no organization yet. Ask an organization admin to add you.';
    return sendHtml(reply, messageView(section.title, none, { session, back: false }));
  }
  const slug = formField(request.query, 'org');
  const current = slug ? memberships.find((m) => m.slug === slug) : memberships[0];
  if (!current) {
    const notMember = `You are not a member of an organization "${slug}".`;
    return sendHtml(reply, messageView('Not found', notMember, { session, back: section.path }), 404);
  }
  return sendHtml(reply, await render({ session, memberships, current }));
}
