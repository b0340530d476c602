import { hash } from 'node:crypto';
import type { Principal } from '../../../auth/index.ts';
import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { planOwnerOf } from '../plans/seed-plan.ts';
import type { AuthorizationIndex, IndexedProperty } from '../../../registry/lookups/index.ts';
import { resolveList } from './resolve-list.ts';
import { sharedList } from '../lists/index.ts';

/**
 * A list as a seller of the deployment reads it by its reference (core/property-list-ref.json):
 * the list of that id whose `auth_token` it was given, or one of the caller's own (implicit
 * access), resolved from the registry's index as it stands; undefined when neither holds, so a
 * list cannot be read without its token.
 */
export async function sharedListMembers(
  db: Queryable,
  index: AuthorizationIndex,
  ref: { list_id: string; auth_token?: string | undefined },
  owner: string,
): Promise<readonly IndexedProperty[] | undefined> {
  const tokenHash = ref.auth_token ? hash('sha256', ref.auth_token, 'buffer') : undefined;
  const row = await sharedList(db, 'property', ref.list_id, tokenHash, owner);
  return row && resolveList(index, row.definition);
}

/**
 * How the deployment's sellers read the lists a request references (get_products'
 * `property_list`): a list of this agent (`agentUrl`) by its reference, for the caller as this
 * agent knows it; undefined for another agent's list (the seller cannot apply it);
 * REFERENCE_NOT_FOUND for one of this agent's that the caller may not read.
 */
export function sharedLists(agentUrl: () => string, authorization: () => AuthorizationIndex) {
  return async (
    db: Queryable,
    caller: Principal,
    ref: { agent_url: string; list_id: string; auth_token?: string | undefined },
  ): Promise<readonly IndexedProperty[] | undefined> => {
    if (ref.agent_url !== agentUrl()) return undefined;
    const members = await sharedListMembers(db, authorization(), ref, planOwnerOf(caller));
    if (!members)
      throw new AgentError('REFERENCE_NOT_FOUND', `No property list ${ref.list_id} you may read at ${ref.agent_url}.`, {
        field: 'property_list.list_id',
        suggestion: 'Pass the auth_token create_property_list answered with the list.',
      });
    return members;
  };
}
