import type { FastifyInstance } from 'fastify';
import { ApError } from '../../protocol/errors.ts';
import { removeAgent, type EnrollmentContext } from '../../registry/agents/index.ts';
import { formField } from '../form-fields.ts';
import { AGENTS_PATH, agentsLocation } from '../navigation.ts';
import { actingFor } from '../permissions.ts';
import { sendHtml } from '../../http/html.ts';
import { agentFormPoster, agentOf, renderAgent, sendRefusal, writeOptions } from './agent-pages.ts';

/**
 * Removes an agent once the person has ticked the confirmation (pages have no script to ask
 * with), through the service, whose owner check is the API's.
 */
export function removeAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  const { db } = enrollment;
  app.post(`${AGENTS_PATH}/remove`, writeOptions(enrollment), async (request, reply) => {
    const poster = await agentFormPoster(db, request, reply, 'remove agents');
    if (!poster) return reply;
    const { session, current } = poster;
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
