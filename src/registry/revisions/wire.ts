import type { RevisionRow } from './sql.ts';

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
