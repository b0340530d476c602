import type { Queryable } from '../../db/database.ts';
import type { EntityKind, EntryRow } from './kind.ts';
import { insertRevision, type RevisionRow } from './sql.ts';

export interface RevisionNote {
  editor: string;
  summary: string;
  /** The restored revision, when this one is a rollback. */
  rolledBackTo?: number;
}

/** Records the row as it now is as its revision: every write of an entry calls this in its transaction. */
export async function recordRevision<Row extends EntryRow>(
  tx: Queryable,
  kind: Pick<EntityKind<Row>, 'tables' | 'snapshot'>,
  row: Row,
  note: RevisionNote,
): Promise<void> {
  await insertRevision(tx, kind.tables, row.id, {
    revision_number: row.revision,
    editor_name: note.editor,
    edit_summary: note.summary,
    source: row.source,
    ...(note.rolledBackTo !== undefined ? { is_rollback: true, rolled_back_to: note.rolledBackTo } : {}),
    snapshot: kind.snapshot(row),
  });
}

/** A revision row as the API shows it: `rolled_back_to` only on rollbacks. */
export function revisionToWire(row: RevisionRow) {
  return {
    revision_number: row.revision_number,
    editor_name: row.editor_name,
    edit_summary: row.edit_summary,
    source: row.source,
    is_rollback: row.is_rollback,
    ...(row.is_rollback && row.rolled_back_to !== null ? { rolled_back_to: row.rolled_back_to } : {}),
    created_at: row.created_at.toISOString(),
  };
}
