/**
 * Calling agents: connect over MCP or A2A, list their tasks, call one and read its payload or
 * error envelope. Every request goes through the `fetch` given, normally `fetchThrough(safeFetch)`.
 */
export { connectA2a, connectMcp, skillRequest, type AgentConnection, type AgentProtocol, type ConnectOptions } from './connection.ts';
export { fetchThrough, type FetchAdapterOptions } from './fetch-adapter.ts';
export { a2aOutcome, errorIn, mcpOutcome, type AgentErrorObject, type TaskOutcome } from './task-outcome.ts';
