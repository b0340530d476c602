import type { FastifyInstance } from 'fastify';
import { ApError } from '../../protocol/errors.ts';
import { removeAgent, type EnrollmentContext } from '../../registry/agents/index.ts';
import { formField } from '../form-fields.ts';
import { AGENTS_PATH, agentsLocation } from '../navigation.ts';
import { actingFor } from '../permissions.ts';
import { agentFormRoute, refuseOnAgentPage, sendRefusal } from './agent-pages.ts';

/**
 * Removes an agent once the person has ticked the confirmation (pages have no script to ask
 * with), through the service, whose owner check is the API's.
 */
export function removeAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  agentFormRoute(app, enrollment, `${AGENTS_PATH}/remove`, 'remove agents', async (request, reply, poster) => {
    const { session, current } = poster;
    const agentUrl = formField(request.body, 'agent_url');
    if (formField(request.body, 'confirm') !== 'yes') {
      const unconfirmed = new ApError('invalid_request', 'Tick the box to confirm the removal; nothing was removed.');
      return refuseOnAgentPage(enrollment, reply, poster, agentUrl, unconfirmed);
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
