import { AgentError } from '../../../protocol/errors.ts';
import type { CreativeLibrary } from '../media-buys/index.ts';
import { formatKey } from './creative.ts';
import * as sql from './sql.ts';

/**
 * The library as create_media_buy uses it: each named creative must be the account's
 * (CREATIVE_NOT_FOUND) and of a format its package takes (VALIDATION_ERROR); then all are assigned.
 * The first problem is the answer, and the buy's transaction writes nothing.
 */
export const libraryForBuys: CreativeLibrary = {
  async assign(db, accountId, assignments, now) {
    if (assignments.length === 0) return;
    const stored = new Map((await sql.creativesByIds(db, accountId, assignments.map((a) => a.creative_id))).map((c) => [c.creative_id, c]));
    for (const a of assignments) {
      const creative = stored.get(a.creative_id);
      if (!creative) throw new AgentError('CREATIVE_NOT_FOUND', `Account ${accountId} has no creative ${a.creative_id}; upload it with sync_creatives first.`, { field: `${a.at}.creative_id` });
      if (!a.formats.some((f) => formatKey(f) === formatKey(creative.format_id))) {
        throw new AgentError('VALIDATION_ERROR', `Creative ${a.creative_id} is of format ${creative.format_id.id}, which this package does not take (${a.formats.map((f) => f.id).join(', ')}).`, {
          field: `${a.at}.creative_id`,
        });
      }
    }
    for (const a of assignments) {
      await sql.upsertAssignment(db, { account_id: accountId, creative_id: a.creative_id, package_id: a.package_id, weight: a.weight ?? null, placement_ids: a.placement_ids ?? null, assigned_at: now });
    }
  },
};
