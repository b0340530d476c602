import type { FastifyInstance } from 'fastify';
import { membershipsOf, keyById, revokeKey } from '../../auth/index.ts';
import type { Queryable } from '../../db/database.ts';
import { KEYS_PATH, keysLocation } from '../navigation.ts';
import { mayRevoke } from '../permissions.ts';
import { sendHtml } from '../../http/html.ts';
import { messageView } from '../views.ts';
import { formSession } from './form-session.ts';
import { hidden } from './hidden.ts';

// Checked before the query: PostgreSQL rejects a malformed uuid with an error, not an empty result.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function revokeKeyRoute(app: FastifyInstance, db: Queryable): void {
  app.post<{ Params: { id: string } }>(`${KEYS_PATH}/:id/revoke`, hidden, async (request, reply) => {
    const session = await formSession(db, request, reply);
    if (!session) return reply;
    const key = UUID.test(request.params.id) ? await keyById(db, request.params.id) : undefined;
    const membership =
      key && (await membershipsOf(db, session.userId)).find((m) => m.organization_id === key.organization_id);
    // Another organization's key is answered like a missing one: its existence is not theirs to learn.
    if (!key || !membership)
      return sendHtml(reply, messageView('Not found', 'None of your organizations has this key.', { session }), 404);
    if (!mayRevoke(membership, key, session.userId)) {
      return sendHtml(
        reply,
        messageView(
          'Not allowed',
          'Members can revoke only the keys they created. Ask an organization admin to revoke this one.',
          { session },
        ),
        403,
      );
    }
    // Already revoked is fine: the key is dead either way.
    await revokeKey(db, key.id);
    return reply.redirect(keysLocation(membership.slug), 303);
  });
}
