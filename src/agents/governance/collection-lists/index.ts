import type { AuthorizationIndex } from '../../../registry/lookups/index.ts';
import type { AgentTask } from '../../runtime/index.ts';
import { listTasks } from '../lists/index.ts';
import { collectionLists } from './kind.ts';

export { collectionLists } from './kind.ts';

/** The collection-list tasks, resolving lists from the registry's collections as the index holds them. */
export function collectionListTasks(authorization: () => AuthorizationIndex): AgentTask[] {
  return listTasks(collectionLists, authorization);
}
