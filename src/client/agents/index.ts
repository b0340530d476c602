/**
 * Calling agents: connect over MCP or A2A, list their tasks, call one and read its payload or
 * error envelope. Every request goes through the `fetch` given, normally `fetchThrough(safeFetch)`.
 */
export { a2aCardUrl, connectA2a, connectMcp, skillRequest, type AgentConnection, type AgentProtocol, type AgentTool, type CallOptions, type ConnectOptions } from './connection.ts';
export { fetchThrough, type FetchAdapterOptions } from './fetch-adapter.ts';
export { a2aOutcome, a2aTaskOutcome, errorIn, isErrorObject, mcpOutcome, type AgentErrorObject, type TaskOutcome } from './task-outcome.ts';
