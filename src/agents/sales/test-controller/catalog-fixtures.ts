import { validateSchema } from '../../../protocol/schemas.ts';
import type { Format, FormatId } from '../../formats/index.ts';
import { PRODUCT_SCHEMA_ID, type PricingOption, type Product } from '../catalog/index.ts';
import type { Offering } from '../offering.ts';
import { Refusal } from './scope.ts';

const FORMAT = '/schemas/3.0.6/core/format.json';
type Fixture = Record<string, unknown>;

/**
 * The products, pricing options and creative formats a sandbox account's fixtures make, built the
 * same way when seeded (to refuse a bad fixture then) and whenever the account's catalog is read.
 * What a fixture leaves out comes from the seller's own catalog: the first product (of the
 * fixture's delivery_type when it names one), its first pricing option, the 300x250 banner.
 * A fixture the result of which its published schema refuses is INVALID_PARAMS.
 */

/** The standard format a seeded format is modeled on when its fixture says little. */
const modelFormatId = 'display_300x250';

/**
 * A creative format seeded as `id`: defined by this sales agent (`agentUrl`), since no creative
 * agent knows it; the fixture's fields over the model banner's renders and assets.
 */
export function seededFormat(id: string, fixture: Fixture, catalog: Offering, agentUrl: string): Format {
  const model = catalog.formats.find((f) => f.format_id.id === modelFormatId) ?? catalog.formats[0];
  const {
    format_id: _id,
    name: _name,
    description: _description,
    assets_required: _required,
    ...shape
  } = structuredClone(model ?? { format_id: { agent_url: agentUrl, id }, name: id });
  const { format_id: _ignored, ...given } = fixture;
  const format = {
    ...shape,
    ...given,
    format_id: { agent_url: agentUrl, id },
    name: typeof fixture['name'] === 'string' ? fixture['name'] : `Test format ${id}`,
  } as Format;
  if (format.description === undefined)
    format.description = 'A creative format seeded by the compliance test controller for this sandbox account.';
  checkShape(FORMAT, format, 'fixture', 'a creative format');
  const assets = Array.isArray(format.assets) ? format.assets : [];
  format.assets_required = assets.filter(
    (a) => a.item_type === 'individual' && a.required === true,
  ) as Format['assets_required'];
  return format;
}

/**
 * A product seeded as `productId`. Its format_ids may leave out agent_url (or be bare ids): the
 * account's seeded format of that id, else the standard one; any other is INVALID_PARAMS (seed the
 * format first). Its pricing options get an id, model and currency when they leave them out.
 */
export function seededProduct(
  productId: string,
  fixture: Fixture,
  catalog: Offering,
  formats: readonly Format[],
): Product {
  const template = catalog.products.find((p) => p.delivery_type === fixture['delivery_type']) ?? catalog.products[0];
  const firstOption = template?.pricing_options[0];
  const currency = firstOption?.currency ?? 'USD';
  const given = fixture['pricing_options'];
  const options = Array.isArray(given)
    ? given.map((o, i) =>
        isObject(o) ? { pricing_option_id: `${productId}_pricing_${i + 1}`, pricing_model: 'cpm', currency, ...o } : o,
      )
    : firstOption
      ? [firstOption]
      : undefined;
  const product: Fixture = {
    name: `Test product ${productId}`,
    description: 'A product seeded by the compliance test controller for this sandbox account.',
    ...(template
      ? {
          publisher_properties: template.publisher_properties,
          format_ids: template.format_ids,
          delivery_type: template.delivery_type,
          reporting_capabilities: template.reporting_capabilities,
        }
      : {}),
    ...(template?.channels && fixture['channels'] === undefined ? { channels: template.channels } : {}),
    ...withoutHidden(fixture),
    product_id: productId,
    ...(options ? { pricing_options: options } : {}),
  };
  if (Array.isArray(fixture['format_ids']))
    product['format_ids'] = fixture['format_ids'].map((f, i) => formatIdOf(f, formats, `fixture.format_ids[${i}]`));
  checkShape(PRODUCT_SCHEMA_ID, product, 'fixture', 'a product');
  return product as Product;
}

/**
 * A pricing option seeded as `optionId` on `product`: the product's first option with the
 * fixture's fields over it, or only its model and currency when the fixture names a price or a
 * model of its own (an auction fixture must not inherit a fixed price).
 */
export function seededPricingOption(optionId: string, fixture: Fixture, product: Product): Product {
  const first = product.pricing_options[0];
  const pricesItself = ['pricing_model', 'fixed_price', 'floor_price'].some((k) => fixture[k] !== undefined);
  const base = first
    ? pricesItself
      ? { pricing_model: first.pricing_model, currency: first.currency }
      : structuredClone(first)
    : { pricing_model: 'cpm', currency: 'USD' };
  const option = { ...base, ...fixture, pricing_option_id: optionId } as PricingOption;
  if (product.pricing_options.some((o) => o.pricing_option_id === optionId)) {
    throw new Refusal(
      'INVALID_PARAMS',
      `Product ${product.product_id} already has a pricing option ${optionId}; seed another id.`,
    );
  }
  const priced = { ...product, pricing_options: [...product.pricing_options, option] };
  checkShape(
    PRODUCT_SCHEMA_ID,
    priced,
    'fixture',
    'a pricing option',
    `$.pricing_options[${product.pricing_options.length}]`,
  );
  return priced;
}

/** A fixture's format id: whole as given when it names its agent, else this account's format of that id. */
function formatIdOf(given: unknown, formats: readonly Format[], field: string): unknown {
  const id =
    typeof given === 'string' ? given : isObject(given) && given['agent_url'] === undefined ? given['id'] : undefined;
  if (typeof id !== 'string') return given;
  // The account's seeded formats come after the standard ones: the last of that id is the one meant.
  const known = formats.findLast((f) => f.format_id.id === id);
  if (!known)
    throw new Refusal(
      'INVALID_PARAMS',
      `${field}: format ${id} is neither a standard format nor one seeded for this account; seed it with seed_creative_format first.`,
    );
  const { id: _id, agent_url: _url, ...dimensions } = isObject(given) ? given : {};
  return { ...known.format_id, ...dimensions } satisfies FormatId;
}

/** The first issue of `value` against its published schema, as INVALID_PARAMS pointing into the fixture. */
function checkShape(schema: string, value: unknown, at: string, what: string, within = '$'): void {
  const issue = validateSchema(schema, value).errors.find((e) => e.path.startsWith(within));
  if (!issue) return;
  const path = issue.path.slice(within.length).replace(/^\./, '');
  throw new Refusal(
    'INVALID_PARAMS',
    `The fixture does not make ${what}: ${path ? `${at}.${path}` : at} ${issue.message}.`,
  );
}

/** Whether a product fixture asks to be left out of get_products (bought only by its id). */
export const isHidden = (fixture: Fixture): boolean => fixture['hidden'] === true;

/** The fixture without `hidden`, which says how it is listed, not what it is. */
function withoutHidden(fixture: Fixture): Fixture {
  const { hidden: _hidden, ...rest } = fixture;
  return rest;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
