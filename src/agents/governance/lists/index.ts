import type { AuthorizationIndex } from '../../../registry/lookups/index.ts';
import type { AgentTask } from '../../runtime/index.ts';
import type { ListKind } from './kind.ts';
import { getListTask, listListsTask } from './read-lists.ts';
import { createListTask, deleteListTask, updateListTask } from './write-lists.ts';

export type { ListDefinition, ListKind, Resolution } from './kind.ts';
export { listChangesPass } from './list-changes.ts';
export { sharedList } from './sql.ts';
export { ownList } from './write-lists.ts';

/** A kind's five list tasks, resolving lists from the registry's authorization index as it stands. */
export function listTasks(kind: ListKind, authorization: () => AuthorizationIndex): AgentTask[] {
  return [
    createListTask(kind),
    updateListTask(kind),
    getListTask(kind, authorization),
    listListsTask(kind),
    deleteListTask(kind),
  ];
}
