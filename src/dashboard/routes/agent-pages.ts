import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { membershipsOf, type MembershipRow } from '../../auth/index.ts';
import type { Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import {
  allAgentsShown,
  isAgentType,
  isVisibility,
  probeStates,
  type AgentRow,
  type AgentType,
  type EnrollmentContext,
  type Visibility,
} from '../../registry/agents/index.ts';
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
import { sendHtml } from '../../http/html.ts';
import type { Session } from '../sessions.ts';
import { messageView } from '../views.ts';
import { formSession } from './form-session.ts';
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

/**
 * A refused agent form, shown again on the agent's page with the refusal and what was typed, if
 * the agent is one of the poster's organization's; else the refusal's own page.
 */
export async function refuseOnAgentPage(
  enrollment: EnrollmentContext,
  reply: FastifyReply,
  { session, current }: AgentFormPoster,
  agentUrl: string,
  err: ApError,
  values?: AgentFormValues,
): Promise<FastifyReply> {
  const agent = await agentOf(enrollment.db, current, agentUrl);
  if (!agent) return sendRefusal(reply, session, err);
  return sendHtml(
    reply,
    await renderAgent(enrollment, { session, current, agent, values, error: err.message }),
    err.status,
  );
}

/** A refusal of the service (not found, not theirs), as a page leading back to the agents. */
export function sendRefusal(reply: FastifyReply, session: Session, err: ApError): FastifyReply {
  const title = err.status === 404 ? 'Not found' : err.status === 403 ? 'Not allowed' : 'Request refused';
  return sendHtml(reply, messageView(title, err.message, { session, back: AGENTS_PATH }), err.status);
}

/** Who posts an agent form, and for which of their organizations. */
export interface AgentFormPoster {
  session: Session;
  memberships: MembershipRow[];
  current: MembershipRow;
}

/**
 * Serves an agent form that writes, at `path` under `writeOptions`: `handle` answers it once
 * `agentFormPoster` knows who posts it and for which organization (`action` says what they would
 * do, as its refusal names it: "change agents").
 */
export function agentFormRoute(
  app: FastifyInstance,
  enrollment: EnrollmentContext,
  path: string,
  action: string,
  handle: (request: FastifyRequest, reply: FastifyReply, poster: AgentFormPoster) => Promise<FastifyReply>,
): void {
  app.post(path, writeOptions(enrollment), async (request, reply) => {
    const poster = await agentFormPoster(enrollment.db, request, reply, action);
    if (!poster) return reply;
    return handle(request, reply, poster);
  });
}

/**
 * Who posts an agent form, and for which of their organizations (the form's `org`). Undefined when
 * a refusal has been sent instead: sign in first, a form not from our page, or not a member (of
 * the organization they would `action` for).
 */
async function agentFormPoster(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  action: string,
): Promise<AgentFormPoster | undefined> {
  const session = await formSession(db, request, reply, AGENTS_PATH);
  if (!session) return undefined;
  const memberships = await membershipsOf(db, session.userId);
  const current = memberships.find((m) => m.slug === formField(request.body, 'org'));
  if (current) return { session, memberships, current };
  const message = `You can ${action} only for an organization you are a member of.`;
  sendHtml(reply, messageView('Not allowed', message, { session, back: AGENTS_PATH }), 403);
  return undefined;
}

/** The type and visibility the form chose; `invalid_request` when it chose none of the choices. */
export function agentChoices({ type, visibility }: { type: string; visibility: string }): {
  type: AgentType;
  visibility: Visibility;
} {
  if (!isAgentType(type)) throw new ApError('invalid_request', 'Choose the agent’s type: what it does.');
  if (!isVisibility(visibility))
    throw new ApError('invalid_request', 'Choose who may see the agent: public, members_only or private.');
  return { type, visibility };
}

/**
 * The forms that write: hidden like every page, and under the API's save budget per IP. Their
 * other rules (per principal, per organization) cannot hold here: the session is read in the
 * handler, after limits run, and a form's `org` is not to be trusted before it.
 */
const writeOptions = (enrollment: EnrollmentContext) => ({
  ...hidden,
  config: { rateLimit: saveLimits(enrollment.config).filter((rule) => rule.by === 'ip') },
});
