import type { Queryable } from '../../db/database.ts';
import type { AgentType } from './agent-types.ts';
import type { ComplianceCheck, ComplianceStatus } from './probing/index.ts';
import type { Viewer, Visibility } from './visibility.ts';

export interface AgentRow {
  agent_url: string;
  host: string;
  organization_id: string;
  /** The operating organization as the list shows it. */
  organization_slug: string;
  organization_name: string;
  type: AgentType;
  name: string;
  description: string | null;
  visibility: Visibility;
  enrolled_at: Date;
  updated_at: Date;
}

export interface NewAgent {
  agent_url: string;
  host: string;
  organization_id: string;
  type: AgentType;
  name: string;
  description: string | null;
  visibility: Visibility;
}

const columns = `a.agent_url, a.host, a.organization_id, o.slug as organization_slug, o.name as organization_name, a.type, a.name, a.description, a.visibility, a.enrolled_at, a.updated_at`;

/** Enrolls an agent; false when the URL is already enrolled (by anyone). */
export async function insertAgent(tx: Queryable, agent: NewAgent, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `insert into registry_agents (agent_url, host, organization_id, type, name, description, visibility, enrolled_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8) on conflict (agent_url) do nothing returning 1`,
    [
      agent.agent_url,
      agent.host,
      agent.organization_id,
      agent.type,
      agent.name,
      agent.description,
      agent.visibility,
      now,
    ],
  );
  return rows.length === 1;
}

export async function findAgent(
  db: Queryable,
  agentUrl: string,
  options: { lock?: boolean } = {},
): Promise<AgentRow | undefined> {
  const [row] = await db.query<AgentRow>(
    `select ${columns} from registry_agents a join organizations o on o.id = a.organization_id where a.agent_url = $1${options.lock ? ' for update of a' : ''}`,
    [agentUrl],
  );
  return row;
}

export async function updateAgent(
  tx: Queryable,
  agentUrl: string,
  fields: Pick<NewAgent, 'type' | 'name' | 'description' | 'visibility'>,
  now: Date,
): Promise<void> {
  await tx.query(
    'update registry_agents set type = $2, name = $3, description = $4, visibility = $5, updated_at = $6 where agent_url = $1',
    [agentUrl, fields.type, fields.name, fields.description, fields.visibility, now],
  );
}

export async function deleteAgent(tx: Queryable, agentUrl: string): Promise<void> {
  await tx.query('delete from registry_agents where agent_url = $1', [agentUrl]);
}

export interface ListFilter {
  viewer: Viewer;
  /** A catalog type; another value (the client's `unknown`, `si`) matches no agent. */
  type?: string;
  /** Only agents holding the verified badge. */
  verified?: boolean;
  /** Keyset: agents after this URL. */
  after?: string;
  limit: number;
  /** Only these agents (a filter computed elsewhere, e.g. by their metrics). */
  among?: readonly string[];
}

/** The agents the viewer may see, in URL order. */
export async function listAgents(db: Queryable, filter: ListFilter): Promise<AgentRow[]> {
  const { viewer } = filter;
  return db.query<AgentRow>(
    `select ${columns} from registry_agents a join organizations o on o.id = a.organization_id
     where ($1 or a.visibility = 'public' or (a.visibility = 'members_only' and $2) or a.organization_id = $3::uuid)
       and ($4::text is null or a.type = $4)
       and ($5::text is null or a.agent_url > $5)
       and ($7::text[] is null or a.agent_url = any($7::text[]))
       and (not $8 or exists (select 1 from registry_agent_probes p where p.agent_url = a.agent_url and p.verified))
     order by a.agent_url limit $6`,
    [
      viewer.everything,
      viewer.membersOnly,
      viewer.organizationId,
      filter.type ?? null,
      filter.after ?? null,
      filter.limit,
      filter.among ?? null,
      filter.verified === true,
    ],
  );
}

/** Every enrolled agent, or an organization's (by slug), whatever its visibility: the operator's view. */
export async function allAgentsShown(db: Queryable, organizationSlug?: string): Promise<AgentRow[]> {
  return db.query<AgentRow>(
    `select ${columns} from registry_agents a join organizations o on o.id = a.organization_id where $1::text is null or o.slug = $1 order by a.agent_url`,
    [organizationSlug ?? null],
  );
}

