import { Type } from 'typebox';
import { Cursor } from '../../../protocol/wire/common.ts';

/** `GET /api/registry/lookup/agent/:agentUrl/domains`: the publishers that authorize an agent, page by page. */

export const AgentDomainsQuery = Type.Object({
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const AgentDomains = Type.Object({
  agent_url: Type.String(),
  agent_url_canonical: Type.String(),
  total: Type.Integer({ description: 'Domains in all pages.' }),
  count: Type.Integer({ description: 'Domains in this page.' }),
  domains: Type.Array(Type.String(), {
    description: 'The publisher domains of this page, in order (each detailed in `publishers`).',
  }),
  publishers: Type.Array(
    Type.Object({
      domain: Type.String(),
      status: Type.Union([Type.Literal('active'), Type.Literal('stale'), Type.Literal('unknown')]),
      property_count: Type.Integer({ description: 'Properties of the domain the agent is authorized for.' }),
      authorizations: Type.Array(
        Type.Object({
          authorization_id: Type.String(),
          source_domain: Type.String(),
          authorized_for: Type.Union([Type.String(), Type.Null()]),
          delegation_type: Type.Union([Type.String(), Type.Null()]),
        }),
      ),
    }),
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  has_more: Type.Boolean(),
});
