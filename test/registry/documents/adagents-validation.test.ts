import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { schemasDir } from '../../../src/protocol/schemas.ts';
import { generateKeyPairSync } from 'node:crypto';
import {
  adagentsErrorCodes,
  adagentsWarningCodes,
  findingCodes,
  validateAdagents,
  validateAdagentsText,
  type AdagentsValidationOptions,
  type Issue,
} from '../../../src/registry/documents/adagents-validation/validate.ts';

const now = new Date('2026-03-01T12:00:00Z');
const seenCodes = new Set<string>();

function check(doc: unknown, options: AdagentsValidationOptions = {}) {
  const result = validateAdagents(doc, { now, ...options });
  for (const found of [...result.warnings, ...result.errors]) seenCodes.add(found.code);
  return result;
}

/** The errors as `code pointer`. */
function errorsOf(doc: unknown): string[] {
  return check(doc).errors.map((error: Issue) => `${error.code} ${error.pointer}`);
}

/** The warnings as `code path`, the part a publisher acts on. */
function warningsOf(doc: unknown, options: AdagentsValidationOptions = {}): string[] {
  return check(doc, options).warnings.map((warning: Issue) => `${warning.code} ${warning.path}`);
}

function publisherFile() {
  return {
    $schema: '/schemas/3.0.6/adagents.json',
    contact: { name: 'Daily Planet Ad Operations', email: 'adops@dailyplanet.example', domain: 'dailyplanet.example' },
    properties: [
      {
        property_id: 'planet_web',
        property_type: 'website',
        name: 'Daily Planet',
        identifiers: [{ type: 'domain', value: 'dailyplanet.example' }],
        tags: ['news', 'premium'],
        publisher_domain: 'dailyplanet.example',
      },
      {
        property_id: 'planet_ios',
        property_type: 'mobile_app',
        name: 'Daily Planet for iOS',
        identifiers: [{ type: 'ios_bundle', value: 'com.dailyplanet.news' }],
        tags: ['news', 'apps'],
        publisher_domain: 'dailyplanet.example',
      },
    ],
    tags: {
      news: { name: 'News', description: 'Everything carrying the news' },
      premium: { name: 'Premium', description: 'Brand-safe flagship inventory' },
      apps: { name: 'Apps', description: 'Mobile applications' },
    },
    placements: [
      { placement_id: 'home_top', name: 'Homepage top banner', property_ids: ['planet_web'], tags: ['homepage'] },
    ],
    authorized_agents: [
      {
        url: 'https://sales.dailyplanet.example/ap',
        authorized_for: 'All Daily Planet news inventory',
        authorization_type: 'property_tags',
        property_tags: ['news'],
        delegation_type: 'direct',
      } as Record<string, unknown>,
      {
        url: 'https://ssp.example.com/ap',
        authorized_for: 'Homepage display in the US and Canada',
        authorization_type: 'property_ids',
        property_ids: ['planet_web'],
        placement_ids: ['home_top'],
        placement_tags: ['homepage'],
        delegation_type: 'delegated',
        countries: ['US', 'CA'],
        effective_from: '2026-01-01T00:00:00Z',
        effective_until: '2026-12-31T23:59:59Z',
      } as Record<string, unknown>,
    ],
    last_updated: '2026-02-15T09:30:00Z',
  };
}

function signalsFile() {
  return {
    contact: { name: 'Example Data Co' },
    signals: [
      { id: 'auto_intenders', name: 'Auto intenders', value_type: 'binary', tags: ['automotive'] },
      { id: 'home_movers', name: 'Home movers', value_type: 'binary', tags: ['property'] },
    ],
    authorized_agents: [
      {
        url: 'https://signals.example.com',
        authorized_for: 'Automotive',
        authorization_type: 'signal_tags',
        signal_tags: ['automotive'],
      },
      {
        url: 'https://dsp.example.com',
        authorized_for: 'Movers',
        authorization_type: 'signal_ids',
        signal_ids: ['home_movers'],
      },
    ] as Record<string, unknown>[],
    last_updated: '2026-02-15T09:30:00Z',
  };
}

