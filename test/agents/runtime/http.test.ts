import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Tenant } from '../../../src/agents/runtime/index.ts';
import { AgentError } from '../../../src/protocol/errors.ts';
import { eachEngine } from '../../support/engines.ts';
import { json } from '../../support/http.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

const creative: Tenant = {
  name: 'creative',
  path: '/creative',
  description: 'Creative envelope test.',
  protocols: ['creative'],
  httpEnvelope: 'creative',
  tasks: [
    {
      name: 'preview_creative',
      description: 'Fails the way the caller asks.',
      input: { type: 'object', properties: { fail: { type: 'string' } } },
      mutates: false,
      handler: async (args) => {
        if (args['fail'] === 'format')
          throw new AgentError('FORMAT_NOT_SUPPORTED', 'display_300x250 is not offered here.');
        if (args['fail'] === 'manifest')
          throw new AgentError('MANIFEST_INVALID', 'The headline is longer than 25 characters.');
        if (args['fail'] === 'crash') throw new Error('internal detail that must not leak');
        return { previews: [] };
      },
    },
  ],
};

const signals: Tenant = {
  name: 'signals',
  path: '/signals',
  description: 'Signals envelope test.',
  protocols: ['signals'],
  httpEnvelope: 'signals',
  tasks: [
    {
      name: 'activate_signal',
      description: 'Fails with a field and a suggestion.',
      input: {
        type: 'object',
        properties: { signal_agent_segment_id: { type: 'string' } },
        required: ['signal_agent_segment_id'],
      },
      mutates: false,
      handler: async () => {
        throw new AgentError('SIGNAL_AGENT_SEGMENT_NOT_FOUND', 'No segment seg-9.', {
          field: 'signal_agent_segment_id',
          suggestion: 'Call get_signals for current ids.',
        });
      },
    },
  ],
};

eachEngine('agent tasks over plain HTTP', (engine) => {
  let server: TestServer;
  const post = (path: string, body: string, headers: Record<string, string> = asAdmin) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [creative, signals] } });
  });
  after(() => server.close());

  it('answers a creative task with its payload', async () => {
    const res = await post('/creative/tasks/preview_creative', '{}');
    assert.equal(res.status, 200);
    assert.deepEqual(await json(res), { status: 'completed', previews: [] });
  });

  it('answers creative errors 400, 404 and 422 with {error: {code, message, ...}}', async () => {
    const cases: Array<[string, number, string]> = [
      ['{"fail": 42}', 400, 'INVALID_REQUEST'],
      ['{"fail": "format"}', 404, 'FORMAT_NOT_SUPPORTED'],
      ['{"fail": "manifest"}', 422, 'MANIFEST_INVALID'],
      ['{not json', 400, 'INVALID_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post('/creative/tasks/preview_creative', body);
      assert.equal(res.status, status, body);
      const answer = await json(res);
      assert.deepEqual(Object.keys(answer), ['status', 'error']);
      assert.equal(answer.status, 'failed');
      assert.equal(answer.error.code, code, body);
      assert.equal(typeof answer.error.message, 'string');
      assert.equal(answer.error.recovery, 'correctable');
    }
    const unknown = await post('/creative/tasks/build_everything', '{}');
    assert.equal(unknown.status, 400);
    assert.equal((await json(unknown)).error.code, 'INVALID_REQUEST');
  });

  it('answers an internal failure 500 without its details', async () => {
    const res = await post('/creative/tasks/preview_creative', '{"fail": "crash"}');
    assert.equal(res.status, 500);
    assert.deepEqual(await json(res), {
      status: 'failed',
      error: { code: 'INTERNAL_ERROR', message: 'The agent failed to complete the task.', recovery: 'terminal' },
    });
  });

  it('answers signals errors with {errors: [{code, message, field, suggestion}]}', async () => {
    const res = await post('/signals/tasks/activate_signal', '{"signal_agent_segment_id": "seg-9"}');
    assert.equal(res.status, 404);
    assert.deepEqual(await json(res), {
      status: 'failed',
      errors: [
        {
          code: 'SIGNAL_AGENT_SEGMENT_NOT_FOUND',
          message: 'No segment seg-9.',
          field: 'signal_agent_segment_id',
          suggestion: 'Call get_signals for current ids.',
          recovery: 'correctable',
        },
      ],
    });
    const missing = await json(await post('/signals/tasks/activate_signal', '{}'));
    assert.equal(missing.errors[0].code, 'INVALID_REQUEST');
    assert.equal(missing.errors[0].field, 'signal_agent_segment_id');
  });

  it('requires a credential, answering in the envelope with the challenge', async () => {
    const res = await post('/signals/tasks/activate_signal', '{}', {});
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal((await json(res)).errors[0].code, 'UNAUTHORIZED');
  });
});
