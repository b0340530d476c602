import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import type { Offering } from './roster.ts';
import * as sql from './sql.ts';

/**
 * The caller's grant and the roster's offering it licenses, as the tasks on a grant read them;
 * REFERENCE_NOT_FOUND naming `rights_id` for another's grant, exactly as for none. `lock` holds
 * the grant until the transaction ends (see `sql.grantOf`).
 */
export async function ownGrant(
  db: Queryable,
  roster: readonly Offering[],
  owner: string,
  grantId: string,
  lock = false,
): Promise<{ grant: sql.GrantRow; offering: Offering }> {
  const grant = await sql.grantOf(db, grantId, { owner, lock });
  if (!grant)
    throw new AgentError('REFERENCE_NOT_FOUND', `No rights grant ${grantId} of yours.`, { field: 'rights_id' });
  return { grant, offering: roster.find((o) => o.rights_id === grant.offering_id)! };
}