describe('validateAdagents', () => {
  it('passes a well-formed publisher file with nothing to report', () => {
    assert.deepEqual(check(publisherFile()), { valid: true, errors: [], warnings: [] });
    assert.deepEqual(check(signalsFile()), { valid: true, errors: [], warnings: [] });
  });

  it('validates every example the schema publishes', () => {
    const schema = JSON.parse(readFileSync(join(schemasDir, '3.0.6/adagents.json'), 'utf8')) as { examples: unknown[] };
    for (const [index, example] of schema.examples.entries()) {
      const result = check(example);
      assert.equal(result.valid, true, `example ${index}: ${JSON.stringify(result.errors)}`);
    }
  });

  it('reports schema violations as errors at their path', () => {
    const doc = publisherFile();
    doc.authorized_agents[0]!['authorized_for'] = 5;
    assert.deepEqual(check(doc).errors, [
      {
        path: '$.authorized_agents[0].authorized_for',
        pointer: '/authorized_agents/0/authorized_for',
        message: 'must be string',
        code: 'schema_violation',
      },
    ]);
    assert.equal(check(doc).valid, false);
  });

  it('still warns about a file that breaks the schema, without tripping over its shape', () => {
    const doc = {
      authorized_agents: [null, 'x', { url: 'http://agent.example' }],
      properties: 'none',
      placements: [7],
    };
    const result = check(doc);
    assert.equal(result.valid, false);
    assert.deepEqual(
      result.warnings.map((warning) => warning.code),
      ['last_updated_missing', 'agent_url_not_https'],
    );
  });
});

describe('validateAdagentsText', () => {
  it('reports text that is not JSON as one error at $', () => {
    const result = validateAdagentsText('{"authorized_agents": [', { now });
    for (const error of result.errors) seenCodes.add(error.code);
    assert.equal(result.valid, false);
    assert.equal(result.warnings.length, 0);
    assert.equal(result.errors.length, 1);
    assert.equal(result.errors[0]!.path, '$');
    assert.equal(result.errors[0]!.code, 'invalid_json');
    assert.match(result.errors[0]!.message, /^is not valid JSON/);
  });

  it('accepts a byte-order mark', () => {
    const result = validateAdagentsText(`\uFEFF${JSON.stringify(publisherFile())}`, { now });
    assert.deepEqual(result, { valid: true, errors: [], warnings: [] });
  });
});

