import type { FastifyInstance } from 'fastify';
import { ApError } from '../../protocol/errors.ts';
import { enrollAgent, type EnrollmentContext } from '../../registry/agents/index.ts';
import { AGENTS_PATH, agentsLocation } from '../navigation.ts';
import { actingFor } from '../permissions.ts';
import { sendHtml } from '../../http/html.ts';
import { agentChoices, agentFormRoute, agentFormValues, renderAgents } from './agent-pages.ts';

/**
 * Enrolls an agent for the organization the form names, under the API's rules (the service's): a
 * refusal shows the page again with what was typed, and, when the host is not proven yet, how to
 * prove it. Success goes back to the list, so reloading it does not post again.
 */
export function enrollAgentRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  agentFormRoute(
    app,
    enrollment,
    AGENTS_PATH,
    'enroll agents',
    async (request, reply, { session, memberships, current }) => {
      const values = agentFormValues(request.body);

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
      try {
        await enrollAgent(enrollment, actingFor(session, current), {
          ...values,
          ...agentChoices(values),
          description: values.description || null,
        });
      } catch (err) {
        if (err instanceof ApError && err.status < 500) return refuse(err);
        throw err;
      }
      return reply.redirect(agentsLocation(current.slug), 303);
    },
  );
}

// Only reached once the service has accepted the URL, so it parses.
const hostOf = (agentUrl: string) => new URL(agentUrl).hostname;
