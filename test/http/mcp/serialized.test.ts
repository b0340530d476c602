import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { RpcAnswer } from '../../../src/http/mcp/dispatcher.ts';
import { answerJson, serializedAs } from '../../../src/http/mcp/serialized.ts';

const payload = { status: 'completed', name: 'Volt the Fox’s “voice”', rights: [{ price: 1.5 }] };

it('writes a tool result whose payload was serialized before with that JSON, as the same answer', () => {
  const text = JSON.stringify(payload);
  const answer: RpcAnswer = {
    jsonrpc: '2.0',
    id: 'call-1',
    result: { content: [{ type: 'text', text }], structuredContent: serializedAs({ ...payload }, text) },
  };
  const json = answerJson(answer);
  assert.equal(json, JSON.stringify(answer));
  assert.deepEqual(JSON.parse(json), answer);
});

it('takes the structured content’s JSON as given, not serializing it again', () => {
  const value = serializedAs({ a: 1 }, '{"a":1,"kept":"as said"}');
  const json = answerJson({ jsonrpc: '2.0', id: 7, result: { content: [], structuredContent: value } });
  assert.deepEqual(JSON.parse(json), {
    jsonrpc: '2.0',
    id: 7,
    result: { content: [], structuredContent: { a: 1, kept: 'as said' } },
  });
});

it('serializes every other answer as it is: errors, results without a known payload', () => {
  const answers: RpcAnswer[] = [
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
    { jsonrpc: '2.0', id: 2, result: { tools: [] } },
    { jsonrpc: '2.0', id: 3, result: { structuredContent: { b: 2 } } },
    { jsonrpc: '2.0', id: 4, result: { structuredContent: serializedAs({ c: 3 }, '{"c":3}') } },
  ];
  for (const answer of answers) assert.equal(answerJson(answer), JSON.stringify(answer));
});
