/**
 * Calling agents: find one at a URL (MCP and A2A), connect over either protocol, list their tasks,
 * call one and read its payload or error envelope. Every request goes through the `fetch` given,
 * normally `fetchThrough(safeFetch)`.
 */
export {
  connectA2a,
  connectMcp,
  skillRequest,
  type AgentConnection,
  type AgentProtocol,
  type CallOptions,
  type ConnectOptions,
  type McpServerInfo,
  type TaskDescription,
} from './connection.ts';
export {
  agentCardUrls,
  describeError,
  discoverAgent,
  findFetchError,
  type AgentDiscovery,
  type DiscoverOptions,
} from './discovery.ts';
export { readCapabilities, type CapabilitiesAnswer } from './capabilities.ts';
export { fetchThrough, type FetchAdapterOptions } from './fetch-adapter.ts';
export {
  a2aOutcome,
  a2aTaskOutcome,
  errorIn,
  isErrorObject,
  mcpOutcome,
  type AgentErrorObject,
  type TaskOutcome,
} from './task-outcome.ts';
