import type { FastifyInstance } from 'fastify';
import { ApError } from '../../protocol/errors.ts';
import { changeAgent, type EnrollmentContext } from '../../registry/agents/index.ts';
import { AGENTS_PATH, agentsLocation } from '../navigation.ts';
import { actingFor } from '../permissions.ts';
import { sendHtml } from '../../http/html.ts';
import {
  agentChoices,
  agentFormPoster,
  agentFormValues,
  agentOf,
  renderAgent,
  sendRefusal,
  writeOptions,
} from './agent-pages.ts';

/**
 * Changes an agent's type, name, description (empty clears it) or visibility through the service,
 * whose owner check is the API's: another organization's agent is 403, or 404 when it is private.
 */
export function changeAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  const { db } = enrollment;
  app.post(`${AGENTS_PATH}/change`, writeOptions(enrollment), async (request, reply) => {
    const poster = await agentFormPoster(db, request, reply, 'change agents');
    if (!poster) return reply;
    const { session, current } = poster;
    const values = agentFormValues(request.body);

    const refuse = async (err: ApError) => {
      // A refused form is shown again on the agent's page, if it is one of the organization's.
      const agent = err.code === 'invalid_request' ? await agentOf(db, current, values.agent_url) : undefined;
      if (!agent) return sendRefusal(reply, session, err);
      return sendHtml(
        reply,
        await renderAgent(enrollment, { session, current, agent, values, error: err.message }),
        err.status,
      );
    };
    try {
      await changeAgent(enrollment, actingFor(session, current), values.agent_url, {
        ...agentChoices(values),
        name: values.name,
        description: values.description || null,
      });
    } catch (err) {
      if (err instanceof ApError && err.status < 500) return refuse(err);
      throw err;
    }
    return reply.redirect(agentsLocation(current.slug), 303);
  });
}
