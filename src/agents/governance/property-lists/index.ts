import type { AuthorizationIndex } from '../../../registry/lookups/index.ts';
import type { AgentTask } from '../../runtime/index.ts';
import { listTasks } from '../lists/index.ts';
import { propertyLists } from './kind.ts';
import { validatePropertyDeliveryTask } from './validate-delivery.ts';

export { propertyLists } from './kind.ts';
export { identifiersOf, resolveList, type PropertyListDefinition } from './resolve-list.ts';
export { sharedListMembers, sharedLists } from './shared-list.ts';

/** The property-list tasks, resolving lists from the registry's authorization index as it stands. */
export function propertyListTasks(authorization: () => AuthorizationIndex): AgentTask[] {
  return [...listTasks(propertyLists, authorization), validatePropertyDeliveryTask(authorization)];
}
