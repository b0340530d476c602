import type { Principal } from '../../auth/index.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { appendEvent, feedEvent, type NewEvent } from '../feed/index.ts';
import { requireProofOfAny } from '../ownership/index.ts';
import type { AgentType } from './agent-types.ts';
import { enrollableUrl, provingDomains } from './agent-url.ts';
import { checkProfile } from './profile.ts';
import * as sql from './sql.ts';
import { canSee, viewerOf, type Visibility } from './visibility.ts';

export interface Enrollment {
  agent_url: string;
  type: AgentType;
  name: string;
  description?: string | null;
  visibility: Visibility;
}

export type EnrollmentChange = Partial<Omit<Enrollment, 'agent_url'>>;

/** Called in the enrolling transaction (probing schedules the agent's first probe). */
export type OnEnrolled = (tx: Queryable, agentUrl: string, at: Date) => Promise<void>;

/** What enrolling needs: the database, the clock and the proof window; `onEnrolled` as the catalog was given it. */
export type EnrollmentContext = Pick<AppContext, 'db' | 'clock' | 'config'> & {
  onEnrolled?: OnEnrolled;
  enrolled?: () => void;
};

const actorOf = (principal: Principal) => `api:${principal.kind}:${principal.subject}`;

/**
 * Enrolls an agent for the caller's organization, on a host it has proven control of (the
 * ownership proofs of saves, of the host or a domain above it). An agent is enrolled once: a
 * second enrollment of the same URL is a conflict, whoever asks. `ownDeployment`: the agents this
 * process serves (the demo enrolls them), which may be on `localhost`.
 */
export async function enrollAgent(
  ctx: EnrollmentContext,
  principal: Principal,
  input: Enrollment,
  options: { ownDeployment?: boolean } = {},
): Promise<sql.AgentRow> {
  const org = principal.organization;
  if (!org) throw new ApError('forbidden', 'Agents are enrolled by an organization; the credential belongs to none.');
  const { url, host } = enrollableUrl(input.agent_url, 'agent_url', 'body', {
    localhost: options.ownDeployment === true,
  });
  checkProfile(input);
  const agent = await ctx.db.transaction(async (tx) => {
    await requireProofOfAny(tx, ctx, principal, provingDomains(host), `enroll an agent on ${host}`);
    const now = ctx.clock.now();
    const row = {
      agent_url: url,
      host,
      organization_id: org.organizationId,
      type: input.type,
      name: input.name.trim(),
      description: input.description?.trim() || null,
      visibility: input.visibility,
    };
    if (!(await sql.insertAgent(tx, row, now)))
      throw new ApError('conflict', `${url} is already enrolled; its organization may change or remove it.`);
    if (row.visibility === 'public') await appendEvent(tx, profileEvent(row, ['name', 'type'], principal));
    await ctx.onEnrolled?.(tx, url, now);
    return (await sql.findAgent(tx, url))!;
  });
  ctx.enrolled?.();
  return agent;
}

/** Changes an enrolled agent's name, type, description or visibility; only its organization (or a registry admin) may. */
export async function changeAgent(
  ctx: EnrollmentContext,
  principal: Principal,
  agentUrl: string,
  change: EnrollmentChange,
): Promise<sql.AgentRow> {
  const { url } = enrollableUrl(agentUrl, 'agent_url', 'querystring', { localhost: true });
  checkProfile(change);
  return ctx.db.transaction(async (tx) => {
    const before = await ownedAgent(tx, principal, url);
    const after = {
      type: change.type ?? before.type,
      name: change.name?.trim() ?? before.name,
      description: change.description === undefined ? before.description : change.description?.trim() || null,
      visibility: change.visibility ?? before.visibility,
    };
    await sql.updateAgent(tx, url, after, ctx.clock.now());
    // The feed shows the public catalog: an agent leaving it is removed there, one joining it appears.
    const changed = (['name', 'type', 'description'] as const).filter((field) => after[field] !== before[field]);
    if (after.visibility === 'public' && (before.visibility !== 'public' || changed.length > 0)) {
      await appendEvent(
        tx,
        profileEvent(
          { agent_url: url, ...after },
          before.visibility === 'public' ? changed : ['name', 'type'],
          principal,
        ),
      );
    } else if (before.visibility === 'public' && after.visibility !== 'public') {
      await appendEvent(tx, removedEvent(url, principal));
    }
    return (await sql.findAgent(tx, url))!;
  });
}

/** Removes an enrolled agent (its probes with it); `agent.removed` when it was in the public catalog. */
export async function removeAgent(
  ctx: EnrollmentContext,
  principal: Principal,
  agentUrl: string,
): Promise<{ url: string }> {
  const { url } = enrollableUrl(agentUrl, 'agent_url', 'querystring', { localhost: true });
  return ctx.db.transaction(async (tx) => {
    const agent = await ownedAgent(tx, principal, url);
    await sql.deleteAgent(tx, url);
    if (agent.visibility === 'public') await appendEvent(tx, removedEvent(url, principal));
    return { url };
  });
}

/**
 * The agent, locked, when the caller's organization operates it. Another's agent the caller may
 * see (visibility.ts) is 403 naming its operator; one it may not see is 404, the same answer as
 * no agent at all, so neither its existence nor its operator is revealed.
 */
async function ownedAgent(tx: Queryable, principal: Principal, url: string): Promise<sql.AgentRow> {
  const org = principal.organization;
  const agent = await sql.findAgent(tx, url, { lock: true });
  if (!agent || !org || (agent.organization_id !== org.organizationId && !org.registryAdmin)) {
    if (agent && canSee(viewerOf(principal), agent))
      throw new ApError(
        'forbidden',
        `${url} is operated by ${agent.organization_slug}; only it may change or remove it.`,
      );
    throw new ApError('not_found', `No agent ${url} is enrolled by your organization.`);
  }
  return agent;
}

/** The feed's agent types (registry-event.json's agentProfilePayload knows fewer than enrollment). */
const feedType = (type: AgentType) =>
  ['sales', 'creative', 'signals', 'governance', 'measurement'].includes(type) ? type : 'unknown';

function profileEvent(
  agent: { agent_url: string; type: AgentType; name: string; description: string | null },
  changed: string[],
  principal: Principal,
): NewEvent {
  return feedEvent('agent.profile_updated', agent.agent_url, actorOf(principal), {
    agent_url: agent.agent_url,
    name: agent.name,
    type: feedType(agent.type),
    enrolled_type: agent.type,
    ...(agent.description ? { description: agent.description } : {}),
    changed_fields: changed,
  });
}

function removedEvent(url: string, principal: Principal): NewEvent {
  return feedEvent('agent.removed', url, actorOf(principal), { agent_url: url });
}
