import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import {
  idInput,
  keysetList,
  ownerOf,
  pageRequestInput,
  publishedSchemas,
  textInput,
  type AgentTask,
  type PageRequest,
  type TaskArguments,
} from '../../runtime/index.ts';
import * as sql from './sql.ts';
import { wireStandards, type Exemplar, type PolicyEntry, type Scope, type StandardsDefinition } from './standard.ts';

/** The registry's policies by id, as the composition root reads them (governance/policy-entry.json, `source: registry`). */
export type RegistryPolicies = (db: Queryable, ids: readonly string[]) => Promise<Map<string, Record<string, unknown>>>;

interface StandardsFields extends TaskArguments {
  name?: string;
  scope?: Scope;
  policies?: PolicyEntry[];
  registry_policy_ids?: string[];
  calibration_exemplars?: { pass?: Exemplar[]; fail?: Exemplar[] };
}

// A standard holds at most this many policies and exemplars: evaluation reads each one per artifact.
const maxPolicies = 200;
const maxExemplars = 500;

const definitionInput = {
  name: textInput('name', 'Human-readable name for the standards'),
  scope: {
    type: 'object',
    description:
      'Where the standards apply: countries_all, channels_any, languages_any (required on create), description.',
  },
  policies: {
    type: 'array',
    minItems: 1,
    maxItems: maxPolicies,
    items: { type: 'object' },
    description:
      'governance/policy-entry.json: {policy_id, enforcement: must|should|may, policy: "Avoid …", policy_categories…}.',
  },
  registry_policy_ids: {
    type: 'array',
    maxItems: maxPolicies,
    items: idInput,
    description: 'Policies of the registry to apply, resolved when saved.',
  },
  calibration_exemplars: {
    type: 'object',
    description: 'pass and fail: artifacts (content-standards/artifact.json) or {type: "url", value}.',
  },
};

/** The policies a standard applies: its bespoke ones, then the registry's it names, as the registry holds them now. */
async function policiesOf(
  db: Queryable,
  registry: RegistryPolicies | undefined,
  args: StandardsFields,
  field: string,
): Promise<PolicyEntry[]> {
  const ids = [...new Set(args.registry_policy_ids ?? [])];
  const found = ids.length > 0 && registry ? await registry(db, ids) : new Map<string, Record<string, unknown>>();
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new AgentError('REFERENCE_NOT_FOUND', `No registry policy ${missing.join(', ')}.`, {
      field: `${field}registry_policy_ids`,
      suggestion: 'List the registry’s policies at /api/policies/registry.',
    });
  const fromRegistry = ids.map((id) => found.get(id) as PolicyEntry);
  const bespoke = (args.policies ?? []).map((p) => ({ ...p, source: p.source ?? 'inline' }));
  const seen = new Set<string>();
  for (const policy of [...bespoke, ...fromRegistry]) {
    if (seen.has(policy.policy_id))
      throw new AgentError('INVALID_REQUEST', `Policy ${policy.policy_id} is named twice.`, {
        field: `${field}policies`,
      });
    seen.add(policy.policy_id);
  }
  return [...bespoke, ...fromRegistry];
}

const normalizedScope = (scope: Scope): Scope => ({
  ...scope,
  ...(scope.countries_all ? { countries_all: scope.countries_all.map((c) => c.toUpperCase()) } : {}),
});

function checkedExemplars(exemplars: StandardsFields['calibration_exemplars']) {
  if (exemplars && (exemplars.pass?.length ?? 0) + (exemplars.fail?.length ?? 0) > maxExemplars)
    throw new AgentError('INVALID_REQUEST', `At most ${maxExemplars} calibration exemplars.`, {
      field: 'calibration_exemplars',
    });
  return exemplars;
}

/** `create_content_standards`: a standard of the caller's, answered by its id. */
export function createStandardsTask(
  registry: RegistryPolicies | undefined,
): AgentTask<StandardsFields & { scope: Scope }> {
  return {
    name: 'create_content_standards',
    description:
      'Create content standards: a scope (languages, countries, channels) and policies (bespoke, or registry_policy_ids resolved from the registry) that calibrate_content and validate_content_delivery apply. Answers the standards_id.',
    input: { type: 'object', properties: definitionInput, required: ['scope'], additionalProperties: true },
    ...publishedSchemas('content-standards/create-content-standards'),
    mutates: true,
    async handler(args, ctx) {
      const policies = await policiesOf(ctx.db, registry, args, '');
      if (policies.length === 0)
        throw new AgentError('INVALID_REQUEST', 'Name policies or registry_policy_ids.', { field: 'policies' });
      const exemplars = checkedExemplars(args.calibration_exemplars);
      const row = await sql.insertStandards(ctx.db, {
        standards_id: `cs_${randomUUID()}`,
        owner: ownerOf(ctx.principal),
        definition: {
          ...(args.name ? { name: args.name } : {}),
          scope: normalizedScope(args.scope),
          policies,
          ...(args.registry_policy_ids ? { registry_policy_ids: args.registry_policy_ids } : {}),
          ...(exemplars ? { calibration_exemplars: exemplars } : {}),
        },
        created_at: ctx.clock.now(),
      });
      return { standards_id: row.standards_id };
    },
  };
}

