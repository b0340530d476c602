import type { FastifyInstance } from 'fastify';
import { membershipsOf } from '../../auth/index.ts';
import { ApError } from '../../protocol/errors.ts';
import { removeAgent, type EnrollmentContext } from '../../registry/agents/index.ts';
import { formField } from '../form-fields.ts';
import { AGENTS_PATH, agentsLocation } from '../navigation.ts';
import { actingFor } from '../permissions.ts';
import { sendHtml } from '../respond.ts';
import { agentOf, notMember, renderAgent, sendRefusal, writeOptions } from './agent-pages.ts';
import { formSession } from './form-session.ts';

/**
 * Removes an agent once the person has ticked the confirmation (pages have no script to ask
 * with), through the service, whose owner check is the API's.
 */
export function removeAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  const { db } = enrollment;
  app.post(`${AGENTS_PATH}/remove`, writeOptions(enrollment), async (request, reply) => {
    const session = await formSession(db, request, reply, AGENTS_PATH);
    if (!session) return reply;
    const current = (await membershipsOf(db, session.userId)).find((m) => m.slug === formField(request.body, 'org'));
    if (!current) return notMember(reply, session, 'remove agents');
    const agentUrl = formField(request.body, 'agent_url');
    if (formField(request.body, 'confirm') !== 'yes') {
      const agent = await agentOf(db, current, agentUrl);
      const error = 'Tick the box to confirm the removal; nothing was removed.';
      if (!agent) return sendRefusal(reply, session, new ApError('invalid_request', error));
      return sendHtml(reply, await renderAgent(enrollment, { session, current, agent, error }), 400);
    }
    try {
      await removeAgent(enrollment, actingFor(session, current), agentUrl);
    } catch (err) {
      if (err instanceof ApError && err.status < 500) return sendRefusal(reply, session, err);
      throw err;
    }
    return reply.redirect(agentsLocation(current.slug), 303);
  });
}
