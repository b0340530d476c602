import type { Principal } from '../../auth/index.ts';
import type { Database } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import type { ProofCheck } from '../ownership/index.ts';
import type { EntityKind, EntryRow } from './kind.ts';
import { recordRevision } from './revisions.ts';
import { actorOf, authoritative } from './save.ts';
import { lockEntry, restoreEntry, snapshotAt } from './sql.ts';

/** Restores an earlier revision's content as a new revision that says so. */
export async function rollbackEntry<Row extends EntryRow, Fields, Body>(
  db: Database,
  kind: EntityKind<Row, Fields, Body>,
  domain: string,
  toRevision: number,
  principal: Principal,
  proof: ProofCheck,
): Promise<Row> {
  return db.transaction(async (tx) => {
    const current = await lockEntry<Row>(tx, kind.tables, domain);
    if (!current) throw new ApError('not_found', `No ${kind.noun} is registered for ${domain}.`);
    if (current.source === kind.tables.authoritative) throw authoritative(kind, domain);
    await proof(tx, principal, domain);
    if (toRevision >= current.revision) {
      throw new ApError(
        'invalid_request',
        `Revision ${toRevision} is not an earlier revision; the current one is ${current.revision}.`,
      );
    }
    const old = await snapshotAt(tx, kind.tables, current.id, toRevision);
    if (!old) throw new ApError('not_found', `${capitalized(kind.noun)} ${domain} has no revision ${toRevision}.`);
    const row = await restoreEntry<Row>(tx, kind.tables, current.id, kind.restoredValues(old));
    await recordRevision(tx, kind, row, {
      editor: principal.displayName,
      summary: `Rolled back to revision ${toRevision}`,
      rolledBackTo: toRevision,
    });
    await kind.recordChange?.(tx, row, actorOf(principal));
    return row;
  });
}

function capitalized(noun: string): string {
  return noun.charAt(0).toUpperCase() + noun.slice(1);
}
