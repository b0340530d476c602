/**
 * Media buys of the sales agent: create_media_buy (answered synchronously), update_media_buy and
 * get_media_buys, over sales_media_buys, their packages and their history (every change with its
 * revision, who and when; sql.ts). The state machine is the table `moves` in state.ts; the flight
 * moves buys on its own (flight-pass.ts). The seller's own moves (a status it sets, a buy it
 * seeds, a create it forces into another arm) are for the sales agent's sandbox test controller.
 * A buy's reporting webhook (reporting-webhook.ts) is kept in sales_reporting_webhooks, whose
 * progress columns delivery/'s reporting pass moves on.
 */
export { createMediaBuyTask } from './create-media-buy.ts';
export { flightPass } from './flight-pass.ts';
export { getMediaBuysTask } from './get-media-buys.ts';
export { updateMediaBuyTask } from './update-media-buy.ts';
export {
  canMove,
  isTerminal,
  mediaBuyStatuses,
  moves,
  nextStatuses,
  validActions,
  type MediaBuyStatus,
  type Move,
  type Mover,
  type ValidAction,
} from './state.ts';
export type { ReportingFrequency, ReportingWebhook } from './reporting-webhook.ts';
export { assignablePackages, recordCreativesAssigned } from './creative-assignments.ts';
export { buySelection } from './schemas.ts';
export { missingBuys, selectedBuys } from './selection.ts';
export { totalBudget, type BuyRow, type PackageRow } from './media-buy.ts';
// Read-only: what delivery reporting reads of the buys (delivery/).
export { buyList, buyOf, packagesOf, reportingWebhook, type ListFilters } from './sql.ts';
export { noForcedArms, type ForcedArm, type TakeForcedArm } from './forced-arm.ts';
export { lockMediaBuy, setMediaBuyStatus } from './seller-status.ts';
export { seedMediaBuy, type MediaBuySeed } from './seed-media-buy.ts';
