import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { checkOutput, OutputMismatch } from '../../../src/agents/runtime/outputs.ts';
import type { AgentTask } from '../../../src/agents/runtime/task.ts';

const task: AgentTask = {
  name: 'make',
  description: 'Makes something.',
  input: { type: 'object' },
  output: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  mutates: false,
  handler: async () => ({ id: 'x' }),
};
const warnings: unknown[] = [];
const log = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as FastifyBaseLogger;

it("throws on an answer outside the task's output schema when told to (the test suite), naming the task and the problem", () => {
  assert.throws(
    () => checkOutput(task, { id: 7 }, 'throw', log),
    (err: unknown) => err instanceof OutputMismatch && /make.*\/id must be string/.test(err.message),
  );
  assert.doesNotThrow(() => checkOutput(task, { id: 'ok' }, 'throw', log));
});

it('only warns when told to log, and checks nothing when off', () => {
  checkOutput(task, {}, 'log', log);
  assert.equal(warnings.length, 1);
  checkOutput(task, {}, 'off', log);
  assert.equal(warnings.length, 1);
});

it('checks against a published schema named by $ref', () => {
  const published: AgentTask = { ...task, output: { $ref: '/schemas/3.0.6/core/tasks-get-response.json' } };
  assert.throws(() => checkOutput(published, { task_id: 'x' }, 'throw', log), OutputMismatch);
});

it('samples in production (sample): each task’s first 100 answers, then one in 100', () => {
  const sampledTask: AgentTask = { ...task, name: 'sampled' };
  const before = warnings.length;
  for (let i = 0; i < 300; i++) checkOutput(sampledTask, {}, 'sample', log);
  // Answers 1–100, 200 and 300.
  assert.equal(warnings.length - before, 102);
});
