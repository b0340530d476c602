import type { FastifyReply } from 'fastify';
import type { MembershipRow } from '../../auth/index.ts';
import type { Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { allAgentsShown, probeStates, type AgentRow, type EnrollmentContext } from '../../registry/agents/index.ts';
import { saveLimits } from '../../registry/limits.ts';
import {
  agentsView,
  agentView,
  type AgentFormValues,
  type AgentsViewInput,
  type AgentViewInput,
} from '../agent-views.ts';
import { formField } from '../form-fields.ts';
import { AGENTS_PATH } from '../navigation.ts';
import { sendHtml } from '../respond.ts';
import type { Session } from '../sessions.ts';
import { messageView } from '../views.ts';
import { hidden } from './hidden.ts';

/** What the agent pages' routes share: loading what a page shows, reading its forms, refusing. */

/** The organization's agents page, with each agent's probing state (one query for all of them). */
export async function renderAgents(
  enrollment: EnrollmentContext,
  input: Omit<AgentsViewInput, 'agents' | 'probes'>,
): Promise<string> {
  const agents = await allAgentsShown(enrollment.db, input.current.slug);
  const probes = await probeStates(
    enrollment.db,
    agents.map((a) => a.agent_url),
    enrollment.clock.now(),
  );
  return agentsView({ ...input, agents, probes });
}

export async function renderAgent(
  enrollment: EnrollmentContext,
  input: Omit<AgentViewInput, 'probe'>,
): Promise<string> {
  const probes = await probeStates(enrollment.db, [input.agent.agent_url], enrollment.clock.now());
  return agentView({ ...input, probe: probes.get(input.agent.agent_url) });
}

/** One of the organization's agents by its URL as the pages spell it (the catalog's form); undefined when it has none such. */
export async function agentOf(db: Queryable, current: MembershipRow, agentUrl: string): Promise<AgentRow | undefined> {
  return (await allAgentsShown(db, current.slug)).find((a) => a.agent_url === agentUrl);
}

export function agentFormValues(body: unknown): Required<AgentFormValues> {
  const [agent_url, type, name, description, visibility] = [
    'agent_url',
    'type',
    'name',
    'description',
    'visibility',
  ].map((f) => formField(body, f)) as [string, string, string, string, string];
  return { agent_url: agent_url.trim(), type, name, description, visibility };
}

/** A refusal of the service (not found, not theirs), as a page leading back to the agents. */
export function sendRefusal(reply: FastifyReply, session: Session, err: ApError): FastifyReply {
  const title = err.status === 404 ? 'Not found' : err.status === 403 ? 'Not allowed' : 'Request refused';
  return sendHtml(reply, messageView(title, err.message, { session, back: AGENTS_PATH }), err.status);
}

export function notMember(reply: FastifyReply, session: Session, action: string): FastifyReply {
  return sendHtml(
    reply,
    messageView('Not allowed', `You can ${action} only for an organization you are a member of.`, {
      session,
      back: AGENTS_PATH,
    }),
    403,
  );
}

/**
 * The forms that write: hidden like every page, and under the API's save budget per IP. Their
 * other rules (per principal, per organization) cannot hold here: the session is read in the
 * handler, after limits run, and a form's `org` is not to be trusted before it.
 */
export const writeOptions = (enrollment: EnrollmentContext) => ({
  ...hidden,
  config: { rateLimit: saveLimits(enrollment.config).filter((rule) => rule.by === 'ip') },
});
