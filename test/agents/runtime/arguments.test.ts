import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { advertisedOutput, validateArguments } from '../../../src/agents/runtime/arguments.ts';
import type { AgentTask } from '../../../src/agents/runtime/task.ts';
import { AgentError } from '../../../src/protocol/errors.ts';

const task: AgentTask = {
  name: 'buy',
  description: 'Buys packages.',
  input: {
    type: 'object',
    properties: {
      packages: {
        type: 'array',
        items: {
          type: 'object',
          properties: { budget: { type: 'number' } },
          required: ['budget'],
          additionalProperties: false,
        },
      },
    },
    required: ['packages'],
  },
  mutates: false,
  handler: async () => ({}),
};

const fieldOf = (args: Record<string, unknown>): string | undefined => {
  try {
    validateArguments(task, args);
  } catch (err) {
    assert.ok(err instanceof AgentError && err.code === 'INVALID_REQUEST');
    return err.field;
  }
  return undefined;
};

it('names the field at fault in JSONPath-lite, as core/error.json asks (packages[0].budget)', () => {
  assert.equal(fieldOf({}), 'packages');
  assert.equal(fieldOf({ packages: [{ budget: 'ten' }] }), 'packages[0].budget');
  assert.equal(fieldOf({ packages: [{ budget: 1 }, {}] }), 'packages[1].budget');
  assert.equal(fieldOf({ packages: [{ budget: 1, extra: true }] }), 'packages[0].extra');
  assert.equal(fieldOf({ packages: [{ budget: 1 }] }), undefined);
});

it('advertises an output named by a published $ref as an object schema, which the MCP SDK accepts in a tools list', () => {
  const published: AgentTask = { ...task, output: { $ref: '/schemas/3.0.6/media-buy/get-products-response.json' } };
  const outputSchema = advertisedOutput(published);
  assert.equal(outputSchema?.['type'], 'object');
  assert.match(String(outputSchema?.['description']), /media-buy\/get-products-response\.json/);
  assert.equal(
    ToolSchema.safeParse({ name: 'get_products', inputSchema: { type: 'object' }, outputSchema }).success,
    true,
  );
  assert.equal(
    ToolSchema.safeParse({ name: 'get_products', inputSchema: { type: 'object' }, outputSchema: published.output })
      .success,
    false,
  );
});
