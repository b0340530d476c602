export { proposalPackages } from './buy-proposal.ts';
export { proposalExpiryPass } from './expiry-pass.ts';
export {
  makeProposal,
  maxAllocations,
  proposalValidityMs,
  wholePercentages,
  type Match,
  type MadeProposal,
  type Proposal,
} from './make-proposal.ts';
export * as proposalSql from './sql.ts';
export { refineProposals } from './refine-proposals.ts';
