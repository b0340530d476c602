/**
 * The sales agent's sandbox test controller: `comply_test_controller`, which forces statuses, the
 * arm of a sandbox account's next create_media_buy and a held task's completion, simulates
 * delivery and spend (through delivery/), and seeds products, pricing options, creative formats,
 * creatives and media buys, on the caller's own sandbox accounts (sales_forced_create_arms,
 * sales_test_seeds; sql.ts). `takeForcedArm` is how create_media_buy consumes a directive;
 * `seededShelf` is how every task of a sandbox account sees the catalog with its seeds.
 */
export { complianceTesting, testControllerTask } from './controller.ts';
export { takeForcedArm } from './forced-arm.ts';
export { seededShelf } from './shelf.ts';
export type { TestControllerOptions } from './scope.ts';
