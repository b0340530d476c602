import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KeyTurns } from '../../../src/http/rate-limit/key-turns.ts';

it('gives turns at one key in arrival order, each after the one ahead settles; other keys do not wait', async () => {
  const turns = new KeyTurns();
  const order: string[] = [];
  const first = await turns.take('a', 60_000);
  const second = turns.take('a', 60_000).then((release) => (order.push('second'), release));
  const third = turns.take('a', 60_000).then((release) => (order.push('third'), release));
  (await turns.take('b', 60_000))();
  order.push('b');
  assert.deepEqual(order, ['b']);
  first();
  (await second)();
  (await third)();
  assert.deepEqual(order, ['b', 'second', 'third']);
  await new Promise(setImmediate); // the promise callbacks that forget a key run after the release
  assert.equal(turns.size, 0, 'settled keys are forgotten');
});

it('does not keep a request waiting past its bound for one ahead that never settles', async () => {
  const turns = new KeyTurns();
  await turns.take('a', 60_000);
  const release = await turns.take('a', 0);
  release();
  assert.equal(turns.size, 1, 'the hung request still holds its key');
});