describe('adagents.json warnings', () => {
  it('reference_file: the real file lives elsewhere', () => {
    const doc = {
      authoritative_location: 'https://cdn.network.example/adagents.json',
      last_updated: '2026-02-01T00:00:00Z',
    };
    const result = check(doc);
    assert.equal(result.valid, true);
    assert.equal(result.warnings.length, 1);
    assert.equal(result.warnings[0]!.code, 'reference_file');
    assert.equal(result.warnings[0]!.path, '$.authoritative_location');
    assert.match(result.warnings[0]!.message, /https:\/\/cdn\.network\.example\/adagents\.json/);
    // A reference's own timestamp is optional.
    assert.deepEqual(warningsOf({ authoritative_location: 'https://cdn.network.example/adagents.json' }), [
      'reference_file $.authoritative_location',
    ]);
  });

  it('reference_and_inline: both a reference and agents', () => {
    const doc = { ...publisherFile(), authoritative_location: 'https://cdn.network.example/adagents.json' };
    assert.ok(warningsOf(doc).includes('reference_and_inline $.authoritative_location'));
  });

  it('last_updated_missing, last_updated_in_future, last_updated_stale', () => {
    const doc: Record<string, unknown> = publisherFile();
    delete doc['last_updated'];
    assert.deepEqual(warningsOf(doc), ['last_updated_missing $.last_updated']);
    doc['last_updated'] = '2026-03-02T12:00:00Z';
    assert.deepEqual(warningsOf(doc), ['last_updated_in_future $.last_updated']);
    doc['last_updated'] = '2026-03-01T12:03:00Z';
    assert.deepEqual(warningsOf(doc), [], 'a few minutes of clock skew is tolerated');
    doc['last_updated'] = '2024-12-01T00:00:00Z';
    assert.deepEqual(warningsOf(doc), ['last_updated_stale $.last_updated']);
    doc['last_updated'] = '2026-01-01T00:00:00Z';
    assert.deepEqual(warningsOf(doc, { staleAfterDays: 30 }), ['last_updated_stale $.last_updated']);
  });

  it('agent_url_not_https', () => {
    const doc = publisherFile();
    doc.authorized_agents[1]!['url'] = 'http://ssp.example.com/ap';
    assert.deepEqual(warningsOf(doc), ['agent_url_not_https $.authorized_agents[1].url']);
  });

  it('duplicate_agent_url: the same agent with the same authorization twice', () => {
    const doc = publisherFile();
    doc.authorized_agents.push({ ...doc.authorized_agents[0]!, authorized_for: 'News again' });
    assert.deepEqual(warningsOf(doc), ['duplicate_agent_url $.authorized_agents[2].url']);
  });

  it('no warning for one agent holding entries with different scopes', () => {
    const doc = publisherFile();
    doc.authorized_agents.push({ ...doc.authorized_agents[0]!, property_tags: ['apps'], delegation_type: 'delegated' });
    assert.deepEqual(warningsOf(doc), []);
  });

  it('inconsistent_agent_url: one agent written two ways', () => {
    const doc = publisherFile();
    doc.authorized_agents.push({
      ...doc.authorized_agents[0]!,
      url: 'https://Sales.DailyPlanet.example:443/%61p',
      property_tags: ['apps'],
    });
    assert.deepEqual(warningsOf(doc), ['inconsistent_agent_url $.authorized_agents[2].url']);
  });

  it('authorization_expired, authorization_not_yet_effective and no_authorized_agents', () => {
    const doc = publisherFile();
    doc.authorized_agents[0]!['effective_until'] = '2026-02-01T00:00:00Z';
    doc.authorized_agents[1]!['effective_from'] = '2026-04-01T00:00:00Z';
    assert.deepEqual(warningsOf(doc), [
      'authorization_expired $.authorized_agents[0].effective_until',
      'authorization_not_yet_effective $.authorized_agents[1].effective_from',
      'no_authorized_agents $.authorized_agents',
    ]);
  });

  it('authorization_window_empty', () => {
    const doc = publisherFile();
    doc.authorized_agents[1]!['effective_until'] = '2025-12-31T00:00:00Z';
    assert.deepEqual(warningsOf(doc), ['authorization_window_empty $.authorized_agents[1].effective_until']);
  });

  it('unknown_property_id and unknown_placement_id, from agents and placements', () => {
    const doc = publisherFile();
    doc.authorized_agents[1]!['property_ids'] = ['planet_web', 'planet_android'];
    doc.authorized_agents[1]!['placement_ids'] = ['home_bottom'];
    doc.placements[0]!.property_ids = ['planet_tv'];
    assert.deepEqual(warningsOf(doc), [
      'unknown_property_id $.authorized_agents[1].property_ids[1]',
      'unknown_placement_id $.authorized_agents[1].placement_ids[0]',
      'unknown_property_id $.placements[0].property_ids[0]',
    ]);
  });

  it('unknown_property_tag and unknown_placement_tag: tags no entry carries', () => {
    const doc = publisherFile();
    // Described in the tags object, but no property has it, so it selects nothing.
    doc.tags = { ...doc.tags, all: { name: 'All', description: 'Everything' } } as typeof doc.tags;
    doc.authorized_agents[0]!['property_tags'] = ['all'];
    doc.authorized_agents[1]!['placement_tags'] = ['sidebar'];
    assert.deepEqual(warningsOf(doc), [
      'unknown_property_tag $.authorized_agents[0].property_tags[0]',
      'unknown_placement_tag $.authorized_agents[1].placement_tags[0]',
    ]);
  });

  it('unknown_signal_id and unknown_signal_tag', () => {
    const doc = signalsFile();
    doc.authorized_agents[0]!['signal_tags'] = ['automotive', 'finance'];
    doc.authorized_agents[1]!['signal_ids'] = ['home_sellers'];
    assert.deepEqual(warningsOf(doc), [
      'unknown_signal_tag $.authorized_agents[0].signal_tags[1]',
      'unknown_signal_id $.authorized_agents[1].signal_ids[0]',
    ]);
  });

  it('duplicate_property_id, duplicate_placement_id, duplicate_signal_id', () => {
    const publisher = publisherFile();
    publisher.properties[1]!.property_id = 'planet_web';
    publisher.placements.push({ ...publisher.placements[0]!, name: 'Another' });
    assert.deepEqual(warningsOf(publisher), [
      'duplicate_property_id $.properties[1].property_id',
      'duplicate_placement_id $.placements[1].placement_id',
    ]);
    const data = signalsFile();
    data.signals[1]!.id = 'auto_intenders';
    assert.deepEqual(warningsOf(data), [
      'duplicate_signal_id $.signals[1].id',
      'unknown_signal_id $.authorized_agents[1].signal_ids[0]',
    ]);
  });
});

describe('agent URLs', () => {
  const withUrl = (url: string) => {
    const doc = publisherFile();
    doc.authorized_agents[0]!['url'] = url;
    return doc;
  };

  it('agent_url_credentials is an error, and the message does not repeat the secret', () => {
    const result = check(withUrl('https://ops:hunter2@sales.dailyplanet.example/ap'));
    assert.deepEqual(
      result.errors.map((e) => `${e.code} ${e.pointer}`),
      ['agent_url_credentials /authorized_agents/0/url'],
    );
    assert.doesNotMatch(result.errors[0]!.message, /hunter2/);
  });

  it('agent_url_invalid: not an http(s) URL', () => {
    assert.deepEqual(errorsOf(withUrl('ftp://sales.dailyplanet.example/ap')), [
      'agent_url_invalid /authorized_agents/0/url',
    ]);
  });

  it('agent_url_fragment and agent_url_not_public_host', () => {
    assert.deepEqual(warningsOf(withUrl('https://sales.dailyplanet.example/ap#mcp')), [
      'agent_url_fragment $.authorized_agents[0].url',
    ]);
    for (const url of [
      'https://203.0.113.7/ap',
      'https://[2001:db8::1]/ap',
      'https://localhost:8443/ap',
      'https://sales/ap',
    ]) {
      assert.deepEqual(warningsOf(withUrl(url)), ['agent_url_not_public_host $.authorized_agents[0].url'], url);
    }
  });
});

