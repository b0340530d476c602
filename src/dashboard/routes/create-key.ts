import type { FastifyInstance } from 'fastify';
import { membershipsOf, createKey, listKeys } from '../../auth/index.ts';
import type { Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { formField } from '../form-fields.ts';
import { KEYS_PATH } from '../navigation.ts';
import { rolesOffered } from '../permissions.ts';
import { sendHtml } from '../../http/html.ts';
import { createdKeyView, keysView, messageView } from '../views.ts';
import { formSession } from './form-session.ts';
import { hidden } from './hidden.ts';

/**
 * Creates a key and shows it, the one time it exists outside the requester. No redirect to a page
 * that shows it: such a page would have to keep the key somewhere to show it again.
 */
export function createKeyRoute(app: FastifyInstance, db: Queryable): void {
  app.post(KEYS_PATH, hidden, async (request, reply) => {
    const session = await formSession(db, request, reply);
    if (!session) return reply;
    const memberships = await membershipsOf(db, session.userId);
    const current = memberships.find((m) => m.slug === formField(request.body, 'org'));
    if (!current)
      return sendHtml(
        reply,
        messageView('Not allowed', 'You can create keys only for an organization you are a member of.', { session }),
        403,
      );

    const name = formField(request.body, 'name');
    const role = formField(request.body, 'role') || 'member';
    const refuse = async (error: string) =>
      sendHtml(
        reply,
        keysView({ session, memberships, current, keys: await listKeys(db, current.organization_id), error, name }),
        400,
      );
    if (role !== 'member' && role !== 'admin') return refuse('A key’s role is member or admin.');
    if (!rolesOffered(current).includes(role)) {
      return sendHtml(
        reply,
        messageView('Not allowed', 'Only organization admins can create admin keys.', { session }),
        403,
      );
    }
    try {
      const created = await createKey(db, { organizationSlug: current.slug, name, role, createdBy: session.userId });
      return sendHtml(reply, createdKeyView({ session, ...created }), 201);
    } catch (err) {
      if (err instanceof ApError && err.code === 'invalid_request') return refuse(err.message);
      throw err;
    }
  });
}
