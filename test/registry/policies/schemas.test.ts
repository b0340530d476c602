import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { schemasDir, validateSchema } from '../../../src/protocol/schemas.ts';
import { loadWorld } from '../../../src/registry/demo/world.ts';
import { toPolicy } from '../../../src/registry/policies/rows.ts';
import {
  channels,
  enforcementLevels,
  governanceDomains,
  policyCategories,
  SaveBody,
} from '../../../src/registry/policies/schemas.ts';
import { entryOf } from '../../../src/registry/policies/service.ts';
import type { PolicyRow } from '../../../src/registry/policies/sql.ts';

const POLICY_ENTRY = '/schemas/3.0.6/governance/policy-entry.json';
const enumOf = (name: string) =>
  (JSON.parse(readFileSync(join(schemasDir, '3.0.6', 'enums', `${name}.json`), 'utf8')) as { enum: string[] }).enum;

/** The policy-entry fields of an answer: what resolve says beyond them is the registry's metadata, and null or empty means absent. */
function entryPart(policy: Record<string, unknown>): Record<string, unknown> {
  const registryOwn = ['source_type', 'review_status', 'revision_number', 'created_at', 'updated_at'];
  return Object.fromEntries(Object.entries(policy).filter(([k, v]) => !registryOwn.includes(k) && v !== null));
}

describe('the policy registry’s schemas', () => {
  it('take the protocol’s enums as published', () => {
    assert.deepEqual([...policyCategories], enumOf('policy-category'));
    assert.deepEqual([...enforcementLevels], enumOf('policy-enforcement'));
    assert.deepEqual([...governanceDomains], enumOf('governance-domain'));
    assert.deepEqual([...channels], enumOf('channels'));
  });

  const world = loadWorld();
  const documents = [...world.earlierPolicies, ...world.policies];
  const row = (document: Record<string, unknown>): PolicyRow => {
    const entry = entryOf(document);
    const at = new Date('2026-03-01T12:00:00.000Z');
    return {
      policy_id: entry.policy_id,
      source_type: 'registry',
      review_status: 'approved',
      owner_organization_id: null,
      version: entry.version,
      entry,
      revision: 1,
      created_at: at,
      updated_at: at,
    };
  };

  it('resolve answers a valid policy-entry beside the registry’s metadata, for each demo policy', () => {
    assert.ok(documents.length >= 4);
    for (const document of documents) {
      const answer = toPolicy(row(document)) as Record<string, unknown>;
      assert.deepEqual(validateSchema(POLICY_ENTRY, entryPart(answer)).errors, [], String(document['policy_id']));
      const { source: _source, ...withoutSource } = document;
      assert.deepEqual(entryPart(answer), {
        requires_human_review: false,
        jurisdictions: [],
        region_aliases: {},
        policy_categories: [],
        governance_domains: [],
        ...withoutSource,
      });
    }
  });

  it('each demo policy is one a community save could send, within every bound', () => {
    const ajv = new Ajv({ coerceTypes: false, removeAdditional: false });
    addFormats.default(ajv);
    const validate = ajv.compile(SaveBody);
    for (const document of documents) {
      const { source: _source, ...body } = document;
      // Registry ids may hold colons; these are flat, as a community save's are.
      assert.ok(validate(body), `${String(document['policy_id'])}: ${JSON.stringify(validate.errors)}`);
    }
  });

  it('keeps the demo’s current versions apart from the earlier ones, which have a history to pin', () => {
    const current = new Map(world.policies.map((d) => [d['policy_id'], d['version']]));
    for (const earlier of world.earlierPolicies) {
      assert.ok(current.has(earlier['policy_id']), String(earlier['policy_id']));
      assert.notEqual(current.get(earlier['policy_id']), earlier['version']);
    }
    const regulations = world.policies.filter((d) => d['category'] === 'regulation');
    assert.ok(
      new Set(regulations.flatMap((d) => d['jurisdictions'] as string[])).size >= 3,
      'regulations of several jurisdictions',
    );
    assert.ok(world.policies.some((d) => d['category'] === 'standard'));
  });
});