describe('duplicate identifiers', () => {
  it('duplicate_identifier: the same identifier in two properties (domains compared without case)', () => {
    const doc = publisherFile();
    doc.properties[1]!.identifiers.push({ type: 'domain', value: 'DailyPlanet.example' });
    assert.deepEqual(warningsOf(doc), ['duplicate_identifier $.properties[1].identifiers[1]']);
    const apps = publisherFile();
    apps.properties[1]!.identifiers.push({ type: 'ios_bundle', value: 'com.DailyPlanet.news' });
    assert.deepEqual(warningsOf(apps), [], 'app ids compare exactly');
  });
});

describe('signing keys', () => {
  const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
  const withKeys = (...keys: Record<string, unknown>[]) => {
    const doc = publisherFile();
    doc.authorized_agents[0]!['signing_keys'] = keys;
    return doc;
  };

  it('accepts public OKP, EC and RSA keys', () => {
    const result = check(
      withKeys(
        { kid: 'a', alg: 'EdDSA', use: 'sig', ...ed },
        { kid: 'b', alg: 'ES256', ...ec },
        { kid: 'c', alg: 'PS256', ...rsa },
      ),
    );
    assert.deepEqual(result, { valid: true, errors: [], warnings: [] });
  });

  it('signing_key_private_material, signing_key_unsupported_type, signing_key_missing_member', () => {
    const secret = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    assert.deepEqual(errorsOf(withKeys({ kid: 'a', ...secret })), [
      'signing_key_private_material /authorized_agents/0/signing_keys/0/d',
    ]);
    assert.deepEqual(errorsOf(withKeys({ kid: 'a', kty: 'oct', k: 'c2VjcmV0' })), [
      'signing_key_private_material /authorized_agents/0/signing_keys/0/k',
    ]);
    assert.deepEqual(errorsOf(withKeys({ kid: 'a', kty: 'DSA' })), [
      'signing_key_unsupported_type /authorized_agents/0/signing_keys/0/kty',
    ]);
    assert.deepEqual(errorsOf(withKeys({ kid: 'a', kty: 'EC', crv: 'P-256', x: ec.x })), [
      'signing_key_missing_member /authorized_agents/0/signing_keys/0',
    ]);
  });

  it('signing_key_invalid: encoding, size, curve, a point off the curve', () => {
    const at = '/authorized_agents/0/signing_keys/0';
    assert.deepEqual(errorsOf(withKeys({ kid: 'a', ...ed, x: 'not base64url!' })), [`signing_key_invalid ${at}/x`]);
    assert.deepEqual(errorsOf(withKeys({ kid: 'a', ...ed, x: ed.x!.slice(0, 20) })), [`signing_key_invalid ${at}/x`]);
    assert.deepEqual(errorsOf(withKeys({ kid: 'a', ...ed, crv: 'X25519' })), [`signing_key_invalid ${at}/crv`]);
    const offCurve = Buffer.from(ec.y!, 'base64url');
    offCurve[31] = offCurve[31]! ^ 1;
    assert.deepEqual(errorsOf(withKeys({ kid: 'a', ...ec, y: offCurve.toString('base64url') })), [
      `signing_key_invalid ${at}`,
    ]);
  });

  it('duplicate_signing_key_id, signing_key_algorithm_mismatch, signing_key_not_for_signing', () => {
    const doc = withKeys({ kid: 'a', ...ed, alg: 'ES256' }, { kid: 'a', ...ec, use: 'enc' });
    assert.deepEqual(errorsOf(doc), ['duplicate_signing_key_id /authorized_agents/0/signing_keys/1/kid']);
    assert.deepEqual(warningsOf(doc), [
      'signing_key_algorithm_mismatch $.authorized_agents[0].signing_keys[0].alg',
      'signing_key_not_for_signing $.authorized_agents[0].signing_keys[1].use',
    ]);
  });
});

// Runs last: the suites above run in order.
describe('finding codes', () => {
  it('are snake_case, all exercised above (but those only a fetch finds), and nothing emits an undeclared one', () => {
    const codes = [...adagentsErrorCodes, ...adagentsWarningCodes];
    assert.equal(codes.length, Object.keys(findingCodes).length, 'every code is an error or a warning');
    for (const code of codes) assert.match(code, /^[a-z]+(_[a-z]+)*$/);
    const ofDocuments = codes.filter((code) => !('fetch' in findingCodes[code]));
    assert.deepEqual([...seenCodes].sort(), ofDocuments.sort());
  });
});
