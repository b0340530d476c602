/** One MCP tools/call as the load generator sends it: its headers and JSON-RPC body. */
export interface McpPost {
  headers: Record<string, string>;
  body: string;
}

/** Sends one call to the agent at `endpoint` (`<base>/<agent>/mcp`) and reads its tool result, to check a bench's calls before loading them. */
export async function toolResult(endpoint: string, request: McpPost): Promise<{ isError: boolean; text: string }> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { ...request.headers, accept: 'application/json' },
    body: request.body,
  });
  const answer = (await res.json()) as { result?: { isError?: boolean; content: Array<{ text: string }> } };
  return { isError: answer.result?.isError === true, text: answer.result?.content[0]?.text ?? JSON.stringify(answer) };
}

/** A tools/call of `name` as the test deployment's public credential sends it. */
export function mcpCall(
  credential: string,
  name: string,
  args: Record<string, unknown>,
  id = 1,
): McpPost & { method: 'POST' } {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${credential}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  };
}
