/** The buyer's side of webhooks: the receiver, the seller's keys and pins, and where processed keys are kept. */
export {
  createWebhookReceiver,
  receiverListener,
  InMemorySeenKeys,
  type ReceiverOptions,
  type ReceiverRequest,
  type ReceiverResponse,
  type SeenKeys,
  type WebhookEvent,
  type WebhookReceiver,
  type WebhookRejection,
} from './receiver.ts';
export { sellerKeys, type SellerKeysOptions } from './keys.ts';
export { adagentsPins, pinsFromJson } from './pins.ts';
export { FileSeenKeys, type FileSeenKeysOptions } from './file-seen-keys.ts';
