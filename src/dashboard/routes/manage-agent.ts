import type { FastifyInstance } from 'fastify';
import { membershipsOf } from '../../auth/index.ts';
import type { EnrollmentContext } from '../../registry/agents/index.ts';
import { formField } from '../form-fields.ts';
import { AGENTS_PATH, loginLocation } from '../navigation.ts';
import { sendHtml } from '../../http/html.ts';
import { currentSession } from '../sessions.ts';
import { messageView } from '../views.ts';
import { agentOf, renderAgent } from './agent-pages.ts';
import { hidden } from './hidden.ts';

/** One of the organization's agents (`?org=slug&agent_url=…`): its probing state, the change form and the removal, confirmed. */
export function manageAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  const { db } = enrollment;
  app.get(`${AGENTS_PATH}/manage`, hidden, async (request, reply) => {
    const session = await currentSession(db, request);
    if (!session) return reply.redirect(loginLocation(request.url), 303);
    const slug = formField(request.query, 'org');
    const current = (await membershipsOf(db, session.userId)).find((m) => m.slug === slug);
    const agent = current && (await agentOf(db, current, formField(request.query, 'agent_url')));
    // Another organization's agent is answered like a missing one, whatever its visibility: this page is for managing.
    if (!current || !agent)
      return sendHtml(
        reply,
        messageView('Not found', 'None of your organizations has enrolled this agent.', { session, back: AGENTS_PATH }),
        404,
      );
    return sendHtml(reply, await renderAgent(enrollment, { session, current, agent }));
  });
}
