import { Type } from 'typebox';
import { agentTypes } from '../agent-types.ts';
import { DESCRIPTION_MAX, NAME_MAX } from '../profile.ts';
import { visibilities } from '../visibility.ts';

/** The fields an agent is enrolled, listed and searched by. */

export const AgentUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'The agent’s URL (its MCP or A2A endpoint); kept in canonical form.',
  examples: ['https://sales.meridian-media.example/mcp'],
});
export const AgentType = Type.Enum([...agentTypes], { description: 'What the agent does.' });
export const Visibility = Type.Enum([...visibilities], {
  description: 'public: everyone; members_only: also API-tier members; private: only its own organization.',
});
export const Name = Type.String({
  minLength: 1,
  maxLength: NAME_MAX,
  pattern: '\\S',
  examples: ['Meridian Media sales agent'],
});
export const Description = Type.String({
  maxLength: DESCRIPTION_MAX,
  examples: ['Premium news and lifestyle inventory, display and video.'],
});

/** The member organization that enrolled an agent, as a catalog entry names it. */
export const Enroller = Type.Object(
  { slug: Type.String(), name: Type.String() },
  { description: 'The member organization that enrolled it.' },
);

/** The client's types beyond the catalog's: `unknown` and the legacy `si`, which no enrolled agent has. */
export const queriedType = (description: string) => Type.Enum([...agentTypes, 'unknown', 'si'], { description });
