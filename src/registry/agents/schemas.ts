import { Type } from 'typebox';
import { Cursor } from '../../protocol/wire/common.ts';
import { agentTypes } from './agent-types.ts';
import { DESCRIPTION_MAX, NAME_MAX } from './profile.ts';
import { visibilities } from './visibility.ts';

/** Wire schemas of the agent catalog (spec sections 1, 2 and 4; the list entry's other fields are ours). */

const AgentUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'The agent’s URL (its MCP or A2A endpoint); kept in canonical form.', examples: ['https://sales.meridian-media.example/mcp'] });
const AgentType = Type.Enum([...agentTypes], { description: 'What the agent does.' });
const Visibility = Type.Enum([...visibilities], { description: 'public: everyone; members_only: also API-tier members; private: only its own organization.' });
const Name = Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: '\\S', examples: ['Meridian Media sales agent'] });
const Description = Type.String({ maxLength: DESCRIPTION_MAX, examples: ['Premium news and lifestyle inventory, display and video.'] });

export const EnrollBody = Type.Object(
  { agent_url: AgentUrl, type: AgentType, name: Name, description: Type.Optional(Description), visibility: Type.Optional(Visibility) },
  { additionalProperties: false, examples: [{ agent_url: 'https://sales.meridian-media.example/mcp', type: 'sales', name: 'Meridian Media sales agent', visibility: 'public' }] },
);

export const ChangeBody = Type.Object(
  { type: Type.Optional(AgentType), name: Type.Optional(Name), description: Type.Optional(Type.Union([Description, Type.Null()])), visibility: Type.Optional(Visibility) },
  { additionalProperties: false, minProperties: 1, examples: [{ visibility: 'members_only' }] },
);

export const AgentUrlQuery = Type.Object({ agent_url: AgentUrl }, { additionalProperties: false });

/** What every enrichment adds, as probing and the authorization index know it. */
const Enrichment = Type.Record(Type.String(), Type.Unknown());

export const AgentEntry = Type.Object(
  {
    agent_url: Type.String(),
    name: Type.String(),
    type: AgentType,
    description: Type.Optional(Type.String()),
    visibility: Visibility,
    operator: Type.Object({ slug: Type.String(), name: Type.String() }, { description: 'The member organization that enrolled it.' }),
    enrolled_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    health: Type.Optional(Enrichment),
    capabilities: Type.Optional(Enrichment),
    creative_capabilities: Type.Optional(Type.Union([Enrichment, Type.Null()])),
    signals_capabilities: Type.Optional(Type.Union([Enrichment, Type.Null()])),
    metrics: Type.Optional(Type.Array(Enrichment)),
    properties: Type.Optional(Enrichment),
    compliance: Type.Optional(Type.Union([Enrichment, Type.Null()])),
    verification: Type.Optional(Type.Union([Enrichment, Type.Null()])),
  },
  { $id: 'CatalogAgent', description: 'An enrolled agent, with the enrichments asked for.' },
);

const Flag = Type.Boolean({ description: 'Adds this enrichment to each agent.' });
const Repeatable = (description: string) => Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 })], { description });

export const ListQuery = Type.Object(
  {
    type: Type.Optional(AgentType),
    capabilities: Type.Optional(Type.Boolean({ description: 'Adds creative_capabilities, signals_capabilities and (measurement agents) metrics[] from the agent’s get_ap_capabilities.' })),
    health: Type.Optional(Flag),
    properties: Type.Optional(Flag),
    compliance: Type.Optional(Flag),
    verification: Type.Optional(Flag),
    metric_id: Type.Optional(Repeatable('Measurement agents offering any of these metrics (exact metric_id; repeat the parameter for more). Implies type=measurement.')),
    accreditation: Type.Optional(Repeatable('Measurement agents with a metric accredited by any of these bodies (exact accrediting_body). Implies type=measurement.')),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Measurement agents with a metric_id containing this text (case-insensitive; % and _ refused). Implies type=measurement.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);

export const AgentList = Type.Object(
  {
    agents: Type.Array(Type.Ref('CatalogAgent')),
    count: Type.Integer({ description: 'Agents on this page.' }),
    cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last.' }),
    has_more: Type.Boolean(),
  },
  { description: 'The catalog of member-enrolled agents the caller may see, in URL order.' },
);

export const Removed = Type.Object({ agent_url: Type.String(), removed: Type.Literal(true) });
