import type { FastifyInstance } from 'fastify';
import { membershipsOf } from '../../auth/index.ts';
import { ApError } from '../../protocol/errors.ts';
import { enrollAgent, isAgentType, isVisibility, type EnrollmentContext } from '../../registry/agents/index.ts';
import { formField } from '../form-fields.ts';
import { AGENTS_PATH, agentsLocation } from '../navigation.ts';
import { actingFor } from '../permissions.ts';
import { sendHtml } from '../respond.ts';
import { agentFormValues, notMember, renderAgents, writeOptions } from './agent-pages.ts';
import { formSession } from './form-session.ts';

/**
 * Enrolls an agent for the organization the form names, under the API's rules (the service's): a
 * refusal shows the page again with what was typed, and, when the host is not proven yet, how to
 * prove it. Success goes back to the list, so reloading it does not post again.
 */
export function enrollAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  const { db } = enrollment;
  app.post(AGENTS_PATH, writeOptions(enrollment), async (request, reply) => {
    const session = await formSession(db, request, reply, AGENTS_PATH);
    if (!session) return reply;
    const memberships = await membershipsOf(db, session.userId);
    const values = agentFormValues(request.body);
    const current = memberships.find((m) => m.slug === formField(request.body, 'org'));
    if (!current) return notMember(reply, session, 'enroll agents');

    const refuse = async (err: ApError) => {
      const proof =
        err.code === 'ownership_required'
          ? { host: hostOf(values.agent_url), proofDays: enrollment.config.ownershipProofDays }
          : undefined;
      return sendHtml(
        reply,
        await renderAgents(enrollment, { session, memberships, current, values, error: err.message, proof }),
        err.status,
      );
    };
    const { type, visibility } = values;
    if (!isAgentType(type)) return refuse(new ApError('invalid_request', 'Choose the agent’s type: what it does.'));
    if (!isVisibility(visibility))
      return refuse(new ApError('invalid_request', 'Choose who may see the agent: public, members_only or private.'));
    try {
      await enrollAgent(enrollment, actingFor(session, current), {
        ...values,
        type,
        visibility,
        description: values.description || null,
      });
    } catch (err) {
      if (err instanceof ApError && err.status < 500) return refuse(err);
      throw err;
    }
    return reply.redirect(agentsLocation(current.slug), 303);
  });
}

// Only reached once the service has accepted the URL, so it parses.
const hostOf = (agentUrl: string) => new URL(agentUrl).hostname;
