import type { Queryable } from '../../../db/database.ts';
import type { RefineEntry, RefinementApplied } from '../refine.ts';
import type { Proposal } from './make-proposal.ts';
import * as sql from './sql.ts';

type ProposalEntry = Extract<RefineEntry, { scope: 'proposal' }>;

/**
 * The proposal entries of get_products' `refine[]`, answered from the caller's proposal registry:
 * `omit` leaves the proposal out; `include` answers it again while it is valid (an `ask` is not
 * re-planned: `partial`, saying to brief again); `finalize` answers it as it is, since this
 * seller's proposals are firm when made (ready to buy, no proposal_status) until expires_at. An
 * unknown or expired proposal is `unable`, saying why.
 */
export async function refineProposals(
  db: Queryable,
  owner: string,
  entries: readonly RefineEntry[],
  now: Date,
): Promise<{ applied: Map<number, RefinementApplied>; proposals: Proposal[] }> {
  const applied = new Map<number, RefinementApplied>();
  const proposals: Proposal[] = [];
  for (const [i, entry] of entries.entries()) {
    if (entry.scope !== 'proposal') continue;
    applied.set(i, await answer(entry));
  }
  return { applied, proposals };

  async function answer(entry: ProposalEntry): Promise<RefinementApplied> {
    const id = entry.proposal_id;
    const action = entry.action ?? 'include';
    if (action === 'omit') return { scope: 'proposal', proposal_id: id, status: 'applied' };
    const row = await sql.proposalOf(db, owner, id);
    if (!row)
      return {
        scope: 'proposal',
        proposal_id: id,
        status: 'unable',
        notes: `No proposal ${id} of yours here; get_products with a brief makes one.`,
      };
    if (now >= row.expires_at)
      return {
        scope: 'proposal',
        proposal_id: id,
        status: 'unable',
        notes: `Proposal ${id} expired at ${row.expires_at.toISOString()}; brief again for a fresh one.`,
      };
    if (!proposals.some((p) => p.proposal_id === id)) proposals.push(row.proposal);
    if (action === 'finalize')
      return {
        scope: 'proposal',
        proposal_id: id,
        status: 'applied',
        notes: `Already firm: buy it with create_media_buy before ${row.proposal.expires_at}.`,
      };
    if (entry.ask)
      return {
        scope: 'proposal',
        proposal_id: id,
        status: 'partial',
        notes:
          'Answered as made: this seller does not re-plan a proposal on request; brief again with what you want changed.',
      };
    return { scope: 'proposal', proposal_id: id, status: 'applied' };
  }
}
