import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import canonicalize from 'canonicalize';
import { compactVerify, createLocalJWKSet, type JWK } from 'jose';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { indexPublisher } from '../../../support/indexed-publisher.ts';
import type { TestServer } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';
import { idempotent, organizationCaller, runPass, startGovernance, type Caller } from '../harness.ts';

eachEngine('governance agent: a property list announces its changes', (engine) => {
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  let server: TestServer;
  let buyer: Caller;

  before(async () => {
    server = await startGovernance(engine, clock, receiver);
    indexPublisher(server.app.authorizationIndex.index, 'news.example', 4);
    indexPublisher(server.app.authorizationIndex.index, 'sport.example', 2);
    buyer = await organizationCaller(server);
  });
  after(async () => {
    await buyer?.client.close();
    await server?.close();
    await receiver.close();
  });

  it('sends one signed property_list_changed webhook when the registry moves under a list, none otherwise', async () => {
    const created = await buyer.call('create_property_list', idempotent({ name: 'All news and sport' }));
    const listId = (created.list as Json).list_id as string;
    await buyer.call('update_property_list', idempotent({ list_id: listId, webhook_url: `${receiver.url}/lists` }));
    await runPass(server, 'list-changes');
    await runPass(server, 'list-changes');
    assert.equal(receiver.events.length, 0, 'the first look records the list; an unchanged list says nothing');

    server.app.authorizationIndex.index.apply('publisher', { publisher_domain: 'sport.example', status: 'stale' });
    await runPass(server, 'list-changes');
    await receiver.until(() => receiver.events.length >= 1);
    await runPass(server, 'list-changes');
    const [event] = receiver.events;
    assert.equal(receiver.events.length, 1);
    const body = event as Json;
    assert.deepEqual(validateSchema('/schemas/3.0.6/property/property-list-changed-webhook.json', body).errors, []);
    assert.equal(body.list_id, listId);
    assert.deepEqual(body.change_summary, { total_properties: 4 });

    // The body's own signature: a detached JWS over its RFC 8785 form, by a key of the JWKS.
    const { signature, ...signed } = body;
    const [header, , sig] = (signature as string).split('.');
    const keys = ((await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: JWK[] }).keys;
    const payload = Buffer.from(canonicalize(signed)!).toString('base64url');
    await compactVerify(`${header}.${payload}.${sig}`, createLocalJWKSet({ keys }));
    await assert.rejects(
      compactVerify(
        `${header}.${Buffer.from(canonicalize({ ...signed, list_name: 'forged' })!).toString('base64url')}.${sig}`,
        createLocalJWKSet({ keys }),
      ),
    );
  });
});
