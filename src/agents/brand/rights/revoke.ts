import type { Database } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { enqueueWebhookEvent } from '../../runtime/index.ts';
import type { RightUse } from './roster.ts';
import * as sql from './sql.ts';

export interface Revocation {
  grantId: string;
  reason: string;
  /** Only these uses (a partial revocation); every use when absent. */
  uses?: RightUse[];
  /** When it takes effect (now when absent). */
  effectiveAt?: Date;
  now: Date;
}

/**
 * The rights holder revokes a grant (`ap rights revoke`): wholly (the grant is revoked, its
 * credential and approvals end, an exclusive offering is free again) or some of its uses (the
 * grant keeps the others). In the same transaction the buyer's `revocation_webhook` is queued a
 * revocation notice (brand/revocation-notification.json), signed as every webhook when it leaves.
 */
export async function revokeGrant(
  db: Database,
  tenant: string,
  revocation: Revocation,
): Promise<{ rights_id: string; status: string; uses: string[] }> {
  return db.transaction(async (tx) => {
    const grant = await sql.grantOf(tx, revocation.grantId, { lock: true });
    if (!grant || (grant.status !== 'acquired' && grant.status !== 'pending_approval'))
      throw new AgentError(
        'REFERENCE_NOT_FOUND',
        grant ? `The grant ${revocation.grantId} is ${grant.status}.` : `No grant ${revocation.grantId}.`,
        { field: 'rights_id' },
      );
    const uses = grant.terms['uses'] as RightUse[];
    const revoked = revocation.uses?.filter((u) => uses.includes(u));
    if (revocation.uses && revoked!.length === 0)
      throw new AgentError('INVALID_REQUEST', `The grant covers ${uses.join(', ')} only.`, { field: 'uses' });
    const left = revoked ? uses.filter((u) => !revoked.includes(u)) : [];
    const status = left.length > 0 ? grant.status : 'revoked';
    await sql.reviseGrant(
      tx,
      grant.grant_id,
      status,
      { ...grant.terms, uses: left.length > 0 ? left : uses },
      revocation.now,
    );
    await enqueueWebhookEvent(
      tx,
      {
        tenant,
        url: grant.revocation_webhook['url'] as string,
        payload: {
          rights_id: grant.grant_id,
          brand_id: grant.brand_id,
          reason: revocation.reason,
          effective_at: (revocation.effectiveAt ?? revocation.now).toISOString(),
          ...(left.length > 0 ? { revoked_uses: revoked } : {}),
        },
      },
      revocation.now,
    );
    return { rights_id: grant.grant_id, status, uses: left };
  });
}
