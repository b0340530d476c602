/**
 * The client: calling agents (`callApAgent`, the protocol's `call_ap_agent`), listing their tools
 * and capabilities, and receiving their signed webhooks. What `ap call`, `ap tools` and
 * `ap webhooks listen` run, and what the package exports as `ap/client`.
 */
export { ApAgentError, asAgentError, type AgentErrorKind } from './call/agent-error.ts';
export { callApAgent, getCapabilities, listTools, type CallApAgentOptions } from './call/call-agent.ts';
export type { TaskUpdate } from './call/await-task.ts';
export { openAgent, type AgentTarget } from './call/open-agent.ts';
export type { RetryPolicy } from './call/retry.ts';
export { WebhookInbox } from './call/webhook-inbox.ts';
export { fetchThrough, type AgentConnection, type AgentProtocol, type TaskDescription } from './agents/index.ts';
export {
  adagentsPins,
  createWebhookReceiver,
  FileSeenKeys,
  InMemorySeenKeys,
  pinsFromJson,
  receiverListener,
  sellerKeys,
  type FileSeenKeysOptions,
  type ReceiverOptions,
  type SeenKeys,
  type SellerKeysOptions,
  type WebhookEvent,
  type WebhookReceiver,
  type WebhookRejection,
} from './webhooks/index.ts';
