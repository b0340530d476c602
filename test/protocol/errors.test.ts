import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApError, codeForStatus, errorBody, errorCatalogue } from '../../src/protocol/errors.ts';

describe('error catalogue', () => {
  it('gives every code a client-error or server-error status and a message', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      assert.match(code, /^[a-z]+(_[a-z]+)*$/, `${code} is snake_case`);
      assert.ok(entry.status >= 400 && entry.status < 600, `${code} has an error status`);
      assert.ok(entry.message.length > 0);
    }
  });

  it('renders {error, message} and only adds details or retry_after when they apply', () => {
    assert.deepEqual(errorBody(new ApError('not_found')), { error: 'not_found', message: 'Not found.' });
    const issues = [{ in: 'body', field: 'domain', message: 'is required' }];
    assert.deepEqual(errorBody(new ApError('validation_failed', 'bad', { details: issues })), {
      error: 'validation_failed',
      message: 'bad',
      details: issues,
    });
    assert.deepEqual(errorBody(new ApError('rate_limited', undefined, { retryAfter: 12 })), {
      error: 'rate_limited',
      message: 'Rate limit exceeded.',
      retry_after: 12,
    });
  });

  it('takes its status from the catalogue', () => {
    assert.equal(new ApError('cursor_expired').status, 410);
    assert.equal(new ApError('unsupported_media_type').status, 415);
  });

  it('maps bare statuses to their general code', () => {
    assert.equal(codeForStatus(400), 'invalid_request');
    assert.equal(codeForStatus(404), 'not_found');
    assert.equal(codeForStatus(418), 'invalid_request');
    assert.equal(codeForStatus(502), 'upstream_unavailable');
    assert.equal(codeForStatus(599), 'internal_error');
  });
});
