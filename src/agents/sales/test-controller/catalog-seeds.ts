import { seededFormat, seededPricingOption, seededProduct } from './catalog-fixtures.ts';
import { Refusal, type Answer, type Scope } from './scope.ts';
import { seed } from './seeds.ts';

/**
 * seed_product: a product of the sandbox account's catalog under the caller's product_id, which
 * its get_products lists (unless the fixture says `hidden: true`) and its create_media_buy buys
 * like any other (catalog-fixtures' seededProduct). An id the account's catalog already has is taken.
 */
export function seedProductScenario(scope: Scope): Promise<Answer> {
  const { params, account, options } = scope;
  const id = params['product_id'] as string;
  return seed(scope, { kind: 'product', entityId: id }, `Product ${id}`, async (tx, fixture) => {
    const offering = await options.shelf(tx, account);
    if (offering.products.some((p) => p.product_id === id)) return false;
    seededProduct(id, fixture, offering, offering.formats);
    return true;
  });
}

/**
 * seed_pricing_option: a pricing option added to a product of the sandbox account's catalog, a
 * seeded one or the seller's own (for this account only); a product it does not have is
 * INVALID_PARAMS, as the protocol asks of a child seeded before its parent.
 */
export function seedPricingOptionScenario(scope: Scope): Promise<Answer> {
  const { params, account, options } = scope;
  const productId = params['product_id'] as string;
  const id = params['pricing_option_id'] as string;
  return seed(
    scope,
    { kind: 'pricing_option', parent: productId, entityId: id },
    `Pricing option ${id} of product ${productId}`,
    async (tx, fixture) => {
      const product = (await options.shelf(tx, account)).products.find((p) => p.product_id === productId);
      if (!product)
        throw new Refusal(
          'INVALID_PARAMS',
          `Account ${account.account_id} has no product ${productId}; seed it with seed_product first.`,
        );
      seededPricingOption(id, fixture, product);
      return true;
    },
  );
}

/**
 * seed_creative_format: a creative format of the sandbox account, defined by this sales agent:
 * list_creative_formats lists it, sync_creatives and the account's buys take creatives of it, and
 * seeded products may name it (catalog-fixtures' seededFormat).
 */
export function seedCreativeFormatScenario(scope: Scope): Promise<Answer> {
  const { params, account, options } = scope;
  const id = params['format_id'] as string;
  return seed(scope, { kind: 'creative_format', entityId: id }, `Creative format ${id}`, async (tx, fixture) => {
    const offering = await options.shelf(tx, account);
    if (offering.seededFormats.some((f) => f.format_id.id === id)) return false;
    seededFormat(id, fixture, offering, options.agentUrl());
    return true;
  });
}
