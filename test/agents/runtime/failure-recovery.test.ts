import assert from 'node:assert/strict';
import { it } from 'node:test';
import { errorObject } from '../../../src/agents/runtime/envelope.ts';
import { failureRecovery } from '../../../src/agents/runtime/failure-recovery.ts';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

it('calls a failure of the database or the network transient: a retry may outlive it', () => {
  for (const code of ['08006', '40001', '40P01', '53300', '57P01', '55P03', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT'])
    assert.equal(failureRecovery(withCode(code)), 'transient', code);
  assert.equal(failureRecovery(new Error('Connection terminated unexpectedly')), 'transient');
  assert.equal(failureRecovery(Object.assign(new Error('aborted'), { name: 'TimeoutError' })), 'transient');
  assert.equal(failureRecovery(new Error('wrapped', { cause: withCode('40001') })), 'transient');
});

it('calls anything else terminal: the same request meets the same fault', () => {
  assert.equal(failureRecovery(new RangeError('Array buffer allocation failed')), 'terminal');
  assert.equal(failureRecovery(new TypeError("Cannot read properties of undefined (reading 'x')")), 'terminal');
  assert.equal(failureRecovery(withCode('22P02', 'invalid input syntax for type uuid')), 'terminal');
  assert.equal(failureRecovery('a string thrown'), 'terminal');
});

it('answers an unforeseen failure as INTERNAL_ERROR with that recovery and no detail of it', () => {
  assert.deepEqual(errorObject(new RangeError('Invalid string length at /work/src/x.ts:1:2')), {
    code: 'INTERNAL_ERROR',
    message: 'The agent failed to complete the task.',
    recovery: 'terminal',
  });
  assert.equal(errorObject(withCode('40001')).recovery, 'transient');
});

it('answers the database out of reach as SERVICE_UNAVAILABLE with when to retry, not INTERNAL_ERROR', () => {
  for (const err of [
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    new Error('Connection terminated unexpectedly'),
    new Error('query failed', { cause: withCode('08006') }),
  ]) {
    const wire = errorObject(err);
    assert.equal(wire.code, 'SERVICE_UNAVAILABLE', err.message);
    assert.equal(wire.recovery, 'transient');
    assert.equal(wire.retry_after, 5);
    assert.doesNotMatch(wire.message, /5432|administrator/);
  }
  // A serialization failure is the database answering: retried as before, not called an outage.
  assert.equal(errorObject(withCode('40001')).code, 'INTERNAL_ERROR');
});
