import { isDeepStrictEqual } from 'node:util';
import type { Principal } from '../../auth/index.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { actorOf } from '../entries/index.ts';
import { recordChange } from './events.ts';
import type { SaveBody } from './schemas.ts';
import * as sql from './sql.ts';
import type { PolicyRow, StoredEntry } from './sql.ts';

/** The order a stored entry keeps its fields in (policy-entry.json's), whatever order they were sent in. */
const fieldOrder = [
  'policy_id',
  'version',
  'name',
  'description',
  'category',
  'enforcement',
  'requires_human_review',
  'jurisdictions',
  'region_aliases',
  'policy_categories',
  'channels',
  'governance_domains',
  'effective_date',
  'sunset_date',
  'source_url',
  'source_name',
  'policy',
  'guidance',
  'exemplars',
  'ext',
] as const;

/**
 * The policy-entry stored for a save body (the route's schema has checked each field) or a
 * published policy-entry document: its fields in the schema's order, absent ones and `source` left
 * out, and the one rule between fields a schema cannot say: a policy is not retired before it
 * takes effect.
 */
export function entryOf(fields: SaveBody | Record<string, unknown>): StoredEntry {
  const { effective_date, sunset_date } = fields as { effective_date?: string; sunset_date?: string };
  if (effective_date !== undefined && sunset_date !== undefined && sunset_date < effective_date) {
    const message = `sunset_date ${sunset_date} is before effective_date ${effective_date}`;
    throw new ApError('validation_failed', `Invalid body.sunset_date: ${message}.`, {
      details: [{ in: 'body', field: 'sunset_date', message }],
    });
  }
  const given = fields as Record<string, unknown>;
  const entry: Record<string, unknown> = {};
  for (const field of fieldOrder) if (given[field] !== undefined) entry[field] = given[field];
  return entry as StoredEntry;
}

/**
 * The policies of these ids the registry holds (its own and community ones), by id, as
 * governance/policy-entry.json has them for an agent applying them: `source: registry`, and
 * without the registry's own `description`, which the entry has no room for.
 */
export async function registryPolicyEntries(
  db: Queryable,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const rows = await sql.policiesById(db, ids);
  return new Map(
    [...rows].map(([id, { entry }]) => {
      const { description: _, ...policyEntry } = entry;
      return [id, { ...policyEntry, source: 'registry' }];
    }),
  );
}

export interface SaveOutcome {
  row: PolicyRow;
  created: boolean;
}

/**
 * A community save, in one transaction under the policy id's lock: refuse a registry policy (409,
 * whoever asks), refuse another organization's policy (403; a registry admin may change any
 * community policy), refuse a version already saved with other content (409), then write the
 * policy, its revision (who saved it) and its feed event.
 */
export async function saveCommunityPolicy(db: Database, body: SaveBody, principal: Principal): Promise<SaveOutcome> {
  const entry = entryOf(body);
  const standing = principal.organization;
  if (!standing) throw new ApError('forbidden', 'Saving a policy needs a credential acting for an organization.');
  return db.transaction(async (tx) => {
    const id = entry.policy_id;
    const before = await sql.lockPolicyId(tx, id);
    if (before?.source_type === 'registry') throw publishedByRegistry(id);
    if (before && !standing.registryAdmin && before.owner_organization_id !== standing.organizationId) {
      throw new ApError(
        'forbidden',
        `Policy ${id} was contributed by another organization; only that organization can change it.`,
      );
    }
    await refuseReusedVersion(tx, entry);
    const row = await sql.upsertPolicy(
      tx,
      {
        policy_id: id,
        source_type: 'community',
        review_status: 'pending',
        owner_organization_id: standing.organizationId,
        entry,
      },
      standing.registryAdmin,
    );
    // Under the id's lock nothing can have changed since the checks above; the statement checks too.
    if (!row) throw publishedByRegistry(id);
    const actor = actorOf(principal);
    await sql.insertRevision(tx, row, {
      editor_name: principal.displayName,
      saved_by: actor,
      organization_id: standing.organizationId,
      edit_summary: before ? `Updated to version ${row.version}` : 'Created',
    });
    await recordChange(tx, row, before, actor);
    return { row, created: !before };
  });
}

/**
 * Publishes a policy as the registry's own (the demo world's regulations and standards): approved,
 * owned by no organization, and from then on refused to community saves. A policy already published
 * as it is gets no new revision. `actor` is who the feed says wrote it.
 */
export async function publishRegistryPolicy(
  tx: Queryable,
  entry: StoredEntry,
  actor: string,
): Promise<{ row: PolicyRow; changed: boolean }> {
  const before = await sql.lockPolicyId(tx, entry.policy_id);
  if (before?.source_type === 'registry' && sameContent(before.entry, entry)) return { row: before, changed: false };
  await refuseReusedVersion(tx, entry);
  const row = (await sql.upsertPolicy(tx, {
    policy_id: entry.policy_id,
    source_type: 'registry',
    review_status: 'approved',
    owner_organization_id: null,
    entry,
  }))!;
  await sql.insertRevision(tx, row, {
    editor_name: 'system',
    saved_by: actor,
    organization_id: null,
    edit_summary: before ? `Published version ${row.version}` : 'Published',
  });
  await recordChange(tx, row, before, actor);
  return { row, changed: true };
}

/**
 * A version names one text, so pinning it always gives the same policy: saving a version again is
 * fine only with the content it was saved with.
 */
async function refuseReusedVersion(tx: Queryable, entry: StoredEntry): Promise<void> {
  const earlier = await sql.revisionWithVersion(tx, entry.policy_id, entry.version);
  if (earlier && !sameContent(earlier.snapshot, entry)) {
    throw new ApError(
      'conflict',
      `Version ${entry.version} of policy ${entry.policy_id} was saved with other content (revision ${earlier.revision_number}); save the changed policy under a new version.`,
    );
  }
}

/** Stored entries compare as JSON: a snapshot read back from jsonb and the entry about to be written. */
function sameContent(a: StoredEntry, b: StoredEntry): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

function publishedByRegistry(id: string): ApError {
  return new ApError(
    'authoritative_entry',
    `Policy ${id} is published by the registry and cannot be changed by a community save.`,
  );
}
