/**
 * Media buys of the sales agent: create_media_buy (answered synchronously), update_media_buy and
 * get_media_buys, over sales_media_buys, their packages and their history (every change with its
 * revision, who and when; sql.ts). The state machine is `validActions` in state.ts. The seller's
 * own moves (a status it sets, a buy it seeds, a create it forces into another arm) are for the
 * sales agent's sandbox test controller.
 */
export { createMediaBuyTask } from './create-media-buy.ts';
export { getMediaBuysTask } from './get-media-buys.ts';
export { updateMediaBuyTask } from './update-media-buy.ts';
export { isTerminal, mediaBuyStatuses, validActions, type MediaBuyStatus, type ValidAction } from './state.ts';
export { assignablePackages, recordCreativesAssigned, type AssignablePackage, type CreativeLibrary, type CreativesAssigned, type NewAssignment } from './creative-assignments.ts';
export { noForcedArms, type ForcedArm, type TakeForcedArm } from './forced-arm.ts';
export { lockMediaBuy, setMediaBuyStatus } from './seller-status.ts';
export { seedMediaBuy, type MediaBuySeed } from './seed-media-buy.ts';
