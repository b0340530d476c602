import type { Principal } from '../../../auth/index.ts';
import type { Queryable } from '../../../db/database.ts';
import type { BrandRecord } from '../../../protocol/brand-identity.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { publishedSchemas, textInput, type AgentTask, type TaskArguments } from '../../runtime/index.ts';
import { authorizedFields, identityFields, sectionsOf, type IdentityField } from './identity-of.ts';

/** What the brand agent reads of the registry, as the composition root hands it. */
export interface BrandRecords {
  /** The registry's record of a brand (by domain, registry id, or its brand.json id); undefined when unknown. */
  record(brandId: string): Promise<BrandRecord | undefined>;
  /** Whether the caller has rights to a brand: its organization proved control of one of these domains. */
  unlocks(db: Queryable, caller: Principal, domains: readonly string[]): Promise<boolean>;
  /** Begins and ends keeping records in memory, with the agent (a failure leaves it reading the database). */
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

interface IdentityArgs extends TaskArguments {
  brand_id: string;
  fields?: IdentityField[];
  use_case?: string;
}

/**
 * `get_brand_identity` (brand/get-brand-identity-request.json): the registry's own record of a
 * brand, never an invented one. The house and names always; the public sections for anyone; the
 * sections the schema reserves for authorized callers only for a caller whose organization proved
 * control of the brand's or its house's domain, the others told what they could unlock
 * (`available_fields`). `fields` narrows the sections.
 */
export function getBrandIdentityTask(records: BrandRecords): AgentTask<IdentityArgs> {
  return {
    name: 'get_brand_identity',
    description:
      'A brand’s identity as the registry records it (by domain, registry id or brand.json id): house, names, description, industries, architecture, logos, colours, fonts, tagline; tone and the other reserved sections for a caller whose organization proved the brand’s domain. fields narrows the sections.',
    input: {
      type: 'object',
      properties: {
        brand_id: { type: 'string', maxLength: 253, description: 'The brand’s domain, registry id, or brand.json id.' },
        fields: {
          type: 'array',
          minItems: 1,
          maxItems: identityFields.length,
          items: { type: 'string', enum: [...identityFields] },
        },
        use_case: textInput('name', 'What the identity is for'),
      },
      required: ['brand_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('brand/get-brand-identity'),
    mutates: false,
    async handler(args, ctx) {
      const record = await records.record(args.brand_id);
      if (!record)
        throw new AgentError('REFERENCE_NOT_FOUND', `The registry knows no brand ${args.brand_id}.`, {
          field: 'brand_id',
          suggestion: 'Name the brand by its domain; GET /api/brands/find finds a brand by name.',
        });
      const sections = sectionsOf(record);
      const asked = new Set<IdentityField>(args.fields ?? identityFields);
      const held = identityFields.filter((f) => asked.has(f) && sections[f] !== undefined);
      const reserved = held.some((f) => authorizedFields.has(f));
      const authorized =
        reserved && (await records.unlocks(ctx.db, ctx.principal, [record.domain, record.house.domain]));
      const shown = held.filter((f) => authorized || !authorizedFields.has(f));
      const withheld = held.filter((f) => !shown.includes(f));
      return {
        brand_id: args.brand_id,
        house: record.house,
        // The registry keeps the brand's name, not the language it is in: BCP 47's "undetermined".
        names: [{ und: record.name }],
        ...Object.fromEntries(shown.map((f) => [f, sections[f]])),
        ...(withheld.length > 0 ? { available_fields: withheld } : {}),
      };
    },
  };
}
