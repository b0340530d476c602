import { Type } from 'typebox';
import { Cursor } from '../../../protocol/wire/common.ts';
import { queriedType } from './fields.ts';

/** Listing the catalog (`GET /api/registry/agents`). */

const Flag = Type.Boolean({ description: 'Adds this enrichment to each agent.' });
const Repeatable = (description: string) =>
  Type.Union(
    [
      Type.String({ minLength: 1, maxLength: 200 }),
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 }),
    ],
    { description },
  );

export const ListQuery = Type.Object({
  type: Type.Optional(
    queriedType(
      'Only agents of this type (unknown and si, which the protocol’s registry client may send, match none).',
    ),
  ),
  capabilities: Type.Optional(
    Type.Boolean({
      description:
        'Adds creative_capabilities, signals_capabilities and (measurement agents) metrics[] from the agent’s get_ap_capabilities.',
    }),
  ),
  health: Type.Optional(Flag),
  properties: Type.Optional(Flag),
  compliance: Type.Optional(Flag),
  verification: Type.Optional(Flag),
  metric_id: Type.Optional(
    Repeatable(
      'Measurement agents offering any of these metrics (exact metric_id; repeat the parameter for more). Implies type=measurement.',
    ),
  ),
  accreditation: Type.Optional(
    Repeatable(
      'Measurement agents with a metric accredited by any of these bodies (exact accrediting_body). Implies type=measurement.',
    ),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'Measurement agents with a metric_id containing this text (case-insensitive; % and _ refused). Implies type=measurement.',
    }),
  ),
  agent_url: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Only this agent (its URL as enrolled, or one naming the same agent).',
    }),
  ),
  verified: Type.Optional(Type.Boolean({ description: 'true: only agents holding the verified badge.' })),
  verification_mode: Type.Optional(
    Type.Union([Type.Enum(['spec', 'live']), Type.Array(Type.Enum(['spec', 'live']), { maxItems: 2 })], {
      description:
        'Only agents whose badge covers every mode given (repeatable). The registry’s badge is earned by passing the protocol checks (spec); it observes no production traffic, so live matches none.',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
  cursor: Type.Optional(Cursor),
});

export const AgentList = Type.Object(
  {
    agents: Type.Array(Type.Ref('CatalogAgent')),
    count: Type.Integer({ description: 'Agents on this page.' }),
    cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page; null on the last.',
    }),
    has_more: Type.Boolean(),
    sources: Type.Object(
      { registered: Type.Integer(), discovered: Type.Integer() },
      {
        description:
          'Agents on this page by source, as the registry client reads it: all registered (enrolled), none discovered.',
      },
    ),
  },
  { description: 'The catalog of member-enrolled agents the caller may see, in URL order.' },
);
