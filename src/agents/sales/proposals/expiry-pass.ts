import type { TenantPass } from '../../runtime/index.ts';
import * as sql from './sql.ts';

/** How long an expired proposal is still told apart from an unknown one (PROPOSAL_EXPIRED, not REFERENCE_NOT_FOUND). */
export const expiredProposalMemoryMs = 30 * 24 * 3600 * 1000;

/** Forgets proposals long expired, so the registry holds what can still be bought or recognised. */
export function proposalExpiryPass(intervalMs = 3600_000): TenantPass {
  return {
    name: 'proposal-expiry',
    intervalMs,
    async run({ db, clock }) {
      await sql.deleteExpiredProposals(db, new Date(clock.now().getTime() - expiredProposalMemoryMs));
    },
  };
}
