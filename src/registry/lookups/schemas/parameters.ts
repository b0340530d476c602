import { Type } from 'typebox';

/** The request fields the lookups and checks share. */

// Enums rather than unions of literals, so a wrong value is told in one line naming the choices.
export const Delegation = Type.Enum(['direct', 'delegated', 'ad_network'], {
  description:
    'The commercial relationship claimed (adagents.json `delegation_type`); the operator side must declare a matching `relationship` (`owned` matches `direct`).',
});
export const AgentUrl = Type.String({
  format: 'uri',
  minLength: 1,
  maxLength: 2048,
  description: 'The agent’s URL; compared in canonical form (scheme and host case, default port, escapes).',
  examples: ['https://sales.meridian-media.example/mcp'],
});
export const IdentifierType = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z0-9_]+$',
  description: 'Identifier type (enums/identifier-types.json), e.g. domain, ios_bundle, roku_store_id.',
  examples: ['domain'],
});
export const IdentifierValue = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'Identifier value; domains compare case-insensitively, other identifiers exactly.',
  examples: ['dailyplanet.example'],
});

export const Identifier = Type.Object({ type: Type.String(), value: Type.String() });
