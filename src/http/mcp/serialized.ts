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

/**
 * An object that stands for `json`, the text of a JSON object, in an answer `answerJson` renders:
 * for a payload passed on as it came, which nothing on the way reads (parsing it only to write
 * it out again cost a registry tool call a tenth of its time).
 */
export function passedOn(json: string): Record<string, unknown> {
  return serializedAs({}, json);
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
