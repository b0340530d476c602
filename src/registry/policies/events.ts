import type { Queryable } from '../../db/database.ts';
import { appendEvent, changedFields, feedEvent } from '../feed/index.ts';
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
    await appendEvent(tx, feedEvent('policy.created', after.policy_id, actor, { ...common, policy }));
    return;
  }
  const changed = changedFields(before.entry, after.entry);
  if (before.source_type !== after.source_type) changed.push('source_type');
  const payload = { ...common, ...(changed.length > 0 ? { changed_fields: changed } : {}), policy };
  await appendEvent(tx, feedEvent('policy.updated', after.policy_id, actor, payload));
}
