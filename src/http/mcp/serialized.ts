import type { RpcAnswer } from './dispatcher.ts';

const serialized = new WeakMap<object, string>();

/**
 * Says `json` is `value` serialized, so that an answer carrying `value` as its structured content
 * reuses it: an agent's payload is serialized once for its text content, not twice.
 */
export function serializedAs<T extends object>(value: T, json: string): T {
  serialized.set(value, json);
  return value;
}

/** An answer's JSON, with a tool result's structured content as serialized before when it was. */
export function answerJson(answer: RpcAnswer): string {
  const result = 'result' in answer ? answer.result : undefined;
  const payload = result?.['structuredContent'];
  const json = typeof payload === 'object' && payload !== null ? serialized.get(payload) : undefined;
  if (json === undefined) return JSON.stringify(answer);
  const { structuredContent: _, ...rest } = result!;
  if (Object.keys(rest).length === 0) return JSON.stringify(answer);
  // Without it the answer ends with the result's closing brace and its own.
  const head = JSON.stringify({ jsonrpc: answer.jsonrpc, id: answer.id, result: rest });
  return `${head.slice(0, -2)},"structuredContent":${json}}}`;
}
