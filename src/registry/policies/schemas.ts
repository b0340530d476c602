import { Type, type Static } from 'typebox';
import { maxLikeText } from '../../db/like.ts';
import { historyPage } from '../entries/index.ts';

/**
 * The policy registry's wire schemas: the protocol's governance/policy-entry.json for what a policy
 * says, with the fields the registry client reads around it (PolicySummary, Policy, PolicyHistory,
 * the save's answer) and the bounds every input gets.
 */

/** enums/policy-category.json */
export const policyCategories = ['regulation', 'standard'] as const;
/** enums/policy-enforcement.json */
export const enforcementLevels = ['must', 'should', 'may'] as const;
/** enums/governance-domain.json */
export const governanceDomains = ['campaign', 'property', 'creative', 'content_standards'] as const;
/** enums/channels.json */
export const channels = [
  'display',
  'olv',
  'social',
  'search',
  'ctv',
  'linear_tv',
  'radio',
  'streaming_audio',
  'podcast',
  'dooh',
  'ooh',
  'print',
  'cinema',
  'email',
  'gaming',
  'retail_media',
  'influencer',
  'affiliate',
  'product_placement',
  'sponsored_intelligence',
] as const;

const literals = <T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );

/**
 * A policy id as looked up: the registry's canonical ids may hold `:` (`garm:brand_safety:violence`),
 * so lookups take the letters the registry's ids are made of.
 */
const LookupId = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[a-z0-9][a-z0-9_:.-]*$',
  description: 'A policy_id, e.g. uk_hfss.',
});

/** A policy id as a community save names it: flat, lowercase letters, digits and underscores. */
const SavedId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z][a-z0-9_]*$',
  description:
    'Lowercase letters, digits and underscores, beginning with a letter (no colons or slashes: those are the registry’s own ids).',
});

/** Semantic version 2.0.0, e.g. 1.0.0 or 2.1.0-draft.1. */
const semver = {
  minLength: 5,
  maxLength: 64,
  pattern: '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$',
};
const Version = Type.String({ ...semver, description: 'Semantic version, e.g. 1.0.0.' });

/** A jurisdiction: an ISO 3166-1 alpha-2 code, or a region alias such as EU. */
const Jurisdiction = Type.String({
  minLength: 2,
  maxLength: 32,
  pattern: '^[A-Z][A-Z0-9_]+$',
  description: 'ISO 3166-1 alpha-2 code (GB, US) or a region alias (EU).',
});

/** A policy category id (governance/policy-category-definition.json's category_id). */
const PolicyCategoryId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z][a-z0-9_]*$',
  description: 'e.g. children_directed, age_restricted.',
});

const Exemplar = Type.Object(
  {
    scenario: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'A concrete advertising action or configuration.',
    }),
    explanation: Type.String({ minLength: 1, maxLength: 1000, description: 'Why it passes or fails the policy.' }),
  },
  { additionalProperties: false },
);

const Exemplars = Type.Object(
  {
    pass: Type.Optional(Type.Array(Exemplar, { maxItems: 20, description: 'Scenarios that comply.' })),
    fail: Type.Optional(Type.Array(Exemplar, { maxItems: 20, description: 'Scenarios that violate it.' })),
  },
  { additionalProperties: false, description: 'Calibration examples for governance agents.' },
);

const Ext = Type.Object(
  {},
  { additionalProperties: true, maxProperties: 32, description: 'Vendor-namespaced extensions (core/ext.json).' },
);

// The key's pattern bounds its length too: a record's key schema becomes a patternProperties key.
const RegionAliases = Type.Record(
  Type.String({ pattern: '^[A-Z][A-Z0-9_]{1,31}$' }),
  Type.Array(Jurisdiction, { maxItems: 250, uniqueItems: true }),
  {
    maxProperties: 50,
    additionalProperties: false,
    description: 'Named groups of jurisdictions, e.g. {"EU": ["AT", "BE", ...]}.',
  },
);

