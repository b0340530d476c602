import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/index.ts';
import type { AppContext } from '../../context.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { recordSkeleton, type ReviewApplier } from '../homographs/index.ts';
import { proofCheck, type ProofCheck } from '../ownership/index.ts';
import type { EntityKind, EntryRow } from './kind.ts';
import { recordRevision } from './revisions.ts';
import { upsertEditable } from './sql.ts';

export interface SaveOutcome<Row> {
  row: Row;
  created: boolean;
}

/** Who a registry edit is by, as the change feed records it. */
export function actorOf(principal: Principal): string {
  return `api:${principal.kind}:${principal.subject}`;
}

export function authoritative(kind: Pick<EntityKind, 'authoritativeFile'>, domain: string): ApError {
  return new ApError(
    'authoritative_entry',
    `${domain} is managed by its ${kind.authoritativeFile} and cannot be edited through the registry.`,
  );
}

/** A community save: what to write where, and who asks, with the proof rule that applies to them. */
export interface Edit<Fields> {
  domain: string;
  fields: Fields;
  principal: Principal;
  proof: ProofCheck;
}

/** A community save in a transaction of its own. */
export async function saveEntry<Row extends EntryRow, Fields, Body>(
  db: Database,
  kind: EntityKind<Row, Fields, Body>,
  edit: Edit<Fields>,
): Promise<SaveOutcome<Row>> {
  return db.transaction((tx) => saveEntryIn(tx, kind, edit));
}

/**
 * The save's transaction, in order: refuse an authoritative entry (409, whoever asks: spec,
 * anti-abuse rule 6), require the organization's proof, record the skeleton, write the entry,
 * its revision and its event. The upsert takes the row lock, so concurrent saves of one domain
 * queue, each gets the next revision number, and each compares against the revision just before
 * its own. An approved review applies a held save through here with the decision's `tx`.
 */
export async function saveEntryIn<Row extends EntryRow, Fields, Body>(
  tx: Queryable,
  kind: EntityKind<Row, Fields, Body>,
  edit: Edit<Fields>,
): Promise<SaveOutcome<Row>> {
  const { domain, fields, principal, proof } = edit;
  const resolved = (await kind.find(tx, [domain])).get(domain);
  if (resolved?.source === kind.tables.authoritative) throw authoritative(kind, domain);
  await proof(tx, principal, domain);
  await recordSkeleton(tx, domain);
  // Also refused here: the entity's own file may have been crawled since the check above.
  const row = await upsertEditable<Row>(tx, kind.tables, {
    id: randomUUID(),
    domain,
    source: 'community',
    values: kind.editableValues(fields),
  });
  if (!row) throw authoritative(kind, domain);
  const created = row.revision === 1;
  await recordRevision(tx, kind, row, { editor: principal.displayName, summary: created ? 'Created' : 'Updated' });
  await kind.recordChange?.(tx, row, actorOf(principal));
  return { row, created };
}

/** Applies a held save an admin approved, as its submitter, still subject to the proof rule. */
export function heldSaveApplier<Row extends EntryRow, Fields, Body>(
  ctx: AppContext,
  kind: EntityKind<Row, Fields, Body>,
): ReviewApplier {
  const proof = proofCheck(ctx);
  return (tx, held) =>
    saveEntryIn(tx, kind, {
      domain: held.domain,
      fields: kind.wire.fieldsOf(held.payload as Body),
      principal: held.submitter,
      proof,
    });
}
