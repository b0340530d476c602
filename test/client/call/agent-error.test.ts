import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ApAgentError } from '../../../src/client/call/agent-error.ts';

const retryable = (error: Record<string, unknown>, status?: number) =>
  ApAgentError.fromAgent({ code: 'X', message: 'm', ...error } as never, status === undefined ? {} : { status })
    .retryable;

it('retries what the agent says is transient, and only that, whatever the HTTP status', () => {
  // A platform that does not carry the signal: a 502 over plain HTTP, but the same request meets it again.
  assert.equal(retryable({ code: 'ACTIVATION_FAILED', recovery: 'correctable' }, 502), false);
  assert.equal(retryable({ code: 'INTERNAL_ERROR', recovery: 'terminal' }, 500), false);
  assert.equal(retryable({ code: 'INTERNAL_ERROR', recovery: 'transient' }, 500), true);
  assert.equal(retryable({ code: 'RATE_LIMITED', recovery: 'transient' }), true);
  assert.equal(retryable({ code: 'PLATFORM_BUSY', recovery: 'transient' }), true);
});

it('does not retry a transient error that wants a re-read or a human first', () => {
  assert.equal(retryable({ code: 'CONFLICT', recovery: 'transient' }, 409), false);
  assert.equal(retryable({ code: 'CAMPAIGN_SUSPENDED', recovery: 'transient' }, 409), false);
});

it('without a recovery, goes by the code and the HTTP status', () => {
  assert.equal(retryable({ code: 'SERVICE_UNAVAILABLE' }), true);
  assert.equal(retryable({ code: 'ACTIVATION_FAILED' }, 502), true);
  assert.equal(retryable({ code: 'INVALID_REQUEST' }, 400), false);
});