/** What a community save sends: a policy-entry (without `source`), with the fields the registry requires of a published policy. */
export const SaveBody = Type.Object(
  {
    policy_id: SavedId,
    version: Version,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    category: literals(policyCategories, {
      description: 'regulation (a legal requirement) or standard (a best practice).',
    }),
    enforcement: literals(enforcementLevels, { description: 'must rejects, should warns, may logs.' }),
    policy: Type.String({
      minLength: 1,
      maxLength: 5000,
      description: 'The natural-language policy text governance agents evaluate.',
    }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    requires_human_review: Type.Optional(
      Type.Boolean({ description: 'Plans subject to this policy must set human_review_required.' }),
    ),
    jurisdictions: Type.Optional(
      Type.Array(Jurisdiction, { maxItems: 250, uniqueItems: true, description: 'Empty: not jurisdiction-specific.' }),
    ),
    region_aliases: Type.Optional(RegionAliases),
    policy_categories: Type.Optional(Type.Array(PolicyCategoryId, { maxItems: 50, uniqueItems: true })),
    channels: Type.Optional(
      Type.Array(literals(channels), {
        maxItems: channels.length,
        uniqueItems: true,
        description: 'Omitted: every channel.',
      }),
    ),
    governance_domains: Type.Optional(
      Type.Array(literals(governanceDomains), { maxItems: governanceDomains.length, uniqueItems: true }),
    ),
    effective_date: Type.Optional(
      Type.String({ format: 'date', description: 'When it takes effect (informational before).' }),
    ),
    sunset_date: Type.Optional(
      Type.String({ format: 'date', description: 'When it stops being enforced; not before effective_date.' }),
    ),
    source_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        pattern: '^[hH][tT][tT][pP][sS]?://',
        description: 'The regulation or standard (http or https).',
      }),
    ),
    source_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The issuing body.' })),
    guidance: Type.Optional(
      Type.String({ maxLength: 5000, description: 'Notes for governance agent developers; not used in evaluation.' }),
    ),
    exemplars: Type.Optional(Exemplars),
    ext: Type.Optional(Ext),
  },
  {
    additionalProperties: false,
    description: 'A community policy: created, or the next revision of one this organization contributed.',
  },
);

export type SaveBody = Static<typeof SaveBody>;

/** The largest save body: the fields' bounds allow about 120 KB of text, ext the rest. */
export const saveBodyLimit = 256 * 1024;

export const SaveResult = Type.Object(
  {
    success: Type.Boolean(),
    message: Type.String(),
    policy_id: Type.String(),
    version: Type.String(),
    revision_number: Type.Integer({
      minimum: 1,
      description: 'The revision this save made (1 when it created the policy).',
    }),
  },
  { description: 'The saved policy.' },
);

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

/** The fields a policy and its summary share: the policy-entry's metadata and the registry's own. */
const summaryFields = {
  policy_id: Type.String(),
  version: Type.String(),
  name: Type.String(),
  description: nullable(Type.String()),
  category: literals(policyCategories),
  enforcement: literals(enforcementLevels),
  requires_human_review: Type.Boolean(),
  jurisdictions: Type.Array(Type.String(), { description: 'Empty: the policy applies in every jurisdiction.' }),
  region_aliases: Type.Record(Type.String(), Type.Array(Type.String())),
  policy_categories: Type.Array(Type.String()),
  channels: nullable(Type.Array(Type.String()), 'Null: every channel.'),
  governance_domains: Type.Array(Type.String()),
  effective_date: nullable(Type.String({ format: 'date' })),
  sunset_date: nullable(Type.String({ format: 'date' })),
  source_url: nullable(Type.String()),
  source_name: nullable(Type.String()),
  source_type: Type.Union([Type.Literal('registry'), Type.Literal('community')], {
    description:
      'registry: published by the registry, which a community save cannot change; community: contributed by an organization.',
  }),
  review_status: Type.Union([Type.Literal('pending'), Type.Literal('approved')], {
    description:
      'approved for the registry’s own policies; pending for community ones, which the registry has not reviewed.',
  }),
  revision_number: Type.Integer({ minimum: 1, description: 'The revision shown.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time', description: 'When the revision shown was saved.' }),
};

