import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as A2aClient } from '@a2a-js/sdk/client';
import { skillRequest } from '../../../src/client/agents/index.ts';
import type { FuzzCase, HttpCall, ToolCall } from './cases.ts';
import type { Recorder } from './exchange.ts';
import { errorBodyProblem, errorObjectProblem, excerpt, isRecord, parse, type Finding } from './oracle.ts';
import { writeJson } from './raw-json.ts';

/** The clients a case is sent through. */
export interface Clients {
  base: string;
  recorder: Recorder;
  mcp: Map<string, McpClient>;
  a2a: Map<string, A2aClient>;
}

/** What sending a case came to: refused or not, and what the client threw, if it did. */
export interface Sent {
  refused: boolean;
  thrown?: unknown;
}

/** Sends a case; answers whether it was refused, adding what is wrong with the envelope of a tool's answer. */
export async function send(fuzzCase: FuzzCase, clients: Clients, findings: Finding[]): Promise<Sent> {
  const { call } = fuzzCase;
  try {
    if (call.kind === 'http') return { refused: (await sendHttp(call, clients)) >= 400 };
    if (call.kind === 'mcp') return { refused: await sendMcp(call, clients.mcp.get(call.endpoint)!, findings) };
    return { refused: await sendA2a(call, clients.a2a.get(call.endpoint)!, findings) };
  } catch (err) {
    // A JSON-RPC error or a refused credential comes as an exception from the SDK clients: the exchange itself is checked.
    const message = describe(err);
    if (/output schema|structured content/i.test(message))
      findings.push({ kind: 'answer does not match the tool’s output schema', detail: message });
    return { refused: true, thrown: err };
  }
}

/** The size of what a case sends, in bytes: a request over the body limit may be cut off as it is sent. */
export function payloadBytes(fuzzCase: FuzzCase): number {
  const { call } = fuzzCase;
  return Buffer.byteLength(call.kind === 'http' ? (call.body ?? '') : writeJson(call.args));
}

async function sendHttp(call: HttpCall, clients: Clients): Promise<number> {
  const res = await clients.recorder.fetch(`${clients.base}${call.path}`, {
    method: call.method,
    headers: call.headers,
    ...(call.body !== undefined ? { body: call.body } : {}),
  });
  return res.status;
}

/**
 * An MCP tools/call through the SDK client. A tool error must carry its endpoint's error: the
 * agents' error object (with `ap_error` as structured content), or the registry's error body.
 */
async function sendMcp(call: ToolCall, client: McpClient, findings: Finding[]): Promise<boolean> {
  const result = await client.callTool(
    { name: call.tool, arguments: call.args as Record<string, unknown> },
    undefined,
    { timeout: 60_000 },
  );
  if (!result.isError) return false;
  const content = result.content as Array<{ type: string; text?: string }>;
  const body = parse(content[0]?.text ?? '');
  const problem = call.endpoint ? errorObjectProblem(body) : errorBodyProblem(body);
  if (problem)
    findings.push({
      kind: 'tool error not in the catalogue’s shape',
      detail: `${problem}: ${excerpt(content[0]?.text ?? '')}`,
    });
  if (
    call.endpoint &&
    !(
      isRecord(result.structuredContent) &&
      JSON.stringify(result.structuredContent['ap_error']) === JSON.stringify(body)
    )
  ) {
    findings.push({
      kind: 'tool error not in the catalogue’s shape',
      detail: `structuredContent.ap_error differs from the text: ${excerpt(JSON.stringify(result.structuredContent))}`,
    });
  }
  return true;
}

/** An A2A message naming the skill through the SDK client; an answer whose data part is `{error}` must hold an agent error object. */
async function sendA2a(call: ToolCall, client: A2aClient, findings: Finding[]): Promise<boolean> {
  const answer = await client.sendMessage(skillRequest(call.tool, call.args as Record<string, unknown>));
  if (!('parts' in answer)) return false;
  const content = answer.parts[0]?.content;
  if (content?.$case !== 'data') {
    findings.push({ kind: 'A2A answer without a data part', detail: excerpt(JSON.stringify(answer)) });
    return true;
  }
  const data = content.value as Record<string, unknown>;
  // The error envelope is `{error: {...}, context?}`; a payload may have a field named error of its own (comply_test_controller's).
  if (!isRecord(data['error']) && !Object.keys(data).every((k) => k === 'error' || k === 'context')) return false;
  const problem = errorObjectProblem(data['error']);
  if (problem)
    findings.push({
      kind: 'tool error not in the catalogue’s shape',
      detail: `${problem}: ${excerpt(JSON.stringify(data))}`,
    });
  return true;
}

/** Everything the case sent, as text: what an answer merely echoes is not a leak. */
export function requestTextOf(fuzzCase: FuzzCase): string {
  const { call } = fuzzCase;
  if (call.kind === 'http')
    return `${decodeSafely(call.path)} ${call.path} ${JSON.stringify(call.headers)} ${call.body ?? ''}`;
  return `${call.tool} ${JSON.stringify(call.headers)} ${writeJson(call.args)} ${JSON.stringify(writeJson(call.args))}`;
}

/** The text with each run of percent-escapes decoded on its own, so one run that is not UTF-8 (`%ED%A0%80`) leaves the others decoded. */
function decodeSafely(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

export function describe(err: unknown): string {
  if (err instanceof Error)
    return `${err.name}: ${err.message}${err.cause instanceof Error ? ` (cause: ${err.cause.message})` : ''}`.slice(
      0,
      500,
    );
  return String(err).slice(0, 500);
}
