import type { FastifyInstance } from 'fastify';
import { ApError } from '../../protocol/errors.ts';
import { changeAgent, type EnrollmentContext } from '../../registry/agents/index.ts';
import { AGENTS_PATH, agentsLocation } from '../navigation.ts';
import { actingFor } from '../permissions.ts';
import { agentChoices, agentFormRoute, agentFormValues, refuseOnAgentPage, sendRefusal } from './agent-pages.ts';

/**
 * Changes an agent's type, name, description (empty clears it) or visibility through the service,
 * whose owner check is the API's: another organization's agent is 403, or 404 when it is private.
 */
export function changeAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  agentFormRoute(app, enrollment, `${AGENTS_PATH}/change`, 'change agents', async (request, reply, poster) => {
    const { session, current } = poster;
    const values = agentFormValues(request.body);

    // A form the service found wrong is shown again on the agent's page; other refusals on their own.
    const refuse = async (err: ApError) =>
      err.code === 'invalid_request'
        ? refuseOnAgentPage(enrollment, reply, poster, values.agent_url, err, values)
        : sendRefusal(reply, session, err);
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
