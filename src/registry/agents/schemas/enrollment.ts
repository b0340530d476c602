import { Type } from 'typebox';
import { AgentType, AgentUrl, Description, Name, Visibility } from './fields.ts';

/** Enrolling an agent, changing and removing it (`POST`, `PATCH` and `DELETE /api/registry/agents`). */

export const EnrollBody = Type.Object(
  {
    agent_url: AgentUrl,
    type: AgentType,
    name: Name,
    description: Type.Optional(Description),
    visibility: Type.Optional(Visibility),
  },
  {
    additionalProperties: false,
    examples: [
      {
        agent_url: 'https://sales.meridian-media.example/mcp',
        type: 'sales',
        name: 'Meridian Media sales agent',
        visibility: 'public',
      },
    ],
  },
);

export const ChangeBody = Type.Object(
  {
    type: Type.Optional(AgentType),
    name: Type.Optional(Name),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    visibility: Type.Optional(Visibility),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ visibility: 'members_only' }] },
);

export const AgentUrlQuery = Type.Object({ agent_url: AgentUrl });

export const Removed = Type.Object({ agent_url: Type.String(), removed: Type.Literal(true) });
