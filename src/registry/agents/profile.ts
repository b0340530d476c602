import { ApError } from '../../protocol/errors.ts';
import { agentTypes, type AgentType } from './agent-types.ts';
import { visibilities, type Visibility } from './visibility.ts';

/** How long an agent's name and description may be (the wire schemas say the same). */
export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 2000;

export const isAgentType = (value: string): value is AgentType => (agentTypes as readonly string[]).includes(value);
export const isVisibility = (value: string): value is Visibility => (visibilities as readonly string[]).includes(value);

/**
 * The rules of an agent's profile, checked in the service: the API's schemas state them too, but
 * the dashboard's forms and the operator's CLI reach enrollment without a schema in front.
 */
export function checkProfile(fields: {
  type?: string;
  name?: string;
  description?: string | null;
  visibility?: string;
}): void {
  const refuse = (field: string, reason: string): never => {
    throw new ApError('invalid_request', `Invalid ${field}: ${reason}.`, {
      details: [{ in: 'body', field, message: reason }],
    });
  };
  if (fields.type !== undefined && !isAgentType(fields.type)) refuse('type', `one of ${agentTypes.join(', ')}`);
  if (fields.visibility !== undefined && !isVisibility(fields.visibility))
    refuse('visibility', `one of ${visibilities.join(', ')}`);
  if (fields.name !== undefined && (fields.name.trim() === '' || fields.name.length > NAME_MAX))
    refuse('name', `1 to ${NAME_MAX} characters, not all spaces`);
  if (typeof fields.description === 'string' && fields.description.length > DESCRIPTION_MAX)
    refuse('description', `at most ${DESCRIPTION_MAX} characters`);
}
