import type { AuthorizationIndex } from '../../../registry/lookups/index.ts';
import type { AgentTask } from '../../runtime/index.ts';
import { getPropertyListTask, listPropertyListsTask } from './read-lists.ts';
import { validatePropertyDeliveryTask } from './validate-delivery.ts';
import { createPropertyListTask, deletePropertyListTask, updatePropertyListTask } from './write-lists.ts';

export { listChangesPass } from './list-changes.ts';
export { identifiersOf, resolveList, type ListDefinition } from './resolve-list.ts';
export { sharedListMembers, sharedLists } from './shared-list.ts';

/** The property-list tasks, resolving lists from the registry's authorization index as it stands. */
export function propertyListTasks(authorization: () => AuthorizationIndex): AgentTask[] {
  return [
    createPropertyListTask(),
    updatePropertyListTask(),
    getPropertyListTask(authorization),
    listPropertyListsTask(),
    deletePropertyListTask(),
    validatePropertyDeliveryTask(authorization),
  ];
}