/** `update_content_standards`: a new version; what it names replaces the standard's (policies whole). */
export function updateStandardsTask(
  registry: RegistryPolicies | undefined,
): AgentTask<StandardsFields & { standards_id: string }> {
  return {
    name: 'update_content_standards',
    description:
      'Update your content standards (a new version): scope, policies and registry_policy_ids (replaced whole), calibration_exemplars.',
    input: {
      type: 'object',
      properties: { standards_id: idInput, ...definitionInput },
      required: ['standards_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('content-standards/update-content-standards'),
    mutates: true,
    async handler(args, ctx) {
      const owner = ownerOf(ctx.principal);
      const row = await ownStandards(ctx.db, owner, args.standards_id);
      const before = row.definition;
      const replacesPolicies = args.policies !== undefined || args.registry_policy_ids !== undefined;
      const policies = replacesPolicies
        ? await policiesOf(
            ctx.db,
            registry,
            {
              ...args,
              policies: args.policies ?? before.policies.filter((p) => p.source !== 'registry'),
              registry_policy_ids: args.registry_policy_ids ?? before.registry_policy_ids ?? [],
            },
            '',
          )
        : before.policies;
      const exemplars = checkedExemplars(args.calibration_exemplars) ?? before.calibration_exemplars;
      const registryIds = args.registry_policy_ids ?? before.registry_policy_ids;
      const definition: StandardsDefinition = {
        ...((args.name ?? before.name) ? { name: (args.name ?? before.name)! } : {}),
        scope: args.scope ? normalizedScope({ ...before.scope, ...args.scope }) : before.scope,
        policies,
        ...(registryIds ? { registry_policy_ids: registryIds } : {}),
        ...(exemplars ? { calibration_exemplars: exemplars } : {}),
      };
      await sql.updateStandards(ctx.db, owner, args.standards_id, definition, ctx.clock.now());
      return { success: true, standards_id: args.standards_id };
    },
  };
}

/** `get_content_standards`. */
export function getStandardsTask(): AgentTask<{ standards_id: string } & TaskArguments> {
  return {
    name: 'get_content_standards',
    description: 'Read one of your content standards: scope, policies and calibration exemplars.',
    input: {
      type: 'object',
      properties: { standards_id: idInput },
      required: ['standards_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('content-standards/get-content-standards'),
    mutates: false,
    async handler(args, ctx) {
      const row = await ownStandards(ctx.db, ownerOf(ctx.principal), args.standards_id);
      return wireStandards(row.standards_id, row.definition);
    },
  };
}

/** `list_content_standards`: the caller's standards, those applying on any channel, language or country named. */
export function listStandardsTask(): AgentTask<sql.StandardsFilter & { pagination?: PageRequest } & TaskArguments> {
  const codes = (maxLength: number) => ({
    type: 'array',
    minItems: 1,
    maxItems: 100,
    items: { type: 'string', maxLength },
  });
  return {
    name: 'list_content_standards',
    description:
      'List your content standards, optionally those applying on any of the channels, languages or countries named. Paginated.',
    input: {
      type: 'object',
      properties: { channels: codes(64), languages: codes(35), countries: codes(2), pagination: pageRequestInput },
      additionalProperties: true,
    },
    ...publishedSchemas('content-standards/list-content-standards'),
    mutates: false,
    async handler(args, ctx) {
      const owner = ownerOf(ctx.principal);
      const filter = { channels: args.channels, languages: args.languages, countries: args.countries };
      const { page, pagination } = await keysetList(
        'cs',
        args.pagination,
        sql.standardsMatching(ctx.db, owner, filter),
      );
      return { standards: page.map((row) => wireStandards(row.standards_id, row.definition)), pagination };
    },
  };
}

/** The caller's standards; REFERENCE_NOT_FOUND for any other, exactly as for none. */
export async function ownStandards(db: Queryable, owner: string, id: string): Promise<sql.StandardsRow> {
  const row = await sql.standardsOf(db, owner, id);
  if (!row)
    throw new AgentError('REFERENCE_NOT_FOUND', `No content standards ${id} of yours.`, { field: 'standards_id' });
  return row;
}
