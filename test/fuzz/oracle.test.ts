import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maxPathParamLength } from '../../src/http/errors.ts';
import { encodeComponent } from '../support/fuzz/encode.ts';
import type { Exchange } from '../support/fuzz/exchange.ts';
import { checkExchange, familyOf, hasStackFrame } from '../support/fuzz/oracle.ts';
import { DuplicateKeys, RawJson, writeJson } from '../support/fuzz/raw-json.ts';

const exchange = (url: string, status: number, body: string): Exchange => ({
  method: 'GET',
  url: `http://127.0.0.1:1${url}`,
  status,
  contentType: 'application/json',
  body,
});
const kinds = (e: Exchange, request = '') => checkExchange(e, request).map((f) => f.kind);

/** The fuzz suite's checks fail what they should and pass what they should: a fuzz run that finds nothing means something only if they do. */
describe('fuzz oracle', () => {
  it('passes a refusal in its endpoint’s shape, and a 502 naming a third party', () => {
    assert.deepEqual(
      kinds(
        exchange(
          '/api/brands/resolve',
          400,
          '{"error":"validation_failed","message":"Invalid querystring.domain.","details":[{"in":"querystring","field":"domain","message":"x"}]}',
        ),
      ),
      [],
    );
    assert.deepEqual(
      kinds(exchange('/api/brands/brand-json', 502, '{"error":"upstream_unavailable","message":"Could not fetch."}')),
      [],
    );
    assert.deepEqual(
      kinds(exchange('/sales/mcp', 400, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}')),
      [],
    );
    assert.deepEqual(
      kinds(exchange('/sales/mcp', 401, '{"error":"unauthorized","message":"A valid credential is required."}')),
      [],
    );
    assert.deepEqual(
      kinds(exchange('/sales/mcp', 431, '{"error":"headers_too_large","message":"x"}')),
      [],
      'refused by the HTTP parser, before any route',
    );
    assert.deepEqual(
      kinds(
        exchange(
          '/signals/tasks/get_signals',
          404,
          '{"errors":[{"code":"SIGNAL_NOT_FOUND","message":"x","recovery":"correctable"}]}',
        ),
      ),
      [],
    );
  });

  it('fails a 5xx, an internal-error code however nested, and a refusal outside its shape', () => {
    assert.deepEqual(
      kinds(exchange('/api/search', 500, '{"error":"internal_error","message":"Internal server error."}')),
      ['HTTP 500', 'internal_error'],
    );
    assert.deepEqual(
      kinds(
        exchange(
          '/sales/mcp',
          200,
          'event: message\ndata: {"result":{"content":[{"text":"{\\"code\\":\\"INTERNAL_ERROR\\"}"}]}}',
        ),
      ),
      ['INTERNAL_ERROR'],
    );
    assert.deepEqual(
      kinds(exchange('/mcp', 200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error."}}')),
      ['JSON-RPC -32603'],
    );
    assert.deepEqual(kinds(exchange('/api/search', 404, 'No such thing.')), ['refusal not in the registry shape']);
    assert.deepEqual(
      kinds(exchange('/api/search', 404, '{"error":"cursor_expired","message":"x"}')),
      ['refusal not in the registry shape'],
      'a code of another status',
    );
    assert.deepEqual(kinds(exchange('/sales/a2a', 400, '{"error":"invalid_json","message":"x"}')), [
      'refusal not in the jsonrpc shape',
    ]);
    assert.deepEqual(
      kinds(exchange('/signals/tasks/x', 400, '{"errors":[{"code":"NOPE","message":"x","recovery":"correctable"}]}')),
      ['refusal not in the agent-http shape'],
    );
  });

  it('fails a stack frame or a path of the machine, unless the request held the same text', () => {
    const trace = '{"message":"boom\\n    at handler (/work/app/src/x.ts:10:5)"}';
    assert.deepEqual(
      kinds(exchange('/api/search', 400, trace)).sort(),
      ['"/work/" in body', '".ts:" in body', 'refusal not in the registry shape', 'stack trace in body'].sort(),
    );
    assert.deepEqual(
      kinds(
        exchange('/api/search', 400, '{"error":"invalid_request","message":"Unknown domain /work/x."}'),
        'q=/work/x',
      ),
      [],
    );
    assert.equal(hasStackFrame('it starts at 10:00:00 sharp'), false);
    assert.equal(hasStackFrame('Error\n    at file:///srv/a.js:1:2'), true);
  });

  it('says which family refuses a path: a path the router cannot read is the registry’s', () => {
    assert.equal(familyOf('/register'), 'oauth');
    assert.equal(familyOf('/creative/a2a'), 'jsonrpc');
    assert.equal(familyOf('/mcp'), 'jsonrpc');
    assert.equal(familyOf('/.well-known/oauth-protected-resource/sales/mcp'), 'registry');
    assert.equal(familyOf('/creative/tasks/build_creative'), 'agent-http');
    assert.equal(familyOf('/creative/tasks/%ZZ'), 'registry');
    assert.equal(familyOf(`/creative/tasks/${'x'.repeat(maxPathParamLength + 1)}`), 'registry');
  });

  it('writes bodies JavaScript cannot: numbers beyond a double, repeated keys, nesting deeper than the stack', () => {
    assert.equal(
      writeJson({
        a: new RawJson('1e999'),
        b: new DuplicateKeys([
          ['k', 1],
          ['k', 2],
        ]),
      }),
      '{"a":1e999,"b":{"k":1,"k":2}}',
    );
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(writeJson(deep).length, 200_001);
    assert.equal(encodeComponent('a\ud800b\ud83d\ude00'), 'a%ED%A0%80b%F0%9F%98%80');
  });
});