/** An enrolled agent as its inventory profile reads it: enrollment, and the capabilities probing fetched. */
export interface ExtrasRow {
  agent_url: string;
  type: AgentType;
  name: string;
  visibility: Visibility;
  organization_id: string;
  organization_slug: string;
  organization_name: string;
  updated_at: Date;
  capabilities: unknown;
  capabilities_fetched_at: Date | null;
  /** A sales agent's products summed up by probing (probing/inventory.ts). */
  inventory: { channels?: unknown; delivery_types?: unknown; format_ids?: unknown } | null;
  /** Its compliance as the last probe left it (null columns before any probe row). */
  compliance: ComplianceCheck[] | null;
  compliance_status: ComplianceStatus | null;
  probed_at: Date | null;
  compliance_status_since: Date | null;
  verified: boolean | null;
  verified_role: string | null;
}

/** Every enrolled agent's (or one's) profile inputs. */
export async function profileInputs(db: Queryable, agentUrl?: string): Promise<ExtrasRow[]> {
  return db.query<ExtrasRow>(
    `select a.agent_url, a.type, a.name, a.visibility, a.organization_id, o.slug as organization_slug, o.name as organization_name, a.updated_at, p.capabilities, p.capabilities_fetched_at, p.inventory,
       p.compliance, p.compliance_status, p.probed_at, p.compliance_status_since, p.verified, p.verified_role
     from registry_agents a join organizations o on o.id = a.organization_id left join registry_agent_probes p on p.agent_url = a.agent_url
     where $1::text is null or a.agent_url = $1`,
    [agentUrl ?? null],
  );
}

/** Agents enrolled on `domain` or a host under it, or at one of `urls`, whatever their visibility (the caller filters), in URL order. */
export async function agentsOfOperator(db: Queryable, domain: string, urls: readonly string[]): Promise<AgentRow[]> {
  return db.query<AgentRow>(
    `select ${columns} from registry_agents a join organizations o on o.id = a.organization_id
     where a.host = $1 or right(a.host, length($1) + 1) = '.' || $1 or a.agent_url = any($2::text[])
     order by a.agent_url`,
    [domain, urls],
  );
}

/** Taken without waiting by the instance publishing profile changes; false when another holds it. */
export async function lockProfilePublishing(tx: Queryable): Promise<boolean> {
  const [row] = await tx.query<{ locked: boolean }>(
    `select pg_try_advisory_xact_lock(hashtext('agent_profiles')) as locked`,
  );
  return row!.locked;
}

export interface PublishedProfile {
  agent_url: string;
  profile: Record<string, unknown>;
  digest: string;
  enrolled: boolean;
  published_at: Date;
}

export async function publishedProfiles(db: Queryable, agentUrls: readonly string[]): Promise<PublishedProfile[]> {
  return db.query<PublishedProfile>(
    'select agent_url, profile, digest, enrolled, published_at from agent_profiles where agent_url = any($1::text[])',
    [agentUrls],
  );
}

export async function savePublishedProfile(
  tx: Queryable,
  p: { agent_url: string; profile: object; digest: string; enrolled: boolean; published_at: Date },
): Promise<void> {
  await tx.query(
    `insert into agent_profiles (agent_url, profile, digest, enrolled, published_at) values ($1, $2, $3, $4, $5)
     on conflict (agent_url) do update set profile = excluded.profile, digest = excluded.digest, enrolled = excluded.enrolled, published_at = excluded.published_at`,
    [p.agent_url, JSON.stringify(p.profile), p.digest, p.enrolled, p.published_at],
  );
}

export async function publishedAgents(db: Queryable): Promise<string[]> {
  return (await db.query<{ agent_url: string }>('select agent_url from agent_profiles')).map((row) => row.agent_url);
}

export async function removePublishedProfile(tx: Queryable, agentUrl: string): Promise<void> {
  await tx.query('delete from agent_profiles where agent_url = $1', [agentUrl]);
}
