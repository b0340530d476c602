import { isDeepStrictEqual } from 'node:util';
import type { Queryable } from '../../db/database.ts';
import { appendEvent } from '../feed/index.ts';
import { toPolicy } from './rows.ts';
import type { PolicyRow } from './sql.ts';

/**
 * One event per revision, written after it: `policy.created` for a new policy, `policy.updated`
 * naming what changed since the revision before (`changed_fields`, left out when a save repeated
 * the policy as it was). The payload carries the whole policy as resolve answers it, so a follower
 * keeps its copy from the feed alone. These types are beyond the published event schema's enum:
 * the feed sends them only to subscriptions that name them (feed/event-types.ts).
 */
export async function recordChange(
  tx: Queryable,
  after: PolicyRow,
  before: PolicyRow | undefined,
  actor: string,
): Promise<void> {
  const common = {
    policy_id: after.policy_id,
    version: after.version,
    source_type: after.source_type,
    review_status: after.review_status,
    revision_number: after.revision,
  };
  const policy = toPolicy(after);
  if (!before) {
    await appendEvent(tx, {
      event_type: 'policy.created',
      entity_type: 'policy',
      entity_id: after.policy_id,
      payload: { ...common, policy },
      actor,
    });
    return;
  }
  const fields = new Set([...Object.keys(before.entry), ...Object.keys(after.entry)]);
  const changed = [...fields].filter((f) => !isDeepStrictEqual(before.entry[f], after.entry[f])).sort();
  if (before.source_type !== after.source_type) changed.push('source_type');
  await appendEvent(tx, {
    event_type: 'policy.updated',
    entity_type: 'policy',
    entity_id: after.policy_id,
    payload: { ...common, ...(changed.length > 0 ? { changed_fields: changed } : {}), policy },
    actor,
  });
}
