import type { Queryable } from '../../../db/database.ts';
import type { Proposal, ProposalTerms } from './make-proposal.ts';

export interface ProposalRow {
  proposal_id: string;
  owner: string;
  proposal: Proposal;
  terms: ProposalTerms;
  currency: string;
  created_at: Date;
  expires_at: Date;
}

export async function insertProposal(db: Queryable, row: ProposalRow): Promise<void> {
  await db.query(
    `insert into sales_proposals (proposal_id, owner, proposal, terms, currency, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.proposal_id,
      row.owner,
      JSON.stringify(row.proposal),
      JSON.stringify(row.terms),
      row.currency,
      row.created_at,
      row.expires_at,
    ],
  );
}

/** The caller's proposal, expired or not (the caller tells the two apart); another caller's is none. */
export async function proposalOf(db: Queryable, owner: string, proposalId: string): Promise<ProposalRow | undefined> {
  const [row] = await db.query<ProposalRow>(
    `select proposal_id, owner, proposal, terms, currency, created_at, expires_at from sales_proposals where owner = $1 and proposal_id = $2`,
    [owner, proposalId],
  );
  return row;
}

/** Forgets proposals expired for longer than `graceMs` (an expired one is still told apart from an unknown one for that long). */
export async function deleteExpiredProposals(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query(`delete from sales_proposals where expires_at < $1 returning proposal_id`, [before]);
  return rows.length;
}
