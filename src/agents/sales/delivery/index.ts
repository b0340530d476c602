/**
 * Delivery of the sales agent's media buys: get_media_buy_delivery, answered from a deterministic
 * simulation of each buy (simulate.ts: its packages' budgets, prices and pacing over their flights,
 * while its history says it served), plus what the compliance test controller recorded on top
 * (simulate_delivery, simulate_budget_spend) in sales_delivery_adjustments (sql.ts). The reporting
 * pass pushes the same reports, period by period, to buys' reporting webhooks (reporting-pass.ts).
 */
export { deliveredSoFar } from './delivered.ts';
export { getMediaBuyArtifactsTask } from './get-media-buy-artifacts.ts';
export { getMediaBuyDeliveryTask } from './get-media-buy-delivery.ts';
export { recordBudgetSpend, recordSimulatedDelivery, type SimulatedDelivery } from './adjustments.ts';
export { reportingPass } from './reporting-pass.ts';
