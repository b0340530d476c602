import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { ManualClock } from '../../support/clock.ts';
import { engines } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { publicToken, startSignals } from './harness.ts';

const ACTIVATE_RESPONSE = '/schemas/3.0.6/signals/activate-signal-response.json';
const agentTarget = { type: 'agent', agent_url: 'https://sales.buyer.example/mcp' };

/** The signals tasks over plain HTTP: payloads as they are, errors in the signals envelope `{errors: [...]}` with the code's status. */
describe('signals agent: tasks over plain HTTP', () => {
  let server: TestServer;
  const post = (task: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/signals/tasks/${task}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publicToken}`, 'content-type': 'application/json', ...headers },
      body,
    });
  const activation = (args: Json) =>
    JSON.stringify({ idempotency_key: randomUUID(), destinations: [agentTarget], ...args });
  /** The envelope's one error, after checking the envelope against the published schemas. */
  const envelopeError = async (res: Response): Promise<Json> => {
    const body = await json(res);
    assert.deepEqual(Object.keys(body), ['status', 'errors']);
    assert.deepEqual(
      validateSchema(ACTIVATE_RESPONSE, body).errors,
      [],
      'the error branch of activate_signal’s response',
    );
    assert.equal(body.errors.length, 1);
    const [error] = body.errors as Json[];
    assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', error).errors, []);
    assert.equal(typeof error!.message, 'string');
    return error!;
  };

  before(async () => {
    server = await startSignals(engines[0]!, { clock: new ManualClock() });
  });
  after(() => server.close());

  it('answers an unknown segment id 404 with {errors: [{code: SIGNAL_AGENT_SEGMENT_NOT_FOUND, message, field, suggestion}]}', async () => {
    const res = await post('activate_signal', activation({ signal_agent_segment_id: 'no_such_signal' }));
    assert.equal(res.status, 404);
    const error = await envelopeError(res);
    assert.deepEqual(
      [error.code, error.field, error.recovery],
      ['SIGNAL_AGENT_SEGMENT_NOT_FOUND', 'signal_agent_segment_id', 'correctable'],
    );
    assert.match(error.message, /no_such_signal/);
    assert.match(error.suggestion, /get_signals/);
  });

  it('answers each refusal with its code’s status', async () => {
    const cases: Array<[Json, number, string]> = [
      [
        { signal_agent_segment_id: 'agr_runners', destinations: [{ type: 'platform', platform: 'nowhere-dsp' }] },
        403,
        'DEPLOYMENT_UNAUTHORIZED',
      ],
      [
        { signal_agent_segment_id: 'agr_runners', destinations: [{ type: 'platform', platform: 'alpha-dsp' }] },
        409,
        'ALREADY_ACTIVATED',
      ],
      [
        { signal_agent_segment_id: 'lum_coffee', destinations: [{ type: 'platform', platform: 'alpha-dsp' }] },
        502,
        'ACTIVATION_FAILED',
      ],
      [{ signal_agent_segment_id: 'cst_acme_lookalikes' }, 403, 'AGENT_ACCESS_DENIED'],
      [{ signal_agent_segment_id: 'own_acme_crm' }, 404, 'AGENT_NOT_FOUND'],
      [{ signal_agent_segment_id: 'agr_runners', destinations: [] }, 400, 'INVALID_REQUEST'],
    ];
    for (const [args, status, code] of cases) {
      const res = await post('activate_signal', activation(args));
      assert.equal(res.status, status, code);
      assert.equal((await envelopeError(res)).code, code);
    }
  });

  it('lists every refused target of an activation as its own error, under the first one’s status', async () => {
    const res = await post(
      'activate_signal',
      activation({
        signal_agent_segment_id: 'agr_runners',
        destinations: [
          { type: 'platform', platform: 'nowhere-dsp' },
          agentTarget,
          { type: 'platform', platform: 'gamma-ctv' },
        ],
      }),
    );
    assert.equal(res.status, 403);
    const body = await json(res);
    assert.deepEqual(
      validateSchema(ACTIVATE_RESPONSE, body).errors,
      [],
      'the error branch of activate_signal’s response',
    );
    assert.deepEqual(
      (body.errors as Json[]).map((e) => [e.code, e.field]),
      [
        ['DEPLOYMENT_UNAUTHORIZED', 'destinations[0].platform'],
        ['ACTIVATION_FAILED', 'destinations[2].platform'],
      ],
    );
  });

  it('answers a body that is not JSON in the envelope too, never a 500', async () => {
    for (const body of ['{"signal_agent_segment_id": ', 'not json at all', '[1, 2]']) {
      const res = await post('activate_signal', body);
      assert.equal(res.status, 400, body);
      assert.equal((await envelopeError(res)).code, 'INVALID_REQUEST', body);
    }
    const wrongType = await post('activate_signal', 'signal_agent_segment_id=agr_runners', {
      'content-type': 'text/plain',
    });
    assert.equal(wrongType.status, 415);
    assert.equal((await envelopeError(wrongType)).code, 'INVALID_REQUEST');
  });

  it('answers successes with the payload itself', async () => {
    const found = await post('get_signals', JSON.stringify({ signal_spec: 'marathon runners' }));
    assert.equal(found.status, 200);
    const signals = await json(found);
    assert.deepEqual(validateSchema('/schemas/3.0.6/signals/get-signals-response.json', signals).errors, []);
    assert.equal(signals.signals[0].signal_agent_segment_id, 'agr_runners');
    const activated = await post('activate_signal', activation({ signal_agent_segment_id: 'agr_runners' }));
    assert.equal(activated.status, 200);
    const answer = await json(activated);
    assert.deepEqual(validateSchema(ACTIVATE_RESPONSE, answer).errors, []);
    assert.equal(answer.deployments[0].is_live, true);
  });
});
