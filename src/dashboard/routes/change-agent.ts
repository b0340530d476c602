import type { FastifyInstance } from 'fastify';
import { membershipsOf } from '../../auth/index.ts';
import { ApError } from '../../protocol/errors.ts';
import { changeAgent, isAgentType, isVisibility, type EnrollmentContext } from '../../registry/agents/index.ts';
import { formField } from '../form-fields.ts';
import { AGENTS_PATH, agentsLocation } from '../navigation.ts';
import { actingFor } from '../permissions.ts';
import { sendHtml } from '../respond.ts';
import { agentFormValues, agentOf, notMember, renderAgent, sendRefusal, writeOptions } from './agent-pages.ts';
import { formSession } from './form-session.ts';

/**
 * Changes an agent's type, name, description (empty clears it) or visibility through the service,
 * whose owner check is the API's: another organization's agent is 403, or 404 when it is private.
 */
export function changeAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  const { db } = enrollment;
  app.post(`${AGENTS_PATH}/change`, writeOptions(enrollment), async (request, reply) => {
    const session = await formSession(db, request, reply, AGENTS_PATH);
    if (!session) return reply;
    const current = (await membershipsOf(db, session.userId)).find((m) => m.slug === formField(request.body, 'org'));
    if (!current) return notMember(reply, session, 'change agents');
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
    const { type, visibility } = values;
    if (!isAgentType(type)) return refuse(new ApError('invalid_request', 'Choose the agent’s type: what it does.'));
    if (!isVisibility(visibility))
      return refuse(new ApError('invalid_request', 'Choose who may see the agent: public, members_only or private.'));
    try {
      await changeAgent(enrollment, actingFor(session, current), values.agent_url, {
        type,
        visibility,
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
