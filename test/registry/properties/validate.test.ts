import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startPublishers, type Publishers } from '../../support/publishers.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const path = '/.well-known/adagents.json';

/** A complete, current adagents.json with nothing to warn about. */
function validFile(host: string): Record<string, unknown> {
  return {
    contact: { name: 'Ad Operations', email: `adops@${host}` },
    properties: [
      {
        property_id: 'web',
        property_type: 'website',
        name: 'The Site',
        identifiers: [{ type: 'domain', value: host }],
        tags: ['news'],
        publisher_domain: host,
      },
    ],
    authorized_agents: [
      {
        url: 'https://sales.seller.example/ap',
        authorized_for: 'All news inventory',
        authorization_type: 'property_tags',
        property_tags: ['news'],
      },
    ],
    last_updated: new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString(),
  };
}

eachEngine('adagents.json validation', (engine) => {
  let server: TestServer;
  let publishers: Publishers;
  const validate = async (domain: string): Promise<Json> => {
    const res = await fetch(`${server.url}/api/properties/validate?domain=${encodeURIComponent(domain)}`);
    assert.equal(res.status, 200, domain);
    return json(res);
  };

  before(async () => {
    publishers = await startPublishers();
    server = await startTestServer(engine, { deps: { fetcher: publishers.fetcher } });

    publishers.serve('valid.ap.test', path, { body: validFile('valid.ap.test') });
    publishers.serve('bom.ap.test', path, {
      body: `\uFEFF${JSON.stringify(validFile('bom.ap.test'))}`,
      contentType: 'application/json',
    });

    const invalid = validFile('invalid.ap.test');
    (invalid['authorized_agents'] as Json[])[0]!['authorized_for'] = 5;
    publishers.serve('invalid.ap.test', path, { body: invalid });

    const warned = validFile('warned.ap.test');
    delete warned['last_updated'];
    (warned['authorized_agents'] as Json[]).push({
      url: 'http://plain.seller.example/ap',
      authorized_for: 'Nothing',
      authorization_type: 'property_ids',
      property_ids: ['nope'],
    });
    publishers.serve('warned.ap.test', path, { body: warned });

    publishers.serve('html.ap.test', path, { body: '<!doctype html><title>Welcome</title>' });
    publishers.serve('gone.ap.test', path, { status: 500, body: { error: 'down' } });
    publishers.serve('huge.ap.test', path, { body: { padding: 'x'.repeat(2 * 1024 * 1024) } });
  });
  after(async () => {
    await server.close();
    await publishers.close();
  });

  describe('GET /api/properties/validate', () => {
    it('fetches the domain’s adagents.json and passes a valid file with nothing to report', async () => {
      const result = await validate('valid.ap.test');
      assert.deepEqual(result, {
        domain: 'valid.ap.test',
        url: `https://valid.ap.test${path}`,
        valid: true,
        status_code: 200,
        errors: [],
        warnings: [],
        issues: { errors: [], warnings: [] },
      });
      assert.ok(publishers.seen.includes(`valid.ap.test ${path}`));
    });

    it('normalizes the domain before fetching', async () => {
      const result = await validate('HTTPS://Valid.AP.test/');
      assert.equal(result.domain, 'valid.ap.test');
      assert.equal(result.valid, true);
    });

    it('accepts a file saved with a byte-order mark', async () => {
      const result = await validate('bom.ap.test');
      assert.deepEqual(result.errors, []);
      assert.equal(result.valid, true);
    });

    it('reports schema violations as errors at their JSON path', async () => {
      const result = await validate('invalid.ap.test');
      assert.equal(result.valid, false);
      assert.deepEqual(result.issues.errors, [
        { path: '$.authorized_agents[0].authorized_for', message: 'must be string', code: 'schema_violation' },
      ]);
      assert.deepEqual(
        result.errors,
        ['$.authorized_agents[0].authorized_for: must be string'],
        'the same finding as a line of text, as the protocol’s registry client reads it',
      );
      assert.deepEqual(result.warnings, []);
    });

    it('reports what the schema allows but a publisher should fix as warnings with codes and paths', async () => {
      const result = await validate('warned.ap.test');
      assert.equal(result.valid, true);
      assert.deepEqual(result.errors, []);
      assert.deepEqual(result.issues.warnings.map((w: Json) => `${w.code} ${w.path}`).sort(), [
        'agent_url_not_https $.authorized_agents[1].url',
        'last_updated_missing $.last_updated',
        'unknown_property_id $.authorized_agents[1].property_ids[0]',
      ]);
      for (const warning of result.issues.warnings) assert.equal(typeof warning.message, 'string');
      assert.deepEqual(
        result.warnings,
        result.issues.warnings.map((w: Json) => `${w.path}: ${w.message}`),
      );
    });

    it('reports a missing file as one error at $ with the HTTP status', async () => {
      const result = await validate('missing.ap.test');
      assert.equal(result.valid, false);
      assert.equal(result.url, `https://missing.ap.test${path}`);
      assert.equal(result.errors.length, 1);
      assert.equal(result.issues.errors[0].path, '$');
      assert.equal(result.issues.errors[0].code, 'http_status');
      assert.match(result.issues.errors[0].message, /404/);
      assert.equal(result.status_code, 404);
      assert.deepEqual(result.warnings, []);
      const failing = await validate('gone.ap.test');
      assert.equal(failing.valid, false);
      assert.match(failing.issues.errors[0].message, /500/);
      assert.equal(failing.status_code, 500);
      assert.match(failing.errors[0], /^\$: .*500/);
    });

    it('reports a file that is not JSON as one invalid_json error at $', async () => {
      const result = await validate('html.ap.test');
      assert.equal(result.valid, false);
      assert.equal(result.errors.length, 1);
      assert.equal(result.issues.errors[0].path, '$');
      assert.equal(result.issues.errors[0].code, 'invalid_json');
      assert.match(result.issues.errors[0].message, /not valid JSON/);
      assert.deepEqual(result.warnings, []);
    });

    it('reports a file that cannot be fetched as one fetch_failed error at $', async () => {
      const result = await validate('huge.ap.test');
      assert.equal(result.valid, false);
      assert.equal(result.errors.length, 1);
      assert.equal(result.issues.errors[0].path, '$');
      assert.equal(result.issues.errors[0].code, 'fetch_failed');
      assert.equal(result.status_code, undefined, 'nothing answered in time and size');
      assert.deepEqual(result.warnings, []);
    });

    it('answers 400 without a domain or for one that is not a host name, fetching nothing', async () => {
      const fetched = publishers.seen.length;
      const none = await fetch(`${server.url}/api/properties/validate`);
      assert.equal(none.status, 400);
      assert.equal((await json(none)).error, 'validation_failed');
      for (const domain of ['valid.ap.test:8443', 'valid.ap.test/other', '127.0.0.1']) {
        const res = await fetch(`${server.url}/api/properties/validate?domain=${encodeURIComponent(domain)}`);
        assert.equal(res.status, 400, domain);
        assert.equal((await json(res)).error, 'invalid_domain', domain);
      }
      assert.equal(publishers.seen.length, fetched);
    });
  });
});