export const PolicySummary = Type.Object(summaryFields, {
  $id: 'PolicySummary',
  description: 'A policy as the registry listing shows it (no policy text).',
});

export const Policy = Type.Object(
  {
    ...summaryFields,
    policy: Type.String(),
    guidance: nullable(Type.String()),
    exemplars: nullable(Exemplars),
    ext: nullable(Type.Object({}, { additionalProperties: true })),
  },
  { $id: 'Policy', description: 'A policy (governance/policy-entry.json) with the registry’s metadata.' },
);

export const ListQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: maxLikeText,
      description: 'Case-insensitive substring of the policy_id, name or description.',
    }),
  ),
  q: Type.Optional(
    Type.String({ maxLength: maxLikeText, description: 'Same as search (search wins when both are given).' }),
  ),
  category: Type.Optional(literals(policyCategories)),
  enforcement: Type.Optional(literals(enforcementLevels)),
  jurisdiction: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 32,
      pattern: '^[A-Za-z][A-Za-z0-9_]+$',
      description:
        'Policies that apply there: naming it in jurisdictions or in a region alias (a key or a member), or naming no jurisdiction at all. Case-insensitive.',
    }),
  ),
  policy_category: Type.Optional(PolicyCategoryId),
  domain: Type.Optional(literals(governanceDomains, { description: 'A governance domain the policy applies to.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
});

export type ListQuery = Static<typeof ListQuery>;

export const ListPage = Type.Object(
  {
    policies: Type.Array(Type.Ref('PolicySummary')),
    stats: Type.Object(
      {
        total: Type.Integer({ minimum: 0 }),
        regulation: Type.Integer({ minimum: 0 }),
        standard: Type.Integer({ minimum: 0 }),
      },
      { description: 'Policies matching the filters, in all and by category.' },
    ),
    has_more: Type.Boolean({ description: 'More policies match beyond this page (ask with a larger offset).' }),
  },
  { description: 'A page of the policy registry, ordered by policy_id.' },
);

export const ResolveQuery = Type.Object({
  policy_id: LookupId,
  version: Type.Optional(
    Type.String({ ...semver, description: 'Pin a version: the newest revision that carried it (404 when none did).' }),
  ),
});

export const BulkBody = Type.Object(
  { policy_ids: Type.Array(LookupId, { minItems: 1, maxItems: 100, description: 'At most 100 policy ids.' }) },
  { additionalProperties: false },
);

export const BulkResults = Type.Object(
  {
    results: Type.Record(Type.String(), Type.Union([Type.Ref('Policy'), Type.Null()]), {
      description: 'Keyed by each policy_id as sent; null when unknown.',
    }),
  },
  { description: 'One result per requested policy.' },
);

export const HistoryQuery = Type.Object({ policy_id: LookupId, ...historyPage });

export const PolicyHistory = Type.Object(
  {
    policy_id: Type.String(),
    total: Type.Integer({ minimum: 0 }),
    revisions: Type.Array(
      Type.Object({
        revision_number: Type.Integer({ minimum: 1 }),
        version: Type.String({ description: 'The policy’s version at this revision.' }),
        editor_name: Type.String({ description: '`system` for the registry’s own policies.' }),
        edit_summary: Type.String(),
        source_type: Type.String(),
        is_rollback: Type.Boolean({ description: 'Always false: the registry restores no policy revision.' }),
        created_at: Type.String({ format: 'date-time' }),
      }),
      { description: 'Newest first.' },
    ),
  },
  { description: 'The revision history of a policy.' },
);

export const policySchemas = [PolicySummary, Policy];
